/// The connection timeline (one bar per connection from open to close, marked with parameter updates, MTU
/// exchanges, pairing, encryption, ATT errors and the disconnect) and each connection's facts.
enum HTMLConnections {
    static let drawn = 100

    static func section(_ s: Summary, collector c: HTMLCollector, page: HTMLPage) -> String {
        let conns = Array(s.connections.prefix(drawn))
        guard let origin = c.origin else { return "" }
        let rowHeight = 24.0, left = 70.0, right = 16.0, width = 900.0
        // The rows, then the ticks and the axis title.
        let height = 54 + rowHeight * Double(conns.count)
        func span(_ x: Connection) -> (Double, Double) {
            let (a, b) = c.span(x, id: x.id)
            return (Double(a - origin) / 1_000_000, Double(b - origin) / 1_000_000)
        }
        let end = max(Double(c.last - origin) / 1_000_000, conns.map { span($0).1 }.max() ?? 0, 0.001)
        let x = LinearScale(domain: (0, end), range: (left, width - right))
        var w = SVGWriter(width: width, height: height)
        for t in Ticks.values(lo: 0, hi: end, count: 8) {
            w.line(x.map(t), 10, x.map(t), height - 38, class: "grid")
            w.text(x.map(t), height - 24, Ticks.label(t), anchor: .middle, class: "tick")
        }
        w.text((left + width - right) / 2, height - 6, "seconds since the first record", anchor: .middle, class: "axis-title")
        for (i, conn) in conns.enumerated() {
            let y = 14 + rowHeight * Double(i)
            let (a, b) = span(conn)
            w.text(4, y + 13, "#\(conn.id)", class: "label")
            var title = "connection #\(conn.id)" + (conn.peer.map { " with \(page.redactor?.redact($0.description) ?? $0.description)" } ?? "")
            title += ": \(Fmt.seconds(micros: Int64(a * 1_000_000))) s to \(Fmt.seconds(micros: Int64(b * 1_000_000))) s"
            if conn.closedRecord == nil { title += " (still open at the end)" }
            w.rect(x.map(a), y, max(2, x.map(b) - x.map(a)), rowHeight - 8, class: "conn", title: title)
            for m in c.markers[conn.id] ?? [] {
                let mx = x.map(Double(m.micros - origin) / 1_000_000)
                w.circle(mx, y + (rowHeight - 8) / 2, r: 4.5, class: "marker m-" + m.kind.rawValue, title: "record \(m.record): \(m.text)")
            }
        }
        var h = "<h2 id=\"connections\">Connections</h2>\n"
        h += "<p class=\"legend-row\">" + [("m-update", "parameter update"), ("m-mtu", "MTU exchange"), ("m-pairing", "pairing"),
                                          ("m-encryption", "encryption"), ("m-error", "ATT error"), ("m-disconnect", "disconnect")]
            .map { "<span><svg width=\"10\" height=\"10\" style=\"display:inline;margin:0 4px 0 0\"><circle cx=\"5\" cy=\"5\" r=\"4.5\" class=\"\($0.0)\"/></svg>\($0.1)</span>" }.joined() + "</p>\n"
        h += w.svg(label: "connection timeline", class: "chart connections")
        h += "\n"
        if s.connections.count > drawn { h += "<p class=\"muted\">The first \(drawn) of \(s.connections.count) connections are drawn.</p>\n" }
        return h
    }

    static func details(_ c: Connection, summary: Summary, log: ActivityLog?, att: ATTLayer?, smp: SMPLayer?, pipeline: Pipeline?,
                        page: HTMLPage) -> String {
        let peer = c.peer.map { "\($0)" + (c.peerType.map { " (\($0.name))" } ?? "") } ?? "peer not seen"
        var h = "<h3 id=\"connection-\(c.id)\">Connection #\(c.id): \(page.t(peer))</h3>\n<table>\n"
        func row(_ k: String, _ v: String) { h += "<tr><th>\(k)</th><td>\(v)</td></tr>\n" }
        row("Handle", Hex.hex(c.handle, width: 4))
        if let r = c.role {
            // A sniffer has no local host: the role it records is the peer's.
            if SummaryRender.sniffed(summary) { row("Roles", "the peer is the peripheral (sniffed, so there is no local host)") }
            else { row("Local role", HCIText.role(r)) }
        }
        if c.implicit { row("Opened", "before the capture began") }
        else if let o = c.openedRecord { row("Opened", "record \(o)" + (c.openedAt.map { ", \($0.iso8601)" } ?? "")) }
        if let p = log?.initialParameters[c.id] {
            row("Parameters at opening", "interval \(Fmt.interval1250(p.interval)), latency \(p.latency), timeout \(Fmt.timeout10(p.timeout))")
        }
        if let setup = log?.setupMicros[c.id] { row("Setup time", "\(Fmt.fixed(Int(setup / 10), scale: 100)) ms from LE Create Connection") }
        if let m = att?.seenMTU[c.id] { row("ATT_MTU", "\(m.mtu)") }
        row("Encrypted", c.encrypted ? "yes" : "no")
        if let p = pipeline {
            for x in EncryptionSummary.entries(p) where x.connection == c.id { for (k, v) in encryptionRows(x.encryption, page: page) { row(k, v) } }
        }
        if let r = c.closedRecord {
            row("Closed", "record \(r)" + (c.disconnectReason.map { ": " + HTMLPage.e(HCIText.status($0)) + " (\(Hex.hex($0, width: 2)))" } ?? ""))
        } else {
            row("Closed", "still open at the end of the capture")
        }
        for u in c.updates.prefix(20) {
            row("Parameter update", "record \(u.record): interval \(Fmt.interval1250(u.interval)), latency \(u.latency), timeout \(Fmt.timeout10(u.timeout))")
        }
        h += "</table>\n"
        let attempts = smp?.attempts.filter { $0.connection == c.id } ?? []
        if !attempts.isEmpty {
            h += "<p><b>Pairing</b></p>\n<ul>" + attempts.map { "<li>\(page.t($0.text))</li>" }.joined() + "</ul>\n"
        }
        return h
    }

    /// A sniffed link's keys and results, as the Markdown report's rows: pairing method, TK cracked, STK, LTK
    /// with where it came from, PDUs decrypted, and why the rest were not.
    static func encryptionRows(_ e: LinkEncryption, page: HTMLPage) -> [(String, String)] {
        var rows: [(String, String)] = []
        if let m = e.method { rows.append(("Pairing", (e.secureConnections ? "LE Secure Connections" : "legacy") + ", " + HTMLPage.e(m.rawValue))) }
        if let tk = e.tk { rows.append(("TK cracked", e.method == .justWorks ? "000000 (Just Works)" : "passkey " + EncryptionSummary.passkey(tk))) }
        for k in e.keysUsed where k.isSTK { rows.append(("STK", "<code>\(page.t(LEBytes.hexString(k.key)))</code>")) }
        if let k = e.ltk { rows.append(("LTK", "<code>\(page.t(LEBytes.hexString(k.key)))</code> (\(HTMLPage.e(EncryptionSummary.sourceText(k.source))))")) }
        rows.append(("Decrypted", "\(e.decrypted) PDUs, \(e.micFailures) MIC failures" + (e.notDecrypted > 0 ? ", \(e.notDecrypted) not decrypted" : "")))
        if let problem = e.problem { rows.append(("Not decrypted", page.t(problem.text))) }
        return rows
    }
}
