/// The summary as JSON fields and as text lines.
public enum SummaryRender {
    /// Items of a list the text summary shows; JSON has them all.
    public static let textListed = 50

    /// The line that ends a text list cut at `textListed`, if it was cut.
    static func more(_ count: Int) -> [String] {
        count > textListed ? ["    … and \(count - textListed) more (all of them are in the JSON summary)"] : []
    }

    /// A sniffer's capture: two devices seen from outside, no local host.
    static func sniffed(_ s: Summary) -> Bool { s.capture.format != .packetLogger && LinkType.isSniffer(s.capture.linkType) }

    public static func captureFields(_ s: Summary) -> Fields {
        var f = Fields()
        f.add("file", s.capture.path)
        f.add("format", s.capture.format.rawValue)
        if !s.capture.containers.isEmpty { f.add("containers", .list(s.capture.containers.map { .string($0) })) }
        f.add("linktype", s.capture.linkType)
        f.add("records", s.stats.records)
        f.add("first", s.stats.first.map { .string($0.iso8601) } ?? .null)
        f.add("last", s.stats.last.map { .string($0.iso8601) } ?? .null)
        return f
    }

    /// `sniffed`: the capture is a sniffer's, so the role is the peer's (the peripheral), not a local host's.
    public static func connectionFields(_ c: Connection, sniffed: Bool = false) -> Fields {
        var f = Fields()
        f.add("id", c.id)
        f.add("handle", Int(c.handle))
        f.add("peer", c.peer.map { .string($0.description) } ?? .null)
        if let t = c.peerType { f.add("peer_address_type", t.name) }
        if sniffed {
            f.add("sniffed", true)
            if c.role != nil { f.add("peer_role", "peripheral") }
        } else if let r = c.role {
            f.add("role", HCIText.role(r))
        }
        f.add("transport", !c.transportKnown ? "unknown" : c.le ? "le" : "br_edr")
        if let t = c.linkType { f.add("link_type", ClassicLinkText.name(t)) }
        if let n = c.name { f.add("name", n) }
        if let p = c.pairing { f.add("pairing", .object(p.fields)) }
        if let l = c.iso { f.add("iso", ISOConnectionText.fields(l)) }
        if !c.profiles.isEmpty {
            f.add("profiles", .list(c.profiles.map { p in
                var o: Fields = ["psm": .int(Int(p))]
                if let n = LESignalingNames.psm(p) { o.add("name", n) }
                return .object(o)
            }))
        }
        if let v = c.interval { f.add("interval", v) }
        if let v = c.latency { f.add("latency", v) }
        if let v = c.timeout { f.add("timeout", v) }
        if let o = c.opening, !c.updates.isEmpty {
            f.add("opening", .object(["interval": .int(o.interval), "latency": .int(o.latency), "timeout": .int(o.timeout)]))
        }
        f.add("opened_record", c.openedRecord.map { .int($0) } ?? .null)
        f.add("opened", c.openedAt.map { .string($0.iso8601) } ?? .null)
        f.add("closed_record", c.closedRecord.map { .int($0) } ?? .null)
        f.add("closed", c.closedAt.map { .string($0.iso8601) } ?? .null)
        if let r = c.disconnectReason {
            f.add("disconnect_reason", Int(r))
            f.add("disconnect_reason_name", HCIText.status(r))
        }
        f.add("encrypted", c.encrypted)
        f.add("updates", .list(c.updates.map {
            .object(["record": .int($0.record), "interval": .int($0.interval), "latency": .int($0.latency), "timeout": .int($0.timeout)])
        }))
        f.add("implicit", c.implicit)
        return f
    }

    /// A member of the summary object: a value, or a list whose items are built one at a time.
    public enum Member {
        case value(() -> FieldValue)
        case list(count: Int, item: (Int) -> FieldValue)

        public var value: FieldValue {
            switch self {
            case let .value(make): return make()
            case let .list(count, item): return .list((0..<count).map(item))
            }
        }
    }

    /// The summary object's members in order, each built only when read, so that a writer can stream a large
    /// summary instead of holding it whole.
    public static func summaryMembers(_ s: Summary) -> [(String, Member)] {
        var m: [(String, Member)] = []
        m.append(("records", .value { .int(s.stats.records) }))
        if let a = s.stats.first, let b = s.stats.last { m.append(("span_us", .value { .int(Int(b.micros - a.micros)) })) }
        m.append(("events_by_kind", .value {
            var kinds = Fields()
            for (k, v) in s.stats.kinds.sorted(by: { $0.key < $1.key }) { kinds.add(k, v) }
            return .object(kinds)
        }))
        m.append(("malformed", .value { .int(s.stats.malformed) }))
        m.append(("malformed_records", .value { .list(s.stats.malformedRecords.map { .int($0) }) }))
        m.append(("filtered", .value { .int(s.stats.filtered) }))
        m.append(("connections", .list(count: s.connections.count) { .object(connectionFields(s.connections[$0], sniffed: sniffed(s))) }))
        if s.connectionCount > s.connections.count {
            m.append(("connections_unlisted", .value { .int(s.connectionCount - s.connections.count) }))
        }
        for section in s.sections { m.append((section.name, .value { section.value })) }
        m.append(("warnings", .value { .list(s.warnings.map { .string($0) }) }))
        if let e = s.error {
            m.append(("error", .value { .string(e.description) }))
            m.append(("complete", .value { .bool(false) }))
        } else {
            m.append(("complete", .value { .bool(true) }))
        }
        return m
    }

    public static func summaryFields(_ s: Summary) -> Fields {
        var f = Fields()
        for (key, member) in summaryMembers(s) { f.add(key, member.value) }
        return f
    }

