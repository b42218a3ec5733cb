import Foundation
import Testing
@testable import BLETrace

/// The HTML report's rate charts, units, mark labels and edges (issue #37, items 8 and 11), checked on rendered charts.
@Suite struct HTMLChartFixesTests {
    /// The numbers of a polyline's `points` (picture x, y).
    static func polyline(_ svg: Substring) throws -> [(x: Double, y: Double)] {
        let a = try #require(svg.range(of: " points=\""))
        return svg[a.upperBound...].prefix { $0 != "\"" }.split(separator: " ").compactMap { p in
            let xy = p.split(separator: ",").compactMap { Double($0) }
            return xy.count == 2 ? (xy[0], xy[1]) : nil
        }
    }

    /// A connection opened 100 s into the capture: notifications every 100 ms for 10 s, then 10 s without any,
    /// then the disconnect.
    static func lateNotifications() -> Scenario {
        let s = HTMLReportFixesTests.scanningFor100Seconds()
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        for i in 0..<100 {
            s.attIn(0x0040, [0x1B] + HCIBuilder.le16(0x000E) + [UInt8(90 - i % 3)])
            s.advance(ms: 95)
        }
        s.advance(ms: 10_000)
        s.disconnect(handle: 0x0040)
        return s
    }

    // MARK: Item 8: rate lines over the connection's span

    /// The notification rate starts at the connection's opening (not at the capture's first record, 100 s
    /// before) and goes on to its close, down to 0 after the last notification instead of ending mid-climb.
    @Test func notificationRateCoversTheConnectionsSpan() throws {
        let h = try HTMLReportTests.render(HTMLChartFixesTests.lateNotifications().writer.bytes)
        let svg = try HTMLReportFixesTests.slice(h, from: "aria-label=\"notification rate of", to: "</svg>")
        let points = try HTMLChartFixesTests.polyline(svg)
        // About 20 one-second buckets from the opening to the close, not 110 from the first record.
        #expect((19...21).contains(points.count), "\(points.count)")
        // The last point is at 0 per second (the plot's bottom, y 116) near the right end of the plot (634).
        #expect(points.last?.y == 116)
        #expect((points.last?.x ?? 0) > 600)
    }

    /// The throughput goes on to the connection's close (down to 0 when the data stopped).
    @Test func throughputGoesOnToTheClose() throws {
        let h = try HTMLReportTests.render(HTMLChartFixesTests.lateNotifications().writer.bytes)
        let svg = try HTMLReportFixesTests.slice(h, from: "aria-label=\"throughput of connection #1\"", to: "</svg>")
        let line = try #require(svg.components(separatedBy: "<polyline").first { $0.contains("class=\"series s1\"") })
        let received = try HTMLChartFixesTests.polyline(Substring(line))
        #expect((19...21).contains(received.count), "\(received.count)")
        #expect(received.last?.y == 146)
    }

    /// A connection of under 2 s: its rates are points, not a two-point line, and the text says why.
    @Test func shortConnectionRatesArePoints() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        for i in 0..<12 {
            s.attIn(0x0040, [0x1B] + HCIBuilder.le16(0x000E) + [UInt8(90 - i % 3)])
            s.advance(ms: 120)
        }
        s.disconnect(handle: 0x0040)
        let h = try HTMLReportTests.render(s.writer.bytes)
        for label in ["notification rate of", "throughput of connection #1"] {
            let svg = try HTMLReportFixesTests.slice(h, from: "aria-label=\"\(label)", to: "</svg>")
            #expect(!svg.contains("<polyline"), "\(label)")
            #expect(svg.contains("class=\"dot "), "\(label)")
        }
        #expect(h.contains("too short for a line: one point per 1 s"))
    }

    // MARK: Item 11: units, labels, edges

    @Test func throughputIsInBitsPerSecondAsTheText() throws {
        let h = try HTMLReportTests.render(Samples.gattSession().writer.bytes)
        #expect(!h.contains("bytes/s"))
        let svg = try HTMLReportFixesTests.slice(h, from: "aria-label=\"throughput of connection #1\"", to: "</svg>")
        #expect(svg.contains("class=\"axis-title\">bit/s</text>"))
        #expect(h.contains("(ACL payload; bit/s per 1 s"))
    }

    @Test func connectionTimelineAxisHasItsUnit() throws {
        let h = try HTMLReportTests.render(Samples.gattSession().writer.bytes)
        let svg = try HTMLReportFixesTests.slice(h, from: "aria-label=\"connection timeline\"", to: "</svg>")
        #expect(svg.contains("class=\"axis-title\">seconds since the first record</text>"))
    }

    /// Three updates within 0.1 s share one label, after their last line; one far from them keeps its own.
    @Test func closeUpdateMarksShareALabel() {
        let svg = SVGChart.line([SVGChart.Series(name: "a", points: [(0, 1), (10, 2)], style: "s0")], label: "t", xTitle: "s", yTitle: "bit/s",
                                marks: [(1.0, "update"), (1.05, "update"), (1.1, "update"), (6, "update")])
        #expect(HTMLReportTests.count(svg, "class=\"mark\"") == 4)
        #expect(HTMLReportTests.count(svg, "class=\"mark-label\"") == 2)
        #expect(svg.contains(">update ×3</text>") && svg.contains(">update</text>"))
        // No mark line crosses a label: every label starts right of the lines before it.
        let lines = HTMLReportFixesTests.attribute("x1", of: "<line ", in: Substring(svg)).filter { $0.rest.contains("class=\"mark\"") }.map(\.value)
        let labels = HTMLReportFixesTests.attribute("x", of: "<text ", in: Substring(svg)).filter { $0.rest.contains("class=\"mark-label\"") }
        for (x, rest) in labels {
            let text = String(rest[rest.index(after: rest.firstIndex(of: ">")!)...].prefix { $0 != "<" })
            for l in lines { #expect(l < x || l > x + SVGWriter.textWidth(text), "line \(l) crosses \(text) at \(x)") }
        }
    }

    /// Points at both ends of the x domain are drawn whole inside the plot (56 … 628), not half over its edges.
    @Test func edgePointsAreDrawnWhole() {
        let svg = SVGChart.line([SVGChart.Series(name: "RSSI", points: [(0, -50), (20, -60), (39, -55)], style: "s2")], label: "RSSI",
                                xTitle: "channel", yTitle: "dBm", height: 180, xMin: 0, xMax: 39, dots: true)
        let circles = HTMLReportFixesTests.attribute("cx", of: "<circle ", in: Substring(svg))
        #expect(circles.count == 3)
        for c in circles {
            let r = HTMLLinkChartFixesTests.number("r", in: c.rest) ?? 0
            #expect(c.value - r > 56 && c.value + r < 628, "\(c.value)")
        }
    }
}
