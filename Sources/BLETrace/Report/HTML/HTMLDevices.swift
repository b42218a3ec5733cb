/// The device table (the inventory) and an RSSI-over-time chart for each advertising device.
enum HTMLDevices {
    static let listed = 100, charted = 12

    static func has(_ s: Summary) -> Bool {
        guard let d = HTMLHeader.section(s, "devices"), case let .list(list)? = d["devices"] else { return false }
        return !list.isEmpty
    }

    static func section(_ s: Summary, collector: HTMLCollector, page: HTMLPage) -> String {
        guard let d = HTMLHeader.section(s, "devices"), case let .list(all)? = d["devices"], !all.isEmpty else { return "" }
        // Connected devices lead, as in the text and Markdown reports, so that the cut table keeps them.
        func connected(_ v: FieldValue) -> Bool { v.objectValue?["connected"] == .bool(true) }
        let list = all.filter(connected) + all.filter { !connected($0) }
        var h = "<h2 id=\"devices\">Devices</h2>\n<table class=\"devices\">\n<tr><th>Address</th><th>Type</th><th>Name</th><th>Reports</th><th>RSSI min / mean / max</th><th>Services</th><th>Connections</th></tr>\n"
        for case let .object(x) in list.prefix(listed) {
            let rssi = DeviceCells.rssi(x)
            var conns = ""
            if case let .list(c)? = x["connections"] {
                conns = c.compactMap { $0.intValue.map { "<a href=\"#connection-\($0)\">#\($0)</a>" } }.joined(separator: ", ")
            }
            let names = DeviceCells.strings(x["names"]).map { page.t($0) }.joined(separator: ", ")
            h += "<tr><td><code>\(page.t(x["address"]?.stringValue ?? ""))</code></td><td>\(page.t(x["address_type"]?.stringValue ?? ""))</td>"
                + "<td>\(names)</td><td class=\"n\">\(x["reports"]?.intValue ?? 0)</td><td>\(rssi)</td>"
                + "<td>\(page.t(DeviceCells.strings(x["services"]).joined(separator: " ")))</td><td>\(conns)</td></tr>\n"
        }
        h += "</table>\n"
        if list.count > listed { h += "<p class=\"muted\">… and \(list.count - listed) more (<code>bletrace devices</code> lists them all).</p>\n" }
        h += rssiCharts(collector, page: page)
        return h
    }

    /// One chart per device with RSSI readings, the devices heard most first.
    static func rssiCharts(_ c: HTMLCollector, page: HTMLPage) -> String {
        let keys = c.rssiOrder.sorted { (c.rssi[$0]?.offered ?? 0) > (c.rssi[$1]?.offered ?? 0) }.prefix(charted)
        guard !keys.isEmpty else { return "" }
        var h = "<h3>RSSI over time</h3>\n"
        for key in keys {
            guard let series = c.rssi[key] else { continue }
            let name = page.t(key)
            var note = "\(series.offered) reading\(series.offered == 1 ? "" : "s")"
            if series.stride > 1 { note += ", one in \(series.stride) drawn" }
            h += "<div class=\"rssi\" data-device=\"\(name)\"><p><code>\(name)</code> <span class=\"muted\">\(note)</span></p>\n"
            let lo = series.points.map { $0.y }.min() ?? -100, hi = series.points.map { $0.y }.max() ?? 0
            h += SVGChart.line([SVGChart.Series(name: "RSSI", points: series.points, style: "s0")], label: "RSSI of " + (page.redactor?.redact(key) ?? key),
                               xTitle: "seconds since the first record", yTitle: "dBm", height: 160, xMin: 0,
                               yMin: (lo / 10).rounded(.down) * 10 - (lo == hi ? 10 : 0), yMax: min(20, (hi / 10).rounded(.up) * 10 + (lo == hi ? 10 : 0)),
                               dots: series.points.count <= 60, breakGaps: true)
            h += "</div>\n"
        }
        if c.rssiOrder.count > charted { h += "<p class=\"muted\">RSSI charts for the \(charted) devices heard most; \(c.rssiOrder.count - charted) more not drawn.</p>\n" }
        return h
    }
}
