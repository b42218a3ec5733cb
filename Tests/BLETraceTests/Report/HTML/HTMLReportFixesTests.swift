import Foundation
import Testing
@testable import BLETrace

/// The HTML report's defects of issue #27, each checked on a rendered report.
@Suite struct HTMLReportFixesTests {
    static func shared(_ name: String) -> String? {
        guard let dir = TestSupport.sharedCaptures else { return nil }
        let path = dir.appendingPathComponent(name).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    static let syed = "Syed-Bipul-Rahman__bluethooth_light_controll__btsnoop_hci.log"
    static let crackle = "mikeryan__crackle__tests__01_crack__pairing_and_ltk_exchange.pcap"
    static let whad = "whad-team__whad-client__whad__resources__pcaps__ble_pairing.pcap"

    /// The markup from `start` to the first `end` after it.
    static func slice(_ h: String, from start: String, to end: String) throws -> Substring {
        let a = try #require(h.range(of: start), "\(start)")
        let b = try #require(h[a.upperBound...].range(of: end), "\(end)")
        return h[a.lowerBound..<b.upperBound]
    }

    /// The numbers of an attribute (`x="…"`) of the elements in `svg` that start with `element`.
    static func attribute(_ name: String, of element: String, in svg: Substring) -> [(value: Double, rest: Substring)] {
        svg.components(separatedBy: element).dropFirst().compactMap { part in
            let part = " " + part
            guard let r = part.range(of: " \(name)=\"") else { return nil }
            return Double(part[r.upperBound...].prefix { $0 != "\"" }).map { ($0, Substring(part)) }
        }
    }

    static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    // MARK: Devices

    @Test(.enabled(if: shared(syed) != nil)) func syedConnectedDevicesAreInTheTable() throws {
        let path = try #require(HTMLReportFixesTests.shared(HTMLReportFixesTests.syed))
        let h = try HTMLReportTests.render(file: path)
        let (_, summary) = TestSupport.analyze(try CaptureFile.open(path: path), path: path)
        let devices = try #require(HTMLHeader.section(summary, "devices"))
        guard case let .list(list)? = devices["devices"] else { Issue.record("no devices"); return }
        let connected = list.compactMap(\.objectValue).filter { $0["connected"] == .bool(true) }.compactMap { $0["address"]?.stringValue }
        #expect(connected.count == 2)
        let table = try HTMLReportFixesTests.slice(h, from: "<table class=\"devices\">", to: "</table>")
        for a in connected { #expect(table.contains("<code>\(a)</code>"), "\(a)") }
    }

    // MARK: Sniffer captures

    @Test(.enabled(if: shared(crackle) != nil)) func snifferConnectionHasRolesKeysAndEncryptionMarker() throws {
        let h = try HTMLReportTests.render(file: try #require(HTMLReportFixesTests.shared(HTMLReportFixesTests.crackle)))
        #expect(!h.contains("<th>Local role</th>"))
        #expect(h.contains("<tr><th>Roles</th><td>the peer is the peripheral (sniffed, so there is no local host)</td></tr>"))
        #expect(h.contains("<tr><th>TK cracked</th><td>000000 (Just Works)</td></tr>"))
        #expect(h.contains("<tr><th>STK</th><td><code>59d4b35ece0df548c10efe17e9da1f4c</code></td></tr>"))
        #expect(h.contains("<tr><th>LTK</th><td><code>7f62c053f104a5bbe68b1d896a2ed49c</code> (distributed at record 589)</td></tr>"))
        #expect(h.contains("<tr><th>Decrypted</th><td>3 PDUs, 0 MIC failures</td></tr>"))
        let bars = try HTMLReportFixesTests.slice(h, from: "aria-label=\"connection timeline\"", to: "</svg>")
        #expect(bars.contains("class=\"marker m-encryption\""))
        #expect(bars.contains("class=\"marker m-disconnect\""))
    }

    @Test(.enabled(if: shared(whad) != nil)) func whadPairingHasItsPasskeyAndEncryptionMarker() throws {
        let h = try HTMLReportTests.render(file: try #require(HTMLReportFixesTests.shared(HTMLReportFixesTests.whad)))
        #expect(!h.contains("<th>Local role</th>"))
        #expect(h.contains("<tr><th>TK cracked</th><td>passkey 000000</td></tr>"))
        #expect(h.contains("<tr><th>LTK</th><td><code>0e0596ef16cf17cc48357ee19da96728</code> (distributed at record 1292)</td></tr>"))
        #expect(h.contains("<tr><th>Decrypted</th><td>81 PDUs, 0 MIC failures</td></tr>"))
        #expect(try HTMLReportFixesTests.slice(h, from: "aria-label=\"connection timeline\"", to: "</svg>").contains("class=\"marker m-encryption\""))
    }

    /// An HCI capture keeps its local role and has no sniffer's key rows.
    @Test func hciConnectionKeepsItsLocalRole() throws {
        let h = try HTMLReportTests.render(Samples.encryptedLink().writer.bytes)
        #expect(h.contains("<tr><th>Local role</th><td>central</td></tr>"))
        #expect(!h.contains("<th>Roles</th>") && !h.contains("<th>Decrypted</th>"))
    }

    // MARK: Identity

    @Test func identityIsWrittenAsTheTextSummaryDoes() throws {
        let h = try HTMLReportTests.render(Samples.gattSession().writer.bytes)
        let cards = try HTMLReportFixesTests.slice(h, from: "<h3 id=\"identity\">", to: "</table>")
        #expect(cards.contains("<tr><th>Device name</th><td>&quot;Thermo-42&quot;</td></tr>"))
        #expect(cards.contains("<tr><th>Appearance</th><td>Thermometer</td></tr>"))
        #expect(cards.contains("<tr><th>PnP ID</th><td>SIG vendor 0x0059 (Nordic Semiconductor ASA) product 0x0001 version 1.0.0</td></tr>"))
        for json in ["vendor_id_source", "category Thermometer", "value 768", "device name"] { #expect(!cards.contains(json), "\(json)") }
        // The text summary's line is made of the same parts.
        let (_, summary) = try TestSupport.analyze(Samples.gattSession())
        let line = try #require(summary.sections.first { $0.name == "identity" }?.text.dropFirst().first)
        #expect(line.contains("\"Thermo-42\", Acme Sensors, TH-1, firmware 1.4.2, appearance Thermometer, PnP SIG vendor 0x0059"))
    }

    // MARK: Sequence chart

    @Test func sequenceCollapsesOnlyEqualValuesAndKeepsErrorNames() throws {
        let h = try HTMLReportTests.render(Samples.gattSession().writer.bytes)
        let svg = try HTMLReportFixesTests.slice(h, from: "aria-label=\"message sequence of connection #1\"", to: "</svg>")
        // The notifications were 89, 89 and 88.
        #expect(svg.contains("Battery Level (Battery): 89% ×2</text>"))
        #expect(svg.contains("Battery Level (Battery): 88%</text>"))
        #expect(!svg.contains("×3"))
        #expect(svg.contains("…: Read Not Permitted (15.30 ms)</text>"))
    }

    @Test func sequenceLabelsStayInsideThePicture() throws {
        let h = try HTMLReportTests.render(Samples.gattSession().writer.bytes)
        let svg = try HTMLReportFixesTests.slice(h, from: "aria-label=\"message sequence of connection #1\"", to: "</svg>")
        let labels = HTMLReportFixesTests.attribute("x", of: "<text ", in: svg).filter { $0.rest.contains("class=\"label") }
        #expect(labels.count > 40)
        for (x, rest) in labels {
            let text = String(rest[rest.index(after: try #require(rest.firstIndex(of: ">")))...].prefix { $0 != "<" })
            let w = SVGWriter.textWidth(HTMLReportFixesTests.unescape(text))
            let right = rest.contains("text-anchor=\"middle\"") ? x + w / 2 : x + w
            #expect(right <= HTMLSequence.width, "\(text)")
        }
    }

    // MARK: Charts

    /// 100 s of scanning a watch's adverts before anything connects: a connection's charts then start late.
    static func scanningFor100Seconds() -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        s.startScan()
        for _ in 0..<100 {
            s.advert(addressType: 1, address: Samples.watch, data: HCIBuilder.ad(0x01, [0x06]), rssi: -60)
            s.advance(ms: 1000)
        }
        return s
    }

    /// A connection that opens 100 s into the capture has its throughput drawn over its own 4 s.
    @Test func throughputCoversTheConnectionsLifetime() throws {
        let s = HTMLReportFixesTests.scanningFor100Seconds()
        Samples.gattSession(s, handle: 0x0040, peer: Samples.thermo)
        let h = try HTMLReportTests.render(s.writer.bytes)
        let svg = try HTMLReportFixesTests.slice(h, from: "aria-label=\"throughput of connection #1\"", to: "</svg>")
        let points = try #require(svg.range(of: " points=\""))
        let first = try #require(Double(svg[points.upperBound...].prefix { $0 != "," }))
        // The plot area runs from x 56 to 628: the first bucket's middle (0.5 s of 4) is in its first fifth, not at 97 %.
        #expect(first < 56 + 572 / 5)
        #expect(svg.contains(">102</text>"))
    }

    @Test func rssiLineBreaksAtGaps() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        s.startScan()
        for burst in 0..<2 {
            for i in 0..<20 {
                s.advert(addressType: 1, address: Samples.watch, data: HCIBuilder.ad(0x01, [0x06]), rssi: Int8(-60 - i % 5))
                s.advance(ms: 200)
            }
            if burst == 0 { s.advance(ms: 300_000) }
        }
        let h = try HTMLReportTests.render(s.writer.bytes)
        let chart = try HTMLReportFixesTests.slice(h, from: "data-device=\"\(Samples.watch)\"", to: "</svg>")
        #expect(HTMLReportTests.count(String(chart), "<polyline data-points=\"20\"") == 2)
        #expect(SVGChart.segments([(0, 1), (1, 1), (2, 1), (50, 1), (51, 1)]).map(\.count) == [3, 2])
        #expect(SVGChart.segments([(0, 1), (1, 1), (2.5, 1), (3, 1)]).map(\.count) == [4])
    }

    /// gatt-session's latencies lie between 15.30 and 15.60 ms: several bars, not one `≥15 ms`.
    @Test func latencyBinsFollowTheData() throws {
        let h = try HTMLReportTests.render(Samples.gattSession().writer.bytes)
        let svg = try HTMLReportFixesTests.slice(h, from: "aria-label=\"ATT response latency distribution\"", to: "</svg>")
        #expect(HTMLReportTests.count(String(svg), "class=\"bar\"") > 3)
        #expect(!svg.contains(">≥15 ms<"))
        let b = Bins([15_300, 15_300, 15_450, 15_600])
        #expect(!b.logarithmic && b.counts.reduce(0, +) == 4 && b.counts.count > 3)
        #expect(b.position(15_300) < 1 && b.position(15_600) >= Double(b.counts.count) - 1)
        let wide = Bins([900, 1_200, 40_000, 2_500_000])
        #expect(wide.logarithmic && wide.counts.reduce(0, +) == 4 && wide.edges.first == 700 && (wide.edges.last ?? 0) > 2_500_000)
        #expect(Bins([5_000]).counts == [1])
    }

    /// Marks close together have their labels on separate rows or apart on one row, never overlapping.
    @Test func percentileLabelsDoNotOverlap() throws {
        let placed = SVGChart.markLabels([(100, "p50"), (102, "p95"), (104, "p99"), (300, "p99.9"), (630, "p100")], right: 628)
        for i in placed.indices {
            let a = placed[i], wa = SVGWriter.textWidth(["p50", "p95", "p99", "p99.9", "p100"][i])
            #expect(a.end ? a.x <= 628 : a.x + wa <= 628)
            for j in placed.indices where j > i && placed[j].row == a.row {
                let b = placed[j], wb = SVGWriter.textWidth(["p50", "p95", "p99", "p99.9", "p100"][j])
                let (a0, a1) = a.end ? (a.x - wa, a.x) : (a.x, a.x + wa), (b0, b1) = b.end ? (b.x - wb, b.x) : (b.x, b.x + wb)
                #expect(a1 <= b0 || b1 <= a0, "\(i) \(j)")
            }
        }
        #expect(placed[0].row != placed[1].row && placed[3].row == 0)
    }

    // MARK: --summary-only

    @Test func summaryOnlyHasNoTimeline() throws {
        let path = TestSupport.temporaryFile(Samples.gattSession().writer.bytes, suffix: ".btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for summaryOnly in [true, false] {
            var run = AnalyzeRun()
            run.format = .html
            run.summaryOnly = summaryOnly
            let out = OutputWriter()
            _ = try run.run(open: { try InputOpener.open(path: path) }, path: path, out: out)
            #expect(out.text.contains("<h2 id=\"timeline\">") != summaryOnly)
            #expect(out.text.contains("href=\"#timeline\"") != summaryOnly)
            #expect(out.text.contains("<h2 id=\"charts\">"))
        }
    }
}
