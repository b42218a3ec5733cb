import Foundation
import Testing
@testable import BLETrace

/// HFP 1.9 super-wideband speech: captures made by scripts/gen-hfp-sco.py --codec lc3-swb (codec 3 negotiated
/// over RFCOMM, a tone encoded by liblc3 into 58-byte frames of 7.5 ms at 32 kHz, each behind an H2 header),
/// decoded into WAV through liblc3: the tone's frequency and the stream's duration come back, and every planted
/// loss or damaged frame is found where it was put.
enum SWBFixtures {
    static var canGenerate: Bool { AudioFixtures.python != nil && (try? LC3Library.shared.get()) != nil }
}

@Suite("HFP LC3-SWB voice over eSCO: tone in, tone out", .serialized)
struct HFPLC3SWBEndToEndTests {
    @Test("LC3-SWB in 24-byte packets (frames span packets): the tone, the duration, every planted loss",
          .enabled(if: SWBFixtures.canGenerate))
    func planted() throws {
        let (path, g) = try SCOFixtures.generate(["--codec", "lc3-swb", "--seconds", "1.5", "--freq", "1000", "--packet-bytes", "24",
                                                  "--lose-frames", "30", "--truncate-frame", "90", "--corrupt-frame", "110"])
        let (r, wav) = try AudioFixtures.decode(path)
        let s = try #require(r.streams.first)
        let v = try #require(s.voice)
        #expect(r.streams.count == 1 && r.unavailable == nil && r.failures.isEmpty)
        #expect(v.negotiation.airMode == 0x03 && v.negotiation.hfpCodec == 3 && v.negotiated == .lc3 && v.found == .lc3 && !v.mismatch)
        #expect(wav.rate == 32_000 && wav.channels == 1 && s.sampleRate == 32_000 && s.frameMicros == 7500)
        // The tone on frames 112–132 (240 samples each), clear of every planted problem.
        let x = wav.channel(0, from: 112 * 240, count: 4800)
        let f = WAV.dominant(x, rate: 32_000)
        let z = try #require(WAV.crossings(x, rate: 32_000))
        #expect(abs(f - 1000) <= 20 && abs(z - 1000) <= 20, "Goertzel \(f) Hz, zero crossings \(z) Hz")
        // Duration: every frame the encoder made, the lost one as silence in its place.
        let frames = try #require(g["frames"] as? Int)
        #expect(wav.samples.count == frames * 240, "\(wav.samples.count) samples, \(frames) frames")
        #expect(wav.channel(0, from: 30 * 240, count: 240).allSatisfy { $0 == 0 })
        #expect(wav.channel(0, from: 29 * 240, count: 240).contains { abs($0) > 4000 })
        // The lost frame found at the first frame after it, at its place in the audio.
        let (flagged, missing, underruns) = SCOFixtures.kinds(s)
        #expect(missing.map(\.record) == SCOFixtures.records(g, "lost_frames", "record_after") && missing.map(\.kind) == [.missingFrames(1)])
        #expect(missing.map(\.positionMicros) == [Int64(30 * 7500)] && missing.map(\.durationMicros) == [7500])
        #expect(flagged.isEmpty && underruns.isEmpty && s.dropoutCount == 1 && s.lostPackets == 1)
        // The truncated frame (a typed problem, not a trap) and the frame liblc3 refused, at their records.
        let truncated = try #require((g["truncated"] as? [Int])?.first)
        let corrupt = try #require((g["corrupt"] as? [Int])?.first)
        #expect(s.errorRecords.map(\.record) == [truncated, corrupt] && s.decodeErrors == 2 && s.payloadErrors == 0)
        #expect(s.errorRecords.map(\.kind) == [.lc3SWB(.truncated(bytes: 28)), .decode(frame: 0)])
        #expect(s.frames == frames - 1 && s.decodedFrames == frames - 3)
        #expect(wav.channel(0, from: 110 * 240, count: 240).allSatisfy { $0 == 0 })
        let ids = Set(r.summary.diagnoses.map(\.id).filter { $0.rawValue.hasPrefix("audio_") })
        #expect(ids == [.audioDropout, .audioDecodeError])
        let lines = AudioRender.lines(r.streams, unavailable: r.unavailable)
        #expect(lines.contains { $0.contains("1 LC3-SWB frame missing before #\(missing.first?.record ?? 0)") }, "\(lines)")
        #expect(lines.contains { $0.contains("LC3-SWB frame cut short after 28 bytes") })
    }

