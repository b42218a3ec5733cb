import CByteScan

/// Tests over a whole byte buffer (the text and JSON writers check every string they write): where the first
/// byte of a kind is, sixteen bytes an instruction (`CByteScan`), and word tests eight bytes at a time. Each word
/// test is exact as a yes/no answer: a borrow that crosses into a neighbouring byte only starts at a byte that
/// already matches.
enum ByteScan {
    static let high: UInt64 = 0x8080_8080_8080_8080
    static let ones: UInt64 = 0x0101_0101_0101_0101

    /// Some byte of `w` is zero.
    @inline(__always) static func hasZero(_ w: UInt64) -> Bool { (w &- ones) & ~w & high != 0 }
    /// Some byte of `w` is below `n` (n ≤ 0x80).
    @inline(__always) static func hasLess(_ w: UInt64, _ n: UInt8) -> Bool { (w &- ones &* UInt64(n)) & ~w & high != 0 }
    /// Some byte of `w` equals `b`.
    @inline(__always) static func has(_ w: UInt64, _ b: UInt8) -> Bool { hasZero(w ^ (ones &* UInt64(b))) }

    /// The index of the first byte of `u` at or after `from` that a scan of `kind` looks for (`CByteScan`:
    /// sixteen bytes an instruction), or `u.count`.
    @inline(__always) static func first(_ kind: Int32, in u: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int {
        guard let base = u.baseAddress else { return u.count }
        return bt_scan_first(base, u.count, from, kind)
    }

    /// The bytes folded eight at a time into `x` (multiply and shift), the tail as one word: a cheap, fixed
    /// (the same in every run) digest to choose a table slot or feed a hasher. Bytes made to fold alike only meet
    /// in one slot; equality still decides.
    static func fold(_ u: UnsafeRawBufferPointer, into start: UInt64) -> UInt64 {
        var x = start
        guard let base = u.baseAddress else { return x }
        var i = 0
        while i &+ 8 <= u.count {
            x = (x ^ base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            x ^= x >> 29
            i &+= 8
        }
        var tail: UInt64 = 0
        while i < u.count {
            tail = tail << 8 | UInt64(u[i])
            i &+= 1
        }
        return (x ^ tail) &* 0x9E37_79B9_7F4A_7C15
    }

    /// `fold` of a string's UTF-8 bytes, read where they are.
    static func fold(_ s: String) -> UInt64 {
        let seed = UInt64(truncatingIfNeeded: s.utf8.count)
        if let x = s.utf8.withContiguousStorageIfAvailable({ fold(UnsafeRawBufferPointer($0), into: seed) }) { return x }
        var s = s
        return s.withUTF8 { fold(UnsafeRawBufferPointer($0), into: seed) }
    }

    static let jsonEscape = Int32(BT_SCAN_JSON_ESCAPE)
    static let notPrintableASCII = Int32(BT_SCAN_NOT_PRINTABLE)
    static let nonASCII = Int32(BT_SCAN_NON_ASCII)

    /// Every byte is printable ASCII (0x20–0x7E).
    static func printableASCII(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        first(notPrintableASCII, in: u) == u.count
    }

    /// Some byte needs escaping in a JSON string: a control character, `"` or `\`.
    static func needsJSONEscape(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        first(jsonEscape, in: u) < u.count
    }

    /// The high bit of each byte of `w` that is zero, and no other bit (no borrow: each byte's low seven bits are
    /// added on their own, so that a match's position can be read, not only its presence).
    @inline(__always) static func zeroBytes(_ w: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((w & low) &+ low) | w | low)
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
