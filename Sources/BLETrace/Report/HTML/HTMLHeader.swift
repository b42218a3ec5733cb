/// The HTML report's header (file, format, span, records) and its findings, each linked to its line in the
/// timeline when the timeline shows it.
enum HTMLHeader {
    static func header(_ s: Summary, file: String, eventsSeen: Int, page: HTMLPage) -> String {
        var h = "<h1>bletrace report: \(page.t(file))</h1>\n<table class=\"capture\">\n"
        func row(_ k: String, _ v: String) { h += "<tr><th>\(HTMLPage.e(k))</th><td>\(v)</td></tr>\n" }
        row("File", "<code>\(page.t(s.capture.path))</code>")
        var format = s.capture.format.rawValue
        if s.capture.format != .packetLogger { format += ", link type \(s.capture.linkType) (\(LinkType.name(s.capture.linkType)))" }
        if !s.capture.containers.isEmpty { format += ", in " + s.capture.containers.joined(separator: " › ") }
        row("Format", page.t(format))
        if let a = s.stats.first, let b = s.stats.last {
            row("Time span", "\(a.iso8601) to \(b.iso8601) (\(Fmt.seconds(micros: b.micros - a.micros)) s)")
        }
        var records = "\(s.stats.records)"
        if s.stats.malformed > 0 { records += " (\(s.stats.malformed) malformed)" }
        if eventsSeen != s.stats.records { records += "; \(eventsSeen) shown after filters" }
        row("Records", records)
        row("Connections", "\(s.connectionCount)")
        if let d = section(s, "devices"), let n = d["count"]?.intValue { row("Devices", "\(n)") }
        if let e = s.error { row("Damaged", "<span class=\"finding\">\(page.t(e.description))</span>") }
        return h + "</table>\n"
    }

    static func section(_ s: Summary, _ name: String) -> Fields? {
        s.sections.first(where: { $0.name == name })?.value.objectValue
    }

    static let listed = 200

    static func findings(_ s: Summary, anchors: Set<Int>, page: HTMLPage) -> String {
        var h = "<h2 id=\"findings\">Findings</h2>\n"
        guard let f = section(s, "findings"), let count = f["count"]?.intValue, count > 0, case let .list(list)? = f["list"] else {
            return h + "<p>None: no ATT errors, unanswered requests, failed pairings, malformed packets or failure disconnects.</p>\n"
        }
        h += "<p>\(count) finding\(count == 1 ? "" : "s").</p>\n<table class=\"findings\">\n<tr><th>Record</th><th>Connection</th><th>Kind</th><th>What</th></tr>\n"
        for case let .object(x) in list.prefix(listed) {
            let record = x["record"]?.intValue ?? 0
            let kind = x["kind"]?.stringValue.flatMap { Finding.Kind(rawValue: $0)?.title } ?? ""
            let cell = anchors.contains(record) ? "<a href=\"#\(HTMLPage.anchor(record))\">\(record)</a>" : "\(record)"
            let conn = x["connection"]?.intValue.map { "<a href=\"#connection-\($0)\">#\($0)</a>" } ?? ""
            h += "<tr class=\"finding\"><td class=\"n\">\(cell)</td><td>\(conn)</td><td>\(HTMLPage.e(kind))</td><td>\(page.t(x["text"]?.stringValue ?? ""))</td></tr>\n"
        }
        h += "</table>\n"
        if count > listed { h += "<p class=\"muted\">… and \(count - listed) more (see the JSON summary).</p>\n" }
        return h
    }
}
