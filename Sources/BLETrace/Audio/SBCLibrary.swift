#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libsbc (BlueZ's SBC codec, Debian `libsbc1`), loaded at run time the first time audio is decoded
/// (`dlopen`): the build links no codec, and a machine without it still analyzes everything, with audio
/// decoding reported unavailable in one line.
final class SBCLibrary: @unchecked Sendable {
    // sbc.h: int sbc_init(sbc_t *, unsigned long flags); int sbc_init_msbc(sbc_t *, unsigned long flags);
    // ssize_t sbc_decode(sbc_t *, const void *input, size_t input_len, void *output, size_t output_len, size_t *written);
    // void sbc_finish(sbc_t *).
    typealias Init = @convention(c) (UnsafeMutableRawPointer?, UInt) -> Int32
    typealias Decode = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, Int, UnsafeMutableRawPointer?, Int,
                                       UnsafeMutablePointer<Int>?) -> Int
    typealias Finish = @convention(c) (UnsafeMutableRawPointer?) -> Void

    let initialize: Init, initializeMSBC: Init, decode: Decode, finish: Finish

    static let names = ["libsbc.so.1", "libsbc.so", "libsbc.1.dylib", "/opt/homebrew/lib/libsbc.1.dylib", "/usr/local/lib/libsbc.1.dylib"]

    /// The library, or why it cannot be used ("libsbc not found"): loaded once per process. `BLETRACE_LIBSBC`
    /// names the file to load instead of the usual names (a libsbc in a place the loader does not search).
    static let shared: Result<SBCLibrary, AudioCodecError> = {
        let chosen = getenv("BLETRACE_LIBSBC").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        guard let handle = (chosen.map { [$0] } ?? names).lazy.compactMap({ dlopen($0, RTLD_NOW) }).first else {
            return .failure(.unavailable(chosen.map { "libsbc not found at \($0) (BLETRACE_LIBSBC)" } ?? "libsbc not found (install libsbc1)"))
        }
        func sym<T>(_ name: String, _: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: T.self) } }
        guard let i = sym("sbc_init", Init.self), let m = sym("sbc_init_msbc", Init.self), let d = sym("sbc_decode", Decode.self),
              let f = sym("sbc_finish", Finish.self) else {
            return .failure(.unavailable("libsbc lacks sbc_init_msbc or sbc_decode: too old a libsbc"))
        }
        return .success(SBCLibrary(initialize: i, initializeMSBC: m, decode: d, finish: f))
    }()

    init(initialize: Init, initializeMSBC: Init, decode: Decode, finish: Finish) {
        self.initialize = initialize
        self.initializeMSBC = initializeMSBC
        self.decode = decode
        self.finish = finish
    }
}

/// Why audio could not be decoded.
public enum AudioCodecError: Error, Sendable, Equatable, CustomStringConvertible {
    case unavailable(String)

    public var description: String {
        switch self {
        case let .unavailable(why): return "audio decoding unavailable: " + why
        }
    }
}

/// One SBC decoder state (`sbc_t`), for one stream: frames in, 16-bit PCM out (interleaved, host order).
public final class SBCDecoder {
    let lib: SBCLibrary
    /// The `sbc_t` (sbc.h: unsigned long flags; seven uint8_t fields; two pointers), with room to spare.
    let state: UnsafeMutableRawPointer
    static let stateBytes = 64
    /// Byte offset of `sbc_t.endian` (after `flags` and six uint8_t fields).
    static let endianOffset = MemoryLayout<UInt>.size + 6
    var output: [Int16]

    /// A decoder for A2DP SBC (`msbc` false) or HFP's mSBC.
    public init(msbc: Bool = false) throws {
        let lib = try SBCLibrary.shared.get()
        self.lib = lib
        state = UnsafeMutableRawPointer.allocate(byteCount: SBCDecoder.stateBytes, alignment: 16)
        state.initializeMemory(as: UInt8.self, repeating: 0, count: SBCDecoder.stateBytes)
        let rc = msbc ? lib.initializeMSBC(state, 0) : lib.initialize(state, 0)
        guard rc == 0 else {
            state.deallocate()
            throw AudioCodecError.unavailable("libsbc could not make a decoder (\(rc))")
        }
        // Little-endian output (SBC_LE); Swift reads the samples in host order, and every platform Swift runs
        // on here is little-endian.
        state.storeBytes(of: UInt8(0), toByteOffset: SBCDecoder.endianOffset, as: UInt8.self)
        // The largest frame: 16 blocks × 8 subbands × 2 channels.
        output = [Int16](repeating: 0, count: 256)
    }

    deinit {
        lib.finish(state)
        state.deallocate()
    }

    /// Decodes one frame; calls `body` with its samples (interleaved when stereo). Returns false when the
    /// codec refused the frame.
    public func decode(_ frame: ArraySlice<UInt8>, _ body: (UnsafeBufferPointer<Int16>) -> Void) -> Bool {
        var written = 0
        let consumed = frame.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                lib.decode(state, input.baseAddress, input.count, out.baseAddress, out.count, &written)
            }
        }
        guard consumed > 0, written >= 0, written <= output.count * 2 else { return false }
        output.withUnsafeBufferPointer { p in body(UnsafeBufferPointer(rebasing: p[0..<(written / 2)])) }
        return true
    }
}
