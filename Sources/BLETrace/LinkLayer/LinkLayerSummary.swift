extension LinkLayerDecoder {
    /// The `link_layer` summary section.
    func summary() -> SummarySection? {
        guard stats.packets > 0 else { return nil }
        var f = Fields()
        f.add("packets", stats.packets)
        f.add("advertising", stats.advertising)
        f.add("data", stats.data)
        f.add("control", stats.control)
        f.add("empty", stats.empty)
        f.add("crc_bad", stats.crcBad)
        f.add("crc_bad_records", .list(stats.crcBadRecords.map { .int($0) }))
        f.add("crc_unchecked", stats.crcUnchecked)
        f.add("retransmissions", stats.retransmissions)
        f.add("encrypted", stats.encrypted)
        f.add("direction_inferred", stats.directionInferred)
        var list: [FieldValue] = []
        var text = ["  Link layer:  \(stats.packets) packets (\(stats.advertising) advertising, \(stats.data) data), \(stats.crcBad) with bad CRC, \(stats.retransmissions) retransmissions, \(stats.encrypted) encrypted"]
        for l in linkOrder where l.connectRecord != nil || l.packets > 0 {
            var c = Fields()
            c.add("access_address", Int(l.accessAddress))
            if let h = l.handle { c.add("handle", Int(h)) }
            if let conn = l.connection { c.add("connection", conn.id) }
            if let a = l.central { c.add("central", a.description); c.add("central_address_type", l.centralType?.name ?? "") }
            if let a = l.peripheral { c.add("peripheral", a.description); c.add("peripheral_address_type", l.peripheralType?.name ?? "") }
            c.add("connect_record", l.connectRecord.map { .int($0) } ?? .null)
            if let v = l.interval { c.add("interval", v) }
            if let v = l.latency { c.add("latency", v) }
            if let v = l.timeout { c.add("timeout", v) }
            c.add("packets", l.packets)
            c.add("crc_bad", l.crcBad)
            c.add("retransmissions", l.retransmissions)
            c.add("empty", l.empty)
            c.add("more_data", l.moreData)
            if l.maps.current != nil { c.add("channel_map", .object(l.maps.fields)) }
            if let ch = l.channels { c.add("channels", ChannelCounts.fields(ch)) }
            if l.events.seen > 0 { c.add("events", .object(LinkLayerDecoder.eventFields(l))) }
            c.add("encryption_record", l.encryptionRecord.map { .int($0) } ?? .null)
            if l.plaintextAfterEncryption { c.add("decrypted_capture", true) }
            c.add("terminated_record", l.terminatedRecord.map { .int($0) } ?? .null)
            if let reason = l.terminateReason { c.add("reason", Int(reason)); c.add("reason_name", HCIText.status(reason)) }
            list.append(.object(c))
            if list.count <= 50 {
                var line = "    AA \(Hex.hex(l.accessAddress, width: 8))"
                if let a = l.central, let p = l.peripheral { line += ": \(a) → \(p)" }
                line += ", \(l.packets) packets"
                if l.retransmissions > 0 { line += " (\(l.retransmissions) retransmitted)" }
                if let rec = l.connectRecord { line += ", CONNECT_IND at record \(rec)" }
                if let rec = l.encryptionRecord { line += ", encrypted from record \(rec)" }
                if let rec = l.terminatedRecord { line += ", terminated at record \(rec)" + (l.terminateReason.map { " (\(HCIText.status($0)))" } ?? "") }
                text.append(line)
                if let ch = l.channels, let worst = ChannelCounts.worstText(ch) { text.append("      " + worst) }
                if l.events.seen > 0 { text.append("      " + eventText(l)) }
                if let m = l.maps.text { text.append("      " + m) }
            }
        }
        f.add("connections", .list(list))
        if stats.channels.contains(where: { $0.packets > 0 }) {
            f.add("channels", ChannelCounts.fields(stats.channels))
            text.insert("    channels: " + ChannelCounts.overview(stats.channels), at: 1)
        }
        return SummarySection(name: "link_layer", value: .object(f), text: text)
    }
}

extension LinkLayerDecoder {
    static func eventFields(_ l: Link) -> Fields {
        let ev = l.events
        var f = Fields()
        f.add("seen", ev.seen)
        f.add("missed", ev.missed(interval: l.interval).map { .int($0) } ?? .null)
        f.add("with_data", ev.eventsWithData)
        let span = max(ev.lastStart - (ev.firstStart ?? ev.lastStart), 1_000_000)
        f.add("payload_bps", .object(["central_to_peripheral": .int(ev.payloadBytes[0] * 8 * 1_000_000 / Int(span)),
                                      "peripheral_to_central": .int(ev.payloadBytes[1] * 8 * 1_000_000 / Int(span))]))
        f.add("longest_silence_us", .object(["central": .int(Int(ev.longestSilence[0])), "peripheral": .int(Int(ev.longestSilence[1]))]))
        if let t = l.timeout { f.add("supervision_timeout_us", t * 10_000) }
        f.add("empty_pdus", l.empty)
        f.add("more_data_pdus", l.moreData)
        f.add("retransmissions", l.retransmissions)
        return f
    }

    /// "events: 1203 seen, 17 missed, 35 % with data; air payload …; longest silence …".
    func eventText(_ l: Link) -> String {
        let ev = l.events
        var s = "events: \(ev.seen) seen"
        if let m = ev.missed(interval: l.interval) { s += ", \(m) missed" }
        s += ", \(ev.eventsWithData * 100 / max(ev.seen, 1)) % with data"
        let span = max(ev.lastStart - (ev.firstStart ?? ev.lastStart), 1_000_000)
        s += "; air payload \(LinkStatistics.rate(ev.payloadBytes[0] * 8 * 1_000_000 / Int(span))) central → peripheral, "
            + "\(LinkStatistics.rate(ev.payloadBytes[1] * 8 * 1_000_000 / Int(span))) back"
        s += "; longest silence central \(Fmt.seconds(micros: ev.longestSilence[0])) s, peripheral \(Fmt.seconds(micros: ev.longestSilence[1])) s"
        if let t = l.timeout { s += " (supervision timeout \(Fmt.timeout10(t)))" }
        return s
    }
}

/// Adds the `link_layer` section to the summary of sniffer captures.
public final class LinkLayerSummary: AnalysisLayer {
    weak var pipeline: Pipeline?
    public init() {}
    public func attach(to pipeline: Pipeline) { self.pipeline = pipeline }
    public func summary() -> SummarySection? { pipeline?.linkLayerIfUsed?.summary() }
}
