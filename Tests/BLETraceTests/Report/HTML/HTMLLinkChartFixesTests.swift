import Foundation
import Testing
@testable import BLETrace

/// The HTML report's link charts of issue #37 (items 9 and 10): the latency histogram's bins and marks, the
/// link latency's text, and RSSI per channel without a constant 0 dBm.
@Suite struct HTMLLinkChartFixesTests {
    /// The number in attribute `name` (` name="…"`) of the markup `s` starts with.
    static func number(_ name: String, in s: Substring) -> Double? {
        guard let r = s.range(of: " \(name)=\"") else { return nil }
        return Double(s[r.upperBound...].prefix { $0 != "\"" })
    }

    // MARK: Item 9: latency histogram and its text

    /// The value a bar's title starts with ("≥390 µs: 3", "≥1.2 ms: 4"), in µs.
    static func edge(_ title: Substring) -> Double? {
        let t = title.drop { $0 == "≥" }.prefix { $0 != ":" }
        let parts = t.split(separator: " ")
        guard parts.count == 2, let v = Double(parts[0]) else { return nil }
        return parts[1] == "s" ? v * 1_000_000 : parts[1] == "ms" ? v * 1_000 : v
    }

    /// Latencies of 300 to 330 µs and five of 399 to 430 µs (as whad's acknowledgements): the bins resolve them,
    /// and each percentile's mark is on the bar that holds its value.
    @Test func linkLatencyHistogramResolvesTheDistribution() throws {
        var l = LatencyHistogram()
        for i in 0..<80 { l.add(Int64(300 + i % 31)) }
        for v: Int64 in [399, 405, 412, 420, 430] { l.add(v) }
        let svg = Substring(HTMLLinks.histogram(l, label: "TX latency"))
        let bars = HTMLReportFixesTests.attribute("x", of: "<rect ", in: svg).map { bar -> (x: Double, width: Double, edge: Double) in
            let width = HTMLLinkChartFixesTests.number("width", in: bar.rest) ?? 0
            let title = bar.rest[bar.rest.range(of: "<title>")!.upperBound...]
            return (bar.value, width, HTMLLinkChartFixesTests.edge(title) ?? -1)
        }
        #expect(bars.count >= 8, "\(bars.count) bins")
        let marks = HTMLReportFixesTests.attribute("x1", of: "<line ", in: svg).filter { $0.rest.contains("class=\"mark\"") }.map(\.value)
        let values = [try #require(l.percentile(50)), try #require(l.percentile(95))]
        #expect(marks.count == 2 && values == [314, 399])
        for (x, v) in zip(marks, values) {
            let i = try #require(bars.lastIndex { $0.x - 1 <= x }, "\(x)")
            #expect(x <= bars[i].x + bars[i].width + 1, "\(v) µs: mark at \(x) beyond its bar")
            #expect(bars[i].edge <= Double(v), "\(v) µs on the bar from \(bars[i].edge)")
            if i + 1 < bars.count { #expect(Double(v) < bars[i + 1].edge, "\(v) µs before \(bars[i + 1].edge)") }
        }
    }

    /// Link latencies in ms are rounded, not cut: 319 µs is 0.32 ms, in the HTML and the text summary alike.
    @Test func linkLatencyMillisecondsAreRounded() {
        #expect(LinkStatistics.ms(319) == "0.32")
        #expect(LinkStatistics.ms(314) == "0.31")
        #expect(LinkStatistics.ms(15_305) == "15.31")
        #expect(LinkStatistics.ms(0) == "0.00")
    }

    @Test(.enabled(if: HTMLReportFixesTests.shared(HTMLReportFixesTests.whad) != nil))
    func whadAcknowledgementLatency() throws {
        let path = try #require(HTMLReportFixesTests.shared(HTMLReportFixesTests.whad))
        let h = try HTMLReportTests.render(file: path)
        let section = try HTMLReportFixesTests.slice(h, from: "<h3 id=\"tx-latency\">", to: "</svg>")
        #expect(section.contains("85 packets acknowledged (from the first transmission), min 0.30 ms, p50 0.32 ms,"))
        #expect(HTMLReportTests.count(String(section), "class=\"bar\"") >= 8)
    }

    // MARK: Item 10: a constant 0 dBm is not an RSSI

    /// whad's sniffer marks the signal valid and writes 0 dBm on 37 channels: those are left out, and a note says why.
    @Test(.enabled(if: HTMLReportFixesTests.shared(HTMLReportFixesTests.whad) != nil))
    func whadConstantZeroRSSIIsLeftOut() throws {
        let h = try HTMLReportTests.render(file: try #require(HTMLReportFixesTests.shared(HTMLReportFixesTests.whad)))
        let section = try HTMLReportFixesTests.slice(h, from: "<h3 id=\"channel-rssi\">", to: "</svg>")
        #expect(section.contains("37 channels left out"))
        #expect(section.contains("0 dBm"))
        // Only channel 35 (one packet at -44 dBm) is drawn.
        #expect(HTMLReportTests.count(String(section), "<circle") == 1)
    }

    /// Channels whose every reading is 0 dBm are left out of the RSSI chart; a 0 among real readings stays, and
    /// with no measured channel at all the note stands in the chart's place.
    @Test func constantZeroChannelsAreLeftOut() {
        var list = [ChannelCounts](repeating: ChannelCounts(), count: 40)
        for ch in 0..<37 { for _ in 0..<5 { list[ch].add(bad: false, rssi: 0) } }
        let none = HTMLLinks.channels(list)
        #expect(none.contains("All 37 channels with an RSSI left out") && !none.contains("aria-label=\"mean RSSI per channel\""))
        list[3].add(bad: false, rssi: -60)
        list[38].add(bad: false, rssi: -70)
        let some = HTMLLinks.channels(list)
        #expect(some.contains("36 channels left out") && some.contains("aria-label=\"mean RSSI per channel\""))
        #expect(HTMLReportTests.count(some, "<circle") == 2)
        #expect(!list[3].rssiConstantZero && list[4].rssiConstantZero && !list[39].rssiConstantZero)
    }
}
