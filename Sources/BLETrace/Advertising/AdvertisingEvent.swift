/// Turns HCI advertising reports into `adv` timeline events.
public enum Advertising {
    static func describe(_ d: HCIEventDecoder.Decoded, _ e: inout TraceEvent) {
        e.kind = .adv
        var reports: [FieldValue] = []
        var lines: [String] = []
        for r in d.reports {
            var f = Fields()
            f.add("event_type", r.eventType)
            f.add("address", r.address.description)
            f.add("address_type", r.addressType.name)
            f.add("connectable", r.connectable)
            f.add("scan_response", r.scanResponse)
            if let rssi = r.rssi { f.add("rssi", rssi) }
            if let tx = r.txPower { f.add("tx_power", tx) }
            if let sid = r.sid { f.add("sid", sid) }
            if let da = r.directAddress { f.add("direct_address", da.description) }
            if r.incomplete { f.add("data_status", "incomplete, more data to come") }
            if r.truncated { f.add("data_status", "incomplete, truncated") }
            f.add("data", hex: r.data)
            let ads = ADParser.parse(r.data)
            f.add("ad", ADParser.fields(ads))
            reports.append(.object(f))
            var line = "\(r.eventType) \(r.address) (\(r.addressType.name))"
            if let rssi = r.rssi { line += " RSSI \(rssi) dBm" }
            if !r.data.isEmpty { line += ": " + ADParser.summary(ads) }
            lines.append(line)
        }
        e.layers.append(("adv", ["reports": .list(reports)]))
        let name = d.subevent.map { HCIText.subeventName($0) } ?? "Advertising report"
        e.summary = lines.isEmpty ? name : "\(name): " + lines.joined(separator: "; ")
    }
}
