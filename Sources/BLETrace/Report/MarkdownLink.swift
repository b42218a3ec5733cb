/// The Markdown report's compact link rows of a connection (`LinkStatistics`): traffic each way, TX latency to
/// completion, throughput.
extension MarkdownRenderer {
    func linkRows(_ id: Int) -> [String] {
        guard let stats = layers.compactMap({ $0 as? LinkStatistics }).first, let l = stats.link(id) else { return [] }
        var rows: [String] = []
        var tx = "\(l.tx.aclPackets) ACL packets, \(LinkStatistics.size(l.tx.aclBytes)), \(l.completed) completed"
        if l.latency.count > 0, let p50 = l.latency.percentile(50), let p95 = l.latency.percentile(95) {
            tx += "; latency to completion \(LinkStatistics.ms(p50)) ms p50, \(LinkStatistics.ms(p95)) ms p95, \(LinkStatistics.ms(l.latency.max)) ms max"
        }
        rows.append("| Sent (tx) | \(tx) |")
        rows.append("| Received (rx) | \(l.rx.aclPackets) ACL packets, \(LinkStatistics.size(l.rx.aclBytes)) |")
        let span = LinkStatistics.span(l)
        func rate(_ w: LinkStatistics.Way) -> String {
            (w.throughput.meanBitsPerSecond(over: span).map { LinkStatistics.rate($0) } ?? "–") + " mean, " + LinkStatistics.rate(w.throughput.peakBitsPerSecond) + " peak"
        }
        rows.append("| Throughput | tx \(rate(l.tx)); rx \(rate(l.rx)) (1-second windows) |")
        return rows
    }
}
