import Foundation
import Testing
@testable import BLETrace

@Suite struct HTMLReportTests {
    /// Renders a capture as `analyze --format html` does.
    static func render(_ bytes: [UInt8], maxEvents: Int = 2000, path: String = "samples/gatt-session.btsnoop") throws -> String {
        let out = OutputWriter()
        let html = HTMLRenderer(out: out, maxEvents: maxEvents)
        let analyzer = Analyzer(sink: html)
        analyzer.addActivityLog()
        html.layers = analyzer.layers
        html.pipeline = analyzer.pipeline
        analyzer.run(try CaptureFile.open(bytes: bytes), path: path)
        return out.text
    }

    /// Renders a capture file (pcap and pcapng are read through libpcap, from a file).
    static func render(file: String) throws -> String {
        let out = OutputWriter()
        let html = HTMLRenderer(out: out)
        let analyzer = Analyzer(sink: html)
        analyzer.addActivityLog()
        html.layers = analyzer.layers
        html.pipeline = analyzer.pipeline
        analyzer.run(try CaptureFile.open(path: file), path: file)
        return out.text
    }

    static func count(_ text: String, _ needle: String) -> Int { text.ranges(of: needle).count }

    @Test func holdsEverySectionAndLinksFindingsToTheTimeline() throws {
        let h = try HTMLReportTests.render(Samples.gattSession().writer.bytes)
        #expect(h.hasPrefix("<!DOCTYPE html>"))
        #expect(h.hasSuffix("</html>\n"))
        for id in ["findings", "devices", "connections", "connection-1", "charts", "latency", "throughput", "notifications", "gatt", "identity", "timeline"] {
            #expect(h.contains("id=\"\(id)\""), "\(id)")
        }
        // The ATT error of record 82 is a finding, linked to its timeline line, which is marked.
        #expect(h.contains("<a href=\"#r82\">82</a>"))
        #expect(h.contains("<span id=\"r82\" class=\"finding\">"))
        #expect(h.contains("Read Not Permitted"))
        // The GATT tree has the values read.
        #expect(h.contains("<code>&quot;1.4.2&quot;</code>"))
        // Opening and closing tags balance.
        for tag in ["table", "svg", "details", "pre", "ul"] {
            #expect(HTMLReportTests.count(h, "<\(tag)") == HTMLReportTests.count(h, "</\(tag)>"), "\(tag)")
        }
    }

