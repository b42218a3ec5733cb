/// The output's own byte buffer: what the writers put into it goes to standard output (or memory) in large
/// blocks. A write makes room once (one capacity check) and then stores through a pointer: unlike `[UInt8]`, no
/// write checks whether the storage is shared, since a store is one object that every writer refers to.
///
/// Everything written is kept until `removeAll`; the room grows by doubling. Bytes before `count` are always
/// initialized; nothing beyond `count` is ever read.
public final class ByteStore {
    @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var capacity: Int
    @exclusivity(unchecked) public internal(set) var count = 0
    /// A buffer lent to a writer that makes its bytes before they are escaped into the store
    /// (`JSONBytes.field(_:writing:)`), kept for the next one.
    @exclusivity(unchecked) var scratch = TextBytes()
    /// The `uuid` and `name` members of the UUIDs written so far (`putUUIDAndName`).
    @exclusivity(unchecked) var uuidNames = UUIDNameMemo()
    /// The digits of the last record number written (`putRecordNumber`) and of the last whole seconds
    /// (`putSeconds`).
    @exclusivity(unchecked) var recordDigits = CountedDigits()
    @exclusivity(unchecked) var secondsDigits = CountedDigits()
    /// The GATT locations this output named (`GATTRenderMemo`; its tables are made on first use).
    let gattMemo = GATTRenderMemo()

    public init(capacity: Int = 1024) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    public var isEmpty: Bool { count == 0 }

    /// Everything written, as an array (tests and small documents).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Lends the bytes written so far.
    @inline(__always) public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    public func removeAll() { count = 0 }

    /// Drops the bytes from `n` on (n ≤ count).
    func truncate(to n: Int) { count = min(max(n, 0), count) }

    /// Room for `n` more bytes: where they go. The caller stores at most `n` bytes there and advances the count by
    /// those it keeps.
    @inline(__always) @usableFromInline func room(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity &- count < n { grow(n) }
        return base + count
    }

    @inline(__always) @usableFromInline func advance(_ n: Int) { count &+= n }

    @inline(never) @usableFromInline func grow(_ n: Int) {
        var c = capacity * 2
        while c - count < n { c *= 2 }
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        p.initialize(from: base, count: count)
        base.deallocate()
        base = p
        capacity = c
    }

    @inline(__always) public func put(_ byte: UInt8) {
        room(1).pointee = byte
        count &+= 1
    }

    /// `n` copies of `byte` (a continuation line's indent).
    @inline(__always) public func put(repeating byte: UInt8, count n: Int) {
        guard n > 0 else { return }
        room(n).initialize(repeating: byte, count: n)
        count &+= n
    }

