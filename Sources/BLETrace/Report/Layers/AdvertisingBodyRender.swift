/// Text and JSON of `AdvertisingBody`: the same text and `hci`/`adv` layers the advertising decoder used to build.
extension AdvertisingBody: LayerBody {
    public func writeText(_ e: TraceEvent, into b: inout TextBytes) {
        let sniffed = subevent == nil
        if let sub = subevent { b.append(string: HCIText.subeventName(sub)) } else { b.append(string: "LL") }
        // Counted by hand: `enumerated()` copies each report into its pair and destroys the original.
        var list = reports, next = 0
        while let r = list.next() {
            let index = next
            next += 1
            // A sniffed PDU's one report follows "LL" after a space.
            b.append(string: index == 0 ? (sniffed ? " " : ": ") : "; ")
            r.type.write(into: &b)
            b.append(UInt8(ascii: " "))
            r.address.write(into: &b)
            b.append(string: " (")
            r.addressType.write(into: &b)
            b.append(UInt8(ascii: ")"))
            if let rssi = r.rssi {
                b.append(string: " RSSI ")
                b.append(decimal: rssi)
                b.append(string: " dBm")
            }
            let o = outcome(index)
            switch o {
            case let .partial(have, fragments, _):
                b.append(string: ": partial data, fragment ")
                b.append(decimal: fragments)
                b.append(string: " (")
                b.append(decimal: have)
                b.append(string: " bytes so far), more to come")
                continue
            case let .complete(_, fragments, first):
                b.append(string: " [reassembled from ")
                b.append(decimal: fragments)
                b.append(string: " reports, records ")
                b.append(decimal: first)
                b.append(string: "–")
                b.append(decimal: e.record)
                b.append(UInt8(ascii: "]"))
            case .single:
                break
            }
            let data = AdvertisingBody.completeData(r, o)
            var ads = ADSequence(data)
            if ads.next() != nil {
                b.append(string: ": ")
                ADDescriptions.writeText(data, rssi: r.rssi, into: &b)
            }
            if r.truncated { b.append(string: " (truncated by the controller)") }
        }
    }

    public func writeLayers<S: FieldSink>(_ e: TraceEvent, into s: inout S) {
        if let sub = subevent {
            s.object("hci") { s in
                s.field("event", 0x3E)
                s.field("name", JSONNames.hciEvents[0x3E])
                s.field("subevent", Int(sub))
                s.field("subevent_name", JSONNames.leSubevents[Int(sub)])
            }
        }
        s.object("adv") { s in
            s.list("reports") { s in
                var list = reports, next = 0
                while let r = list.next() {
                    s.beginObject()
                    writeReport(r, outcome(next), into: &s)
                    next += 1
                    s.endObject()
                }
            }
        }
    }

    func writeReport<S: FieldSink>(_ r: AdvertisingReport, _ o: ExtendedAdvertisingReassembler.Outcome, into s: inout S) {
        // The type's name written where it goes (an extended type's was assembled in a String of its own).
        s.field("event_type") { r.type.write(into: &$0) }
        s.field("address", address: r.address)
        if let n = r.addressType.staticName { s.field("address_type", static: n) } else { s.field("address_type", r.addressType.name) }
        s.field("connectable", r.connectable)
        s.field("scannable", r.scannable)
        s.field("scan_response", r.scanResponse)
        if let rssi = r.rssi { s.field("rssi", rssi) }
        if let tx = r.txPower { s.field("tx_power", tx) }
        if let sid = r.sid { s.field("sid", sid) }
        if let da = r.directAddress { s.field("direct_address", address: da) }
        if r.incomplete { s.field("data_status", "incomplete, more data to come") }
        if r.truncated { s.field("data_status", "incomplete, truncated") }
        s.field("data", hex: r.data)
        switch o {
        case let .partial(have, fragments, first):
            s.object("reassembly") { s in
                s.field("fragments", fragments)
                s.field("have", have)
                s.field("first_record", first)
            }
            return
        case let .complete(data, fragments, first):
            s.object("reassembled") { s in
                s.field("fragments", fragments)
                s.field("length", data.count)
                s.field("first_record", first)
            }
            s.field("reassembled_data", hex: data)
        case .single:
            break
        }
        s.key("ad")
        let d = ADDescriptions.describeJSON(AdvertisingBody.completeData(r, o), rssi: r.rssi)
        s.value(d.fields, json: d.json ?? [])
    }
}

extension AdvertisingEventType {
    /// The type's name: "ADV_IND", "SCAN_RSP to ADV_IND", "extended connectable, scannable", "AUX_ADV_IND", …
    public var name: String {
        // Legacy types are a table's names: no bytes to assemble.
        if case let .legacy(t) = self { return HCIText.legacyAdvType(t) }
        var b = TextBytes(capacity: 64)
        write(into: &b)
        return b.string
    }

    static let extendedBits: [(UInt16, String)] = [(0x01, "connectable"), (0x02, "scannable"), (0x04, "directed"), (0x08, "scan response")]

    func write(into b: inout TextBytes) {
        switch self {
        case let .legacy(t):
            b.append(string: HCIText.legacyAdvType(t))
        case let .linkLayer(t, aux):
            b.append(string: LLAdvertisingPDU.typeName(t, secondary: true, auxType: aux < 0 ? nil : Int(aux)))
        case let .extended(type):
            if type & 0x10 != 0 {
                switch type & 0x1F {
                case 0x13: b.append(string: "ADV_IND")
                case 0x15: b.append(string: "ADV_DIRECT_IND")
                case 0x12: b.append(string: "ADV_SCAN_IND")
                case 0x10: b.append(string: "ADV_NONCONN_IND")
                case 0x1B: b.append(string: "SCAN_RSP to ADV_IND")
                case 0x1A: b.append(string: "SCAN_RSP to ADV_SCAN_IND")
                default:
                    b.append(string: "legacy ")
                    b.append(hex: UInt64(type), width: 4)
                }
                return
            }
            b.append(string: "extended")
            var first = true
            for (bit, part) in AdvertisingEventType.extendedBits where type & bit != 0 {
                b.append(string: first ? " " : ", ")
                b.append(string: part)
                first = false
            }
        }
    }
}
