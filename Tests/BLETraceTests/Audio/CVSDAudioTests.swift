import Foundation
import Testing
@testable import BLETrace

/// CVSD bits over HCI SCO (transparent air mode, the host's own CVSD): captures made by scripts/gen-hfp-sco.py
/// `--codec cvsd-bits`, whose encoder follows Core 5.4 Vol 2 Part B 9.2 on a tone made at 64 kHz, decoded by
/// `CVSDDecoder` to 8 kHz: the tone's frequency, level and duration come back, and every planted loss is found
/// where it was put.
@Suite("HFP voice over SCO: CVSD bits decoded", .serialized)
struct CVSDAudioTests {
    /// The share of `x`'s power outside a sine of `f` Hz (least-squares fit of its sine and cosine parts), and
    /// the fitted sine's amplitude.
    static func fit(_ x: [Double], f: Double, rate: Int) -> (residual: Double, amplitude: Double) {
        let w = 2 * Double.pi * f / Double(rate)
        var a = 0.0, b = 0.0
        for (i, v) in x.enumerated() {
            a += v * cos(w * Double(i))
            b += v * sin(w * Double(i))
        }
        a *= 2 / Double(x.count)
        b *= 2 / Double(x.count)
        var rest = 0.0, total = 0.0
        for (i, v) in x.enumerated() {
            let e = v - a * cos(w * Double(i)) - b * sin(w * Double(i))
            rest += e * e
            total += v * v
        }
        return (rest / max(total, 1), (a * a + b * b).squareRoot())
    }

    @Test("transparent air mode, HFP codec CVSD: the tone, its level, the duration, flagged packets and a gap",
          .enabled(if: SCOFixtures.canGenerate))
    func tone() throws {
        let (path, g) = try SCOFixtures.generate(["--codec", "cvsd-bits", "--seconds", "1.5", "--freq", "1000", "--amplitude", "12000",
                                                  "--flag", "40:2,120:1", "--gap", "80:10"])
        let (r, wav) = try AudioFixtures.decode(path)
        let s = try #require(r.streams.first)
        let v = try #require(s.voice)
        #expect(r.streams.count == 1 && r.failures.isEmpty)
        #expect(v.negotiation.airMode == 0x03 && v.negotiation.hfpCodec == 1 && v.negotiation.voiceSetting == 0x0063)
        #expect(v.negotiated == .cvsd && v.found == .cvsd && !v.mismatch)
        #expect(wav.rate == 8000 && wav.channels == 1)
        // 60-byte packets: 60 samples (7.5 ms) each. The tone before the first loss and after the last.
        for (from, count) in [(128, 2048), (125 * 60 + 64, 4096)] {
            let x = wav.channel(0, from: from, count: count)
            let f = WAV.dominant(x, rate: 8000)
            let z = try #require(WAV.crossings(x, rate: 8000))
            #expect(abs(f - 1000) <= 20 && abs(z - 1000) <= 20, "Goertzel \(f) Hz, zero crossings \(z) Hz")
            // The decoder tracks the encoder: the sine holds all but 0.2 % of the power (about 0.04 % measured), at
            // the amplitude it was made with, within 2 % (bits taken in the wrong order lose about 8 %).
            let (residual, amplitude) = Self.fit(x, f: z, rate: 8000)
            #expect(residual < 0.002 && abs(amplitude - 12_000) < 240, "residual \(residual), amplitude \(amplitude)")
        }
        // Duration: one sample a byte, the gap's 10 packets as silence in their place.
        let expected = try #require(g["samples"] as? Int)
        #expect(abs(wav.samples.count - expected) <= 60, "\(wav.samples.count) samples, expected \(expected)")
        #expect(wav.channel(0, from: 40 * 60, count: 60).allSatisfy { $0 == 0 })
        #expect(wav.channel(0, from: 80 * 60 + 2, count: 590).allSatisfy { $0 == 0 })
        #expect(wav.channel(0, from: 79 * 60, count: 60).contains { abs($0) > 6000 })
        // Every planted loss at its record, nothing else: the "no data" packet, the "possibly invalid" one, the gap.
        let flags = SCOFixtures.records(g, "flags")
        let (flagged, missing, underruns) = SCOFixtures.kinds(s)
        #expect(flagged.map(\.record) == flags && flags.count == 2)
        #expect(flagged.map(\.kind) == [.erroneous(status: 2, packets: 1), .erroneous(status: 1, packets: 1)])
        #expect(flagged.map(\.positionMicros) == [40 * 7500, 120 * 7500])
        #expect(missing.isEmpty && v.noData == 1 && v.possiblyInvalid == 1 && v.partiallyLost == 0)
        #expect(underruns.map(\.record) == SCOFixtures.records(g, "gaps") && underruns.count == 1)
        #expect(underruns.allSatisfy { abs($0.durationMicros - 75_000) < 1000 && $0.positionMicros == 80 * 7500 })
        #expect(s.dropoutCount == 3 && s.decodeErrors == 0 && s.payloadErrors == 0)
        // Every packet but the "no data" one decoded.
        #expect(s.frames == s.packets && s.decodedFrames == s.packets - 1)
        let level = try #require(s.level)
        #expect(level.clipped == 0 && level.peak > 10_800 && level.peak < 14_000, "peak \(level.peak)")
        #expect(r.summary.diagnoses.filter { $0.id.rawValue.hasPrefix("audio_") }.map(\.id) == [.audioDropout])
    }

