/// The bytes of a line of text as a renderer builds it: what every `writeText(into:)` appends to.
///
/// A buffer owned by one writer at a time (it cannot be copied, so it is passed `inout`). An append makes room
/// once and stores through a pointer: unlike `[UInt8]`, it never checks whether the storage is shared, and a
/// static text costs one copy. The room grows by doubling; bytes before `count` are always initialized and
/// nothing beyond `count` is read.
public struct TextBytes: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    public private(set) var count = 0
    /// The memo of the output this buffer writes for, when it keeps one: GATT locations named before are copied
    /// from it (`GATTRenderMemo`). Not counted: only the writer whose store owns the memo sets it, on the buffer
    /// it holds for its own life (an `OutputWriter`'s or a `TextRenderer`'s), so the memo outlives the buffer; a
    /// counted reference was retained and released for each location copied.
    unowned(unsafe) var memo: GATTRenderMemo?

    public init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    public var isEmpty: Bool { count == 0 }

    /// Forgets the bytes, keeping the room.
    public mutating func removeAll() { count = 0 }

    /// Drops the bytes from `range.lowerBound` on.
    public mutating func removeSubrange(_ range: PartialRangeFrom<Int>) {
        count = min(max(range.lowerBound, 0), count)
    }

    /// Lends the bytes written so far.
    @inline(__always) public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    public var array: [UInt8] { withBytes { Array($0) } }
    public var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// The text `write` makes.
    public static func string(_ write: (inout TextBytes) -> Void) -> String {
        var b = TextBytes(capacity: 64)
        write(&b)
        return b.string
    }

    /// A buffer holding `text` (tests, and the rare paths that work on arrays).
    public init(_ bytes: [UInt8]) {
        self.init(capacity: bytes.count)
        append(contentsOf: bytes)
    }

    // MARK: Appending

    /// Room for `n` more bytes: where they go. The caller stores exactly `n` bytes there and adds `n` to `count`.
    @inline(__always) @usableFromInline mutating func room(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity &- count < n { grow(n) }
        return base + count
    }

    @inline(never) @usableFromInline mutating func grow(_ n: Int) {
        var c = capacity &* 2
        while c &- count < n { c &*= 2 }
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        p.initialize(from: base, count: count)
        base.deallocate()
        base = p
        capacity = c
    }

    /// `Fmt.fixed(value, scale:)`'s bytes, stored where they go (no String made).
    public mutating func append(fixed value: Int, scale: Int) {
        let n = Fmt.writeFixed(value, scale: scale, at: room(Fmt.fixedMaximum))
        count &+= n
    }

    /// An address's 17 bytes, stored where they go.
    @inline(__always) public mutating func append(address a: BDAddr) {
        a.writeText(at: room(17))
        count &+= 17
    }

    @inline(__always) public mutating func append(_ byte: UInt8) {
        room(1).pointee = byte
        count &+= 1
    }

    public mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let src = bytes.baseAddress, bytes.count > 0 else { return }
        room(bytes.count).initialize(from: src, count: bytes.count)
        count &+= bytes.count
    }

    @inline(__always) public mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    @inline(__always) public mutating func append(contentsOf bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    /// A string's UTF-8 bytes, read where they are (see `ByteStore.putJSONString(_:)`).
    @inline(__always) public mutating func append(string s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) != nil { return }
        var s = s
        s.withUTF8 { append(contentsOf: $0) }
    }

    /// `BLEUUID.shortName` ("180F (Battery)"), written in place.
    public mutating func append(shortName u: BLEUUID) {
        u.withText { append(contentsOf: $0) }
        if let n = u.name {
            append(UInt8(ascii: " "))
            append(UInt8(ascii: "("))
            append(string: n)
            append(UInt8(ascii: ")"))
        }
    }

    /// `prefix` in front of everything written.
    public mutating func prepend(_ prefix: [UInt8]) {
        let n = prefix.count
        guard n > 0 else { return }
        _ = room(n)
        (base + n).moveInitialize(from: base, count: count)
        prefix.withUnsafeBufferPointer { p in
            if let src = p.baseAddress { base.initialize(from: src, count: n) }
        }
        count &+= n
    }

    /// Replaces every `old` byte from `start` on with `new`.
    public mutating func replace(_ old: UInt8, with new: UInt8, from start: Int) {
        var i = max(start, 0)
        while i < count {
            if base[i] == old { base[i] = new }
            i &+= 1
        }
    }

    /// Lets `body` change the bytes as an array (redaction and escaping, which work on arrays), then takes
    /// the array's bytes back.
    public mutating func withArray(_ body: (inout [UInt8]) -> Void) {
        var a = array
        body(&a)
        count = 0
        append(contentsOf: a)
    }

    // MARK: Looking

    public func starts(with prefix: [UInt8]) -> Bool {
        guard prefix.count <= count else { return false }
        var i = 0
        while i < prefix.count {
            if base[i] != prefix[i] { return false }
            i &+= 1
        }
        return true
    }

    /// True when `needle` occurs in the bytes.
    public func contains(bytes needle: [UInt8]) -> Bool {
        withBytes { ByteScan.contains(needle, in: $0) }
    }

    // MARK: Numbers

    /// A decimal integer, without building a String.
    public mutating func append(decimal v: Int) {
        let n = DecimalDigits.length(v)
        DecimalDigits.write(v, at: room(n), length: n)
        count &+= n
    }

    /// An integer right-aligned in `width` columns (spaces in front), or zero-padded.
    public mutating func append(decimal v: Int, width: Int, zeroPad: Bool) {
        let digits = DecimalDigits.count(v.magnitude) &+ (v < 0 ? 1 : 0)
        if digits < width { pad(width &- digits, with: zeroPad ? UInt8(ascii: "0") : UInt8(ascii: " ")) }
        append(decimal: v)
    }

    mutating func pad(_ n: Int, with byte: UInt8) {
        room(n).initialize(repeating: byte, count: n)
        count &+= n
    }

    /// Microseconds as seconds with six decimals ("12.000345"), right-aligned in `width` columns.
    public mutating func append(seconds micros: Int64, width: Int) {
        let neg = micros < 0
        let m = micros.magnitude
        let whole = UInt(m / 1_000_000)
        let total = DecimalDigits.count(whole) &+ 7 &+ (neg ? 1 : 0)
        if total < width { pad(width &- total, with: UInt8(ascii: " ")) }
        if neg { append(UInt8(ascii: "-")) }
        append(decimal: Int(whole))
        append(UInt8(ascii: "."))
        append(decimal: Int(m % 1_000_000), width: 6, zeroPad: true)
    }

    /// An ISO-8601 UTC timestamp with microseconds.
    public mutating func append(iso8601 t: Timestamp) {
        let (y, m, d, rem, us) = t.utc
        append(decimal: Int(y), width: 4, zeroPad: true); append(UInt8(ascii: "-"))
        append(decimal: Int(m), width: 2, zeroPad: true); append(UInt8(ascii: "-"))
        append(decimal: Int(d), width: 2, zeroPad: true); append(UInt8(ascii: "T"))
        append(decimal: Int(rem / 3600), width: 2, zeroPad: true); append(UInt8(ascii: ":"))
        append(decimal: Int(rem / 60 % 60), width: 2, zeroPad: true); append(UInt8(ascii: ":"))
        append(decimal: Int(rem % 60), width: 2, zeroPad: true); append(UInt8(ascii: "."))
        append(decimal: Int(us), width: 6, zeroPad: true); append(UInt8(ascii: "Z"))
    }

    /// "0x" and at least `width` upper-case hex digits.
    public mutating func append(hex v: UInt64, width: Int) {
        let w = Hex.digitCount(v, width: width)
        Hex.write(v, digits: w, at: room(w &+ 2))
        count &+= w &+ 2
    }

    /// Space-separated lowercase hex, cut after `limit` bytes with " …" (as `Hex.spaced`).
    public mutating func append<C: Collection>(spacedHex bytes: C, limit: Int) where C.Element == UInt8 {
        var n = 0
        for x in bytes {
            if n == limit { append(string: " …"); break }
            if n > 0 { append(UInt8(ascii: " ")) }
            append(Hex.lower(Int(x >> 4)))
            append(Hex.lower(Int(x)))
            n &+= 1
        }
    }
}
