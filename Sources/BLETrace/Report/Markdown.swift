/// `analyze --format markdown`: a self-contained report for a GitHub or Jira ticket. Header, findings
/// first, the device table, then per connection its parameters, pairing, GATT tree with values, and a
/// timeline excerpt. Events are kept only as excerpt lines (bounded), the rest comes from the layers and
/// the summary at the end.
public final class MarkdownRenderer: EventSink, RedactableOutput {
    let out: OutputWriter
    /// The analysis layers (ATT, SMP, activity log), set after the analyzer is made.
    public var layers: [AnalysisLayer] = []
    /// `--redact`: applied to each timeline line as it is made, and to every line written (the summary arrives
    /// redacted already, but the GATT tree comes straight from the layers).
    public var redactor: Redactor?
    /// Timeline lines kept per connection: the first `head` and the last `tail`.
    public var head = 30
    public var tail = 5

    /// Lines kept for one excerpt, each with its position among the excerpt's events.
    struct Excerpt {
        var kept: [(n: Int, line: String)] = []
        var last: [(n: Int, line: String)] = []
        var total = 0
        var marked = 0
    }
    /// Beyond the first lines, events worth seeing (errors, failures, malformed packets) are kept too.
    public var maxMarked = 20
    /// The pipeline, for the connections as decoded (the summary's may be redacted copies).
    public weak var pipeline: Pipeline?
    var excerpts: [Int: Excerpt] = [:]
    var outside = Excerpt()
    /// Relative times count from here: the first event's time unless set (filters set the first record's).
    public var origin: Timestamp?
    var eventsSeen = 0
    let mermaid = MermaidSequences()

    public init(out: OutputWriter) { self.out = out }

    public func begin(_ capture: CaptureInfo) {}

    public func event(_ e: TraceEvent) {
        eventsSeen += 1
        mermaid.event(e, redactor: redactor)
        if origin == nil { origin = e.timestamp }
        let line = MarkdownRenderer.timelineLine(e, origin: origin!, redactor: redactor)
        let important = e.malformed != nil || e.summary.contains("Error Response") || e.summary.contains("[unanswered")
            || e.summary.contains("Pairing Failed") || e.summary.hasPrefix("Disconnection Complete") || e.summary.contains("failed")
        func keep(_ x: inout Excerpt) {
            let n = x.total
            x.total += 1
            if x.kept.count < head { x.kept.append((n, line)); return }
            if important && x.marked < maxMarked {
                x.marked += 1
                x.kept.append((n, line))
                return
            }
            x.last.append((n, line))
            if x.last.count > tail { x.last.removeFirst() }
        }
        if let c = e.connection { keep(&excerpts[c, default: Excerpt()]) } else { keep(&outside) }
    }

    static func timelineLine(_ e: TraceEvent, origin: Timestamp, redactor: Redactor? = nil) -> String {
        TextRenderer.plainLine(e, origin: origin, redactor: redactor).replacingAll("`", with: "'")
    }

    var lines: [String] = []
    func put(_ s: String = "") { lines.append(s) }

    static func md(_ s: String) -> String { DiffRender.md(s) }
    static func code(_ s: String) -> String { "`" + s.replacingAll("`", with: "'") + "`" }

    public func end(_ summary: Summary) {
        lines = []
        header(summary)
        findings(summary)
        devices(summary)
        for c in summary.connections { connection(c, summary) }
        if outside.total > 0 {
            put("## Timeline outside connections")
            put()
            excerpt(outside)
        }
        if !summary.warnings.isEmpty {
            put("## Warnings")
            put()
            for w in summary.warnings { put("- " + MarkdownRenderer.md(w)) }
            put()
        }
        put("---")
        put("*Report by bletrace \(BLETraceVersion.string).*")
        for l in lines {
            out.write(redactor?.redact(l) ?? l)
            out.write(byte: 0x0A)
        }
        out.flush()
    }

    func section(_ name: String) -> Fields? {
        summary?.sections.first(where: { $0.name == name })?.value.objectValue
    }
    var summary: Summary?

    func header(_ s: Summary) {
        summary = s
        let file = s.capture.path.split(separator: "/").last.map(String.init) ?? s.capture.path
        put("# bletrace report: \(MarkdownRenderer.md(file))")
        put()
        put("| Capture | |")
        put("|---|---|")
        put("| File | \(MarkdownRenderer.code(s.capture.path)) |")
        var format = s.capture.format.rawValue
        if s.capture.format != .packetLogger { format += ", link type \(s.capture.linkType) (\(LinkType.name(s.capture.linkType)))" }
        if !s.capture.containers.isEmpty { format += ", in " + s.capture.containers.joined(separator: " › ") }
        put("| Format | \(MarkdownRenderer.md(format)) |")
        if let a = s.stats.first, let b = s.stats.last {
            put("| Time span | \(a.iso8601) to \(b.iso8601) (\(Fmt.seconds(micros: b.micros - a.micros)) s) |")
        }
        var records = "\(s.stats.records)"
        if s.stats.malformed > 0 { records += " (\(s.stats.malformed) malformed)" }
        if eventsSeen != s.stats.records { records += "; \(eventsSeen) shown after filters" }
        put("| Records | \(records) |")
        put("| Connections | \(s.connectionCount) |")
        if let d = section("devices"), let n = d["count"]?.intValue { put("| Devices | \(n) |") }
        if let e = s.error { put("| **Damaged** | \(MarkdownRenderer.md(e.description)) |") }
        put()
    }