    /// A name for each peer address: the first name it advertised, else the Device Name its GATT server gave.
    static func peerNames(_ s: Summary) -> [String: String] { s.peerNames() }

    public static func text(_ s: Summary) -> [String] {
        var lines: [String] = []
        lines.append("Summary")
        let link = s.capture.format == .packetLogger ? "" : ", link type \(s.capture.linkType) (\(LinkType.name(s.capture.linkType)))"
        let inside = s.capture.containers.isEmpty ? "" : " in " + s.capture.containers.joined(separator: " › ")
        lines.append("  File:        \(s.capture.path) (\(s.capture.format.rawValue)\(link)\(inside))")
        if let a = s.stats.first, let b = s.stats.last {
            lines.append("  Records:     \(s.stats.records), \(a.iso8601) to \(b.iso8601) (\(Fmt.seconds(micros: b.micros - a.micros)) s)")
        } else {
            lines.append("  Records:     \(s.stats.records)")
        }
        // A damaged file says so before anything else: what follows covers only the records before the damage.
        if let e = s.error {
            lines.append("  Damaged:     reading stopped: \(e.description); everything below covers the \(s.stats.records) record\(s.stats.records == 1 ? "" : "s") before it")
        }
        // Diagnoses lead, right after what the file is, then the findings (the symptoms).
        for section in s.sections where section.name == "diagnoses" { lines.append(contentsOf: section.text) }
        for section in s.sections where section.name == "findings" {
            var text = section.text
            if s.error != nil, let first = text.first, first.hasPrefix(Findings.noneText) {
                text[0] = "  Findings:    none before the damage (the rest of the file was not read)"
            }
            lines.append(contentsOf: text)
        }
        let kinds = s.stats.kinds.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        if !kinds.isEmpty { lines.append("  Events:      \(kinds)") }
        if s.stats.malformed > 0 {
            let recs = s.stats.malformedRecords.prefix(10).map(String.init).joined(separator: ", ")
            lines.append("  Malformed:   \(s.stats.malformed) (records \(recs)\(s.stats.malformed > 10 ? ", …" : ""))")
        }
        if s.stats.filtered > 0 {
            let why = CaptureSource(format: s.capture.format, linkType: s.capture.linkType) == .snoopLog
                ? "payloads not logged" : "longer than its snapshot length"
            lines.append("  Filtered:    \(s.stats.filtered) record\(s.stats.filtered == 1 ? "" : "s") cut short by the capture (\(why))")
        }
        lines.append("  Connections: \(s.connectionCount)")
        // The text lists the first connections; JSON has them all.
        let listed = textListed
        let names = s.connections.contains { $0.le && $0.peer != nil } ? peerNames(s) : [:]
        for c in s.connections.prefix(listed) {
            var line = "    #\(c.id) handle \(Hex.hex(c.handle, width: 4))"
            if let p = c.peer {
                line += " \(p)" + (c.peerType.map { " (\($0.name))" } ?? "")
                if c.name == nil, let n = names[p.description] { line += " \"\(n)\"" }
            }
            if let r = c.role { line += sniffed(s) ? ", peer is the peripheral (sniffed)" : ", local \(HCIText.role(r))" }
            if !c.transportKnown {
                line += ", transport unknown"
            } else if !c.le {
                line += ", BR/EDR" + (c.linkType.map { $0 == 1 ? "" : " " + ClassicLinkText.name($0) } ?? "")
            }
            if let n = c.name { line += " \"\(n)\"" }
            if let l = c.iso { line += ISOConnectionText.text(l) }
            if c.implicit { line += ", already open when the capture began" }
            if let i = c.interval, let l = c.latency, let t = c.timeout {
                let now = "interval \(Fmt.interval1250(i)), latency \(l), timeout \(Fmt.timeout10(t))"
                if let o = c.opening, let last = c.updates.last {
                    // After an update the line says which values were the opening ones and which the last.
                    line += ", opened with interval \(Fmt.interval1250(o.interval)), latency \(o.latency), timeout \(Fmt.timeout10(o.timeout))"
                        + ", \(c.updates.count) update\(c.updates.count == 1 ? "" : "s"), last at record \(last.record): " + now
                } else if !c.updates.isEmpty {
                    line += ", \(c.updates.count) update\(c.updates.count == 1 ? "" : "s"), last at record \(c.updates[c.updates.count - 1].record): " + now
                } else {
                    line += ", " + now
                }
            }
            if c.encrypted { line += ", encrypted" }
            if !c.profiles.isEmpty {
                line += ", profiles " + c.profiles.map { LESignalingNames.psm($0) ?? Hex.hex($0, width: 4) }.joined(separator: ", ")
            }
            if let p = c.pairing { line += ", " + p.text }
            if let o = c.openedRecord { line += ", opened at record \(o)" }
            if let r = c.closedRecord {
                line += ", closed at record \(r)"
                if let reason = c.disconnectReason { line += ": \(HCIText.status(reason))" }
            }
            lines.append(line)
        }
        if s.connectionCount > listed {
            let unlisted = s.connectionCount - s.connections.count
            lines.append("    … and \(s.connectionCount - min(listed, s.connections.count)) more ("
                + (unlisted == 0 ? "all of them are in the JSON summary)" : "the JSON summary lists the first \(s.connections.count))"))
        }
        for section in s.sections where section.name != "findings" && section.name != "diagnoses" { lines.append(contentsOf: section.text) }
        for w in s.warnings { lines.append("  Warning: \(w)") }
        return lines
    }
}
