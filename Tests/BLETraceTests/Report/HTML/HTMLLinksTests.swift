import Foundation
import Testing
@testable import BLETrace

/// The HTML report's link charts (issue #28): TX latency to completion per link, packet error rate per channel.
@Suite struct HTMLLinksTests {
    @Test func txLatencyChartForEachLink() throws {
        let html = try HTMLReportTests.render(Samples.gattSession().writer.bytes)
        #expect(html.contains("<h3 id=\"tx-latency\">TX latency to completion</h3>"))
        #expect(html.contains("Connection <a href=\"#connection-1\">#1</a>: 21 packets completed, min 0.30 ms, p50 0.30 ms, p95 0.30 ms, max 0.30 ms"))
        #expect(html.contains("aria-label=\"TX latency to completion of connection #1\"") || html.contains("TX latency to completion of connection #1"))
        #expect(!html.contains("Packet error rate per channel"))
    }

    @Test(.enabled(if: TestSupport.sharedCaptures != nil))
    func perChannelErrorRateOnASnifferCapture() throws {
        let path = try #require(TestSupport.sharedCaptures?.appendingPathComponent("AleBonora3__Tesi_BLE__capture.pcapng").path)
        let html = try HTMLReportTests.render(file: path)
        #expect(html.contains("<h3 id=\"channels\">Packet error rate per channel</h3>"))
        #expect(html.contains("highest packet error rate: 37 19.1 % of 4948"))
    }
}
