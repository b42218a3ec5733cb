/// The HTML report's charts: ATT response latency distribution with p50/p95/p99, throughput per connection
/// each way (bit/s) and notification rate per characteristic, each over its connection's span, battery history.
enum HTMLCharts {
    static let throughputCharts = 8, notificationCharts = 8

    static func section(_ c: HTMLCollector, summary: Summary, page: HTMLPage) -> String {
        var h = "<h2 id=\"charts\">Charts</h2>\n"
        h += latency(c.latency)
        h += throughput(c, summary: summary, page: page)
        h += notifications(c, summary: summary, page: page)
        h += battery(c, page: page)
        return h
    }

    static func edgeLabel(_ us: Int64) -> String {
        us >= 1_000_000 ? Ticks.label(Double(us) / 1_000_000) + " s" : us >= 1_000 ? Ticks.label(Double(us) / 1_000) + " ms" : "\(us) µs"
    }

    static func latency(_ l: LatencySample) -> String {
        var h = "<h3 id=\"latency\">ATT response latency</h3>\n"
        guard l.count > 0 else { return h + "<p class=\"muted\">No ATT request was answered.</p>\n" }
        let sorted = l.values.sorted()
        let bins = Bins(sorted)
        var marks: [(Double, String)] = []
        var figures: [String] = []
        for p in [50.0, 95.0, 99.0] {
            guard let v = LatencySample.percentile(sorted, p) else { continue }
            marks.append((bins.position(v), "p\(Int(p))"))
            figures.append("p\(Int(p)) \(SequenceRecorder.latencyText(v))")
        }
        let bars = bins.counts.enumerated().map { ("≥" + edgeLabel(bins.edges[$0.offset]), Double($0.element)) }
        h += "<p>\(l.count) response\(l.count == 1 ? "" : "s"): " + figures.joined(separator: ", ")
            + (l.values.count < l.count ? " (from a sample of \(l.values.count))" : "") + ".</p>\n"
        h += SVGChart.bars(bars, marks: marks, label: "ATT response latency distribution", xTitle: "latency (bucket start)", yTitle: "responses")
        return h + "\n"
    }

    static func throughput(_ c: HTMLCollector, summary: Summary, page: HTMLPage) -> String {
        var h = "<h3 id=\"throughput\">Throughput</h3>\n"
        let ids = c.traffic.keys.sorted { (c.traffic[$0]!.sent.total + c.traffic[$0]!.received.total, $1) > (c.traffic[$1]!.sent.total + c.traffic[$1]!.received.total, $0) }
        guard !ids.isEmpty else { return h + "<p class=\"muted\">No data on any connection.</p>\n" }
        for id in ids.prefix(throughputCharts) {
            guard let t = c.traffic[id] else { continue }
            // Over the connection's own span, in seconds since the first record; bytes become bits, as the text has them.
            let origin = c.origin ?? t.first
            let span = c.span(summary.connections.first { $0.id == id }, id: id)
            let end = max(span.end, t.last)
            let sniffed = c.sniffed.contains(id)
            let sent = t.sent.ratePoints(until: end), received = t.received.ratePoints(until: end)
            let unit = RateUnit(max: (sent + received).map { $0.y * 8 }.max() ?? 0)
            func shifted(_ p: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
                p.map { (Double(t.sent.origin - origin) / 1_000_000 + $0.x, $0.y * 8 / unit.divisor) }
            }
            let bucket = Ticks.label(Double(t.sent.width) / 1_000_000)
            h += "<p>Connection <a href=\"#connection-\(id)\">#\(id)</a>: \(Int(t.sent.total)) bytes sent, \(Int(t.received.total)) received (\(sniffed ? "data PDU payload" : "ACL payload"); \(unit.name) per \(bucket) s)"
                + shortNote(points: sent.count, seconds: Double(end - t.sent.origin) / 1_000_000, bucket: bucket) + "</p>\n"
            // Connection parameter updates marked where they took effect.
            let updates = (c.markers[id] ?? []).filter { $0.kind == .update }.map { (x: Double($0.micros - origin) / 1_000_000, text: "update") }
            h += SVGChart.line([SVGChart.Series(name: sniffed ? "central → peripheral" : "host → controller", points: shifted(sent), style: "s0"),
                                SVGChart.Series(name: sniffed ? "peripheral → central" : "controller → host", points: shifted(received), style: "s1")],
                               label: "throughput of connection #\(id)", xTitle: "seconds since the first record", yTitle: unit.name, height: 180,
                               xMin: Double(min(span.start, t.sent.origin) - origin) / 1_000_000, xMax: Double(end - origin) / 1_000_000,
                               joined: sent.count >= minimumLine, marks: updates)
            h += "\n"
        }
        if ids.count > throughputCharts { h += "<p class=\"muted\">The \(throughputCharts) busiest of \(ids.count) connections are drawn.</p>\n" }
        return h
    }