    public func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let src = bytes.baseAddress, bytes.count > 0 else { return }
        room(bytes.count).initialize(from: src, count: bytes.count)
        count &+= bytes.count
    }

    @inline(__always) public func put(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { put($0) } }
    @inline(__always) public func put(_ bytes: ArraySlice<UInt8>) { bytes.withUnsafeBufferPointer { put($0) } }

    /// A static text's bytes (member names, punctuation written as literals).
    @inline(__always) public func put(_ s: StaticString) {
        if s.hasPointerRepresentation {
            put(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        } else {
            s.withUTF8Buffer { put($0) }
        }
    }

    /// A string's UTF-8 bytes, read where they are (see `putJSONString(_:)`).
    @inline(__always) public func put(string s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ put($0) }) != nil { return }
        var s = s
        s.withUTF8 { put($0) }
    }

    /// A decimal integer: its digits counted, the room made once, the digits stored from the last. Numbers below
    /// 100 (most lengths, counts, handles' parts) are written inline: one or two bytes, the pair from the table.
    @inline(__always) public func putDecimal(_ v: Int) {
        if UInt(bitPattern: v) < 100 {
            let p = room(2)
            if v < 10 {
                p[0] = UInt8(truncatingIfNeeded: 48 &+ v)
                count &+= 1
            } else {
                DecimalDigits.pair(v, at: p)
                count &+= 2
            }
            return
        }
        putLongerDecimal(v)
    }

    /// `putDecimal` of a number of three digits or more, or a negative one.
    func putLongerDecimal(_ v: Int) {
        let n = DecimalDigits.length(v)
        DecimalDigits.write(v, at: room(n), length: n)
        count &+= n
    }

    /// A non-negative integer right-aligned in `width` columns (spaces in front), or zero-padded.
    public func putDecimal(_ v: Int, width: Int, zeroPad: Bool) {
        // The digits counted once, for the padding and the number.
        let n = DecimalDigits.length(v)
        let pad = n < width ? width &- n : 0
        let p = room(max(pad &+ n, ByteStore.padWords))
        if pad > 0 { ByteStore.pad(p, pad, with: zeroPad ? UInt8(ascii: "0") : UInt8(ascii: " ")) }
        DecimalDigits.write(v, at: p + pad, length: n)
        count &+= pad &+ n
    }

    /// The room `pad` may fill whole: two words.
    static let padWords = 16

    /// `count` bytes of `byte` at `p`, a column's padding: up to 16 as two word stores (into room of at least
    /// `padWords` bytes; what lies past `count` is overwritten by what follows or left beyond the count), more
    /// through `initialize` (a call to memset, which costs more than the padding of a timeline column).
    @inline(__always) static func pad(_ p: UnsafeMutablePointer<UInt8>, _ count: Int, with byte: UInt8) {
        guard count <= padWords else {
            p.initialize(repeating: byte, count: count)
            return
        }
        let word = UInt64(byte) &* 0x0101_0101_0101_0101
        let raw = UnsafeMutableRawPointer(p)
        raw.storeBytes(of: word, as: UInt64.self)
        if count > 8 { raw.storeBytes(of: word, toByteOffset: 8, as: UInt64.self) }
    }

    /// Microseconds as seconds with six decimals ("12.000345"), right-aligned in `width` columns.
    public func putSeconds(_ micros: Int64, width: Int) {
        let neg = micros < 0
        let m = micros.magnitude
        let whole = UInt(m / 1_000_000)
        // The whole seconds' digits, the last ones again when the second is the same (`secondsDigits`).
        let counted = secondsDigits.set(Int(truncatingIfNeeded: whole))
        // Sign, whole seconds, point and six decimals, measured once and stored in one piece of room.
        let wholeDigits = counted ? secondsDigits.length : DecimalDigits.count(whole)
        let total = wholeDigits &+ 7 &+ (neg ? 1 : 0)
        let pad = total < width ? width &- total : 0
        let p = room(max(pad &+ total, ByteStore.padWords))
        if pad > 0 { ByteStore.pad(p, pad, with: UInt8(ascii: " ")) }
        var q = p + pad
        if neg { q[0] = UInt8(ascii: "-"); q += 1 }
        if counted {
            // The digits as a word at `q`: the point and decimals overwrite what lies past them.
            secondsDigits.store(width: wholeDigits, at: q)
            q += wholeDigits
        } else {
            q += wholeDigits
            DecimalDigits.write(whole, endingAt: q)
        }
        q[0] = UInt8(ascii: ".")
        let f = Int(m % 1_000_000)
        DecimalDigits.pair(f / 10_000, at: q + 1)
        DecimalDigits.pair(f / 100 % 100, at: q + 3)
        DecimalDigits.pair(f % 100, at: q + 5)
        count &+= pad &+ total
    }

    /// "0x" and at least `width` upper-case hex digits (more when the value needs them).
    public func putHex(_ v: UInt64, width: Int) {
        let w = Hex.digitCount(v, width: width)
        Hex.write(v, digits: w, at: room(w &+ 2))
        count &+= w &+ 2
    }

    /// A JSON member name and its colon, with the comma before it when `comma`: `,"name":`. The project's
    /// member names are plain ASCII, so the bytes are copied as they are.
    @inline(__always) public func putMemberName(_ k: StaticString, comma: Bool) {
        let n = k.utf8CodeUnitCount
        let extra = comma ? 4 : 3
        let p = room(n &+ extra)
        var i = 0
        if comma { p[0] = UInt8(ascii: ","); i = 1 }
        p[i] = UInt8(ascii: "\"")
        if k.hasPointerRepresentation {
            (p + (i &+ 1)).initialize(from: k.utf8Start, count: n)
        } else {
            k.withUTF8Buffer { u in if let b = u.baseAddress { (p + (i &+ 1)).initialize(from: b, count: u.count) } }
        }
        p[i &+ 1 &+ n] = UInt8(ascii: "\"")
        p[i &+ 2 &+ n] = UInt8(ascii: ":")
        count &+= n &+ extra
    }

    /// An address in quotes: its 19 bytes stored where they go.
    @inline(__always) public func putQuotedAddress(_ a: BDAddr) {
        let p = room(19)
        p[0] = UInt8(ascii: "\"")
        a.writeText(at: p + 1)
        p[18] = UInt8(ascii: "\"")
        count &+= 19
    }

    /// `v` as lower-case hex digits in quotes.
    public func putQuotedHex(_ v: ArraySlice<UInt8>) {
        let n = v.count &* 2 &+ 2
        let p = room(n)
        p[0] = UInt8(ascii: "\"")
        // Each byte's two digits from the table of pairs.
        let t = Hex.lowerPairs.utf8Start
        v.withUnsafeBufferPointer { u in
            var i = 1
            for x in u {
                let r = Int(x) &* 2
                p[i] = t[r]
                p[i &+ 1] = t[r &+ 1]
                i &+= 2
            }
        }
        p[n &- 1] = UInt8(ascii: "\"")
        count &+= n
    }

    /// A JSON string of UTF-8 bytes: copied whole when nothing in it needs escaping.
    public func putJSONString(_ u: UnsafeBufferPointer<UInt8>) {
        if ByteScan.needsJSONEscape(u) {
            putEscaped(u)
            return
        }
        let n = u.count &+ 2
        let p = room(n)
        p[0] = UInt8(ascii: "\"")
        if let b = u.baseAddress { (p + 1).initialize(from: b, count: u.count) }
        p[n &- 1] = UInt8(ascii: "\"")
        count &+= n
    }

    /// A JSON string with its quotes, backslashes and control characters escaped (as `JSONOut.escaped`): room
    /// for the longest escape of every byte is made once, and the runs between escapes are copied whole.
    func putEscaped(_ u: UnsafeBufferPointer<UInt8>) {
        let p = room(u.count * 6 + 2)
        var i = 0
        @inline(__always) func pair(_ second: UInt8) {
            p[i] = UInt8(ascii: "\\")
            p[i &+ 1] = second
            i &+= 2
        }
        p[0] = UInt8(ascii: "\"")
        i = 1
        guard let base = u.baseAddress else {
            p[1] = UInt8(ascii: "\"")
            count &+= 2
            return
        }
        var start = 0
        var j = 0
        while j < u.count {
            // Straight to the next byte that needs an escape, sixteen bytes a test.
            j = ByteScan.first(ByteScan.jsonEscape, in: u, from: j)
            guard j < u.count else { break }
            let x = base[j]
            if j > start {
                (p + i).initialize(from: base + start, count: j &- start)
                i &+= j &- start
            }
            j &+= 1
            start = j
            switch x {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): pair(x)
            case 0x0A: pair(UInt8(ascii: "n"))
            case 0x0D: pair(UInt8(ascii: "r"))
            case 0x09: pair(UInt8(ascii: "t"))
            case 0..<0x20:
                p[i] = UInt8(ascii: "\\")
                p[i &+ 1] = UInt8(ascii: "u")
                p[i &+ 2] = UInt8(ascii: "0")
                p[i &+ 3] = UInt8(ascii: "0")
                p[i &+ 4] = Hex.lower(Int(x >> 4))
                p[i &+ 5] = Hex.lower(Int(x))
                i &+= 6
            default: // not reached: the bytes above are the only ones that stop a run
                p[i] = x
                i &+= 1
            }
        }
        if u.count > start {
            (p + i).initialize(from: base + start, count: u.count &- start)
            i &+= u.count &- start
        }
        p[i] = UInt8(ascii: "\"")
        count &+= i &+ 1
    }

    /// A string's UTF-8 read where it is (a native string's always are); only a string kept elsewhere is copied to
    /// be read (`withUTF8` on a copy retained every string it wrote). The same three lines stand in `put(string:)`,
    /// `TextBytes.append(string:)` and `[UInt8].append(string:)`: a shared generic helper taking the body as a
    /// closure was not inlined (text +89, JSON +148 instructions a record).
    @inline(__always) public func putJSONString(_ s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ putJSONString($0) }) != nil { return }
        var s = s
        s.withUTF8 { putJSONString($0) }
    }

    /// An ISO-8601 UTC timestamp with microseconds ("2023-11-14T22:13:20.000600Z"): 27 bytes at fixed places
    /// for the years 0–9999, the general formatting for any other.
    public func putISO8601(_ t: Timestamp) {
        let (days, rem, us) = t.daysSecondsMicros
        if days != isoDay {
            let (y, m, d) = Timestamp.civil(fromDays: days)
            guard y >= 0 && y <= 9999 else {
                var b = TextBytes(capacity: 32)
                b.append(iso8601: t)
                b.withBytes { put($0) }
                return
            }
            // "YYYY-MM-DDT", kept for the next timestamp of the same day (a capture's events share few days).
            withUnsafeMutableBytes(of: &isoDate) { raw in
                guard let q = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
                let year = Int(y)
                DecimalDigits.pair(year / 100, at: q)
                DecimalDigits.pair(year % 100, at: q + 2)
                q[4] = UInt8(ascii: "-")
                DecimalDigits.pair(Int(m), at: q + 5)
                q[7] = UInt8(ascii: "-")
                DecimalDigits.pair(Int(d), at: q + 8)
                q[10] = UInt8(ascii: "T")
            }
            isoDay = days
        }
        let p = room(27)
        withUnsafeBytes(of: &isoDate) { raw in
            if let src = raw.baseAddress { UnsafeMutableRawPointer(p).copyMemory(from: src, byteCount: 11) }
        }
        let seconds = Int(rem), micros = Int(us)
        DecimalDigits.pair(seconds / 3600, at: p + 11)
        p[13] = UInt8(ascii: ":")
        DecimalDigits.pair(seconds / 60 % 60, at: p + 14)
        p[16] = UInt8(ascii: ":")
        DecimalDigits.pair(seconds % 60, at: p + 17)
        p[19] = UInt8(ascii: ".")
        DecimalDigits.pair(micros / 10_000, at: p + 20)
        DecimalDigits.pair(micros / 100 % 100, at: p + 22)
        DecimalDigits.pair(micros % 100, at: p + 24)
        p[26] = UInt8(ascii: "Z")
        count &+= 27
    }

    /// The day `putISO8601` last wrote (days since 1970) and its first 11 bytes, "YYYY-MM-DDT".
    @exclusivity(unchecked) var isoDay = Int64.min
    @exclusivity(unchecked) var isoDate: (UInt64, UInt64) = (0, 0)
}

