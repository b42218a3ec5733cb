#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// liblc3 (Google's LC3 codec, Debian `liblc3-0` / `liblc3-1`), loaded at run time the first time LE Audio is decoded
/// (`dlopen`), as `SBCLibrary` loads libsbc: the build links no codec, and a machine without it still analyzes
/// everything, with LC3 decoding reported unavailable in one line.
final class LC3Library: @unchecked Sendable {
    // lc3.h (1.0): unsigned lc3_decoder_size(int dt_us, int sr_hz);
    // lc3_decoder_t lc3_setup_decoder(int dt_us, int sr_hz, int sr_pcm_hz, void *mem);
    // int lc3_decode(lc3_decoder_t, const void *in, int nbytes, enum lc3_pcm_format, void *pcm, int stride);
    // int lc3_frame_samples(int dt_us, int sr_hz).
    typealias DecoderSize = @convention(c) (Int32, Int32) -> UInt32
    typealias SetupDecoder = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
    typealias Decode = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, Int32, Int32, UnsafeMutableRawPointer?, Int32) -> Int32
    typealias FrameSamples = @convention(c) (Int32, Int32) -> Int32

    let decoderSize: DecoderSize, setupDecoder: SetupDecoder, decode: Decode, frameSamples: FrameSamples

    static let names = ["liblc3.so.1", "liblc3.so.0", "liblc3.so", "liblc3.1.dylib", "/opt/homebrew/lib/liblc3.dylib", "/usr/local/lib/liblc3.dylib"]

    /// The library, or why it cannot be used: loaded once per process. `BLETRACE_LIBLC3` names the file to load
    /// instead of the usual names (as `BLETRACE_LIBSBC` does for libsbc).
    static let shared: Result<LC3Library, AudioCodecError> = {
        let chosen = getenv("BLETRACE_LIBLC3").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        guard let handle = (chosen.map { [$0] } ?? names).lazy.compactMap({ dlopen($0, RTLD_NOW) }).first else {
            return .failure(.unavailable(chosen.map { "liblc3 not found at \($0) (BLETRACE_LIBLC3)" } ?? "liblc3 not found (install liblc3-0 or liblc3-1)"))
        }
        func sym<T>(_ name: String, _: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: T.self) } }
        guard let size = sym("lc3_decoder_size", DecoderSize.self), let setup = sym("lc3_setup_decoder", SetupDecoder.self),
              let decode = sym("lc3_decode", Decode.self), let samples = sym("lc3_frame_samples", FrameSamples.self) else {
            return .failure(.unavailable("liblc3 lacks lc3_setup_decoder or lc3_decode"))
        }
        return .success(LC3Library(decoderSize: size, setupDecoder: setup, decode: decode, frameSamples: samples))
    }()

    init(decoderSize: DecoderSize, setupDecoder: SetupDecoder, decode: Decode, frameSamples: FrameSamples) {
        self.decoderSize = decoderSize
        self.setupDecoder = setupDecoder
        self.decode = decode
        self.frameSamples = frameSamples
    }
}

/// One LC3 decoder (one channel): frames of `octets` bytes in, 16-bit PCM out; a missing frame is concealed.
public final class LC3Decoder {
    let lib: LC3Library
    let memory: UnsafeMutableRawPointer
    let decoder: UnsafeMutableRawPointer
    public let samplesPerFrame: Int
    var output: [Int16]

    /// A decoder for `frameMicros` (7500 or 10000) at `sampleRate` Hz; throws when liblc3 is missing or refuses
    /// the configuration.
    public init(frameMicros: Int, sampleRate: Int) throws {
        let lib = try LC3Library.shared.get()
        let dt = Int32(clamping: frameMicros), sr = Int32(clamping: sampleRate)
        let n = lib.frameSamples(dt, sr), size = Int(lib.decoderSize(dt, sr))
        guard n > 0, size > 0 else { throw AudioCodecError.unavailable("liblc3 does not decode \(frameMicros) µs frames at \(sampleRate) Hz") }
        memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        guard let d = lib.setupDecoder(dt, sr, 0, memory) else {
            memory.deallocate()
            throw AudioCodecError.unavailable("liblc3 could not make a decoder")
        }
        self.lib = lib
        decoder = d
        samplesPerFrame = Int(n)
        output = [Int16](repeating: 0, count: Int(n))
    }

    deinit { memory.deallocate() }

    /// Decodes one frame (nil: conceal a lost one); calls `body` with its samples. Returns false when the codec
    /// refused the frame (its samples are then concealment).
    @discardableResult
    public func decode(_ frame: ArraySlice<UInt8>?, _ body: (UnsafeBufferPointer<Int16>) -> Void) -> Bool {
        let rc: Int32 = output.withUnsafeMutableBytes { out in
            guard let frame else { return lib.decode(decoder, nil, 0, 0, out.baseAddress, 1) }
            return frame.withUnsafeBytes { input in
                lib.decode(decoder, input.baseAddress, Int32(clamping: input.count), 0, out.baseAddress, 1)
            }
        }
        // A refused frame leaves the buffer as it was: silence instead.
        if rc < 0 { for i in output.indices { output[i] = 0 } }
        output.withUnsafeBufferPointer { body($0) }
        return rc == 0 || (frame == nil && rc == 1)
    }
}
