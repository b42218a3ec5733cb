import Foundation
import Testing
@testable import BLETrace

@Suite("audio level and WAV output")
struct AudioLevelTests {
    static func measure(_ samples: [Int16], rate: Int = 8000) -> AudioLevel {
        var l = AudioLevel(samplesPerSecond: rate)
        samples.withUnsafeBufferPointer { l.add($0) }
        l.finish()
        return l
    }

    @Test("RMS and peak of a sine, clipped samples, stretches of digital silence")
    func levels() throws {
        let sine = (0..<8000).map { Int16(10_000 * sin(2 * Double.pi * 250 * Double($0) / 8000)) }
        let l = Self.measure(sine)
        #expect(abs(l.rms - 10_000 / 2.0.squareRoot() / 32768) < 0.001 && l.peak == 10_000 && l.clipped == 0 && l.silences == 0)
        // 20 ms of silence at 8 kHz is 160 samples: 100 zeros are not a silence, 400 are; full scale both ways clips.
        var mixed: [Int16] = Array(sine.prefix(800))
        mixed += [Int16](repeating: 0, count: 100)
        mixed += sine.prefix(800)
        mixed += [Int16](repeating: 1, count: 400)
        mixed += [32767, -32768, 5]
        mixed += [Int16](repeating: 0, count: 200)
        let m = Self.measure(mixed)
        #expect(m.silences == 2 && m.longestSilenceSamples == 400 && m.silentSamples == 600 && m.clipped == 2 && m.peak == 32768)
        #expect(Self.measure([Int16](repeating: 0, count: 1000)).silent && !l.silent)
    }

    @Test("the level strip stays within its bound: buckets merge in pairs as the stream grows")
    func strip() throws {
        // 400 buckets of 50 ms at 8 kHz; then 4000 more: merged to stay under 1024.
        var l = AudioLevel(samplesPerSecond: 8000)
        let quiet = [Int16](repeating: 100, count: 400), loud = [Int16](repeating: 1000, count: 400)
        for i in 0..<400 { (i % 2 == 0 ? quiet : loud).withUnsafeBufferPointer { l.add($0) } }
        #expect(l.strip.count == 400 && l.bucketSamples == 400 && l.strip[0] == 100 && l.strip[1] == 1000)
        for _ in 0..<4000 { quiet.withUnsafeBufferPointer { l.add($0) } }
        l.finish()
        #expect(l.strip.count < AudioLevel.maxBuckets && l.bucketSamples == 400 * 8)
        // The first merged buckets hold quiet and loud alike: the root of their mean square.
        #expect(abs(l.strip[0] - ((100.0 * 100 + 1000 * 1000) / 2).squareRoot()) < 0.001)
    }

    @Test("WAV: header sizes filled in at close, silence as zeros, samples little-endian")
    func wav() throws {
        let path = NSTemporaryDirectory() + "bletrace-wav-" + UUID().uuidString + ".wav"
        let w = try WAVWriter(path: path, sampleRate: 16_000, channels: 2)
        [Int16(1), -2, 300, -400].withUnsafeBufferPointer { w.write($0) }
        w.silence(frames: 3)
        #expect(w.close() == nil)
        let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(b.count == 44 + 4 * 2 + 6 * 2)
        #expect(Array(b[0..<4]) == Array("RIFF".utf8) && Array(b[8..<16]) == Array("WAVEfmt ".utf8))
        #expect(b[4] == UInt8(b.count - 8) && b[22] == 2 && b[24] == 0x80 && b[25] == 0x3E && b[34] == 16 && b[40] == 20)
        #expect(Array(b[44..<52]) == [1, 0, 0xFE, 0xFF, 0x2C, 0x01, 0x70, 0xFE] && b[52...].allSatisfy { $0 == 0 })
        #expect(throws: WAVError.self) { try WAVWriter(path: "/nonexistent-dir/x.wav", sampleRate: 8000, channels: 1) }
    }
}
