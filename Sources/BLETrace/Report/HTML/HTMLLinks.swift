/// The HTML report's link charts (issue #28): each link's TX latency to completion as percentiles, and on
/// sniffer captures the packet error rate per channel.
enum HTMLLinks {
    static let linkCharts = 8

    static func section(links: LinkStatistics?, linkLayer: LinkLayerDecoder?, page: HTMLPage) -> String {
        var h = ""
        if let stats = links, !stats.orderedLinks.isEmpty {
            h += "<h3 id=\"tx-latency\">TX latency to completion</h3>\n"
            let busiest = stats.orderedLinks.filter { $0.latency.count > 0 }.sorted { $0.latency.count > $1.latency.count }
            if busiest.isEmpty { h += "<p class=\"muted\">No completed packets.</p>\n" }
            for l in busiest.prefix(linkCharts) {
                let ps: [(String, Int64?)] = [("min", l.latency.min), ("p50", l.latency.percentile(50)), ("p95", l.latency.percentile(95)),
                                              ("max", l.latency.max)]
                h += "<p>Connection <a href=\"#connection-\(l.connection)\">#\(l.connection)</a>: \(l.latency.count) packets completed, "
                    + ps.compactMap { n, v in v.map { "\(n) \(LinkStatistics.ms($0)) ms" } }.joined(separator: ", ") + "</p>\n"
                h += SVGChart.bars(ps.compactMap { n, v in v.map { (n, Double($0) / 1000) } }, marks: [],
                                   label: "TX latency to completion of connection #\(l.connection)", xTitle: "", yTitle: "ms")
                h += "\n"
            }
        }
        if let ll = linkLayer, ll.stats.channels.contains(where: { $0.packets > 0 }) {
            h += "<h3 id=\"channels\">Packet error rate per channel</h3>\n"
            let used = ll.stats.channels.enumerated().filter { $0.element.packets > 0 }
            h += "<p>" + HTMLPage.e(ChannelCounts.overview(ll.stats.channels)) + " (bad CRCs over packets, as the sniffer received them).</p>\n"
            h += SVGChart.bars(used.map { ("\($0.offset)", ($0.element.per ?? 0) * 100) }, marks: [],
                               label: "packet error rate per channel", xTitle: "channel", yTitle: "% bad CRC")
            h += "\n"
        }
        return h
    }
}
