#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered byte writer for standard output or memory. Reports write into it; it flushes in large blocks.
public final class OutputWriter {
    var buffer: [UInt8] = []
    let fd: Int32?
    /// Everything written, when writing to memory.
    public private(set) var captured: [UInt8] = []
    let limit = 1 << 16

    /// Writes to a file descriptor (1 = standard output).
    public init(fd: Int32) {
        self.fd = fd
        self.discard = false
        buffer.reserveCapacity(limit + 4096)
    }

    let discard: Bool

    /// Collects output in memory (tests).
    public init() {
        self.fd = nil
        self.discard = false
    }

    /// Formats everything and keeps nothing (fuzzing, timing the formatters).
    public init(discarding: ()) {
        self.fd = nil
        self.discard = true
    }

    @inline(__always) public func write(_ s: String) {
        var s = s
        s.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= limit { flush() }
    }

    @inline(__always) public func write(byte: UInt8) {
        buffer.append(byte)
    }

    public func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flush() }
    }

    public func flush() {
        guard let fd = fd else {
            if !discard { captured.append(contentsOf: buffer) }
            buffer.removeAll(keepingCapacity: true)
            return
        }
        var offset = 0
        buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 {
                    if n < 0 && errno == EINTR { continue }
                    break // EPIPE or similar: the reader went away; drop the output quietly
                }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// The text written so far (memory writers).
    public var text: String {
        flush()
        return String(decoding: captured, as: UTF8.self)
    }
}