/// Decimal digits written two at a time from a table of the hundred pairs "00" … "99".
enum DecimalDigits {
    /// The pairs, as static bytes.
    static let pairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// How many digits `x` has.
    @inline(__always) static func count(_ x: UInt) -> Int {
        var n = 1
        var v = x
        while v >= 10_000 { v /= 10_000; n &+= 4 }
        if v >= 100 { n &+= v >= 1000 ? 3 : 2 } else if v >= 10 { n &+= 1 }
        return n
    }

    /// How many bytes `v` takes, its sign included.
    @inline(__always) static func length(_ v: Int) -> Int {
        if v >= 0 && v < 10 { return 1 }
        return count(v.magnitude) &+ (v < 0 ? 1 : 0)
    }

    /// Stores `v`, sign and digits (`length(v)` bytes), at `p`.
    @inline(__always) static func write(_ v: Int, at p: UnsafeMutablePointer<UInt8>, length n: Int) {
        if n == 1 && v >= 0 {
            p[0] = UInt8(truncatingIfNeeded: 48 &+ v)
            return
        }
        if v < 0 { p[0] = UInt8(ascii: "-") }
        write(v.magnitude, endingAt: p + n)
    }

    /// Stores the two digits of `v` (0…99) at `p`.
    @inline(__always) static func pair(_ v: Int, at p: UnsafeMutablePointer<UInt8>) {
        let t = pairs.utf8Start
        let r = v &* 2
        p[0] = t[r]
        p[1] = t[r &+ 1]
    }

    /// Stores the digits of `x` (`count(x)` of them) in the bytes just before `end`.
    @inline(__always) static func write(_ x: UInt, endingAt end: UnsafeMutablePointer<UInt8>) {
        let t = pairs.utf8Start
        var p = end
        var v = x
        while v >= 100 {
            let q = v / 100
            let r = Int(truncatingIfNeeded: v &- q &* 100) &* 2
            p -= 2
            p[0] = t[r]
            p[1] = t[r &+ 1]
            v = q
        }
        if v >= 10 {
            let r = Int(truncatingIfNeeded: v) &* 2
            p -= 2
            p[0] = t[r]
            p[1] = t[r &+ 1]
        } else {
            p -= 1
            p[0] = 48 &+ UInt8(truncatingIfNeeded: v)
        }
    }
}