    @Test("LC3-SWB in 60-byte packets, enhanced setup: no loss where there is none; a gap in time is one underrun",
          .enabled(if: SWBFixtures.canGenerate))
    func cleanAndGap() throws {
        let (clean, g) = try SCOFixtures.generate(["--codec", "lc3-swb", "--seconds", "1", "--freq", "700", "--enhanced"])
        let (r, wav) = try AudioFixtures.decode(clean)
        let s = try #require(r.streams.first)
        let frames = try #require(g["frames"] as? Int)
        #expect(s.voice?.negotiation.enhanced?.inputCoding == 0x03 && s.voice?.found == .lc3)
        #expect(s.dropoutCount == 0 && s.lostPackets == 0 && s.decodeErrors == 0 && s.payloadErrors == 0)
        #expect(s.frames == frames && s.decodedFrames == frames && wav.samples.count == frames * 240)
        #expect(abs(WAV.dominant(wav.channel(0, from: 2400, count: 9600), rate: 32_000) - 700) <= 14)
        #expect(!r.summary.diagnoses.contains { $0.id.rawValue.hasPrefix("audio_") })

        let (gapped, h) = try SCOFixtures.generate(["--codec", "lc3-swb", "--seconds", "1", "--freq", "700", "--gap", "50:10"])
        let (r2, wav2) = try AudioFixtures.decode(gapped)
        let s2 = try #require(r2.streams.first)
        let (flagged, missing, underruns) = SCOFixtures.kinds(s2)
        #expect(flagged.isEmpty && missing.isEmpty && underruns.map(\.record) == SCOFixtures.records(h, "gaps"))
        #expect(underruns.allSatisfy { abs($0.durationMicros - 75_000) < 1000 })
        #expect(abs(wav2.samples.count - frames * 240) <= 32)
        #expect(s2.decodeErrors == 0 && s2.payloadErrors == 0 && s2.decodedFrames == s2.frames && s2.frames == frames - 10)
    }

    @Test("flagged packets: the frames they spoil are one dropout at the flagged record, their time silence",
          .enabled(if: SWBFixtures.canGenerate))
    func flagged() throws {
        let (path, g) = try SCOFixtures.generate(["--codec", "lc3-swb", "--seconds", "1", "--freq", "1000", "--flag", "40:2"])
        let (r, wav) = try AudioFixtures.decode(path)
        let s = try #require(r.streams.first)
        let frames = try #require(g["frames"] as? Int)
        let (flagged, missing, _) = SCOFixtures.kinds(s)
        #expect(flagged.map(\.record) == SCOFixtures.records(g, "flags") && flagged.map(\.kind) == [.erroneous(status: 2, packets: 1)])
        #expect(missing.isEmpty && s.voice?.noData == 1 && wav.samples.count == frames * 240)
        #expect(wav.channel(0, from: 40 * 240, count: 240).allSatisfy { $0 == 0 })
    }
}

@Suite("HFP LC3-SWB voice: framing")
struct LC3SWBFramerTests {
    static func framed(_ frames: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for (i, f) in frames.enumerated() { out += [0x01, MSBCFramer.h2[i % 4]] + f }
        return out
    }

    /// 58 bytes with no H2 header inside (nor a 0x01).
    static func frame(_ fill: UInt8) -> [UInt8] { [UInt8](repeating: fill | 0x80, count: 58) }

