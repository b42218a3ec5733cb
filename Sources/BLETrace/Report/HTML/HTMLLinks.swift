#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The HTML report's link charts (issue #28): each link's TX latency to completion (on sniffer captures, to
/// the acknowledgement) as a histogram, and on sniffer captures the packet error rate and mean RSSI per channel
/// (without the channels whose RSSI is a constant 0 dBm).
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
        if let ll = linkLayer, ll.stats.channels.contains(where: { $0.packets > 0 }) { h += channels(ll.stats.channels) }
        return h
    }

    /// The packet error rate and the mean RSSI of each channel with packets. Channels whose every RSSI reading
    /// was 0 dBm are left out of the RSSI chart, and a note says so (in the chart's place when none is left).
    static func channels(_ list: [ChannelCounts]) -> String {
        var h = "<h3 id=\"channels\">Packet error rate per channel</h3>\n"
        let used = list.enumerated().filter { $0.element.packets > 0 }
        h += "<p>" + HTMLPage.e(ChannelCounts.overview(list)) + " (bad CRCs over packets, as the sniffer received them).</p>\n"
        h += SVGChart.bars(used.map { ("\($0.offset)", ($0.element.per ?? 0) * 100) }, marks: [],
                           label: "packet error rate per channel", xTitle: "channel", yTitle: "% bad CRC")
        h += "\n"
        let constant = used.filter { $0.element.rssiConstantZero }.count
        let rssi = used.filter { !$0.element.rssiConstantZero }.compactMap { c in c.element.rssiMean.map { (x: Double(c.offset), y: $0) } }
        guard !rssi.isEmpty || constant > 0 else { return h }
        h += "<h3 id=\"channel-rssi\">RSSI per channel</h3>\n"
        if constant > 0 {
            let all = rssi.isEmpty ? (constant == 1 ? "The one channel" : "All \(constant) channels") + " with an RSSI"
                : "\(constant) channel\(constant == 1 ? "" : "s")"
            h += "<p class=\"muted\">\(all) left out: the sniffer marked the signal as valid, but every packet on "
                + (constant == 1 ? "it" : "them") + " says 0 dBm, a constant, not a measurement.</p>\n"
        }
        if !rssi.isEmpty {
            h += "<p>Mean RSSI of the packets the sniffer received on each channel.</p>\n"
            h += SVGChart.line([SVGChart.Series(name: "mean RSSI", points: rssi, style: "s2")], label: "mean RSSI per channel",
                               xTitle: "channel", yTitle: "dBm", height: 180, xMin: 0, xMax: 39, dots: true)
            h += "\n"
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

    /// A latency histogram with the p50 and p95 marked where their values fall. While the latencies are all
    /// kept, bins chosen from them (`Bins`, as for the ATT response latency); after, the histogram's own bins,
    /// 20 a decade (10 or 5 when that would make more than `maxBars`), labelled to two significant digits.
    static func histogram(_ l: LatencyHistogram, label: String) -> String {
        let bins: Bins, labels: [String]
        if let exact = l.exactSamples {
            bins = Bins(exact)
            labels = bins.edges.dropLast().map { "≥" + HTMLCharts.edgeLabel($0) }
        } else {
            var fine = l.distribution(perDecade: 20), perDecade = 20.0
            for n in [10, 5] where fine.count > maxBars { (fine, perDecade) = (l.distribution(perDecade: n), Double(n)) }
            guard let last = fine.last else { return "" }
            // Bin 0 holds everything below 10 µs; the next edge is 10 µs.
            let upper = last.lower == 0 ? LatencyHistogram.floor : last.lower * pow(10, 1 / perDecade)
            bins = Bins(edges: (fine.map(\.lower) + [upper]).map { Int64($0.rounded()) }, counts: fine.map(\.count), logarithmic: true)
            labels = fine.map { "≥" + HTMLCharts.edgeLabel(twoDigits($0.lower)) }
        }
        guard !bins.counts.isEmpty else { return "" }
        let marks = [("p50", l.percentile(50)), ("p95", l.percentile(95))].compactMap { n, v in v.map { (position: bins.position($0), text: n) } }
        return SVGChart.bars(zip(labels, bins.counts).map { ($0, Double($1)) }, marks: marks,
                             label: label, xTitle: "latency (bin start)", yTitle: "packets")
    }

    static let maxBars = 40

    /// A bin edge to two significant digits (16 µs, 25 µs, 40 µs, 63 µs, 100 µs, …).
    static func twoDigits(_ v: Double) -> Int64 {
        guard v >= 100 else { return Int64(v.rounded()) }
        let scale = pow(10, (log10(v)).rounded(.down) - 1)
        return Int64((v / scale).rounded() * scale)
    }
}
