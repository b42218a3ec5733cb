import CZlibShim

/// Decompresses a zlib or gzip stream (concatenated gzip members included) from another byte source.
public final class InflateSource: ByteSource {
    let upstream: ByteSource
    var stream = z_stream()
    var input = [UInt8](repeating: 0, count: 1 << 16)
    var inputStart = 0
    var inputEnd = 0
    var upstreamDone = false
    var finished = false
    public let label: String

    /// `gzip: true` expects a gzip header; false expects a zlib header.
    public init(_ upstream: ByteSource, gzip: Bool) throws {
        self.upstream = upstream
        self.label = gzip ? "gzip" : "zlib"
        let rc = bletrace_inflate_init(&stream, gzip ? 15 + 16 : 15)
        guard rc == Z_OK else { throw CaptureError.badHeader("cannot start \(label) decompression (zlib error \(rc))") }
    }

    deinit { inflateEnd(&stream) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if finished || buffer.count == 0 { return 0 }
        while true {
            if inputStart == inputEnd && !upstreamDone {
                let n = try input.withUnsafeMutableBytes { try upstream.read(into: $0) }
                if n == 0 { upstreamDone = true } else { inputStart = 0; inputEnd = n }
            }
            let available = inputEnd - inputStart
            let (rc, produced, consumed) = input.withUnsafeMutableBufferPointer { inBuf -> (Int32, Int, Int) in
                stream.next_in = inBuf.baseAddress! + inputStart
                stream.avail_in = UInt32(available)
                stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                stream.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
                let rc = inflate(&stream, Z_NO_FLUSH)
                let produced = min(buffer.count, Int(UInt32.max)) - Int(stream.avail_out)
                return (rc, produced, available - Int(stream.avail_in))
            }
            inputStart += consumed
            switch rc {
            case Z_OK, Z_BUF_ERROR:
                if produced > 0 { return produced }
                if upstreamDone && inputStart == inputEnd {
                    throw CaptureError.truncatedStream(container: label, compressed: Int(stream.total_in),
                                                       decompressed: Int(stream.total_out))
                }
            case Z_STREAM_END:
                // Another gzip member may follow (concatenated .gz files).
                if label == "gzip" && (inputStart < inputEnd || !upstreamDone) {
                    if inputStart == inputEnd {
                        let n = try input.withUnsafeMutableBytes { try upstream.read(into: $0) }
                        if n == 0 { upstreamDone = true } else { inputStart = 0; inputEnd = n }
                    }
                    if inputStart < inputEnd { inflateReset(&stream) } else { finished = true }
                } else {
                    finished = true
                }
                if produced > 0 || finished { return produced }
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "error \(rc)"
                throw CaptureError.badHeader("\(label) data is corrupt: \(message)")
            }
        }
    }

    /// Inflates a whole zlib buffer in memory (btsnooz), stopping at `limit` bytes of output.
    public static func inflateAll(_ bytes: [UInt8], gzip: Bool = false, limit: Int = 1 << 30) throws -> [UInt8] {
        let src = try InflateSource(MemorySource(bytes), gzip: gzip)
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try src.read(into: $0) }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw CaptureError.badHeader("decompressed data exceeds \(limit) bytes") }
        }
        return out
    }
}

/// Lets the already-peeked bytes of an `InputBuffer` be read again as a source, followed by the rest.
public final class BufferedSource: ByteSource {
    let input: InputBuffer
    public init(_ input: InputBuffer) { self.input = input }
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard try input.ensure(1) else { return 0 }
        let n = min(buffer.count, input.available)
        let slice = input.take(n)
        slice.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: n) }
        return n
    }
}
