import Testing
@testable import BLETrace

@Suite struct TextStyleTests {
    func render(_ style: TextStyle) throws -> [Substring] {
        let out = OutputWriter()
        let t = TextRenderer(out: out, style: style)
        t.showSummary = false
        Analyzer(sink: t).run(try CaptureFile.open(bytes: Samples.scan().writer.bytes), path: "scan")
        return out.text.split(separator: "\n")
    }

    @Test func longLinesWrapAtTheWidth() throws {
        let lines = try render(TextStyle(width: 100))
        #expect(lines.allSatisfy { $0.count <= 100 })
        // A continuation line is indented past the prefix columns.
        let continuation = try #require(lines.first { $0.hasPrefix(String(repeating: " ", count: 33)) })
        #expect(!continuation.trimmingPrefix(" ").isEmpty)
        let unwrapped = try render(TextStyle(width: 0))
        #expect(unwrapped.count == Samples.scan().writer.count)
        #expect(unwrapped.contains { $0.count > 100 })
    }

    @Test func timeModes() throws {
        let absolute = try render(TextStyle(time: .absolute, width: 0))
        #expect(absolute[1].hasPrefix("      2 2023-11-14T22:13:20.000600Z > "))
        let delta = try render(TextStyle(time: .delta, width: 0))
        #expect(delta[1].hasPrefix("      2      0.000600 > "))
        #expect(delta[2].hasPrefix("      3      0.000400 < "))
    }

    @Test func colourOnlyWhenWanted() throws {
        #expect(TextStyle.wantsColor("auto", isTerminal: true, environment: [:]))
        #expect(!TextStyle.wantsColor("auto", isTerminal: false, environment: [:]))
        #expect(!TextStyle.wantsColor("auto", isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(TextStyle.wantsColor("always", isTerminal: false, environment: ["NO_COLOR": "1"]))
        #expect(!TextStyle.wantsColor("never", isTerminal: true, environment: [:]))
        let plain = try render(TextStyle(color: false, width: 0))
        #expect(!plain.contains { $0.contains("\u{1B}[") })
        let coloured = try render(TextStyle(color: true, width: 0))
        #expect(coloured.allSatisfy { $0.contains("\u{1B}[") })
    }
}
