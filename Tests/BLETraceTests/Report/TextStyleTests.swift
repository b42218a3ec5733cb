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

    @Test func byteWrappingMatchesCharacterWrapping() {
        let words = ["ATT", "Read Response", "handle 0x0003", "Battery Level (Battery):", "0x0001–0x0005", "→", "…",
                     "café", "naïve", "µs", "±3 °C", "“quoted”", "x", "aVeryLongWordWithoutAnySpacesThatMustBeCutHard"]
        var texts: [String] = []
        var seed: UInt64 = 7
        for n in 0..<200 {
            var t = ""
            for _ in 0..<(5 + n % 40) {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                t += (t.isEmpty ? "" : String(repeating: " ", count: Int(seed >> 62) + 1)) + words[Int(seed >> 33) % words.count]
            }
            texts.append(t)
        }
        // Long ASCII runs before, between and after other characters (the wrap takes an ASCII run a byte a
        // character and counts from its end).
        texts += [String(repeating: "plain ascii words ", count: 12) + "— then more",
                  String(repeating: "x", count: 150) + "é" + String(repeating: " y", count: 40),
                  "café " + String(repeating: "ascii ", count: 40) + "→ end " + String(repeating: "z ", count: 30) + "±",
                  String(repeating: "ab ", count: 13) + "µ" + String(repeating: "cd ", count: 30)]
        for width in [45, 60, 100] {
            for tint in [nil, ANSI.cyan] {
                for text in texts {
                    let a = OutputWriter(), b = OutputWriter()
                    let ra = TextRenderer(out: a, style: TextStyle(width: width))
                    let rb = TextRenderer(out: b, style: TextStyle(width: width))
                    let room = width - ra.indent
                    #expect(ra.writeWrappedSimple(text, room: room, tint: tint))
                    rb.writeWrappedCharacters(text, room: room, tint: tint)
                    #expect(a.text == b.text)
                }
            }
        }
        // Combining marks, emoji and controls are left to the Character path.
        let r = TextRenderer(out: OutputWriter(), style: TextStyle(width: 60))
        for text in ["e\u{301}", "👍🏽", "a\tb", "a\r\nb", "flag 🇫🇷"] {
            #expect(!r.writeWrappedSimple(text + String(repeating: " word", count: 30), room: 20, tint: nil))
        }
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
