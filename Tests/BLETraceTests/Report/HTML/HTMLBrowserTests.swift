import Foundation
import XCTest
@testable import BLETrace

/// Renders sample reports in headless Chromium (Debian's `chromium`): the DOM the browser builds holds the
/// findings and charts with as many points as the capture gives, and a screenshot is drawn. Skipped when
/// chromium is not installed (`scripts/setup.sh --with-chromium` installs it).
final class HTMLBrowserTests: XCTestCase {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/local/bin/chromium", "/usr/bin/chromium-browser"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs chromium headless on `page` with `args`; returns its standard output. Stopped after two minutes.
    static func runChromium(_ args: [String], page: String) throws -> Data {
        let profile = NSTemporaryDirectory() + "bletrace-chromium-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: chromium ?? "/usr/bin/chromium")
        p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + profile] + args
            + [URL(fileURLWithPath: page).absoluteString]
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = profile
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let killer = DispatchWorkItem { if p.isRunning { p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: killer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        killer.cancel()
        return data
    }

    static func write(_ s: Scenario) throws -> (page: String, events: [TraceEvent], summary: Summary) {
        let bytes = s.writer.bytes
        let html = try HTMLReportTests.render(bytes)
        let page = TestSupport.temporaryFile(Array(html.utf8), suffix: ".html")
        let (events, summary) = TestSupport.analyze(try CaptureFile.open(bytes: bytes))
        return (page, events, summary)
    }

    /// The number of points of each polyline in `dom` after `marker` and before the next `</svg>`.
    static func polylinePoints(_ dom: String, after marker: String) -> [Int]? {
        guard let start = dom.range(of: marker) else { return nil }
        let rest = dom[start.upperBound...]
        guard let end = rest.range(of: "</svg>") else { return nil }
        var counts: [Int] = []
        var scan = rest[..<end.lowerBound]
        while let r = scan.range(of: " points=\"") {
            let value = scan[r.upperBound...].prefix { $0 != "\"" }
            counts.append(value.split(separator: " ").count)
            scan = scan[r.upperBound...]
        }
        return counts
    }

    func testDOMHoldsFindingsAndChartPointsAndTheScreenshotIsDrawn() throws {
        guard HTMLBrowserTests.chromium != nil else { throw XCTSkip("chromium is not installed") }
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        s.startScan()
        Samples.scanBurst(s, rounds: 6)
        Samples.gattSession(s, handle: 0x0040, peer: Samples.thermo, notifications: 30)
        let (page, events, summary) = try HTMLBrowserTests.write(s)
        defer { try? FileManager.default.removeItem(atPath: page) }

        let dom = String(decoding: try HTMLBrowserTests.runChromium(["--dump-dom"], page: page), as: UTF8.self)
        XCTAssertTrue(dom.contains("<h2 id=\"findings\">Findings</h2>"), "no DOM dumped")
        // Every finding of the analysis is a row of the findings table.
        let findings = try XCTUnwrap(summary.sections.first { $0.name == "findings" }?.value.objectValue)
        guard case let .list(list)? = findings["list"] else { return XCTFail("no findings") }
        XCTAssertFalse(list.isEmpty)
        for case let .object(f) in list {
            let text = try XCTUnwrap(f["text"]?.stringValue)
            // As the browser serializes a text node: only &, < and > escaped.
            let serialized = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            XCTAssertTrue(dom.contains(serialized), text)
        }

        // RSSI: a point per reading of each advertising device.
        var readings: [String: Int] = [:]
        for e in events { if case let .adv(a) = e.body { for r in a.reports where r.rssi != nil && r.rssi != 127 { readings[r.address.description, default: 0] += 1 } } }
        XCTAssertGreaterThan(readings.count, 2)
        for (address, n) in readings {
            XCTAssertEqual(HTMLBrowserTests.polylinePoints(dom, after: "data-device=\"\(address)\""), [n], address)
        }
        // Notification rate and throughput each way: a point per second over the connection's span, from its first
        // event to its close (a last part under half a second joins the second before it).
        let opened = try XCTUnwrap(events.first { $0.connection == 1 }).timestamp.micros
        let closed = try XCTUnwrap(summary.connections.first?.closedAt).micros
        let seconds = Int((closed - opened + 999_999) / 1_000_000)
        let points = seconds > 1 && (closed - opened) - Int64(seconds - 1) * 1_000_000 < 500_000 ? seconds - 1 : seconds
        XCTAssertEqual(HTMLBrowserTests.polylinePoints(dom, after: "aria-label=\"notification rate of"), [points])
        XCTAssertEqual(HTMLBrowserTests.polylinePoints(dom, after: "aria-label=\"throughput of connection #1\""), [points, points])
        // Battery: a point per reading.
        let readingsOfBattery = events.filter { if case let .att(a) = $0.body, case .battery? = a.decodedValue?.fact { return true }; return false }
        XCTAssertEqual(HTMLBrowserTests.polylinePoints(dom, after: "aria-label=\"battery of"), [readingsOfBattery.count])

        // The screenshot: a PNG, and not a blank page.
        let png = NSTemporaryDirectory() + "bletrace-shot-" + UUID().uuidString + ".png"
        defer { try? FileManager.default.removeItem(atPath: png) }
        _ = try HTMLBrowserTests.runChromium(["--window-size=1200,1600", "--screenshot=" + png], page: page)
        let shot = try Data(contentsOf: URL(fileURLWithPath: png))
        XCTAssertEqual(Array(shot.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertGreaterThan(shot.count, 30_000)
    }
}
