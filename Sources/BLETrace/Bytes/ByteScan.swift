/// Tests over a whole byte buffer, eight bytes at a time (the text and JSON writers check every string they
/// write). Each word test is exact as a yes/no answer: a borrow that crosses into a neighbouring byte only
/// starts at a byte that already matches.
enum ByteScan {
    static let high: UInt64 = 0x8080_8080_8080_8080
    static let ones: UInt64 = 0x0101_0101_0101_0101

    /// Some byte of `w` is zero.
    @inline(__always) static func hasZero(_ w: UInt64) -> Bool { (w &- ones) & ~w & high != 0 }
    /// Some byte of `w` is below `n` (n ≤ 0x80).
    @inline(__always) static func hasLess(_ w: UInt64, _ n: UInt8) -> Bool { (w &- ones &* UInt64(n)) & ~w & high != 0 }
    /// Some byte of `w` equals `b`.
    @inline(__always) static func has(_ w: UInt64, _ b: UInt8) -> Bool { hasZero(w ^ (ones &* UInt64(b))) }

    /// True when some eight-byte word has a bit in `bits`, or, in a buffer shorter than eight bytes, some byte
    /// passes `byte`. Sixteen bytes a test (the two words' bits joined), then eight; a longer buffer's tail is
    /// tested as its last eight bytes (overlapping the word before: a word test only answers whether some byte
    /// matches, so bytes tested twice change nothing).
    @inline(__always) static func any(_ u: UnsafeBufferPointer<UInt8>, bits: (UInt64) -> UInt64, byte: (UInt8) -> Bool) -> Bool {
        guard let base = u.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i &+ 16 <= u.count {
            let a = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let b = raw.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)
            if bits(a) | bits(b) != 0 { return true }
            i &+= 16
        }
        if i &+ 8 <= u.count {
            if bits(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) != 0 { return true }
            i &+= 8
        }
        if i < u.count && u.count >= 8 {
            return bits(raw.loadUnaligned(fromByteOffset: u.count &- 8, as: UInt64.self)) != 0
        }
        while i < u.count {
            if byte(u[i]) { return true }
            i &+= 1
        }
        return false
    }

    /// Every byte is printable ASCII (0x20–0x7E).
    static func printableASCII(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        !any(u, bits: notPrintableBits, byte: { $0 < 0x20 || $0 >= 0x7F })
    }

    /// Some byte of `w` is not printable ASCII: its high bit is set, or its low seven bits are 0x7F or below 0x20.
    /// Without branches: each byte's low seven bits plus 0x01 reach the high bit only from 0x7F, plus 0x60 only
    /// from 0x20 up, and neither sum carries into the next byte.
    @inline(__always) static func notPrintable(_ w: UInt64) -> Bool { notPrintableBits(w) != 0 }

    /// The high bit of each byte of `w` that is not printable ASCII (`notPrintable`), and no other bit.
    @inline(__always) static func notPrintableBits(_ w: UInt64) -> UInt64 {
        let low = w & 0x7F7F_7F7F_7F7F_7F7F
        return (w | (low &+ ones) | ~(low &+ 0x6060_6060_6060_6060)) & high
    }

    /// Some byte needs escaping in a JSON string: a control character, `"` or `\`.
    static func needsJSONEscape(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        any(u, bits: needsJSONEscapeBits, byte: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C })
    }

    /// Nonzero when some byte of `w` needs escaping in a JSON string: the three tests of `hasLess` and `has`,
    /// each exact as a yes or no, joined without branches.
    @inline(__always) static func needsJSONEscapeBits(_ w: UInt64) -> UInt64 {
        let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5C)
        return ((w &- ones &* 0x20) & ~w | (quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & high
    }

    /// The high bit of each byte of `w` that is zero, and no other bit (no borrow: each byte's low seven bits are
    /// added on their own, so that a match's position can be read, not only its presence).
    @inline(__always) static func zeroBytes(_ w: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((w & low) &+ low) | w | low)
    }

    /// The index of the first byte of `u` at or after `from` that is not ASCII (its high bit set), or `u.count`:
    /// eight bytes at a time.
    static func firstNonASCII(in u: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var i = from
        if let base = u.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i &+ 8 <= u.count {
                let h = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & high
                // Little-endian: the lowest set bit is the byte at the lowest address.
                if h != 0 { return i &+ h.trailingZeroBitCount / 8 }
                i &+= 8
            }
        }
        while i < u.count && u[i] < 0x80 { i &+= 1 }
        return i
    }

    /// The index of the last `byte` in `u[from..<to]`, eight bytes at a time.
    static func lastIndex(of byte: UInt8, in u: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        var i = to
        if let base = u.baseAddress {
            let raw = UnsafeRawPointer(base)
            let pattern = ones &* UInt64(byte)
            while i &- 8 >= from {
                let z = zeroBytes(raw.loadUnaligned(fromByteOffset: i &- 8, as: UInt64.self) ^ pattern)
                // Little-endian: the highest set bit is the match at the highest address.
                if z != 0 { return i &- 8 &+ (7 &- z.leadingZeroBitCount / 8) }
                i &-= 8
            }
        }
        while i > from {
            i &-= 1
            if u[i] == byte { return i }
        }
        return nil
    }

    /// True when `needle` occurs in `u`.
    static func contains(_ needle: [UInt8], in u: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, needle.count <= u.count else { return needle.isEmpty }
        var i = 0
        while i &+ needle.count <= u.count {
            if u[i] == first {
                var j = 1
                while j < needle.count && u[i &+ j] == needle[j] { j &+= 1 }
                if j == needle.count { return true }
            }
            i &+= 1
        }
        return false
    }
}

extension Array where Element == UInt8 {
    /// True when `needle` occurs in the array.
    func contains(bytes needle: [UInt8]) -> Bool {
        withUnsafeBufferPointer { ByteScan.contains(needle, in: $0) }
    }
}
