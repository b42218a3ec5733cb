#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where bytes come from: a file, standard input, a decompressor, or memory.
public protocol ByteSource: AnyObject {
    /// Reads up to `count` bytes into `buffer`; returns 0 at end of input.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A file opened for reading with POSIX calls.
public final class FileSource: ByteSource {
    let fd: Int32
    public let path: String
    let ownsDescriptor: Bool

    /// Standard input.
    public init(standardInput: ()) {
        fd = 0
        path = "-"
        ownsDescriptor = false
    }

    public init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDONLY)
        if fd < 0 {
            throw CaptureError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw CaptureError.cannotOpen(path: path, reason: "is a directory")
        }
        self.fd = fd
        self.ownsDescriptor = true
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw CaptureError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
    }

    deinit { if ownsDescriptor { close(fd) } }
}

/// Bytes held in memory (tests, decompressed data).
public final class MemorySource: ByteSource {
    let bytes: [UInt8]
    @exclusivity(unchecked) var position = 0
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - position)
        if n <= 0 { return 0 }
        bytes.withUnsafeBytes { src in
            buffer.baseAddress!.copyMemory(from: src.baseAddress! + position, byteCount: n)
        }
        position += n
        return n
    }
}

/// A read-ahead window over a `ByteSource`. Records are handed out as slices of the window, so
/// reading a record costs no allocation; memory stays at the window size (grown only for a larger record).
public final class InputBuffer {
    let source: ByteSource
    @exclusivity(unchecked) var buffer: [UInt8]
    @exclusivity(unchecked) var start = 0
    @exclusivity(unchecked) var end = 0
    @exclusivity(unchecked) var sawEOF = false
    /// Absolute file offset of `buffer[0]`.
    @exclusivity(unchecked) var base = 0
    let chunk: Int

    public init(source: ByteSource, chunk: Int = 1 << 20) {
        self.source = source
        self.chunk = chunk
        self.buffer = []
    }

    /// Absolute offset of the next unread byte.
    public var offset: Int { base + start }
    public var available: Int { end - start }

    /// Makes at least `n` bytes available; returns false if the input ends first (what is there stays available).
    /// The usual case, bytes already in the window, is a comparison inlined into the reader.
    @inline(__always) public func ensure(_ n: Int) throws -> Bool {
        if end &- start >= n { return true }
        return try refill(n)
    }

    /// `ensure` when the window holds fewer than `n` bytes: a new window, the unread tail copied to its front and
    /// the rest read from the source. Records handed out are slices of the old window, and some are still held
    /// (a request waiting for its answer keeps its bytes): writing into the old window would first copy all of it.
    /// The new one is read into as it is made, so it is neither copied nor zero-filled.
    @inline(never) func refill(_ n: Int) throws -> Bool {
        if sawEOF { return false }
        let keep = end - start
        let want = max(chunk, n)
        let old = buffer, from = start, source = self.source
        var failure: Error? = nil
        var ended = false
        let window = [UInt8](unsafeUninitializedCapacity: want) { raw, count in
            count = 0
            guard let to = raw.baseAddress else { return }
            if keep > 0 {
                old.withUnsafeBufferPointer { src in
                    guard let s = src.baseAddress else { return }
                    to.initialize(from: s + from, count: keep)
                    count = keep
                }
            }
            while count < n {
                do {
                    let got = try source.read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: raw[count...])))
                    if got == 0 { ended = true; break }
                    count += got
                } catch {
                    // The source failed part-way (a damaged gzip stream, an I/O error): what arrived stays
                    // readable, and the reader's truncation error carries this reason.
                    failure = error
                    ended = true
                    break
                }
            }
        }
        buffer = window
        base += start
        start = 0
        end = window.count
        if let failure { sourceError = failure }
        if ended { sawEOF = true }
        return end >= n
    }

    /// Why the input ended early, when the source failed rather than ending cleanly.
    @exclusivity(unchecked) public private(set) var sourceError: Error?

    /// " (reason)" when the source failed, else "" — appended to truncation messages.
    public var sourceNote: String {
        guard let e = sourceError else { return "" }
        switch e as? CaptureError {
        case let .truncated(_, _, reason)?: return " (\(reason))"
        case let .truncatedStream(container, _, decompressed)?:
            return " (\(container) data ends early (after \(decompressed) uncompressed bytes))"
        default: break
        }
        return " (\(e))"
    }

    /// Consumes `n` bytes (which `ensure` has made available) and returns them as a slice.
    @inline(__always) public func take(_ n: Int) -> ArraySlice<UInt8> {
        precondition(n <= end - start, "take beyond ensure")
        let s = buffer[start..<(start + n)]
        start += n
        return s
    }

    /// The next `n` bytes (which `ensure` has made available) lent to `body` as raw memory, checked once: a
    /// record header's fields read in place with one bounds check instead of one per field.
    @inline(__always) public func withNext<R>(_ n: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        precondition(n >= 0 && n <= end - start, "read beyond ensure")
        let at = start
        return buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[at..<(at &+ n)])) }
    }

    /// Consumes `n` bytes (which `ensure` has made available) without looking at them.
    @inline(__always) public func skip(_ n: Int) {
        precondition(n >= 0 && n <= end - start, "skip beyond ensure")
        start += n
    }

    /// Peeks at up to `n` bytes without consuming them.
    public func peek(_ n: Int) throws -> ArraySlice<UInt8> {
        _ = try ensure(n)
        return buffer[start..<(start + min(n, end - start))]
    }

    /// True once every byte has been consumed.
    @inline(__always) public func atEnd() throws -> Bool {
        try !ensure(1)
    }

    /// True once every byte has been consumed and the source ended cleanly; throws the source's error when it
    /// failed at a record boundary (a gzip stream cut short after a whole record): the records before it stand.
    @inline(__always) public func atCleanEnd() throws -> Bool {
        guard try atEnd() else { return false }
        if let e = sourceError { throw e }
        return true
    }
}