    @Test("Enhanced Setup with CVSD over HCI, the host's own voice: the tone, no dropout", .enabled(if: SCOFixtures.canGenerate))
    func enhanced() throws {
        let (path, g) = try SCOFixtures.generate(["--codec", "cvsd-bits", "--seconds", "0.6", "--freq", "700", "--amplitude", "9000",
                                                  "--enhanced", "--sent"])
        let (r, wav) = try AudioFixtures.decode(path)
        let s = try #require(r.streams.first)
        let v = try #require(s.voice)
        #expect(v.sent && v.negotiation.enhanced?.inputCoding == 0x02 && v.negotiation.enhanced?.transmitCoding == 0x02)
        #expect(v.negotiated == .cvsd && v.found == .cvsd)
        #expect(wav.samples.count == (g["samples"] as? Int))
        let x = wav.channel(0, from: 256, count: 4096)
        #expect(abs(WAV.dominant(x, rate: 8000) - 700) <= 14)
        #expect(s.dropoutCount == 0 && s.decodeErrors == 0 && s.decodedFrames == s.frames && s.frames == s.packets)
    }
}

@Suite("CVSD decoder")
struct CVSDDecoderTests {
    static func decode(_ bytes: [UInt8]) -> [Int16] {
        var d = CVSDDecoder()
        var out: [Int16] = []
        d.decode(bytes[...], into: &out)
        return out
    }

    /// The idle pattern (alternating bits) has no run: the step stays at its minimum and the output near zero.
    @Test func idlePatternIsSilence() {
        let out = Self.decode([UInt8](repeating: 0x55, count: 400))
        #expect(out.count == 400 && out.allSatisfy { abs($0) <= 16 })
    }

    /// A run of ones climbs to full scale, a run of zeros to the bottom: bit 1 steps up. The step grows by δmin
    /// per bit of a run, so the climb takes more than the first byte.
    @Test func runsClimbToFullScale() {
        let up = Self.decode([UInt8](repeating: 0xFF, count: 200))
        let down = Self.decode([UInt8](repeating: 0x00, count: 200))
        #expect(up.count == 200 && down.count == 200)
        #expect(up[0] < 2000 && up.suffix(100).allSatisfy { $0 > 31_000 } && down.suffix(100).allSatisfy { $0 < -31_000 })
        #expect(up[0..<100].contains { $0 < 31_000 } && down[0..<100].contains { $0 > -31_000 })
    }

