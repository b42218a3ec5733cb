import Foundation
import Testing
@testable import BLETrace

/// The HTML report's link charts (issue #28): TX latency to completion per link, packet error rate per channel.
@Suite struct HTMLLinksTests {
    @Test func txLatencyChartForEachLink() throws {
        let html = try HTMLReportTests.render(Samples.gattSession().writer.bytes)
        #expect(html.contains("<h3 id=\"tx-latency\">TX latency to completion</h3>"))
        #expect(html.contains("Connection <a href=\"#connection-1\">#1</a>: 21 packets completed, min 0.30 ms, p50 0.30 ms, p95 0.30 ms, max 0.30 ms"))
        // A histogram of bins chosen from the latencies: all 21 in the bin from 300 µs, with the p50 and p95 marked.
        #expect(html.contains("TX latency of connection #1"))
        #expect(html.contains("≥300 µs: 21"))
        #expect(html.contains(">p50</text>") && html.contains(">p95</text>"))
        #expect(!html.contains("Packet error rate per channel"))
    }

    @Test(.enabled(if: TestSupport.sharedCaptures != nil))
    func perChannelErrorRateOnASnifferCapture() throws {
        let path = try #require(TestSupport.sharedCaptures?.appendingPathComponent("AleBonora3__Tesi_BLE__capture.pcapng").path)
        let html = try HTMLReportTests.render(file: path)
        #expect(html.contains("<h3 id=\"channels\">Packet error rate per channel</h3>"))
        #expect(html.contains("highest packet error rate: 37 19.1 % of 4948"))
    }

    @Test(.enabled(if: TestSupport.sharedCaptures != nil))
    func sniffedLinkChartsOnTheMouseCapture() throws {
        let path = try #require(TestSupport.sharedCaptures?.appendingPathComponent("AleBonora3__Tesi_BLE__mouse.pcapng").path)
        let html = try HTMLReportTests.render(file: path)
        // Throughput from the data PDUs each way, with the connection update marked where it took effect.
        #expect(html.contains("Connection <a href=\"#connection-1\">#1</a>: 686 bytes sent, 1784 received (data PDU payload;"))
        #expect(html.contains("central → peripheral") && html.contains(">update</text>"))
        #expect(html.contains("<h3 id=\"tx-latency\">Latency to acknowledgement</h3>"))
        #expect(html.contains("60 packets acknowledged (from the first transmission)"))
        #expect(html.contains("<h3 id=\"channel-rssi\">RSSI per channel</h3>"))
    }
}

@Suite struct LatencyHistogramDistributionTests {
    @Test func binsFromTheFirstToTheLastSample() {
        var h = LatencyHistogram()
        for v: Int64 in [5, 300, 300, 2_000] { h.add(v) }
        let d = h.distribution(perDecade: 5)
        // From the bin up to 10 µs to the one holding 2 ms, 5 a decade: 0, 10, 15.8, 25.1, … 1585 µs.
        #expect(d.first?.lower == 0 && d.first?.count == 1)
        #expect(d.map(\.count).reduce(0, +) == 4 && d.count == 1 + 5 * 2 + 2)
        #expect(d.contains { abs($0.lower - 251.19) < 0.01 && $0.count == 2 })
        #expect(abs((d.last?.lower ?? 0) - 1584.89) < 0.01 && d.last?.count == 1)
        // Past the exact samples the bins count the same way.
        for _ in 0..<300 { h.add(300) }
        #expect(h.distribution(perDecade: 5).contains { abs($0.lower - 251.19) < 0.01 && $0.count == 302 })
    }
}

@Suite struct HTMLAudioTests {
    @Test(.enabled(if: TestSupport.sharedCaptures != nil))
    func audioStreamsTimeline() throws {
        let path = try #require(TestSupport.sharedCaptures?.appendingPathComponent("bumble_unicast_central.btsnoop").path)
        guard FileManager.default.fileExists(atPath: path) else { return }
        let html = try HTMLReportTests.render(file: path)
        #expect(html.contains("<h3 id=\"audio-streams\">Audio streams</h3>"))
        #expect(html.contains("streaming from record 193 to 264") && html.contains("streaming from record 199 to 265"))
        #expect(html.contains("#1 Sink ASE 1") && html.contains("#1 Source ASE 2"))
        // No loss on this capture: no marks in the audio chart.
        let start = try #require(html.range(of: "id=\"audio-streams\""))
        let rest = html[start.upperBound...]
        let svg = rest[..<(rest.range(of: "</svg>")?.lowerBound ?? rest.endIndex)]
        #expect(!svg.contains("class=\"mark\""))
    }
}
