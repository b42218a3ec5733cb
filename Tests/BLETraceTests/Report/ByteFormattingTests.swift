import Testing
@testable import BLETrace

/// The word-at-a-time and pointer paths of the writers (issue #30) give what the byte-by-byte ones gave.
@Suite struct ByteFormattingTests {
    /// The first control character, byte by byte: the definition `SafeText.firstControl` must keep.
    static func slowFirstControl(_ b: [UInt8], from start: Int) -> Int? {
        var i = start
        while i < b.count {
            let c = b[i]
            if c < 0x20 || c == 0x7F { return i }
            if c == 0xC2, i + 1 < b.count, b[i + 1] >= 0x80, b[i + 1] <= 0x9F { return i }
            i += 1
        }
        return nil
    }

    @Test("control characters and C1 controls are found at every position, across word boundaries")
    func firstControlEverywhere() {
        let plain = Array("abcdefghijklmnopqrstuvwxyz0123".utf8)
        let specials: [[UInt8]] = [[0x00], [0x09], [0x0A], [0x1B], [0x1F], [0x7F], [0xC2, 0x80], [0xC2, 0x9F],
                                   [0xC2, 0xA0], [0xC2, 0x41], [0xE2, 0x86, 0x92], [0x20], [0xC2]]
        var checked = 0
        for length in 0...plain.count {
            let base = Array(plain.prefix(length))
            for position in 0...length {
                for special in specials {
                    let b = Array(base[..<position]) + special + Array(base[position...])
                    for start in [0, 1, 7, 8, 9] where start <= b.count {
                        #expect(SafeText.firstControl(b, from: start) == Self.slowFirstControl(b, from: start),
                                "bytes \(b), from \(start)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 10_000)
        // An escaped string is the same whether the control sits in the first word or the last.
        #expect(SafeText.escaped("0123456789abcdef\u{1B}x") == "0123456789abcdef\\x1bx")
        #expect(SafeText.escaped("0123456\u{85}89") == "0123456\\u008589")
    }

    @Test("decimals from the stack buffer: zero, one digit, signs, the extremes")
    func decimals() {
        for v in [0, 1, 9, 10, 99, 100, 12_345, -1, -9, -10, -12_345, Int.max, Int.min, 1_000_000_007] {
            var b = TextBytes([0x78])
            b.append(decimal: v)
            #expect(b.string == "x" + String(v))
            var a: [UInt8] = [0x78]
            a.append(decimal: v)
            #expect(String(decoding: a, as: UTF8.self) == "x" + String(v))
        }
        var padded = TextBytes(capacity: 1)
        padded.append(decimal: 42, width: 6, zeroPad: true)
        padded.append(decimal: -7, width: 4, zeroPad: false)
        #expect(padded.string == "000042  -7")
    }

    @Test("hex values written through one pointer, after what the buffer held")
    func quotedHex() {
        let b = ByteStore()
        b.put(Array("k:".utf8))
        b.putQuotedHex([0x00, 0x0F, 0xA5, 0xFF][...])
        #expect(String(decoding: b.bytes, as: UTF8.self) == "k:\"000fa5ff\"")
        let empty = ByteStore()
        empty.putQuotedHex([][...])
        #expect(String(decoding: empty.bytes, as: UTF8.self) == "\"\"")
        let slice = [UInt8](0...20)[3..<6]
        var j = JSONBytes()
        j.beginObject()
        j.field("v", hex: slice)
        j.endObject()
        #expect(String(decoding: j.bytes, as: UTF8.self) == "{\"v\":\"030405\"}")
    }

    /// `Fmt.fixed` as it was written before it moved to the stack: the definition it must keep.
    static func slowFixed(_ value: Int, scale: Int) -> String {
        let neg = value < 0
        let mag = value.magnitude
        let whole = mag / UInt(scale)
        var frac = mag % UInt(scale)
        var decimals = 0
        var s = scale
        while s > 1 { s /= 10; decimals += 1 }
        var text = String(whole)
        if decimals > 0 {
            var digits = [Character](repeating: "0", count: decimals)
            var i = decimals - 1
            while i >= 0 { digits[i] = Character(String(frac % 10)); frac /= 10; i -= 1 }
            text += "." + String(digits)
        }
        return neg ? "-" + text : text
    }

    @Test("fixed-point text made on the stack equals the String-built one")
    func fixedPoint() {
        for scale in [1, 10, 100, 1000, 1024, 1_000_000, 1_000_000_000_000_000_000] {
            for v in [0, 1, 5, 9, 10, 99, 125, 3125, 100_000, 4_000_123, -1, -125, -3125, Int.max, Int.min + 1, Int.min] {
                #expect(Fmt.fixed(v, scale: scale) == Self.slowFixed(v, scale: scale), "\(v) / \(scale)")
                var b = TextBytes(capacity: 16)
                b.append(string: "x")
                b.append(fixed: v, scale: scale)
                #expect(b.string == "x" + Self.slowFixed(v, scale: scale), "in place: \(v) / \(scale)")
            }
        }
        #expect(Fmt.interval1250(24) == "30.00 ms")
    }

    @Test("addresses and UUIDs written without intermediate Strings read the same")
    func addressesAndUUIDs() {
        let a = BDAddr(0x00_1A_7D_DA_71_13)
        var b = TextBytes()
        a.write(into: &b)
        #expect(b.string == a.description)
        #expect(a.description == "00:1A:7D:DA:71:13")
        var j = JSONBytes()
        j.beginObject()
        j.field("address", address: a)
        j.endObject()
        #expect(String(decoding: j.bytes, as: UTF8.self) == "{\"address\":\"00:1A:7D:DA:71:13\"}")
        var f = FieldsBuilder()
        f.beginObject()
        f.field("address", address: a)
        f.endObject()
        var viaString = FieldsBuilder()
        viaString.beginObject()
        viaString.field("address", a.description)
        viaString.endObject()
        #expect(f.result == viaString.result)
        let u = BLEUUID(string: "0000180f-0000-1000-8000-00805f9b34fb")
        #expect(u?.canonical == "0000180F-0000-1000-8000-00805F9B34FB")
    }
}