    @Test func lowPassHasUnityGainAndSymmetry() {
        let h = CVSDDecoder.lowPass
        #expect(h.count == CVSDDecoder.taps && abs(h.reduce(0, +) - 1) < 1e-9)
        #expect(h.indices.allSatisfy { abs(h[$0] - h[h.count - 1 - $0]) < 1e-12 })
        // Gain at 1 kHz near 1, at 6 kHz (which would fold onto 2 kHz) below -40 dB.
        func gain(_ f: Double) -> Double {
            let w = 2 * Double.pi * f / 64_000
            var re = 0.0, im = 0.0
            for (i, c) in h.enumerated() { re += c * cos(w * Double(i)); im -= c * sin(w * Double(i)) }
            return (re * re + im * im).squareRoot()
        }
        #expect(abs(gain(1000) - 1) < 0.01 && gain(6000) < 0.01)
    }

    /// Random bytes in chunks of random length: one sample a byte, no trap, the state carried across chunks
    /// (two chunkings of the same bytes give the same samples).
    @Test func randomBytesNeverTrap() {
        var g = SeededGenerator(seed: 0x5EED_0003)
        let bytes = (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &g) }
        var d = CVSDDecoder()
        var out: [Int16] = []
        var i = 0
        while i < bytes.count {
            let n = Int.random(in: 0...300, using: &g)
            d.decode(bytes[i..<min(bytes.count, i + n)], into: &out)
            i += n
        }
        #expect(out == Self.decode(bytes))
        #expect(out.count == bytes.count)
    }

    /// SCO packets of random length, status and content on a handle negotiated as CVSD bits, with pauses and a clock jump:
    /// no trap, one sample a byte on the time line, every problem tied to a record.
    @Test func randomPacketsThroughTheLayer() {
        let h = TraceHarness()
        let audio = A2DPAudio(a2dp: h.pipeline.chain.signaling!.a2dp, options: A2DPAudio.Options(decode: true))
        h.pipeline.chain.a2dpAudio = audio
        h.layers.append(audio)
        var n = SCONegotiation()
        n.airMode = 0x03
        n.hfpCodec = 1
        audio.setups.byHandle[0x0104] = n
        var g = SeededGenerator(seed: 0x5EED_0003)
        var bytes = 0, noData = 0
        for i in 0..<2000 {
            let status = i == 0 ? 0 : UInt16.random(in: 0...3, using: &g)
            // The first packet sets the stream's nominal packet time (60 bytes: 7.5 ms).
            let count = i == 0 ? 60 : Int.random(in: 0...80, using: &g)
            let body = (0..<count).map { _ in UInt8.random(in: 0...255, using: &g) }
            let hf = 0x0104 | (status << 12)
            // Now and then two seconds with no packet (an underrun), or the clock jumping far ahead.
            let advance: Int64 = i == 1999 ? Int64.max / 8 : i % 400 == 399 ? 2_000_000 : Int64.random(in: 0...15_000, using: &g)
            h.feed(.sco, [UInt8(hf & 0xFF), UInt8(hf >> 8), UInt8(count)] + body, .controllerToHost, advance: advance)
            bytes += count
            if status == 2 { noData += count }
        }
        audio.finish()
        let s = audio.streams.first
        #expect(audio.streams.count == 1 && s?.voice?.found == .cvsd)
        // Decoded bytes and "no data" bytes (as silence) one sample each, plus the underruns' silence.
        #expect(s.map { $0.positionSamples == bytes - noData + $0.gapSamples } == true)
        #expect((s?.decodedFrames ?? 0) > 0)
        #expect((s?.underruns ?? 0) >= 4)
        #expect((s?.level?.samples ?? 0) > 0)
        #expect(s.map { $0.errorRecords.allSatisfy { $0.record > 0 } && $0.dropouts.count <= AudioStream.maxDropouts } == true)
    }
}
