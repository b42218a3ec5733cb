import CZlibShim

/// zlib compression, for writing test inputs (btsnooz sections, gzip captures).
public enum Deflate {
    /// zlib-wrapped (gzip: false) or gzip-wrapped data.
    public static func compress(_ bytes: [UInt8], gzip: Bool = false) throws -> [UInt8] {
        var stream = z_stream()
        let rc = deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, gzip ? 15 + 16 : 15, 8, Z_DEFAULT_STRATEGY,
                               ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw CaptureError.badHeader("deflate init failed (\(rc))") }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        var input = bytes
        let produced: Int = input.withUnsafeMutableBufferPointer { inBuf in
            out.withUnsafeMutableBufferPointer { outBuf in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = UInt32(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = UInt32(outBuf.count)
                _ = deflate(&stream, Z_FINISH)
                return outBuf.count - Int(stream.avail_out)
            }
        }
        return Array(out[0..<produced])
    }
}
