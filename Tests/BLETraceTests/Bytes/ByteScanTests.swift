import Testing
@testable import BLETrace

/// The scans (sixteen bytes a test, words of eight) agree with a byte-by-byte check for every byte value at every
/// position.
@Suite struct ByteScanTests {
    static func naivePrintable(_ b: [UInt8]) -> Bool { b.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
    static func naiveEscape(_ b: [UInt8]) -> Bool { b.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } }

    @Test func everyByteAtEveryPosition() {
        for length in [1, 7, 8, 9, 15, 16, 17, 23, 24, 31, 32, 40] {
            for position in 0..<length {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = UInt8(value)
                    bytes.withUnsafeBufferPointer { u in
                        #expect(ByteScan.printableASCII(u) == Self.naivePrintable(bytes), "\(length) \(position) \(value)")
                        #expect(ByteScan.needsJSONEscape(u) == Self.naiveEscape(bytes), "\(length) \(position) \(value)")
                    }
                }
            }
        }
    }

    /// The index a scan finds, from every start, against a forward byte walk: two marked bytes placed anywhere
    /// (the second one found when the start passes the first), in buffers short of, at and past sixteen bytes
    /// (the vector loop, its overlapping last load and the byte loop).
    @Test func firstIndexFromEveryStart() {
        let kinds: [(Int32, (UInt8) -> Bool)] = [
            (ByteScan.jsonEscape, { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }),
            (ByteScan.notPrintableASCII, { $0 < 0x20 || $0 >= 0x7F }),
            (ByteScan.nonASCII, { $0 >= 0x80 }),
        ]
        let values: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]
        var rng = SeededGenerator(seed: 0x5EED_0004)
        for n in [0, 1, 5, 15, 16, 17, 31, 32, 33, 47, 70] {
            for _ in 0..<60 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: n)
                for _ in 0..<2 where n > 0 { bytes[Int.random(in: 0..<n, using: &rng)] = values.randomElement(using: &rng)! }
                bytes.withUnsafeBufferPointer { u in
                    for (kind, marked) in kinds {
                        for from in 0...n {
                            let want = (from..<n).first { marked(bytes[$0]) } ?? n
                            #expect(ByteScan.first(kind, in: u, from: from) == want, "\(kind) \(bytes) from \(from)")
                        }
                    }
                }
            }
        }
    }

    @Test func randomBuffers() {
        var rng = SeededGenerator(seed: 0x5EED_0002)
        for _ in 0..<5000 {
            let n = Int.random(in: 0...80, using: &rng)
            // Mostly printable, with some of everything.
            let bytes = (0..<n).map { _ in Int.random(in: 0..<10, using: &rng) == 0 ? UInt8.random(in: 0...255, using: &rng) : UInt8.random(in: 0x20...0x7E, using: &rng) }
            bytes.withUnsafeBufferPointer { u in
                #expect(ByteScan.printableASCII(u) == Self.naivePrintable(bytes))
                #expect(ByteScan.needsJSONEscape(u) == Self.naiveEscape(bytes))
            }
        }
    }

    /// The last space of a range (where a wrapped line is cut), against a backward byte walk: spaces and bytes
    /// one off a space (0x1F, 0x21: a borrow in a looser word test) at every position, over every range.
    @Test func lastIndexOfAByte() {
        var rng = SeededGenerator(seed: 0x5EED_0003)
        for _ in 0..<3000 {
            let n = Int.random(in: 0...30, using: &rng)
            let bytes = (0..<n).map { _ in [0x20, 0x21, 0x1F, 0x00, 0xFF, 0x61][Int.random(in: 0..<6, using: &rng)] as UInt8 }
            let from = Int.random(in: 0...n, using: &rng)
            let to = Int.random(in: from...n, using: &rng)
            let expected = (from..<to).last { bytes[$0] == 0x20 }
            bytes.withUnsafeBufferPointer { u in
                #expect(ByteScan.lastIndex(of: 0x20, in: u, from: from, to: to) == expected, "\(bytes) \(from)..<\(to)")
            }
        }
    }

    @Test func jsonStringsAreEscaped() {
        var b: [UInt8] = []
        JSONOut.string("plain ascii that is long enough", into: &b)
        JSONOut.string("tab\there \"quoted\" back\\slash é\u{1}", into: &b)
        #expect(String(decoding: b, as: UTF8.self) == "\"plain ascii that is long enough\"\"tab\\there \\\"quoted\\\" back\\\\slash é\\u0001\"")
    }
}
