/// The HTML report's charts: ATT response latency distribution with p50/p95/p99, throughput per connection
/// each way, notification rate per characteristic, battery history.
enum HTMLCharts {
    static let throughputCharts = 8, notificationCharts = 8

    static func section(_ c: HTMLCollector, summary: Summary, page: HTMLPage) -> String {
        var h = "<h2 id=\"charts\">Charts</h2>\n"
        h += latency(c.latency)
        h += throughput(c, page: page)
        h += notifications(c, page: page)
        h += battery(c, page: page)
        return h
    }

    /// Bucket edges in µs: 1, 1.5, 2, 3, 5 and 7 times each power of ten from 100 µs to 70 s; the last bucket is open.
    static let edges: [Int64] = [0] + [100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000].flatMap { (d: Int64) in
        [10, 15, 20, 30, 50, 70].map { d * $0 / 10 }
    }

    static func edgeLabel(_ us: Int64) -> String {
        us >= 1_000_000 ? Ticks.label(Double(us) / 1_000_000) + " s" : us >= 1_000 ? Ticks.label(Double(us) / 1_000) + " ms" : "\(us) µs"
    }

    /// The buckets from the first to the last one holding a latency: each with its count.
    static func histogram(_ sorted: [Int64]) -> (first: Int, counts: [Int]) {
        var counts = [Int](repeating: 0, count: edges.count)
        for v in sorted { counts[bucket(v)] += 1 }
        guard let a = counts.firstIndex(where: { $0 > 0 }), let b = counts.lastIndex(where: { $0 > 0 }) else { return (0, []) }
        return (a, Array(counts[a...b]))
    }

    static func bucket(_ v: Int64) -> Int { (edges.lastIndex(where: { $0 <= v }) ?? 0) }

    /// Where `v` falls on the bars' axis: its bucket's index (from `first`) plus its place inside the bucket.
    static func position(_ v: Int64, first: Int) -> Double {
        let i = bucket(v)
        let lo = edges[i], hi = i + 1 < edges.count ? edges[i + 1] : edges[i] * 2
        return Double(i - first) + min(1, Double(v - lo) / Double(max(1, hi - lo)))
    }

    static func latency(_ l: LatencySample) -> String {
        var h = "<h3 id=\"latency\">ATT response latency</h3>\n"
        guard l.count > 0 else { return h + "<p class=\"muted\">No ATT request was answered.</p>\n" }
        let sorted = l.values.sorted()
        let (first, counts) = histogram(sorted)
        var marks: [(Double, String)] = []
        var figures: [String] = []
        for p in [50.0, 95.0, 99.0] {
            guard let v = LatencySample.percentile(sorted, p) else { continue }
            marks.append((position(v, first: first), "p\(Int(p))"))
            figures.append("p\(Int(p)) \(SequenceRecorder.latencyText(v))")
        }
        let bars = counts.enumerated().map { (i, n) -> (String, Double) in
            let lo = edges[first + i]
            return ("≥" + edgeLabel(lo), Double(n))
        }
        h += "<p>\(l.count) response\(l.count == 1 ? "" : "s"): " + figures.joined(separator: ", ")
            + (l.values.count < l.count ? " (from a sample of \(l.values.count))" : "") + ".</p>\n"
        h += SVGChart.bars(bars, marks: marks, label: "ATT response latency distribution", xTitle: "latency (bucket start)", yTitle: "responses")
        return h + "\n"
    }

    static func throughput(_ c: HTMLCollector, page: HTMLPage) -> String {
        var h = "<h3 id=\"throughput\">Throughput</h3>\n"
        let ids = c.traffic.keys.sorted { (c.traffic[$0]!.sent.total + c.traffic[$0]!.received.total, $1) > (c.traffic[$1]!.sent.total + c.traffic[$1]!.received.total, $0) }
        guard !ids.isEmpty else { return h + "<p class=\"muted\">No data on any connection.</p>\n" }
        for id in ids.prefix(throughputCharts) {
            guard let t = c.traffic[id] else { continue }
            h += "<p>Connection <a href=\"#connection-\(id)\">#\(id)</a>: \(Int(t.sent.total)) bytes sent, \(Int(t.received.total)) received (ACL payload; bytes/s per \(Ticks.label(Double(t.sent.width) / 1_000_000)) s)</p>\n"
            h += SVGChart.line([SVGChart.Series(name: "host → controller", points: t.sent.ratePoints, style: "s0"),
                                SVGChart.Series(name: "controller → host", points: t.received.ratePoints, style: "s1")],
                               label: "throughput of connection #\(id)", xTitle: "seconds since the first record", yTitle: "bytes/s", height: 180, xMin: 0)
            h += "\n"
        }
        if ids.count > throughputCharts { h += "<p class=\"muted\">The \(throughputCharts) busiest of \(ids.count) connections are drawn.</p>\n" }
        return h
    }

    static func notifications(_ c: HTMLCollector, page: HTMLPage) -> String {
        var h = "<h3 id=\"notifications\">Notification rate</h3>\n"
        let keys = c.notifiedOrder.sorted { (c.notified[$0]?.rate.total ?? 0) > (c.notified[$1]?.rate.total ?? 0) }
        guard !keys.isEmpty else { return h + "<p class=\"muted\">No notifications or indications.</p>\n" }
        for k in keys.prefix(notificationCharts) {
            guard let n = c.notified[k] else { continue }
            h += "<p>\(HTMLPage.e(n.name)): \(Int(n.rate.total)) (per second, in \(Ticks.label(Double(n.rate.width) / 1_000_000)) s buckets)</p>\n"
            h += SVGChart.line([SVGChart.Series(name: "per second", points: n.rate.ratePoints, style: "s2")],
                               label: "notification rate of " + n.name, xTitle: "seconds since the first record", yTitle: "per s", height: 150, xMin: 0)
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
