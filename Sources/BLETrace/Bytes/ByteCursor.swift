/// Errors raised while reading bytes. They carry the offset (within the buffer being parsed) where reading failed.
public enum ByteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Needed `needed` bytes at `offset`, but only `available` remained.
    case truncated(offset: Int, needed: Int, available: Int)
    /// A field held a value the format does not allow.
    case invalid(offset: Int, reason: String)

    public var description: String {
        switch self {
        case let .truncated(offset, needed, available):
            return "truncated at byte \(offset): needed \(needed) byte\(needed == 1 ? "" : "s"), \(available) left"
        case let .invalid(offset, reason):
            return "\(reason) at byte \(offset)"
        }
    }
}

/// A bounds-checked reader over a slice of bytes. Every read either succeeds or throws `ByteError`;
/// nothing here can trap on input data.
public struct ByteCursor {
    public let bytes: ArraySlice<UInt8>
    /// Absolute index into `bytes` (slices keep their parent's indices).
    @usableFromInline var index: Int

    @inlinable public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    @inlinable public init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// Bytes consumed so far.
    @inlinable public var offset: Int { index - bytes.startIndex }
    /// Bytes left to read.
    @inlinable public var remaining: Int { bytes.endIndex - index }
    @inlinable public var isAtEnd: Bool { index >= bytes.endIndex }

    @inlinable func need(_ n: Int) throws {
        if n < 0 || remaining < n {
            throw ByteError.truncated(offset: offset, needed: n, available: remaining)
        }
    }

    /// The `T` at the cursor, as its bytes lie in memory, after `need` has checked that they are all there: one
    /// unaligned load instead of a bounds-checked subscript per byte.
    @inlinable @inline(__always) func load<T: FixedWidthInteger>(_: T.Type) throws -> T {
        try need(MemoryLayout<T>.size)
        let at = index - bytes.startIndex
        return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: T.self) }
    }

    @inlinable public mutating func u8() throws -> UInt8 {
        try need(1)
        let v = bytes[index]
        index += 1
        return v
    }

    @inlinable public mutating func i8() throws -> Int8 {
        Int8(bitPattern: try u8())
    }

    @inlinable public mutating func u16le() throws -> UInt16 {
        let v = UInt16(littleEndian: try load(UInt16.self))
        index += 2
        return v
    }

    @inlinable public mutating func u16be() throws -> UInt16 {
        let v = UInt16(bigEndian: try load(UInt16.self))
        index += 2
        return v
    }

    @inlinable public mutating func u24le() throws -> UInt32 {
        try need(3)
        let v = UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
        index += 3
        return v
    }

    @inlinable public mutating func u32le() throws -> UInt32 {
        let v = UInt32(littleEndian: try load(UInt32.self))
        index += 4
        return v
    }

    @inlinable public mutating func u32be() throws -> UInt32 {
        let v = UInt32(bigEndian: try load(UInt32.self))
        index += 4
        return v
    }

    @inlinable public mutating func u64le() throws -> UInt64 {
        let v = UInt64(littleEndian: try load(UInt64.self))
        index += 8
        return v
    }

    @inlinable public mutating func u64be() throws -> UInt64 {
        let v = UInt64(bigEndian: try load(UInt64.self))
        index += 8
        return v
    }

    /// Reads `n` bytes as a slice of the underlying buffer (no copy).
    @inlinable public mutating func bytes(_ n: Int) throws -> ArraySlice<UInt8> {
        try need(n)
        let s = bytes[index..<(index + n)]
        index += n
        return s
    }

    /// Reads `n` bytes into a new array.
    @inlinable public mutating func array(_ n: Int) throws -> [UInt8] {
        Array(try bytes(n))
    }

    /// The rest of the bytes; the cursor ends up at the end.
    @inlinable public mutating func rest() -> ArraySlice<UInt8> {
        let s = bytes[index...]
        index = bytes.endIndex
        return s
    }

    /// Looks at the next byte without consuming it.
    @inlinable public func peek() throws -> UInt8 {
        try need(1)
        return bytes[index]
    }

    @inlinable public mutating func skip(_ n: Int) throws {
        try need(n)
        index += n
    }

    /// A Bluetooth device address: 6 bytes, least significant first on the wire.
    @inlinable public mutating func address() throws -> BDAddr {
        try need(6)
        let a = address(at: index)
        index += 6
        return a
    }

    /// The address whose six bytes start at index `i` of `bytes`, where the caller has checked they are (a record
    /// read in place), without moving the cursor.
    @inlinable @inline(__always) public func address(at i: Int) -> BDAddr {
        var v: UInt64 = 0
        for k in 0..<6 { v |= UInt64(bytes[i + k]) << (8 * UInt64(k)) }
        return BDAddr(v)
    }

    /// Throws `ByteError.invalid` at the current offset.
    public func invalid(_ reason: String) -> ByteError {
        .invalid(offset: offset, reason: reason)
    }
}

/// A 48-bit Bluetooth device address.
public struct BDAddr: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let value: UInt64
    @inlinable public init(_ value: UInt64) { self.value = value & 0xFFFF_FFFF_FFFF }

    /// Parses "AA:BB:CC:DD:EE:FF" (most significant first).
    public init?(string: String) {
        var s = string
        guard let v = s.withUTF8({ BDAddr.parse($0) }) else { return nil }
        self.init(v)
    }

    /// Six pairs of hex digits separated by colons: exactly 17 bytes.
    static func parse(_ b: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard b.count == 17 else { return nil }
        var v: UInt64 = 0
        for i in 0..<17 {
            if i % 3 == 2 {
                guard b[i] == UInt8(ascii: ":") else { return nil }
                continue
            }
            guard let d = Hex.digitValue(b[i]) else { return nil }
            v = v << 4 | UInt64(d)
        }
        return v
    }

    /// The 17 bytes of `description`, appended without making a String.
    public func write(into b: inout TextBytes) {
        b.append(address: self)
    }

    /// Stores `description`'s 17 bytes at `p`: each byte's two digits from the table of pairs, then a colon.
    @inline(__always) public func writeText(at p: UnsafeMutablePointer<UInt8>) {
        let t = Hex.upperPairs.utf8Start
        let v = value
        var n = 0
        for i in stride(from: 5, through: 0, by: -1) {
            let r = Int(truncatingIfNeeded: (v >> (UInt64(i) &* 8)) & 0xFF) &* 2
            p[n] = t[r]
            p[n &+ 1] = t[r &+ 1]
            if i > 0 { p[n &+ 2] = UInt8(ascii: ":") }
            n &+= 3
        }
    }

    /// `description`'s bytes, made on the stack, lent to `body`.
    @inline(__always) public func withText<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 17) { out in
            guard let p = out.baseAddress else { return body(UnsafeBufferPointer(out)) }
            writeText(at: p)
            return body(UnsafeBufferPointer(start: p, count: 17))
        }
    }

    public var description: String { withText { String(decoding: $0, as: UTF8.self) } }

    public static func < (a: BDAddr, b: BDAddr) -> Bool { a.value < b.value }
}
