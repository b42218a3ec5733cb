import Testing
@testable import BLETrace

/// `TextBytes`, the buffer every event's text line is made on (issue #38): it holds what an array would, through
/// growth and the edits the text renderer makes (a prefix, replaced bytes, a cut, an array round trip).
@Suite struct TextBytesTests {
    @Test("appends across growth hold the bytes an array holds")
    func growth() {
        var t = TextBytes(capacity: 1)
        var a: [UInt8] = []
        var seed: UInt64 = 11
        for i in 0..<2_000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            switch seed >> 62 {
            case 0:
                t.append(UInt8(truncatingIfNeeded: i)); a.append(UInt8(truncatingIfNeeded: i))
            case 1:
                let s = String(repeating: "→x", count: Int(seed >> 58 & 7))
                t.append(string: s); a += Array(s.utf8)
            case 2:
                let v = Int(truncatingIfNeeded: seed >> 20) - (1 << 42)
                t.append(decimal: v); a += Array(String(v).utf8)
            default:
                let bytes = [UInt8](repeating: UInt8(i & 0x7F), count: Int(seed >> 50 & 0xFF))
                t.append(contentsOf: bytes[...]); a += bytes
            }
        }
        #expect(t.count == a.count)
        #expect(t.array == a)
        t.removeAll()
        #expect(t.isEmpty && t.string == "")
    }

    @Test("a prefix, replaced bytes, a cut and an array round trip")
    func edits() {
        var t = TextBytes(capacity: 4)
        t.append(string: "line one\nline two")
        t.prepend(Array("MALFORMED ".utf8))
        #expect(t.string == "MALFORMED line one\nline two")
        #expect(t.starts(with: Array("MALFORMED".utf8)) && !t.starts(with: Array("line".utf8)))
        let longer = t.starts(with: [UInt8](repeating: 0x4D, count: 100))
        #expect(!longer)
        t.replace(0x0A, with: 0x20, from: 12)
        #expect(t.string == "MALFORMED line one line two")
        #expect(t.contains(bytes: Array("one line".utf8)) && !t.contains(bytes: Array("three".utf8)))
        let empty = t.contains(bytes: [])
        #expect(empty)
        t.withArray { $0.removeFirst(10); $0 += Array("!".utf8) }
        #expect(t.string == "line one line two!")
        t.removeSubrange(8...)
        #expect(t.string == "line one")
        t.removeSubrange(20...)
        #expect(t.string == "line one")
        #expect(TextBytes.string { $0.append(hex: 0x3E, width: 2); $0.append(spacedHex: [1, 2, 3], limit: 2) } == "0x3E01 02 …")
    }

    @Test("simple-scalar text found eight bytes at a time agrees with a scalar-by-scalar look")
    func simpleScan() {
        let pieces = ["plain ASCII text ", "→", "é", "\u{85}", "\t", "\u{7F}", "👍", "\u{301}", "–", "ĳ", "abcdefgh"]
        var seed: UInt64 = 3
        for _ in 0..<2_000 {
            var s = ""
            for _ in 0..<Int(seed >> 60) + 1 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                s += pieces[Int(seed >> 33) % pieces.count]
            }
            let expected = s.unicodeScalars.allSatisfy { TextRenderer.isSimple($0.value) }
            let found = Array(s.utf8).withUnsafeBufferPointer { TextRenderer.allSimple($0) }
            #expect(found == expected, "\(s.debugDescription)")
            // The one-pass look the timeline makes: printable ASCII, and simple from the first word that is not.
            let printable = s.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
            let classified = Array(s.utf8).withUnsafeBufferPointer { TextRenderer.classify($0) }
            #expect(classified.printable == printable && classified.simple == expected, "\(s.debugDescription)")
        }
    }
}