    /// Nothing is fetched: no source, style sheet, import or CSS URL, every link is to an anchor of the page,
    /// and no network address at all where the capture holds none (the scan's Eddystone beacon advertises a
    /// URL, which is shown as decoded text).
    @Test func selfContainedWithoutNetworkAddresses() throws {
        for (s, holdsURL) in [(Samples.gattSession(), false), (Samples.ancsSession(), false), (Samples.pairingFailed(), false),
                              (Samples.encryptedLink(), false), (Samples.scan(), true)] {
            let h = try HTMLReportTests.render(s.writer.bytes).lowercased()
            for bad in ["src=", "<link", "@import", "url(", "xmlns", "<iframe", "<img", "<object", "fetch(", "xmlhttprequest"] {
                #expect(!h.contains(bad), "\(bad)")
            }
            #expect(HTMLReportTests.count(h, "href=\"") == HTMLReportTests.count(h, "href=\"#"))
            if !holdsURL { for bad in ["http:", "https:", "//", "www."] { #expect(!h.contains(bad), "\(bad)") } }
            else { #expect(HTMLReportTests.count(h, "https://") == HTMLReportTests.count(h, "eddystone-url https://example.com")) }
        }
    }

    @Test func escapesNamesFromTheCapture() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        s.startScan()
        let name = "<script>alert(1)</script> & Co"
        s.advert(type: 0, addressType: 1, address: Samples.thermo, data: HCIBuilder.ad(0x01, [0x06]) + HCIBuilder.ad(0x09, Array(name.utf8)), rssi: -50)
        s.advance(ms: 100)
        s.advert(type: 0, addressType: 1, address: Samples.thermo, data: HCIBuilder.ad(0x09, Array(name.utf8)), rssi: -55)
        let h = try HTMLReportTests.render(s.writer.bytes)
        #expect(!h.contains("<script>alert"))
        #expect(!h.contains("& Co"))
        #expect(h.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co"))
        // The only script is the report's own.
        #expect(HTMLReportTests.count(h, "<script>") == 1)
    }

    @Test func rssiChartHasAPointPerReading() throws {
        let bytes = Samples.scan().writer.bytes
        let (events, _) = TestSupport.analyze(try CaptureFile.open(bytes: bytes))
        var readings: [String: Int] = [:]
        for e in events { if case let .adv(a) = e.body { for r in a.reports where r.rssi != nil && r.rssi != 127 { readings[r.address.description, default: 0] += 1 } } }
        let h = try HTMLReportTests.render(bytes)
        #expect(!readings.isEmpty)
        for (address, n) in readings {
            let start = try #require(h.range(of: "<div class=\"rssi\" data-device=\"\(address)\">"), "\(address)")
            let chart = h[start.upperBound...].prefix { _ in true }
            let end = try #require(chart.range(of: "</div>"))
            #expect(chart[..<end.lowerBound].contains("data-points=\"\(n)\""), "\(address): \(n)")
        }
    }

    @Test func sequenceCollapsesRepeatedNotificationsAndIsBounded() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        Samples.gattSession(s, handle: 0x0040, peer: Samples.thermo, notifications: 120)
        let h = try HTMLReportTests.render(s.writer.bytes)
        // The values fall by one every second notification: 89, 89, 88, 88, … 30, 30.
        #expect(h.contains("Battery Level (Battery): 89% ×2</text>") && h.contains("Battery Level (Battery): 30% ×2</text>"))
        #expect(HTMLReportTests.count(h, "% ×2</text>") == 60)
        #expect(h.contains("class=\"label\">Read Request: handle 0x000E Battery Level (Battery)</text>"))
        // Responses carry their latency.
        #expect(h.contains("(15.30 ms)</text>"))

        let r = SequenceRecorder(maxSteps: 5, maxConnections: 1)
        let (events, _) = TestSupport.analyze(try CaptureFile.open(bytes: s.writer.bytes))
        for e in events { r.add(e) }
        let chart = try #require(r.charts[1])
        #expect(chart.steps.count == 5)
        let inSequence = events.filter { $0.connection == 1 && SequenceRecorder.arrow($0, sniffed: false) != nil }
        #expect(chart.omitted == inSequence.count - 5)
        #expect(chart.firstOmittedRecord == inSequence[5].record)
    }

    @Test func timelineShowsTheFirstEventsThenTheMarkedOnes() throws {
        let h = try HTMLReportTests.render(Samples.gattSession().writer.bytes, maxEvents: 10)
        let start = try #require(h.range(of: "<pre class=\"timeline\" id=\"timeline-lines\">"))
        let body = h[start.upperBound...].prefix { _ in true }
        let end = try #require(body.range(of: "</pre>"))
        let lines = body[..<end.lowerBound].components(separatedBy: "<span id=").count - 1
        #expect(lines > 10)
        #expect(body.contains("<span id=\"r10\">") && !body.contains("<span id=\"r11\">"))
        #expect(body.contains("<span id=\"r82\" class=\"finding\">"))
        // The same decoded text as the text output.
        let text = TextRenderer.plainLine(TestSupport.analyze(try CaptureFile.open(bytes: Samples.gattSession().writer.bytes)).0[0],
                                          origin: TestSupport.analyze(try CaptureFile.open(bytes: Samples.gattSession().writer.bytes)).0[0].timestamp)
        #expect(body.contains(SVGWriter.escape(text)))
    }
}

/// A sniffer capture's sequence charts have central and peripheral lanes, LL control among the arrows.
@Suite struct HTMLSnifferTests {
    @Test(.enabled(if: TestSupport.sharedCaptures != nil))
    func snifferChartsHaveCentralAndPeripheralLanes() throws {
        let file = try #require(TestSupport.sharedCaptures).appendingPathComponent("AleBonora3__Tesi_BLE__garmin.pcapng").path
        try #require(FileManager.default.fileExists(atPath: file))
        let h = try HTMLReportTests.render(file: file)
        let charts = HTMLReportTests.count(h, "class=\"chart sequence\"")
        #expect(charts >= 1)
        #expect(HTMLReportTests.count(h, "class=\"lane-title\">Central</text>") == charts)
        #expect(HTMLReportTests.count(h, "class=\"lane-title\">Peripheral ") == charts)
        #expect(!h.contains("class=\"lane-title\">Host</text>"))
        #expect(h.contains("class=\"label\">LL_VERSION_IND: "))
    }
}

@Suite struct HTMLRedactionTests {
    /// Every address and name the unredacted report shows (taken from the capture's device inventory and
    /// connections) is gone from the redacted one.
    @Test func noAddressOrNameOfTheUnredactedReportSurvives() throws {
        for s in [Samples.gattSession(), Samples.scan(), Samples.ancsSession(), Samples.diffSession(bad: true)] {
            let bytes = s.writer.bytes
            let plain = try HTMLReportTests.render(bytes)
            let (_, summary) = TestSupport.analyze(try CaptureFile.open(bytes: bytes))
            var originals: [String] = summary.connections.compactMap { $0.peer?.description }
            if let d = summary.sections.first(where: { $0.name == "devices" })?.value.objectValue, case let .list(list)? = d["devices"] {
                for case let .object(x) in list {
                    if let a = x["address"]?.stringValue { originals.append(a) }
                    if case let .list(names)? = x["names"] { originals += names.compactMap { $0.stringValue }.map { SVGWriter.escape($0) } }
                }
            }
            originals = originals.filter { plain.contains($0) }
            #expect(originals.count >= 2)
            let redacted = try RedactorTests.redactedOutput(bytes, format: .html)
            #expect(redacted.hasSuffix("</html>\n"))
            for o in originals { #expect(!redacted.contains(o), "\(o)") }
        }
    }
}