    /// Rate series of fewer buckets than this are drawn as points: two or three points joined look like a trend.
    static let minimumLine = 4

    /// What a rate chart of a short connection says: points, not a line, and why.
    static func shortNote(points: Int, seconds: Double, bucket: String) -> String {
        guard points < minimumLine else { return "" }
        return "; the connection lasted \(Ticks.label((seconds * 10).rounded() / 10)) s, too short for a line: one point per \(bucket) s"
    }

    /// A bit rate's unit as the text summary chooses it: bit/s below 10 kbit/s, kbit/s below 1 Mbit/s, else Mbit/s.
    struct RateUnit {
        let name: String
        let divisor: Double
        init(max bps: Double) {
            (name, divisor) = bps < 10_000 ? ("bit/s", 1) : bps < 1_000_000 ? ("kbit/s", 1_000) : ("Mbit/s", 1_000_000)
        }
    }

    static func notifications(_ c: HTMLCollector, summary: Summary, page: HTMLPage) -> String {
        var h = "<h3 id=\"notifications\">Notification rate</h3>\n"
        let keys = c.notifiedOrder.sorted { (c.notified[$0]?.rate.total ?? 0) > (c.notified[$1]?.rate.total ?? 0) }
        guard !keys.isEmpty else { return h + "<p class=\"muted\">No notifications or indications.</p>\n" }
        for k in keys.prefix(notificationCharts) {
            guard let n = c.notified[k] else { continue }
            // Over the connection's span, as its throughput.
            let origin = c.origin ?? n.rate.origin
            let span = c.span(summary.connections.first { $0.id == n.connection }, id: n.connection)
            let end = span.end
            let points = n.rate.ratePoints(until: end)
            let bucket = Ticks.label(Double(n.rate.width) / 1_000_000)
            h += "<p>\(HTMLPage.e(n.name)): \(Int(n.rate.total)) (per second, in \(bucket) s buckets"
                + shortNote(points: points.count, seconds: Double(end - n.rate.origin) / 1_000_000, bucket: bucket) + ")</p>\n"
            let shift = Double(n.rate.origin - origin) / 1_000_000
            h += SVGChart.line([SVGChart.Series(name: "per second", points: points.map { (shift + $0.x, $0.y) }, style: "s2")],
                               label: "notification rate of " + n.name, xTitle: "seconds since the first record", yTitle: "per s", height: 150,
                               xMin: Double(min(span.start, n.rate.origin) - origin) / 1_000_000, xMax: Double(end - origin) / 1_000_000,
                               joined: points.count >= minimumLine)
            h += "\n"
        }
        if keys.count > notificationCharts { h += "<p class=\"muted\">The \(notificationCharts) busiest of \(keys.count) characteristics are drawn.</p>\n" }
        return h
    }

    static func battery(_ c: HTMLCollector, page: HTMLPage) -> String {
        guard !c.batteryOrder.isEmpty else { return "" }
        var h = "<h3 id=\"battery\">Battery</h3>\n"
        for d in c.batteryOrder {
            guard let s = c.battery[d] else { continue }
            h += "<p><code>\(page.t(d))</code>: \(s.offered) reading\(s.offered == 1 ? "" : "s")</p>\n"
            h += SVGChart.line([SVGChart.Series(name: "battery", points: s.points, style: "s3")], label: "battery of " + (page.redactor?.redact(d) ?? d),
                               xTitle: "seconds since the first record", yTitle: "%", height: 150, xMin: 0, yMin: 0, yMax: 100, dots: true)
            h += "\n"
        }
        return h
    }
}
