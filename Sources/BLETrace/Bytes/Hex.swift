/// Hex and integer formatting without Foundation.
public enum Hex {
    /// The digits as static bytes, read through their address: a table in an array is initialized lazily, which
    /// costs a check at every use.
    static let lowerTable: StaticString = "0123456789abcdef"
    static let upperTable: StaticString = "0123456789ABCDEF"

    /// The lower-case hex digit of `v`'s low four bits.
    @inline(__always) static func lower(_ v: Int) -> UInt8 { lowerTable.utf8Start[v & 0xF] }
    /// The upper-case hex digit of `v`'s low four bits.
    @inline(__always) static func upper(_ v: Int) -> UInt8 { upperTable.utf8Start[v & 0xF] }

    /// Each byte's two lower-case digits, "00" to "ff", at twice the byte.
    static let lowerPairs: StaticString = """
        000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f\
        303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f\
        606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f\
        909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\
        c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeef\
        f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
        """

    /// Each byte's two upper-case digits, "00" to "FF", at twice the byte: a byte's digits in one look.
    static let upperPairs: StaticString = """
        000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F\
        303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F\
        606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F\
        909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBF\
        C0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEF\
        F0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF
        """

    /// Lowercase hex of the bytes, no separators: "0a1b".
    public static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(lower(Int(b >> 4)))
            out.append(lower(Int(b)))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Space-separated lowercase hex, truncated after `limit` bytes with an ellipsis.
    public static func spaced<C: Collection>(_ bytes: C, limit: Int = 32) -> String where C.Element == UInt8 {
        var out = [UInt8]()
        var n = 0
        for b in bytes {
            if n == limit { out.append(contentsOf: Array(" …".utf8)); break }
            if n > 0 { out.append(UInt8(ascii: " ")) }
            out.append(lower(Int(b >> 4)))
            out.append(lower(Int(b)))
            n += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// "0x" followed by `width` uppercase hex digits: hex(0x40, width: 4) == "0x0040".
    public static func hex<T: BinaryInteger>(_ v: T, width: Int) -> String {
        let u = UInt64(truncatingIfNeeded: v)
        let w = digitCount(u, width: width)
        // Written straight into the string (short ones stay inline, without allocating).
        return String(unsafeUninitializedCapacity: w + 2) { out in
            guard let p = out.baseAddress else { return 0 }
            write(u, digits: w, at: p)
            return w + 2
        }
    }

    /// How many digits `hex(v, width:)` writes after "0x": `width`, or as many more as `v` needs.
    @inline(__always) static func digitCount(_ v: UInt64, width: Int) -> Int {
        var w = max(width, 0)
        while w < 16 && (v >> UInt64(4 &* w)) != 0 { w &+= 1 }
        return w
    }

    /// "0x" and the last `w` uppercase hex digits of `v` (zeros beyond its 16) at `p`: `w + 2` bytes.
    @inline(__always) static func write(_ v: UInt64, digits w: Int, at p: UnsafeMutablePointer<UInt8>) {
        p[0] = UInt8(ascii: "0")
        p[1] = UInt8(ascii: "x")
        for i in 0..<w { p[2 &+ i] = upper(Int(truncatingIfNeeded: v >> UInt64(4 &* (w &- 1 &- i)))) }
    }

    /// The value of one hex digit (either case).
    @inline(__always) static func digitValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Parses hex text ("0a1b", "0a 1b", "0a:1b"); nil on any other character or an odd digit count.
    public static func parse(_ text: String) -> [UInt8]? {
        var out = [UInt8]()
        var high: UInt8? = nil
        for c in text.utf8 {
            if c == UInt8(ascii: " ") || c == UInt8(ascii: ":") || c == UInt8(ascii: "-") { continue }
            guard let v = digitValue(c) else { return nil }
            if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
        }
        return high == nil ? out : nil
    }
}