    static func run(_ f: inout LC3SWBFramer, _ bytes: [UInt8], chunk: Int) -> (frames: [LC3SWBFramer.Frame], skipped: Int) {
        var got: [LC3SWBFramer.Frame] = [], skipped = 0
        var record = 0
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            record += 1
            f.push(bytes[start..<min(bytes.count, start + chunk)], record: record, tainted: false) {
                switch $0 {
                case let .frame(x): got.append(x)
                case let .skipped(n, _, _): skipped += n
                }
            }
        }
        f.flush {
            switch $0 {
            case let .frame(x): got.append(x)
            case let .skipped(n, _, _): skipped += n
            }
        }
        return (got, skipped)
    }

    @Test func splitsAcrossPackets() {
        var f = LC3SWBFramer()
        let (got, skipped) = Self.run(&f, Self.framed((0..<6).map { Self.frame(UInt8($0)) }), chunk: 24)
        #expect(got.count == 6 && got.map(\.sequence) == [0, 1, 2, 3, 0, 1] && skipped == 0)
        #expect(got.allSatisfy { $0.problem == nil && $0.bytes.count == 58 } && got.map { $0.bytes.first } == (0..<6).map { UInt8($0) | 0x80 })
        #expect(got.map(\.record) == [1, 3, 6, 8, 11, 13])
    }

    @Test func junkBeforeAndACutShortFrame() {
        var bytes = [0x01, 0x08, 0x55, 0x01] + Self.framed((0..<5).map { Self.frame(UInt8($0)) })
        bytes.removeSubrange((4 + 60 + 30)..<(4 + 120))     // frame 1 cut short: frame 2's header comes after 28 bytes
        var f = LC3SWBFramer()
        let (got, skipped) = Self.run(&f, bytes, chunk: 17)
        #expect(skipped == 4 && got.map(\.problem) == [nil, .truncated(bytes: 28), nil, nil, nil])
        #expect(got.map(\.sequence) == [0, 1, 2, 3, 0] && got.map(\.bytes.count) == [58, 28, 58, 58, 58])
    }

    @Test func hostileBytesNeverTrapAndStayBounded() {
        var g = SeededGenerator(seed: 0x5EED_0003)
        for n in [0, 1, 2, 3, 59, 60, 61, 62, 63, 121, 122, 123, 400] {
            var f = LC3SWBFramer()
            let junk = (0..<n).map { _ in [0x01, 0x08, 0x38, UInt8.random(in: 0...255, using: &g)].randomElement(using: &g) ?? 0 }
            var out = 0
            for c in stride(from: 0, to: junk.count, by: 7) {
                f.push(junk[c..<min(junk.count, c + 7)], record: 1, tainted: true) { _ in out += 1 }
                #expect(f.buffer.count < 2 * LC3SWBFramer.span + 2 + 7)
            }
            f.flush { _ in out += 1 }
            #expect(f.buffer.isEmpty)
        }
    }

    /// Negotiated LC3-SWB stays LC3-SWB when a frame happens to start with mSBC's syncword.
    @Test func negotiatedCodecNotOverriddenByAnMSBCLookalike() {
        let h = TraceHarness()
        let audio = A2DPAudio(a2dp: h.pipeline.chain.signaling!.a2dp, options: A2DPAudio.Options(decode: false))
        h.pipeline.chain.a2dpAudio = audio
        h.layers.append(audio)
        let peer: [UInt8] = [0x56, 0x34, 0x12, 0x70, 0x1B, 0x00]
        audio.setups.lastCodec = (3, 1)
        h.feed(.event, [0x2C, 17, 0x00, 0x01, 0x01] + peer + [0x02, 12, 2, 60, 0, 60, 0, 0x03], .controllerToHost)
        let bytes = Self.framed([[0xAD] + [UInt8](repeating: 0x90, count: 57)] + (1..<8).map { Self.frame(UInt8($0)) })
        for c in stride(from: 0, to: bytes.count, by: 60) {
            let chunk = Array(bytes[c..<min(bytes.count, c + 60)])
            h.feed(.sco, [0x01, 0x01, UInt8(chunk.count)] + chunk, .controllerToHost, advance: 7500)
        }
        audio.finish()
        let s = audio.streams.first
        #expect(s?.voice?.negotiated == .lc3 && s?.voice?.found == .lc3 && s?.frames == 8 && s?.dropoutCount == 0)
        #expect(s?.positionSamples == 8 * 240)
    }
}

