import Testing
@testable import BLETrace

/// `ByteStore`, the output's own buffer (issue #38): each of its writers gives the bytes the text formatting
/// it replaced gives, across the values where formats change (signs, widths, carries, years, escapes), and
/// what is written survives the store growing.
@Suite struct ByteStoreTests {
    static let integers: [Int] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 9_999, 10_000, 99_999, 100_000,
                                  65_535, 1_000_000, 99_999_999, 100_000_000, 123_456_789, Int(Int32.max), Int.max,
                                  -1, -9, -10, -100, -12_345, -10_000, Int.min]

    @Test("quoted hex from the table of digit pairs: every byte value, an empty value and a slice not at zero")
    func quotedHex() {
        let all = (0...255).map { UInt8($0) }
        for v in [all[...], all[250...], all[7..<7], [0x00, 0x0F, 0xF0][...]] {
            let store = ByteStore()
            store.putQuotedHex(v)
            #expect(store.bytes == Array("\"\(Hex.string(v))\"".utf8))
        }
    }

    @Test("an address's text from the table of digit pairs: description, text bytes and quoted JSON agree")
    func addressText() {
        for v: UInt64 in [0, 0x0000_0000_00FF, 0xC4_7C_8D_6A_01_02, 0xFF_FF_FF_FF_FF_FF, 0x01_23_45_67_89_AB, 0xA0_0B_C0_0D_E0_0F] {
            let a = BDAddr(v)
            let expected = (0..<6).reversed().map { i -> String in
                let b = Int((v >> (UInt64(i) * 8)) & 0xFF)
                let digits = Array("0123456789ABCDEF")
                return String([digits[b >> 4], digits[b & 0xF]])
            }.joined(separator: ":")
            #expect(a.description == expected)
            var t = TextBytes()
            a.write(into: &t)
            #expect(t.string == expected)
            var j = JSONBytes()
            j.address(a)
            #expect(j.bytes == Array("\"\(expected)\"".utf8))
        }
    }

    @Test("record numbers counted up in place, plain and in a column, equal decimals made afresh")
    func recordNumbers() {
        // Runs across every carry (9, 99, … 99,999,999 and past the eight digits the word holds), jumps back
        // and forward, a repeated number, negatives and the extremes.
        var numbers: [Int] = []
        for start in [0, 7, 95, 995, 9_995, 99_995, 999_995, 9_999_995, 99_999_995, 100_000_000] {
            numbers += Array(start ... start + 8)
        }
        numbers += [5, 5, 6, 1_000, 42, 43, -3, -2, -1, 0, 1, Int.max, 12, 13, Int.min, 14]
        let plain = ByteStore(), column = ByteStore()
        let plainWant = ByteStore(), columnWant = ByteStore()
        for v in numbers {
            plain.putRecordNumber(v)
            plainWant.putDecimal(v)
            plain.put(0x2C)
            plainWant.put(0x2C)
            if v != Int.min {
                for width in [7, 1, 8, 12] {
                    column.putRecordNumber(v, width: width)
                    columnWant.putDecimal(v, width: width, zeroPad: false)
                    column.put(0x7C)
                    columnWant.put(0x7C)
                }
            }
        }
        #expect(String(decoding: plain.bytes, as: UTF8.self) == String(decoding: plainWant.bytes, as: UTF8.self))
        #expect(String(decoding: column.bytes, as: UTF8.self) == String(decoding: columnWant.bytes, as: UTF8.self))
        #expect(String(decoding: plain.bytes, as: UTF8.self).hasPrefix("0,1,2,3,4,5,6,7,8,7,8,9,10,11,"))
    }

    @Test("runs of one byte (indents) of every length around the word stores, followed by other bytes")
    func repeatedBytes() {
        let s = ByteStore(capacity: 64)
        var want: [UInt8] = []
        for n in [0, 1, 2, 7, 8, 9, 15, 16, 17, 33, 63, 64, 65, 100, 3, 0, 40] {
            s.put(repeating: 0x20, count: n)
            want += [UInt8](repeating: 0x20, count: n)
            s.put(0x7C)
            want.append(0x7C)
            s.put(repeating: UInt8(n & 0x7F), count: n % 11)
            want += [UInt8](repeating: UInt8(n & 0x7F), count: n % 11)
        }
        #expect(s.bytes == want)
    }

    @Test("decimals, plain and padded, equal the text formatting")
    func decimals() {
        for v in Self.integers {
            let s = ByteStore()
            s.putDecimal(v)
            var a: [UInt8] = []
            a.append(decimal: v)
            #expect(s.bytes == a, "\(v)")
            // Both write digits in pairs (`DecimalDigits`): the standard library's text is the reference.
            #expect(a == Array(String(v).utf8), "\(v)")
            // (Int.min has no magnitude as an Int: padding it traps in both.)
            for width in [0, 1, 4, 7, 25] where v != Int.min {
                for zeroPad in [false, true] where v >= 0 || !zeroPad {
                    let s = ByteStore()
                    s.putDecimal(v, width: width, zeroPad: zeroPad)
                    var a = TextBytes()
                    a.append(decimal: v, width: width, zeroPad: zeroPad)
                    #expect(s.bytes == a.array, "\(v) width \(width) zeroPad \(zeroPad)")
                }
            }
        }
    }

    @Test("decimals in pairs: every value from -100,000 to 100,000 and every power of ten as the standard library writes it")
    func decimalPairs() {
        let s = ByteStore()
        var expected: [UInt8] = []
        var values = Array(-100_000...100_000)
        var p = 1
        for _ in 0..<18 { p *= 10; values += [p - 1, p, p + 1, -p] }
        for v in values {
            s.putDecimal(v)
            s.put(0x20)
            expected += Array(String(v).utf8) + [0x20]
        }
        #expect(s.bytes == expected)
    }

    @Test("seconds with six decimals and hex with a minimum width equal the text formatting")
    func secondsAndHex() {
        for micros: Int64 in [0, 1, 999_999, 1_000_000, 1_000_001, 12_000_345, 86_400_000_000, -1, -1_500_000, 9_999_999_999_999] {
            for width in [0, 8, 13, 30] {
                let s = ByteStore()
                s.putSeconds(micros, width: width)
                var a = TextBytes()
                a.append(seconds: micros, width: width)
                #expect(s.bytes == a.array, "\(micros) width \(width)")
            }
        }
        // One store in turn, as a timeline writes them: the same second again, the next one, a carry, jumps,
        // negatives and seconds past the eight digits the kept word holds.
        let times: [Int64] = [0, 5, 999_999, 1_000_000, 1_200_000, 9_000_001, 9_999_999, 10_000_000, 10_000_001,
                              99_500_000, 100_000_000, 3_000_000, -2_000_000, -2_500_000, -3_000_000,
                              99_999_999_000_000, 100_000_000_000_000, 100_000_001_000_000, 7_000_000, 7_000_001]
        let one = ByteStore()
        var want = TextBytes()
        for micros in times {
            for width in [13, 0] {
                one.putSeconds(micros, width: width)
                want.append(seconds: micros, width: width)
                one.put(0x7C)
                want.append(0x7C)
            }
        }
        #expect(String(decoding: one.bytes, as: UTF8.self) == String(decoding: want.array, as: UTF8.self))
        for v: UInt64 in [0, 1, 0xF, 0x10, 0x40, 0xFFFF, 0x1_0000, 0xDEAD_BEEF, UInt64.max] {
            for width in [0, 1, 2, 4, 8, 16, 20] {
                let s = ByteStore()
                s.putHex(v, width: width)
                var a = TextBytes()
                a.append(hex: v, width: width)
                #expect(s.bytes == a.array, "\(v) width \(width)")
                // Both share one writer: the standard library's digits, zero-padded, are the reference.
                let digits = v == 0 ? "" : String(v, radix: 16, uppercase: true) // zero at width 0 is "0x"
                let expected = "0x" + String(repeating: "0", count: max(width - digits.count, 0)) + digits
                #expect(String(decoding: s.bytes, as: UTF8.self) == expected, "\(v) width \(width)")
                #expect(Hex.hex(v, width: width) == expected, "\(v) width \(width)")
            }
        }
    }

    @Test("ISO-8601 times equal the text formatting, before 1970 and past the year 9999 included")
    func iso8601() {
        let seconds: [Int64] = [0, 1, 59, 60, 3599, 86_399, 86_400, 951_782_400, 1_700_000_000, 4_102_444_800,
                                253_402_300_799, 253_402_300_800, -1, -86_400, -62_135_596_800, -62_135_596_801]
        // One store for all of them, in an order that leaves a day and comes back to it (the store keeps the
        // last day's date), and a fresh store for each.
        let shared = ByteStore()
        var all = TextBytes()
        for s in seconds + seconds.reversed() {
            for us: Int64 in [0, 1, 999_999, 500_000] {
                let t = Timestamp(micros: s * 1_000_000 + us)
                let store = ByteStore()
                store.putISO8601(t)
                var a = TextBytes()
                a.append(iso8601: t)
                #expect(store.bytes == a.array, "\(t.micros)")
                shared.putISO8601(t)
                all.append(iso8601: t)
            }
        }
        #expect(shared.bytes == all.array)
    }

    @Test("JSON strings: every byte escaped as JSONOut escapes it, plain strings copied whole")
    func jsonStrings() {
        var all: [UInt8] = []
        for b in 0...255 { all.append(UInt8(b)) }
        let samples: [[UInt8]] = [[], Array("plain text".utf8), Array("say \"hi\"\\".utf8), all,
                                  Array("tab\tnew\nline\r".utf8), Array("caf\u{E9} \u{2192} \u{1B}".utf8),
                                  // Escapes first, last, side by side and alone, between runs of several lengths.
                                  Array("\"".utf8), Array("\"a".utf8), Array("a\"".utf8), Array("\"\\\u{1}".utf8),
                                  Array("ab\u{0}cde\\fghij\"".utf8), Array("\u{1F}x\u{1F}".utf8),
                                  // Each escape followed by the byte one above it (a borrow's false mark): one word.
                                  Array("a\u{1F} \"#\\]\u{0}\u{1}".utf8)]
        for u in samples { Self.expectEscapedAsJSONOut(u) }
    }

    /// The store's JSON string of `u` is `JSONOut`'s (which escapes byte by byte).
    static func expectEscapedAsJSONOut(_ u: [UInt8]) {
        let s = ByteStore()
        u.withUnsafeBufferPointer { s.putJSONString($0) }
        var a: [UInt8] = []
        JSONOut.string(utf8: u[...], into: &a)
        #expect(s.bytes == a, "\(u)")
    }

    @Test("JSON strings with escapes at every offset of long runs (the runs are skipped eight bytes at a time)")
    func jsonStringsWithEscapesAnywhere() {
        var rng = SeededGenerator(seed: 0x5EED_0004)
        for _ in 0..<3000 {
            let n = Int.random(in: 0...40, using: &rng)
            // Mostly plain bytes (ASCII and UTF-8 continuation bytes), now and then one to escape.
            let u = (0..<n).map { _ -> UInt8 in
                switch Int.random(in: 0..<12, using: &rng) {
                case 0: return [0x22, 0x5C, 0x0A, 0x00, 0x1F][Int.random(in: 0..<5, using: &rng)]
                case 1: return UInt8.random(in: 0x80...0xFF, using: &rng)
                default: return UInt8.random(in: 0x20...0x7E, using: &rng)
                }
            }
            Self.expectEscapedAsJSONOut(u)
        }
    }

    @Test("member names with and without a comma; what was written survives growth far past the first room")
    func memberNamesAndGrowth() {
        let s = ByteStore(capacity: 1)
        s.putMemberName("record", comma: false)
        s.putDecimal(7)
        s.putMemberName("time", comma: true)
        #expect(String(decoding: s.bytes, as: UTF8.self) == "\"record\":7,\"time\":")
        s.removeAll()
        #expect(s.isEmpty)
        var expected: [UInt8] = []
        for i in 0..<20_000 {
            s.putDecimal(i)
            s.put(UInt8(ascii: ","))
            expected.append(decimal: i)
            expected.append(UInt8(ascii: ","))
        }
        s.put(Array(repeating: 0x41, count: 100_000))
        expected += Array(repeating: 0x41, count: 100_000)
        #expect(s.count == expected.count)
        #expect(s.bytes == expected)
    }

    @Test("a UUID's text, as a string and written in place: 16-bit, 32-bit and 128-bit forms")
    func uuidText() {
        let uuids = [BLEUUID(UInt16(0x180F)), BLEUUID(UInt16(0)), BLEUUID(UInt32(0x1234_5678)), BLEUUID(UInt32(0x0001_0000)),
                     BLEUUID(string: "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!, BLEUUID(high: 0, low: 0)]
        let expected = ["180F", "0000", "12345678", "00010000", "6E400001-B5A3-F393-E0A9-E50E24DCCA9E",
                        "00000000-0000-0000-0000-000000000000"]
        for (u, text) in zip(uuids, expected) {
            #expect(u.description == text)
            #expect(u.withText { String(decoding: $0, as: UTF8.self) } == text)
            #expect(u.canonical.hasSuffix("-0000-1000-8000-00805F9B34FB") == (u.uuid32 != nil))
            var j = JSONBytes()
            j.beginObject()
            j.field("uuid", uuid: u)
            j.endObject()
            #expect(String(decoding: j.bytes, as: UTF8.self) == "{\"uuid\":\"\(u.description)\"}")
        }
    }
}
