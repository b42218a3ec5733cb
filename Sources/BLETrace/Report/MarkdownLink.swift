/// The Markdown report's compact link rows of a connection (`LinkStatistics`): traffic each way, TX latency to
/// completion (to the acknowledgement on a sniffed link), throughput, and a sniffed link's radio.
extension MarkdownRenderer {
    func linkRows(_ id: Int) -> [String] {
        guard let stats = layers.compactMap({ $0 as? LinkStatistics }).first, let l = stats.link(id) else { return [] }
        var rows: [String] = []
        // A sniffed link: the central's and the peripheral's data PDUs, acknowledgements instead of completions.
        let (sent, received, packets, done, to) = l.sniffed
            ? ("Central → peripheral", "Peripheral → central", "data PDUs", "acknowledged", "acknowledgement")
            : ("Sent (tx)", "Received (rx)", "ACL packets", "completed", "completion")
        var tx = "\(l.tx.aclPackets) \(packets), \(LinkStatistics.size(l.tx.aclBytes)), \(l.completed) \(done)"
        if l.latency.count > 0, let p50 = l.latency.percentile(50), let p95 = l.latency.percentile(95) {
            tx += "; latency to \(to) \(LinkStatistics.ms(p50)) ms p50, \(LinkStatistics.ms(p95)) ms p95, \(LinkStatistics.ms(l.latency.max)) ms max"
        }
        rows.append("| \(sent) | \(tx) |")
        rows.append("| \(received) | \(l.rx.aclPackets) \(packets), \(LinkStatistics.size(l.rx.aclBytes)) |")
        let span = LinkStatistics.span(l)
        func rate(_ w: LinkStatistics.Way) -> String {
            (w.throughput.meanBitsPerSecond(over: span).map { LinkStatistics.rate($0) } ?? "–") + " mean, " + LinkStatistics.rate(w.throughput.peakBitsPerSecond) + " peak"
        }
        rows.append(l.sniffed ? "| Throughput | central \(rate(l.tx)); peripheral \(rate(l.rx)) (1-second windows) |"
                              : "| Throughput | tx \(rate(l.tx)); rx \(rate(l.rx)) (1-second windows) |")
        if l.sniffed, let s = stats.sniffedLink(l) {
            var radio = "\(s.events.seen) events seen"
            if let m = s.events.missed(interval: s.interval) { radio += ", \(m) missed" }
            if let ch = s.channels, let w = ChannelCounts.worst(ch, limit: 3) { radio += "; highest packet error rate by channel: \(w)" }
            if s.maps.outside > 0 { radio += "; \(s.maps.outside) packets on channels the map excluded" }
            rows.append("| Radio | \(radio) |")
        }
        return rows
    }
}
