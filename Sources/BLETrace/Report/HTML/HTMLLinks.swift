#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The HTML report's link charts (issue #28): each link's TX latency to completion (on sniffer captures, to
/// the acknowledgement) as a histogram, and on sniffer captures the packet error rate and mean RSSI per channel.
enum HTMLLinks {
    static let linkCharts = 8

    static func section(links: LinkStatistics?, linkLayer: LinkLayerDecoder?, origin: Int64?, page: HTMLPage) -> String {
        var h = ""
        if let stats = links, !stats.orderedLinks.isEmpty {
            h += stats.orderedLinks.allSatisfy(\.sniffed) ? "<h3 id=\"tx-latency\">Latency to acknowledgement</h3>\n"
                : "<h3 id=\"tx-latency\">TX latency to completion</h3>\n"
            let busiest = stats.orderedLinks.filter { $0.latency.count > 0 }.sorted { $0.latency.count > $1.latency.count }
            if busiest.isEmpty { h += "<p class=\"muted\">No completed packets.</p>\n" }
            for l in busiest.prefix(linkCharts) {
                let ps: [(String, Int64?)] = [("min", l.latency.min), ("p50", l.latency.percentile(50)), ("p95", l.latency.percentile(95)),
                                              ("max", l.latency.max)]
                let what = l.sniffed ? "packets acknowledged (from the first transmission)" : "packets completed"
                h += "<p>Connection <a href=\"#connection-\(l.connection)\">#\(l.connection)</a>: \(l.latency.count) \(what), "
                    + ps.compactMap { n, v in v.map { "\(n) \(LinkStatistics.ms($0)) ms" } }.joined(separator: ", ") + "</p>\n"
                h += histogram(l.latency, label: "TX latency of connection #\(l.connection)")
                h += "\n"
            }
        }
        if let stats = links { h += buffers(stats, origin: origin) }
        if let ll = linkLayer, ll.stats.channels.contains(where: { $0.packets > 0 }) {
            h += "<h3 id=\"channels\">Packet error rate per channel</h3>\n"
            let used = ll.stats.channels.enumerated().filter { $0.element.packets > 0 }
            h += "<p>" + HTMLPage.e(ChannelCounts.overview(ll.stats.channels)) + " (bad CRCs over packets, as the sniffer received them).</p>\n"
            h += SVGChart.bars(used.map { ("\($0.offset)", ($0.element.per ?? 0) * 100) }, marks: [],
                               label: "packet error rate per channel", xTitle: "channel", yTitle: "% bad CRC")
            h += "\n"
            let rssi = used.compactMap { c in c.element.rssiMean.map { (x: Double(c.offset), y: $0) } }
            if !rssi.isEmpty {
                h += "<h3 id=\"channel-rssi\">RSSI per channel</h3>\n<p>Mean RSSI of the packets the sniffer received on each channel.</p>\n"
                h += SVGChart.line([SVGChart.Series(name: "mean RSSI", points: rssi, style: "s2")], label: "mean RSSI per channel",
                                   xTitle: "channel", yTitle: "dBm", height: 180, xMin: 0, xMax: 39, dots: true)
                h += "\n"
            }
        }
        return h
    }

    /// The controller's ACL buffers in use over time (the most in each bucket), against their number.
    static func buffers(_ stats: LinkStatistics, origin: Int64?) -> String {
        var h = ""
        for (name, p) in [("LE", stats.le), ("BR/EDR", stats.bredr)] {
            guard let start = p.overTime.origin, p.overTime.peaks.count > 1 else { continue }
            let shift = Double(start - (origin ?? start)) / 1_000_000, w = Double(p.overTime.width) / 1_000_000
            let used = p.overTime.peaks.enumerated().map { (x: shift + Double($0.offset) * w, y: Double($0.element)) }
            var series = [SVGChart.Series(name: "in use", points: used, style: "s0")]
            if let c = p.count, let last = used.last { series.append(SVGChart.Series(name: "buffers", points: [(shift, Double(c)), (last.x, Double(c))], style: "s1")) }
            if h.isEmpty { h += "<h3 id=\"buffers\">Controller buffers in use</h3>\n" }
            h += "<p>\(name) ACL buffers: " + (p.count.map { "\($0) × \(p.length ?? 0) bytes, " } ?? "") + "at most \(p.maxOutstanding) in use"
                + " (the most packets sent and not yet completed in each \(Ticks.label(w)) s).</p>\n"
            h += SVGChart.line(series, label: "\(name) ACL buffers in use", xTitle: "seconds since the first record", yTitle: "packets", height: 160, yMin: 0)
            h += "\n"
        }
        return h
    }

    /// A latency histogram (5 bins a decade) with the p50 and p95 marked.
    static func histogram(_ l: LatencyHistogram, label: String) -> String {
        let bins = l.distribution(perDecade: 5)
        guard !bins.isEmpty else { return "" }
        func position(_ v: Int64) -> Double {
            let x = Double(v)
            let i = bins.lastIndex { $0.lower <= x } ?? 0
            return Double(i) + 0.5
        }
        let marks = [("p50", l.percentile(50)), ("p95", l.percentile(95))].compactMap { n, v in v.map { (position: position($0), text: n) } }
        // Bin edges to two significant digits (16 µs, 25 µs, 40 µs, 63 µs, 100 µs, …).
        func edge(_ v: Double) -> Int64 {
            guard v >= 100 else { return Int64(v.rounded()) }
            let scale = pow(10, (log10(v)).rounded(.down) - 1)
            return Int64((v / scale).rounded() * scale)
        }
        return SVGChart.bars(bins.map { ("≥" + HTMLCharts.edgeLabel(edge($0.lower)), Double($0.count)) }, marks: marks,
                             label: label, xTitle: "latency (bin start)", yTitle: "packets")
    }
}
