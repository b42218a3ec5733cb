#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered byte writer for standard output or memory. Reports write into it; it flushes in large blocks.
public final class OutputWriter {
    /// What is written and not yet flushed.
    public let store: ByteStore
    /// Lent to `append`'s body, and copied into `store` after it.
    @exclusivity(unchecked) var scratch = TextBytes()
    let fd: Int32?
    /// Everything written, when writing to memory.
    public private(set) var captured: [UInt8] = []
    let limit = 1 << 16

    /// Writes to a file descriptor (1 = standard output).
    public init(fd: Int32) {
        self.fd = fd
        self.discard = false
        self.consumer = nil
        store = ByteStore(capacity: (1 << 16) + 4096)
        scratch.memo = store.gattMemo
    }

    let discard: Bool
    /// Takes each block as it is flushed, when set (a pager that keeps one page of the output).
    let consumer: ((ArraySlice<UInt8>) -> Void)?

    /// Collects output in memory (tests).
    public init() {
        self.fd = nil
        self.discard = false
        self.consumer = nil
        store = ByteStore()
        scratch.memo = store.gattMemo
    }

    /// Formats everything and keeps nothing (fuzzing, timing the formatters).
    public init(discarding: ()) {
        self.fd = nil
        self.discard = true
        self.consumer = nil
        store = ByteStore()
        scratch.memo = store.gattMemo
    }

    /// Hands every block to `consumer` as it is flushed, in order, and keeps nothing itself.
    public init(consumer: @escaping (ArraySlice<UInt8>) -> Void) {
        self.fd = nil
        self.discard = false
        self.consumer = consumer
        store = ByteStore(capacity: (1 << 16) + 4096)
        scratch.memo = store.gattMemo
    }

    @inline(__always) public func write(_ s: String) {
        store.put(string: s)
        flushIfFull()
    }

    @inline(__always) public func write(utf8: UnsafeBufferPointer<UInt8>) {
        store.put(utf8)
        flushIfFull()
    }

    @inline(__always) public func write(byte: UInt8) {
        store.put(byte)
    }

    /// Flushes once the store holds a block.
    @inline(__always) public func flushIfFull() {
        if store.count >= limit { flush() }
    }

    /// Lets `body` append to the writer's text buffer, then copies what it wrote into the store: for lines
    /// written as text (`TextBytes`) rather than into the store directly.
    @inline(__always) public func append(_ body: (inout TextBytes) -> Void) {
        scratch.removeAll()
        body(&scratch)
        scratch.withBytes { store.put($0) }
        flushIfFull()
    }

    /// A decimal integer, without building a String.
    public func write(int v: Int) { store.putDecimal(v) }

    /// A non-negative integer right-aligned in `width` columns (spaces in front), or zero-padded.
    public func write(int v: Int, width: Int, zeroPad: Bool = false) { store.putDecimal(v, width: width, zeroPad: zeroPad) }

    /// Microseconds as seconds with six decimals ("12.000345"), right-aligned in `width` columns.
    public func write(seconds micros: Int64, width: Int) { store.putSeconds(micros, width: width) }

    /// An ISO-8601 UTC timestamp with microseconds, written in place.
    public func write(iso8601 t: Timestamp) { store.putISO8601(t) }

    /// "0x" and `width` upper-case hex digits.
    public func write(hex v: UInt64, width: Int) { store.putHex(v, width: width) }

    public func write(bytes: [UInt8]) {
        store.put(bytes)
        flushIfFull()
    }

    /// The error of the first write that failed (ENOSPC on a full disk, EIO, …), other than a closed pipe;
    /// once a write failed, the rest of the output is dropped. The commands report it and exit with status 2.
    public private(set) var failure: Int32?
    /// True once the reader went away (EPIPE: `bletrace … | head`): the rest is dropped quietly.
    public private(set) var readerGone = false

    /// The failed write in words ("No space left on device"), if one failed.
    public var failureText: String? { failure.map { String(cString: strerror($0)) } }

    public func flush() {
        guard let fd = fd else {
            if let c = consumer {
                c(store.bytes[...])
            } else if !discard {
                store.withBytes { captured.append(contentsOf: $0) }
            }
            store.removeAll()
            return
        }
        guard failure == nil && !readerGone else {
            store.removeAll()
            return
        }
        var offset = 0
        var error: Int32 = 0
        store.withBytes { raw in
            guard let base = raw.baseAddress else { return }
            while offset < raw.count {
                let n = Glibc.write(fd, base + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    error = n < 0 ? errno : EIO
                    break
                }
                offset += n
            }
        }
        if error == EPIPE { readerGone = true } else if error != 0 { failure = error }
        store.removeAll()
    }

    /// The text written so far (memory writers).
    public var text: String {
        flush()
        return String(decoding: captured, as: UTF8.self)
    }
}

/// Strings and numbers on a plain byte array (JSON made ahead of time, `JSONOut.write(_:into:)`; text lines are
/// made on `TextBytes`).
extension Array where Element == UInt8 {
    /// A string's UTF-8 bytes, read where they are (see `ByteStore.putJSONString(_:)`).
    @inline(__always) mutating func append(string s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) != nil { return }
        var s = s
        s.withUTF8 { append(contentsOf: $0) }
    }

    /// A decimal integer, without building a String: the digits made on the stack two at a time
    /// (`DecimalDigits`), then appended in one call (the array checks its uniqueness once).
    mutating func append(decimal v: Int) {
        if v >= 0 && v < 10 { append(UInt8(truncatingIfNeeded: 48 &+ v)); return }
        let x = v.magnitude
        let digits = DecimalDigits.count(x)
        if v < 0 { append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            guard let base = buffer.baseAddress else { return }
            DecimalDigits.write(x, endingAt: base + digits)
            append(contentsOf: UnsafeBufferPointer(start: base, count: digits))
        }
    }
}
