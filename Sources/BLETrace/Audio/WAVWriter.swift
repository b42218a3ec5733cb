#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 16-bit PCM WAV file written as the audio is decoded: a RIFF header whose sizes are filled in when the
/// file is closed, then the samples (little-endian, interleaved). Stops adding samples before the 4 GiB RIFF limit.
public final class WAVWriter {
    let file: UnsafeMutablePointer<FILE>
    public let sampleRate: Int
    public let channels: Int
    public private(set) var dataBytes = 0
    /// What writing failed on, if it did.
    public private(set) var failure: String?
    static let maxDataBytes = Int(UInt32.max) - 64
    var zeros = [Int16](repeating: 0, count: 4096)

    public init(path: String, sampleRate: Int, channels: Int) throws {
        guard let f = fopen(path, "wb") else { throw WAVError.cannotWrite(path, String(cString: strerror(errno))) }
        file = f
        self.sampleRate = sampleRate
        self.channels = channels
        writeHeader()
    }

    deinit { _ = close() }

    /// Interleaved samples of `channels` channels.
    public func write(_ samples: UnsafeBufferPointer<Int16>) {
        guard failure == nil, let base = samples.baseAddress else { return }
        let n = min(samples.count * 2, WAVWriter.maxDataBytes - dataBytes)
        guard n > 0 else { return }
        if fwrite(base, 1, n, file) != n { failure = String(cString: strerror(errno)) }
        dataBytes += n
    }

    /// `frames` sample frames (one sample per channel) of digital silence: a gap kept on the time line.
    public func silence(frames: Int) {
        var left = max(0, frames) * channels
        while left > 0, failure == nil, dataBytes < WAVWriter.maxDataBytes {
            let n = min(left, zeros.count)
            zeros.withUnsafeBufferPointer { write(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            left -= n
        }
    }

    var closed = false

    /// Fills in the sizes and closes the file; returns what failed, if anything did.
    @discardableResult
    public func close() -> String? {
        guard !closed else { return failure }
        closed = true
        if fseek(file, 0, SEEK_SET) == 0 { writeHeader() } else if failure == nil { failure = "cannot seek to the header" }
        if fclose(file) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        return failure
    }

    func writeHeader() {
        var h: [UInt8] = []
        h.reserveCapacity(44)
        func u32(_ v: Int) { let x = UInt32(clamping: v); h += [UInt8(x & 0xFF), UInt8(x >> 8 & 0xFF), UInt8(x >> 16 & 0xFF), UInt8(x >> 24)] }
        func u16(_ v: Int) { let x = UInt16(clamping: v); h += [UInt8(x & 0xFF), UInt8(x >> 8)] }
        h += Array("RIFF".utf8); u32(36 + dataBytes); h += Array("WAVE".utf8)
        h += Array("fmt ".utf8); u32(16); u16(1); u16(channels); u32(sampleRate); u32(sampleRate * channels * 2); u16(channels * 2); u16(16)
        h += Array("data".utf8); u32(dataBytes)
        if fwrite(h, 1, h.count, file) != h.count, failure == nil { failure = String(cString: strerror(errno)) }
    }
}

public enum WAVError: Error, CustomStringConvertible {
    case cannotWrite(String, String)

    public var description: String {
        switch self {
        case let .cannotWrite(path, why): return "cannot write \(path): \(why)"
        }
    }
}
