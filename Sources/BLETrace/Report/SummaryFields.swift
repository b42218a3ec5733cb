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
        FieldsBuilder.object { writeConnection(c, sniffed: sniffed, into: &$0) }
    }

    /// A connection's members, written against any sink: JSON puts them straight into the output, a
    /// `FieldsBuilder` makes `connectionFields`.
    static func writeConnection<S: FieldSink>(_ c: Connection, sniffed: Bool, into f: inout S) {
        f.field("id", c.id)
        f.field("handle", Int(c.handle))
        f.key("peer")
        if let p = c.peer { f.address(p) } else { f.null() }
        if let t = c.peerType { f.field("peer_address_type", t.name) }
        if sniffed {
            f.field("sniffed", true)
            if c.role != nil { f.field("peer_role", "peripheral") }
        } else if let r = c.role {
            f.field("role", HCIText.role(r))
        }
        f.field("transport", !c.transportKnown ? "unknown" : c.le ? "le" : "br_edr")
        if let t = c.linkType { f.field("link_type", ClassicLinkText.name(t)) }
        if let n = c.name { f.field("name", n) }
        if let p = c.pairing { f.key("pairing"); f.value(.object(p.fields)) }
        if let l = c.iso { f.key("iso"); f.value(ISOConnectionText.fields(l)) }
        if !c.profiles.isEmpty {
            f.objects("profiles", c.profiles) { f, p in
                f.field("psm", Int(p))
                if let n = LESignalingNames.psm(p) { f.field("name", n) }
            }
        }
        if let v = c.interval { f.field("interval", v) }
        if let v = c.latency { f.field("latency", v) }
        if let v = c.timeout { f.field("timeout", v) }
        if let o = c.opening, !c.updates.isEmpty {
            f.object("opening") { f in
                f.field("interval", o.interval)
                f.field("latency", o.latency)
                f.field("timeout", o.timeout)
            }
        }
        f.field("opened_record", orNull: c.openedRecord)
        f.field("opened", orNull: c.openedAt?.iso8601)
        f.field("closed_record", orNull: c.closedRecord)
        f.field("closed", orNull: c.closedAt?.iso8601)
        if let r = c.disconnectReason {
            f.field("disconnect_reason", Int(r))
            f.field("disconnect_reason_name", HCIText.status(r))
        }
        f.field("encrypted", c.encrypted)
        f.objects("updates", c.updates) { f, u in
            f.field("record", u.record)
            f.field("interval", u.interval)
            f.field("latency", u.latency)
            f.field("timeout", u.timeout)
        }
        f.field("implicit", c.implicit)
    }

    /// A member of the summary object: a value, or a list whose items are built one at a time.
    public enum Member {
        case value(() -> FieldValue)
        case list(count: Int, item: (Int) -> FieldValue)
        /// An object whose members are written against a sink: straight into JSON output, or into a tree.
        case written(SummaryWriter)
        /// A list of such objects, written one at a time.
        case writtenList(count: Int, item: (Int) -> SummaryWriter)

        public var value: FieldValue {
            switch self {
            case let .value(make): return make()
            case let .list(count, item): return .list((0..<count).map(item))
            case let .written(w): return w.value
            case let .writtenList(count, item): return .list((0..<count).map { item($0).value })
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
        let isSniffed = sniffed(s)
        m.append(("connections", .writtenList(count: s.connections.count) { i in
            let c = s.connections[i]
            return SummaryWriter(json: { writeConnection(c, sniffed: isSniffed, into: &$0) }, tree: { writeConnection(c, sniffed: isSniffed, into: &$0) })
        }))
        if s.connectionCount > s.connections.count {
            m.append(("connections_unlisted", .value { .int(s.connectionCount - s.connections.count) }))
        }
        for section in s.sections {
            if let w = section.writer { m.append((section.name, .written(w))) } else { m.append((section.name, .value { section.value })) }
        }
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
    static func peerNames(_ s: Summary, only: Set<BDAddr>? = nil) -> [String: String] { s.peerNames(only) }

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
        // Names only for the listed connections' peers that have no name of their own.
        let names = s.connections.contains { $0.le && $0.peer != nil }
            ? peerNames(s, only: Set(s.connections.prefix(listed).compactMap { $0.name == nil ? $0.peer : nil })) : [:]
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
