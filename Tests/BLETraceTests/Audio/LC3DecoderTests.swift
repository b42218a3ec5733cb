import Foundation
import Testing
@testable import BLETrace
#if canImport(Glibc)
import Glibc
#endif

/// liblc3 loaded at run time: a tone encoded through liblc3's own encoder (looked up here the same way) comes
/// back through `LC3Decoder` at its frequency; a lost frame is concealed, a frame of garbage never traps.
@Suite("LC3 through liblc3")
struct LC3DecoderTests {
    typealias EncoderSize = @convention(c) (Int32, Int32) -> UInt32
    typealias SetupEncoder = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
    typealias Encode = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32

    static var available: Bool { (try? LC3Library.shared.get()) != nil }

    /// `seconds` of a tone encoded as `octets`-byte frames.
    static func encode(freq: Double, rate: Int, frameMicros: Int, octets: Int, frames: Int) throws -> [[UInt8]] {
        let handle = try #require(LC3Library.names.lazy.compactMap { dlopen($0, RTLD_NOW) }.first)
        let size = unsafeBitCast(try #require(dlsym(handle, "lc3_encoder_size")), to: EncoderSize.self)
        let setup = unsafeBitCast(try #require(dlsym(handle, "lc3_setup_encoder")), to: SetupEncoder.self)
        let encode = unsafeBitCast(try #require(dlsym(handle, "lc3_encode")), to: Encode.self)
        let mem = UnsafeMutableRawPointer.allocate(byteCount: Int(size(Int32(frameMicros), Int32(rate))), alignment: 16)
        defer { mem.deallocate() }
        let enc = setup(Int32(frameMicros), Int32(rate), 0, mem)
        let n = rate * frameMicros / 1_000_000
        var out: [[UInt8]] = []
        for k in 0..<frames {
            let pcm = (0..<n).map { i in Int16(16000 * sin(2 * Double.pi * freq * Double(k * n + i) / Double(rate))) }
            var frame = [UInt8](repeating: 0, count: octets)
            let rc = pcm.withUnsafeBytes { p in frame.withUnsafeMutableBytes { f in encode(enc, 0, p.baseAddress, 1, Int32(octets), f.baseAddress) } }
            #expect(rc == 0)
            out.append(frame)
        }
        return out
    }

    @Test("48 kHz 10 ms frames of 100 octets: a 1 kHz tone back within 2 %", .enabled(if: available))
    func tone() throws {
        let frames = try Self.encode(freq: 1000, rate: 48_000, frameMicros: 10_000, octets: 100, frames: 100)
        let d = try LC3Decoder(frameMicros: 10_000, sampleRate: 48_000)
        #expect(d.samplesPerFrame == 480)
        var pcm: [Double] = []
        for (i, f) in frames.enumerated() {
            // Frame 50 lost: concealed, not a refusal.
            let ok = d.decode(i == 50 ? nil : f[...]) { p in pcm += p.map(Double.init) }
            #expect(ok)
        }
        #expect(pcm.count == 100 * 480)
        let x = Array(pcm[4800..<24_000])
        let z = try #require(WAV.crossings(x, rate: 48_000))
        #expect(abs(z - 1000) <= 20 && abs(WAV.dominant(x, rate: 48_000) - 1000) <= 20, "\(z) Hz")
    }

    @Test("garbage and short frames: refused or concealed, never a trap", .enabled(if: available))
    func garbage() throws {
        let d = try LC3Decoder(frameMicros: 7500, sampleRate: 16_000)
        var g = SeededGenerator(seed: 0x5EED_0001)
        for n in [0, 1, 19, 20, 40, 400, 1000] {
            let f = (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }
            var count = 0
            _ = d.decode(f[...]) { count = $0.count }
            #expect(count == 120)
        }
        #expect(throws: AudioCodecError.self) { try LC3Decoder(frameMicros: 5000, sampleRate: 44_100) }
    }
}
