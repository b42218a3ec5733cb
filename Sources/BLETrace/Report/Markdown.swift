/// `analyze --format markdown`: a self-contained report for a GitHub or Jira ticket. Header, findings
/// first, the device table, then per connection its parameters, pairing, the GATT tree of each device (once,
/// with values) and a timeline excerpt. Events are kept only as excerpt lines (bounded), the rest comes from
/// the layers and the summary at the end. The document is a list of `ReportSection`s that `budget` fits into
/// a number of characters; filters narrow every section to the connections, devices and findings of the
/// events they selected.
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
    /// The size budget of the whole document (`--max-chars`).
    public var budget = ReportBudget()
    /// `--summary-only`: no timeline excerpts.
    public var showEvents = true
    /// Set when filters chose the events: sections are then limited to what the shown events concern.
    public var filtered = false
    /// Sections other renderers add (a sequence diagram per connection), placed after the connection's own.
    public var extraSections: (_ connection: Int) -> [ReportSection] = { _ in [] }

    /// Lines kept for one excerpt, each with its position among the excerpt's events.
    struct Excerpt {
        var head: [(n: Int, line: String)] = []
        var marked: [(n: Int, line: String)] = []
        var last: [(n: Int, line: String)] = []
        var total = 0
    }
    /// Beyond the first lines, events worth seeing (errors, failures, malformed packets) are kept too.
    public var maxMarked = 20
    /// The pipeline, for the connections as decoded (the summary's may be redacted copies).
    public weak var pipeline: Pipeline?
    var excerpts: [Int: Excerpt] = [:]
    var outside = Excerpt()
    /// With filters: the connections, records and advertisers of the events shown.
    var shownConnections = Set<Int>()
    var shownRecords = Set<Int>()
    var shownAdvertisers = Set<BDAddr>()
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
        if let c = e.connection { shownConnections.insert(c) }
        if filtered {
            shownRecords.insert(e.record)
            if case let .adv(adv) = e.body { for r in adv.reports { shownAdvertisers.insert(r.address) } }
        }
        guard showEvents else { return }
        let line = MarkdownRenderer.timelineLine(e, origin: origin!, redactor: redactor)
        let important = e.malformed != nil || e.summary.contains("Error Response") || e.summary.contains("[unanswered")
            || e.summary.contains("Pairing Failed") || e.summary.hasPrefix("Disconnection Complete") || e.summary.contains("failed")
        func keep(_ x: inout Excerpt) {
            let n = x.total
            x.total += 1
            if x.head.count < head { x.head.append((n, line)); return }
            if important && x.marked.count < maxMarked {
                x.marked.append((n, line))
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
    /// The lines put since the last call, as they were, and a fresh start.
    func take() -> [String] {
        defer { lines = [] }
        return lines
    }

    static func md(_ s: String) -> String { DiffRender.md(s) }
    static func code(_ s: String) -> String { "`" + s.replacingAll("`", with: "'") + "`" }

    public func end(_ summary: Summary) {
        let document = budget.render(sections(summary), file: summary.capture.path)
        for l in document {
            out.write(SafeText.escaped(redactor?.redact(l) ?? l))
            out.write(byte: 0x0A)
        }
        out.flush()
    }

    /// The document's sections in order, each in its full form and the shorter ones the budget may choose.
    public func sections(_ summary: Summary) -> [ReportSection] {
        lines = []
        var all: [ReportSection] = []
        header(summary)
        all.append(ReportSection(kind: .header, lines: take()))
        all.append(diagnoses(summary))
        all.append(findings(summary))
        if let d = devices(summary) { all.append(d) }
        let shown = summary.connections.filter { !filtered || shownConnections.contains($0.id) }
        for c in shown {
            all.append(contentsOf: connection(c, summary))
            let diagram = mermaid.lines(connection: c.id, peer: c.peer.map { "\($0)" } ?? "")
            if showEvents, !diagram.isEmpty {
                all.append(ReportSection(kind: .diagram, connection: c.id, priority: ReportSection.Priority.diagram, forms: [diagram, []]))
            }
            all.append(contentsOf: extraSections(c.id))
            if showEvents, let x = excerpts[c.id] {
                all.append(excerptSection(x, title: "### Timeline excerpt", connection: c.id, file: summary.capture.path))
            }
        }
        if filtered && shown.count < summary.connections.count {
            let left = summary.connections.count - shown.count
            put("*\(left) connection\(left == 1 ? "" : "s") without events selected by the filters \(left == 1 ? "is" : "are") left out.*")
            put()
            all.append(ReportSection(kind: .connection, lines: take()))
        }
        if showEvents && outside.total > 0 {
            all.append(excerptSection(outside, title: "## Timeline outside connections", connection: nil, file: summary.capture.path))
        }
        if !summary.warnings.isEmpty {
            put("## Warnings")
            put()
            for w in summary.warnings { put("- " + MarkdownRenderer.md(w)) }
            put()
            all.append(ReportSection(kind: .warnings, lines: take()))
        }
        put("---")
        put("*Report by bletrace \(BLETraceVersion.string).*")
        all.append(ReportSection(kind: .footer, lines: take()))
        return all
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
        put("| File | \(SafeText.markdownCellCode(s.capture.path)) |")
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
        var connections = "\(s.connectionCount)"
        if filtered { connections += "; \(s.connections.filter { shownConnections.contains($0.id) }.count) shown after filters" }
        put("| Connections | \(connections) |")
        if let d = section("devices"), let n = d["count"]?.intValue { put("| Devices | \(n) |") }
        if let e = s.error { put("| **Damaged** | \(MarkdownRenderer.md(e.description)) |") }
        put()
    }

    /// With filters, a finding is shown when its record or its connection was.
    func shows(finding x: Fields) -> Bool {
        guard filtered else { return true }
        if let r = x["record"]?.intValue, shownRecords.contains(r) { return true }
        if let c = x["connection"]?.intValue, shownConnections.contains(c) { return true }
        return false
    }

    func findings(_ s: Summary) -> ReportSection {
        put("## Findings")
        put()
        guard let f = section("findings"), case let .list(all)? = f["list"] else {
            put("None: no ATT errors, unanswered requests, failed pairings, malformed packets or failure disconnects.")
            put()
            return ReportSection(kind: .findings, lines: take())
        }
        let list = all.filter { $0.objectValue.map(shows(finding:)) ?? false }
        // The count covers every finding, also those past the list's cap.
        let count = filtered ? list.count : (f["count"]?.intValue ?? list.count)
        guard count > 0 else {
            put(filtered ? "None among the events selected by the filters." : "None: no ATT errors, unanswered requests, failed pairings, malformed packets or failure disconnects.")
            put()
            return ReportSection(kind: .findings, lines: take())
        }
        let title = take()
        // Unfiltered, identical findings (same kind and text on the same peer) are one row with a count.
        if !filtered, case let .list(groups)? = f["groups"], groups.count < list.count {
            func grouped(_ n: Int) -> [String] {
                put("\(count) finding\(count == 1 ? "" : "s"), \(groups.count) distinct.")
                put()
                put("| Records | Connections | Kind | What |")
                put("|---:|---|---|---|")
                for case let .object(x) in groups.prefix(n) {
                    let kind = x["kind"]?.stringValue.flatMap { Finding.Kind(rawValue: $0)?.title } ?? ""
                    let a = x["first_record"]?.intValue ?? 0, b = x["last_record"]?.intValue ?? 0, c = x["count"]?.intValue ?? 1
                    let records = c == 1 ? "\(a)" : "\(a)–\(b) (\(c)×)"
                    var conns: [String] = []
                    if case let .list(l)? = x["connections"] { conns = l.compactMap { $0.intValue.map { "#\($0)" } } }
                    put("| \(records) | \(conns.joined(separator: ", ")) | \(kind) | \(MarkdownRenderer.md(x["text"]?.stringValue ?? "")) |")
                }
                if groups.count > n { put(); put("… and \(groups.count - n) more (see the JSON summary).") }
                put()
                return title + take()
            }
            return ReportSection(kind: .findings, priority: ReportSection.Priority.findings, forms: [grouped(200), grouped(20)])
        }
        func table(_ n: Int) -> [String] {
            put("\(count) finding\(count == 1 ? "" : "s")" + (filtered ? " among the events selected by the filters." : "."))
            put()
            put("| Record | Connection | Kind | What |")
            put("|---:|---|---|---|")
            for case let .object(x) in list.prefix(n) {
                let kind = x["kind"]?.stringValue.flatMap { Finding.Kind(rawValue: $0)?.title } ?? ""
                put("| \(x["record"]?.intValue ?? 0) | \(x["connection"]?.intValue.map { "#\($0)" } ?? "") | \(kind) | \(MarkdownRenderer.md(x["text"]?.stringValue ?? "")) |")
            }
            if count > n { put(); put("… and \(count - n) more (see the JSON summary).") }
            put()
            return title + take()
        }
        return ReportSection(kind: .findings, priority: ReportSection.Priority.findings, forms: [table(200), table(20)])
    }

    func devices(_ s: Summary) -> ReportSection? {
        guard let d = section("devices"), case let .list(all)? = d["devices"] else { return nil }
        var list = all
        if filtered {
            var peers = Set<String>()
            for c in s.connections where shownConnections.contains(c.id) { if let p = c.peer { peers.insert(p.description) } }
            let advertisers = Set(shownAdvertisers.map(\.description))
            list = all.filter { v in
                guard let a = v.objectValue?["address"]?.stringValue else { return false }
                return peers.contains(a) || advertisers.contains(a)
            }
        }
        guard !list.isEmpty else { return nil }
        // Connected devices lead, so that a cut table keeps them.
        func connected(_ v: FieldValue) -> Bool { v.objectValue?["connected"] == .bool(true) }
        list = list.filter(connected) + list.filter { !connected($0) }
        // A device named only by its GATT server (a Device Name read) is named here as in the text summary.
        let gattNames = SummaryRender.peerNames(s)
        func table(_ n: Int) -> [String] {
            put("## Devices")
            put()
            put("| Address | Type | Name | Reports | RSSI min/mean/max | Services | Connections |")
            put("|---|---|---|---:|---|---|---|")
            for case let .object(x) in list.prefix(n) {
                let rssi = DeviceCells.rssi(x)
                var conns = ""
                if case let .list(c)? = x["connections"] { conns = c.compactMap { $0.intValue.map { "#\($0)" } }.joined(separator: ", ") }
                var names = DeviceCells.strings(x["names"]).map { MarkdownRenderer.md($0) }.joined(separator: ", ")
                if names.isEmpty, let a = x["address"]?.stringValue, let n = gattNames[a] { names = MarkdownRenderer.md(n) }
                put("| \(SafeText.markdownCellCode(x["address"]?.stringValue ?? "")) | \(x["address_type"]?.stringValue ?? "") | \(names) | \(x["reports"]?.intValue ?? 0) | \(rssi) | \(DeviceCells.strings(x["services"]).joined(separator: " ")) | \(conns) |")
            }
            if list.count > n { put(); put("… and \(list.count - n) more (`bletrace devices` lists them all).") }
            put()
            return take()
        }
        return ReportSection(kind: .devices, priority: ReportSection.Priority.devices, forms: [table(100), table(20)])
    }

    /// The connection where each device's GATT database is shown.
    var shownDatabases: [String: Int] = [:]

    /// The connection's facts, its pairing, and the GATT databases not shown for an earlier connection.
    func connection(_ c: Connection, _ s: Summary) -> [ReportSection] {
        let peer = c.peer.map { "\($0)" + (c.peerType.map { " (\($0.name))" } ?? "") } ?? "peer not seen"
        let title = "## Connection #\(c.id): \(MarkdownRenderer.md(peer))"
        put(title)
        put()
        put("| Connection | #\(c.id) |")
        put("|---|---|")
        put("| Handle | \(Hex.hex(c.handle, width: 4)) |")
        if let n = c.name, !n.isEmpty { put("| Peer name | \(MarkdownRenderer.md(n)) |") }
        for row in classicRows(c) { put(row) }
        if let r = c.role {
            if SummaryRender.sniffed(s) { put("| Roles | the peer is the peripheral; sniffed, so there is no local host |") }
            else { put("| Local role | \(HCIText.role(r)) |") }
        }
        if c.implicit { put("| Opened | before the capture began |") }
        else if let o = c.openedRecord { put("| Opened | record \(o)" + (c.openedAt.map { ", \($0.iso8601)" } ?? "") + " |") }
        let log = layers.compactMap { $0 as? ActivityLog }.first
        if let p = log?.initialParameters[c.id] {
            put("| Parameters at opening | interval \(Fmt.interval1250(p.interval)), latency \(p.latency), timeout \(Fmt.timeout10(p.timeout)) |")
        }
        if let setup = log?.setupMicros[c.id] { put("| Setup time | \(Fmt.fixed(Int(setup / 10), scale: 100)) ms from LE Create Connection |") }
        if let att = layers.compactMap({ $0 as? ATTLayer }).first, let m = att.seenMTU[c.id] { put("| ATT_MTU | \(m.mtu) |") }
        put("| Encrypted | \(c.encrypted ? "yes" : "no") |")
        for row in linkRows(c.id) { put(row) }
        for row in audioRows(c) { put(row) }
        if let p = pipeline {
            for x in EncryptionSummary.entries(p) where x.connection == c.id {
                let e = x.encryption
                if let m = e.method { put("| Pairing | \(e.secureConnections ? "LE Secure Connections" : "legacy"), \(m.rawValue) |") }
                if let tk = e.tk { put("| TK cracked | \(e.method == .justWorks ? "000000 (Just Works)" : "passkey " + EncryptionSummary.passkey(tk)) |") }
                for k in e.keysUsed where k.isSTK { put("| STK | \(MarkdownRenderer.code(LEBytes.hexString(k.key))) |") }
                if let k = e.ltk { put("| LTK | \(MarkdownRenderer.code(LEBytes.hexString(k.key))) (\(EncryptionSummary.sourceText(k.source))) |") }
                put("| Decrypted | \(e.decrypted) PDUs, \(e.micFailures) MIC failures\(e.notDecrypted > 0 ? ", \(e.notDecrypted) not decrypted" : "") |")
                if let problem = e.problem { put("| Not decrypted | \(MarkdownRenderer.md(problem.text)) |") }
            }
        }
        var closed = "still open at the end of the capture"
        if let r = c.closedRecord {
            closed = "record \(r)" + (c.disconnectReason.map { ": " + MarkdownRenderer.md(HCIText.status($0)) + " (\(Hex.hex($0, width: 2)))" } ?? "")
        }
        put("| Closed | \(closed) |")
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
        var databases: [ReportSection] = []
        if let att = layers.compactMap({ $0 as? ATTLayer }).first {
            var original = c
            if let p = pipeline, let o = p.connections.connection(id: c.id) { original = o }
            let peerKey = ATTLayer.deviceKey(original)
            var servers = [peerKey]
            if log?.steps[c.id]?.contains(where: { $0.fromPeer }) == true { servers.append("local") }
            for key in servers {
                guard let db = att.database(stored: key), !db.isEmpty else { continue }
                let what = key == "local" ? "the local host (served to the peer)" : MarkdownRenderer.code(key)
                if let first = shownDatabases[key] {
                    put("GATT database of \(what): shown with connection #\(first).")
                    put()
                    continue
                }
                shownDatabases[key] = c.id
                databases.append(database(db, key: key, title: "### GATT database of \(what)", connection: c.id, log: log))
            }
        }
        let full = take()
        let short = [title, "", "Handle \(Hex.hex(c.handle, width: 4)); closed: \(closed). (Details cut to fit the size budget.)", ""]
        return [ReportSection(kind: .connection, connection: c.id, priority: ReportSection.Priority.connection, forms: [full, short, []])] + databases
    }

    /// A GATT database: with values and notification history; without the history; left out.
    func database(_ db: GATTDatabase, key: String, title: String, connection: Int, log: ActivityLog?) -> ReportSection {
        var forms: [[String]] = []
        for history in [true, false] {
            put(title)
            put()
            gattTree(db, server: key, log: log, history: history)
            put()
            forms.append(take())
        }
        forms.append([title, "", "*Left out to fit the size budget: `bletrace gatt` prints it.*", ""])
        return ReportSection(kind: .gattDatabase, connection: connection, priority: ReportSection.Priority.gattDatabase, forms: forms)
    }
    func gattTree(_ source: GATTDatabase, server: String, log: ActivityLog?, history: Bool) {
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
                if history, let t = tracks[vh], t.notifications > 1 {
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
    }

    func valueText(_ t: ActivityLog.ValueTrack) -> String {
        let how = t.latest.opcode == 0x1B || t.latest.opcode == 0x1D || t.latest.opcode == 0x23 ? "notified" : "read"
        return ": \(MarkdownRenderer.code(t.latest.text)) (\(how), record \(t.latest.record))"
    }

    /// A timeline excerpt: in full; the first lines, the failures and the last ones fewer; left out. The
    /// shorter forms say what they cut and how to get it.
    func excerptSection(_ x: Excerpt, title: String, connection: Int?, file: String) -> ReportSection {
        let how = "`bletrace analyze \(file.replacingAll("`", with: "'"))"
            + (connection.map { " --connection \($0)`" } ?? "`") + " prints \(connection == nil ? "the whole timeline" : "them all")"
        var forms = [[title, ""] + excerpt(x)]
        let head = min(5, x.head.count), tail = min(2, x.last.count)
        if x.head.count + x.marked.count + x.last.count > head + min(5, x.marked.count) + tail {
            let shorter = Excerpt(head: Array(x.head.prefix(head)), marked: Array(x.marked.prefix(5)), last: Array(x.last.suffix(tail)), total: x.total)
            forms.append([title, "", "*Shortened to fit the size budget; \(how).*", ""] + excerpt(shorter))
        }
        forms.append([title, "", "*\(x.total) event\(x.total == 1 ? "" : "s") left out to fit the size budget; \(how).*", ""])
        forms.append([])
        return ReportSection(kind: .timeline, connection: connection, priority: ReportSection.Priority.timeline, forms: forms)
    }

    func excerpt(_ x: Excerpt) -> [String] {
        var lines = ["```text"]
        var next = 0
        for (n, l) in (x.head + x.marked + x.last).sorted(by: { $0.n < $1.n }) where n >= next {
            let skipped = n - next
            if skipped > 0 { lines.append("        … \(skipped) more event\(skipped == 1 ? "" : "s") …") }
            lines.append(l)
            next = n + 1
        }
        if x.total > next { lines.append("        … \(x.total - next) more event\(x.total - next == 1 ? "" : "s") …") }
        lines.append("```")
        lines.append("")
        return lines
    }
}
