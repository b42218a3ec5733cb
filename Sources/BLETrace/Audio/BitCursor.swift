/// A bounds-checked reader of bits, most significant first, over a `ByteCursor`: MPEG-4 Audio's LATM and ADTS
/// headers are bit fields that do not keep to byte boundaries. Every read either succeeds or throws
/// `ByteError`; nothing here can trap on input data.
struct BitCursor {
    private var bytes: ByteCursor
    /// Bits read from `bytes` and not yet used: the low `held` bits of `cache`.
    private var cache: UInt32 = 0
    private var held = 0

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = ByteCursor(bytes) }

    /// Bits left to read.
    var remaining: Int { bytes.remaining * 8 + held }
    /// Bits read so far.
    var position: Int { bytes.offset * 8 - held }
    /// The byte the next bit is in.
    var byteOffset: Int { position / 8 }

    /// The next `n` bits (0…24) as an unsigned number.
    mutating func bits(_ n: Int) throws -> Int {
        guard n >= 0, n <= 24 else { throw ByteError.invalid(offset: byteOffset, reason: "bit field wider than 24 bits") }
        guard n <= remaining else { throw ByteError.truncated(offset: byteOffset, needed: (n + 7) / 8, available: remaining / 8) }
        while held < n {
            cache = (cache << 8) | UInt32(try bytes.u8())
            held += 8
        }
        held -= n
        let value = (cache >> UInt32(held)) & ((UInt32(1) << UInt32(n)) &- 1)
        cache &= (UInt32(1) << UInt32(held)) &- 1
        return Int(value)
    }

    mutating func flag() throws -> Bool { try bits(1) != 0 }

    /// Skips `n` bits.
    mutating func skip(bits n: Int) throws {
        guard n >= 0, n <= remaining else {
            throw ByteError.truncated(offset: byteOffset, needed: max(0, n) / 8, available: remaining / 8)
        }
        var left = n
        let fromCache = min(left, held)
        _ = try bits(fromCache)
        left -= fromCache
        try bytes.skip(left / 8)
        _ = try bits(left % 8)
    }

    /// Skips to the next byte boundary.
    mutating func align() {
        held -= held % 8
        cache &= (UInt32(1) << UInt32(held)) &- 1
    }
}