/// A machine without liblc3 (here: `BLETRACE_LIBLC3` naming a file that is not there) still lists the LC3-SWB
/// stream from its H2 framing, says in one line that decoding is unavailable, and refuses only a WAV.
@Suite struct LC3SWBWithoutCodecTests {
    static let enabled = ExitStatusTests.binary != nil && SWBFixtures.canGenerate

    static func run(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ExitStatusTests.binary ?? "/nonexistent")
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["BLETRACE_LIBLC3"] = "/nonexistent/liblc3.so.1"
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test(.enabled(if: enabled))
    func listedNotDecoded() throws {
        let (path, g) = try SCOFixtures.generate(["--codec", "lc3-swb", "--seconds", "0.5", "--lose-frames", "20"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let why = "audio decoding unavailable: liblc3 not found at /nonexistent/liblc3.so.1 (BLETRACE_LIBLC3)"
        let text = try Self.run(["audio", path, "-q"])
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out.components(separatedBy: why).count - 1 == 1, "\(text.out)")
        let frames = try #require(g["frames"] as? Int)
        #expect(text.out.contains("\(frames - 1) frames") && text.out.contains("1 LC3-SWB frame missing"), "\(text.out)")
        let wav = NSTemporaryDirectory() + "bletrace-nolc3-" + UUID().uuidString + ".wav"
        let write = try Self.run(["audio", path, "--stream", "1", "-o", wav, "-q"])
        #expect(write.status == 1 && write.err.split(separator: "\n").count == 1 && write.err.contains(why), "\(write.err)")
        #expect(!FileManager.default.fileExists(atPath: wav))
    }
}

@Suite("HFP LC3-SWB voice: hostile bytes")
struct LC3SWBHostileBytesTests {
    /// SCO packets of random length, status and content on a link negotiated as LC3-SWB, decoded when liblc3 is
    /// there, with clock jumps: no trap, the stream bounded, every problem tied to a record.
    @Test func randomPacketsNeverTrap() throws {
        let h = TraceHarness()
        let audio = A2DPAudio(a2dp: h.pipeline.chain.signaling!.a2dp, options: A2DPAudio.Options(decode: true))
        h.pipeline.chain.a2dpAudio = audio
        h.layers.append(audio)
        audio.setups.lastCodec = (3, 1)
        let peer: [UInt8] = [0x56, 0x34, 0x12, 0x70, 0x1B, 0x00]
        h.feed(.event, [0x2C, 17, 0x00, 0x01, 0x01] + peer + [0x02, 12, 2, 60, 0, 60, 0, 0x03], .controllerToHost)
        var g = SeededGenerator(seed: 0x5EED_0004)
        for i in 0..<3000 {
            let status = UInt16.random(in: 0...3, using: &g)
            let n = Int.random(in: 0...130, using: &g)
            var body = (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }
            // Now and then H2 headers 60 bytes apart, to reach the framer's frame paths.
            if i % 5 == 0, n >= 62 { body[0] = 0x01; body[1] = MSBCFramer.h2[i % 4]; body[60] = 0x01; body[61] = MSBCFramer.h2[(i + 1) % 4] }
            let declared = UInt8(clamping: i % 11 == 0 ? n + 5 : n)
            let hf = UInt16(0x0101) | (status << 12)
            let advance: Int64 = i % 500 == 0 ? Int64.max / 8 : Int64.random(in: 0...20_000, using: &g)
            h.feed(.sco, [UInt8(hf & 0xFF), UInt8(hf >> 8), declared] + body, .controllerToHost, advance: advance)
        }
        audio.finish()
        let s = try #require(audio.streams.first)
        #expect(audio.streams.count == 1 && s.voice?.found == .lc3 && s.frames > 0)
        #expect(s.dropouts.count <= AudioStream.maxDropouts && s.errorRecords.count <= AudioStream.maxRecords)
        #expect(s.errorRecords.allSatisfy { $0.record > 0 } && s.gapSamples >= 0 && s.positionSamples >= s.frames * 240)
    }
}