    func findings(_ s: Summary) {
        put("## Findings")
        put()
        guard let f = section("findings"), let count = f["count"]?.intValue, count > 0, case let .list(list)? = f["list"] else {
            put("None: no ATT errors, unanswered requests, failed pairings, malformed packets or failure disconnects.")
            put()
            return
        }
        put("\(count) finding\(count == 1 ? "" : "s").")
        put()
        put("| Record | Connection | Kind | What |")
        put("|---:|---|---|---|")
        for case let .object(x) in list.prefix(200) {
            let kind = x["kind"]?.stringValue.flatMap { Finding.Kind(rawValue: $0)?.title } ?? ""
            put("| \(x["record"]?.intValue ?? 0) | \(x["connection"]?.intValue.map { "#\($0)" } ?? "") | \(kind) | \(MarkdownRenderer.md(x["text"]?.stringValue ?? "")) |")
        }
        if count > 200 { put(); put("… and \(count - 200) more (see the JSON summary).") }
        put()
    }

    func devices(_ s: Summary) {
        guard let d = section("devices"), case let .list(list)? = d["devices"], !list.isEmpty else { return }
        put("## Devices")
        put()
        put("| Address | Type | Name | Reports | RSSI min/mean/max | Services | Connections |")
        put("|---|---|---|---:|---|---|---|")
        func strings(_ v: FieldValue?) -> [String] {
            guard case let .list(l)? = v else { return [] }
            return l.compactMap { $0.stringValue }
        }
        for case let .object(x) in list.prefix(100) {
            var rssi = ""
            if let r = x["rssi"]?.objectValue, let lo = r["min"]?.intValue, let hi = r["max"]?.intValue {
                var mean = ""
                if case let .double(m)? = r["mean"] { mean = Fmt.fixed(Int((m * 10).rounded()), scale: 10) }
                rssi = "\(lo) / \(mean) / \(hi) dBm"
            }
            var conns = ""
            if case let .list(c)? = x["connections"] { conns = c.compactMap { $0.intValue.map { "#\($0)" } }.joined(separator: ", ") }
            let names = strings(x["names"]).map { MarkdownRenderer.md($0) }.joined(separator: ", ")
            put("| \(MarkdownRenderer.code(x["address"]?.stringValue ?? "")) | \(x["address_type"]?.stringValue ?? "") | \(names) | \(x["reports"]?.intValue ?? 0) | \(rssi) | \(strings(x["services"]).joined(separator: " ")) | \(conns) |")
        }
        if list.count > 100 { put(); put("… and \(list.count - 100) more (`bletrace devices` lists them all).") }
        put()
    }

    var shownDatabases: [String: Int] = [:]

    func connection(_ c: Connection, _ s: Summary) {
        let peer = c.peer.map { "\($0)" + (c.peerType.map { " (\($0.name))" } ?? "") } ?? "peer not seen"
        put("## Connection #\(c.id): \(MarkdownRenderer.md(peer))")
        put()
        put("| Connection | #\(c.id) |")
        put("|---|---|")
        put("| Handle | \(Hex.hex(c.handle, width: 4)) |")
        if let r = c.role { put("| Local role | \(HCIText.role(r)) |") }
        if c.implicit { put("| Opened | before the capture began |") }
        else if let o = c.openedRecord { put("| Opened | record \(o)" + (c.openedAt.map { ", \($0.iso8601)" } ?? "") + " |") }
        let log = layers.compactMap { $0 as? ActivityLog }.first
        if let p = log?.initialParameters[c.id] {
            put("| Parameters at opening | interval \(Fmt.interval1250(p.interval)), latency \(p.latency), timeout \(Fmt.timeout10(p.timeout)) |")
        }
        if let setup = log?.setupMicros[c.id] { put("| Setup time | \(Fmt.fixed(Int(setup / 10), scale: 100)) ms from LE Create Connection |") }
        if let att = layers.compactMap({ $0 as? ATTLayer }).first, let m = att.seenMTU[c.id] { put("| ATT_MTU | \(m.mtu) |") }
        put("| Encrypted | \(c.encrypted ? "yes" : "no") |")
        if let r = c.closedRecord {
            put("| Closed | record \(r)" + (c.disconnectReason.map { ": " + MarkdownRenderer.md(HCIText.status($0)) + " (\(Hex.hex($0, width: 2)))" } ?? "") + " |")
        } else {
            put("| Closed | still open at the end of the capture |")
        }
        put()
        if !c.updates.isEmpty {
            put("**Parameter updates**")
            put()
            put("| Record | Interval | Latency | Timeout |")
            put("|---:|---|---:|---|")
            for u in c.updates { put("| \(u.record) | \(Fmt.interval1250(u.interval)) | \(u.latency) | \(Fmt.timeout10(u.timeout)) |") }
            put()
        }
        if let smp = layers.compactMap({ $0 as? SMPLayer }).first {
            let attempts = smp.attempts.filter { $0.connection == c.id }
            if !attempts.isEmpty {
                put("### Pairing")
                put()
                for a in attempts { put("- " + MarkdownRenderer.md(a.text)) }
                put()
            }
        }
        if let att = layers.compactMap({ $0 as? ATTLayer }).first {
            var original = c
            if let p = pipeline, let o = p.connections.connection(id: c.id) { original = o }
            let peerKey = ATTLayer.deviceKey(original)
            var servers = [peerKey]
            if log?.steps[c.id]?.contains(where: { $0.fromPeer }) == true { servers.append("local") }
            for key in servers {
                guard let db = att.databases[key], !db.isEmpty else { continue }
                let title = key == "local" ? "GATT database of the local host (served to the peer)" : "GATT database of \(MarkdownRenderer.code(key))"
                put("### \(title)")
                put()
                if let first = shownDatabases[key] {
                    put("As shown for connection #\(first); values below are this connection's.")
                    put()
                }
                gattTree(db, server: key, log: log, values: true)
                if shownDatabases[key] == nil { shownDatabases[key] = c.id }
                put()
            }
        }
        for l in mermaid.lines(connection: c.id, peer: c.peer.map { "\($0)" } ?? "") { put(l) }
        if let x = excerpts[c.id] {
            put("### Timeline excerpt")
            put()
            excerpt(x)
        }
    }

    func gattTree(_ source: GATTDatabase, server: String, log: ActivityLog?, values: Bool) {
        let db = source
        let paths = GATTPaths(db)
        let tracks = log?.values[server] ?? [:]
        for e in paths.entries {
            let depth = e.path.split(separator: "/").count - 1
            // Four spaces per level: nested lists for every Markdown renderer, not only GitHub's.
            let indent = String(repeating: "    ", count: depth)
            let name = MarkdownRenderer.md(GATTPaths.leafLabel(e.path))
            let uuid = e.path.split(separator: "/").last.map(String.init) ?? ""
            switch e.kind {
            case .service:
                put("\(indent)- **\(name)** \(MarkdownRenderer.code(uuid)) (\(Hex.hex(e.handle, width: 4))–\(Hex.hex(e.second ?? e.handle, width: 4)))" + (e.primary == false ? ", secondary" : ""))
            case .include:
                put("\(indent)- \(name) (\(Hex.hex(e.handle, width: 4)))")
            case .characteristic:
                let vh = e.second ?? e.handle
                var line = "\(indent)- \(name) \(MarkdownRenderer.code(uuid)) (\(Hex.hex(vh, width: 4)))"
                if let p = e.properties { line += " [\(ATTNames.properties(p).joined(separator: ", "))]" }
                if let t = tracks[vh] { line += valueText(t) }
                put(line)
                if let t = tracks[vh], t.notifications > 1 {
                    let shown = t.history.suffix(8)
                    put("\(indent)    - \(t.notifications) notifications; " + (t.notifications > shown.count ? "last \(shown.count): " : "")
                        + shown.map { MarkdownRenderer.code($0.text) + " (record \($0.record))" }.joined(separator: ", "))
                }
            case .descriptor:
                var line = "\(indent)- \(name) \(MarkdownRenderer.code(uuid)) (\(Hex.hex(e.handle, width: 4)))"
                if let t = tracks[e.handle] { line += valueText(t) }
                put(line)
            }
        }
        _ = db.isEmpty
    }

    func valueText(_ t: ActivityLog.ValueTrack) -> String {
        let how = t.latest.opcode == 0x1B || t.latest.opcode == 0x1D || t.latest.opcode == 0x23 ? "notified" : "read"
        return ": \(MarkdownRenderer.code(t.latest.text)) (\(how), record \(t.latest.record))"
    }

    func excerpt(_ x: Excerpt) {
        put("```text")
        var next = 0
        for (n, l) in (x.kept + x.last).sorted(by: { $0.n < $1.n }) where n >= next {
            let skipped = n - next
            if skipped > 0 { put("        … \(skipped) more event\(skipped == 1 ? "" : "s") …") }
            put(l)
            next = n + 1
        }
        if x.total > next { put("        … \(x.total - next) more event\(x.total - next == 1 ? "" : "s") …") }
        put("```")
        put()
    }
}
