import Foundation
import Testing
@testable import BLETrace

/// Decoded strings are shown safely: control characters escaped visibly in text and Markdown, `|` escaped in
/// Markdown tables; and a damaged file's text summary says that reading stopped.
@Suite struct SafeTextTests {
    @Test func escapesControlCharactersVisibly() {
        #expect(SafeText.escaped("a\u{1B}]0;title\u{07}b\r\nc\td\u{7F}e\u{9B}f") == "a\\x1b]0;title\\x07b\\r\\nc\\td\\x7fe\\u009bf")
        #expect(SafeText.escaped("Thermo-42 → 90% é") == "Thermo-42 → 90% é")
        #expect(SafeText.markdownCellCode("a|b\n") == "`a\\|b\\n`")
    }

    /// An advertiser whose name holds an ESC sequence (sets a terminal's title), CR/LF and a '|'.
    static func hostileScan() -> [UInt8] {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.startScan()
        let name = Array("Evil\u{1B}]0;pwned\u{07}\r\nName|x".utf8)
        let data: [UInt8] = [0x02, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name
        s.advert(type: 0, addressType: 0, address: BDAddr(0x11_22_33_44_55_66), data: data, rssi: -60)
        return s.writer.bytes
    }

    static func render(_ format: AnalyzeRun.Format, _ bytes: [UInt8]) throws -> String {
        let path = TestSupport.temporaryFile(bytes, suffix: ".btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var run = AnalyzeRun()
        run.format = format
        run.style = TextStyle(color: false, time: .relative, width: 0)
        let out = OutputWriter()
        _ = try run.run(open: { try InputOpener.open(path: path) }, path: path, out: out)
        let devices = OutputWriter()
        Listings.devices(try InputOpener.open(path: path), path: path, format: .text, out: devices)
        return out.text + devices.text
    }

    @Test(arguments: [AnalyzeRun.Format.text, .markdown])
    func noControlCharacterReachesTheOutput(format: AnalyzeRun.Format) throws {
        let text = try SafeTextTests.render(format, SafeTextTests.hostileScan())
        #expect(!text.utf8.contains(0x1B) && !text.utf8.contains(0x07) && !text.utf8.contains(0x0D))
        #expect(text.contains("Evil\\x1b]0;pwned\\x07\\r\\nName"))
        // Every line break is the renderer's own: the name never splits a line.
        for line in text.split(separator: "\n") where line.contains("Evil") { #expect(line.contains("Name")) }
        if format == .markdown {
            // In the devices table the name's '|' does not open a new cell.
            let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("| `11:22:33:44:55:66`") })
            #expect(row.contains("Name\\|x"))
        }
    }

    @Test func jsonEscapesControlCharactersItself() throws {
        let text = try SafeTextTests.render(.json, SafeTextTests.hostileScan())
        #expect(!text.utf8.contains(0x1B))
        #expect(text.contains("Evil\\u001b]0;pwned\\u0007\\r\\nName|x"))
    }

    @Test func damagedFileTextSummarySaysReadingStopped() throws {
        let bytes = Samples.scan().writer.bytes
        // Cut inside a record before the sample's malformed advert: no finding in what was read.
        let path = TestSupport.temporaryFile(Array(bytes.prefix(1000)), suffix: ".btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var run = AnalyzeRun()
        run.summaryOnly = true
        let out = OutputWriter()
        let result = try run.run(open: { try InputOpener.open(path: path) }, path: path, out: out)
        let e = try #require(result.summary.error)
        #expect(out.text.contains("  Damaged:     reading stopped: \(e.description); everything below covers the \(result.summary.stats.records) records before it"))
        #expect(out.text.contains("  Findings:    none before the damage"))
        #expect(!out.text.contains("Findings:    none (no ATT errors"))
        // An intact file keeps its plain line.
        let whole = TestSupport.temporaryFile(bytes, suffix: ".btsnoop")
        defer { try? FileManager.default.removeItem(atPath: whole) }
        let plain = OutputWriter()
        _ = try run.run(open: { try InputOpener.open(path: whole) }, path: whole, out: plain)
        #expect(!plain.text.contains("Damaged"))
        #expect(plain.text.contains("  Findings:    1"))
    }
}
