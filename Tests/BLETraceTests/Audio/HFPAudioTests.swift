import Foundation
import Testing
@testable import BLETrace

/// Captures made by scripts/gen-hfp-sco.py: an HFP voice link over HCI SCO carrying a known tone (16-bit PCM at
/// 8 kHz behind CVSD air mode, or real mSBC frames from `sbcenc --msbc` behind H2 headers), decoded into WAV: the
/// tone's frequency and the stream's duration come back, and every planted loss is found where it was put.
enum SCOFixtures {
    static var canGenerate: Bool { AudioFixtures.python != nil }
    static var canMSBC: Bool { AudioFixtures.canDecode }

    /// Runs the generator with `args`; returns the capture's path and what it planted.
    static func generate(_ args: [String]) throws -> (path: String, planted: [String: Any]) {
        try AudioFixtures.run("gen-hfp-sco.py", args, prefix: "bletrace-sco-")
    }

    static func records(_ planted: [String: Any], _ key: String, _ field: String = "record") -> [Int] {
        (planted[key] as? [[String: Any]] ?? []).compactMap { $0[field] as? Int }
    }

    static func kinds(_ s: AudioStream) -> (flagged: [AudioDropout], missing: [AudioDropout], underruns: [AudioDropout]) {
        var f: [AudioDropout] = [], m: [AudioDropout] = [], u: [AudioDropout] = []
        for d in s.dropouts {
            switch d.kind {
            case .erroneous: f.append(d)
            case .missingFrames: m.append(d)
            case .underrun: u.append(d)
            case .lost: break
            }
        }
        return (f, m, u)
    }
}

@Suite("HFP voice over SCO: tone in, tone out", .serialized)
struct HFPAudioEndToEndTests {
    @Test("CVSD air mode (16-bit PCM at 8 kHz): the tone, the duration, flagged packets and a gap", .enabled(if: SCOFixtures.canGenerate))
    func cvsd() throws {
        let (path, g) = try SCOFixtures.generate(["--codec", "cvsd", "--seconds", "1.5", "--freq", "1000", "--flag", "40:2,41:2,100:1",
                                                  "--gap", "200:30"])
        let (r, wav) = try AudioFixtures.decode(path)
        let s = try #require(r.streams.first)
        let v = try #require(s.voice)
        #expect(r.streams.count == 1 && r.failures.isEmpty)
        #expect(v.negotiation.airMode == 0x02 && v.negotiation.voiceSetting == 0x0060 && v.negotiation.hfpCodec == 1 && v.negotiation.linkType == 2)
        #expect(v.negotiated == .linear(rate: 8000, bits: 16, encoding: 1) && v.found == v.negotiated && !v.mismatch)
        #expect(wav.rate == 8000 && wav.channels == 1)
        // 30 samples a packet; the tone after the gap (packet 230 on).
        let x = wav.channel(0, from: 230 * 30 + 64, count: 4096)
        let f = WAV.dominant(x, rate: 8000)
        let z = try #require(WAV.crossings(x, rate: 8000))
        #expect(abs(f - 1000) <= 20 && abs(z - 1000) <= 20, "Goertzel \(f) Hz, zero crossings \(z) Hz")
        // Duration: every sample of the tone, the gap's 30 packets as silence in their place.
        let expected = try #require(g["samples"] as? Int)
        #expect(abs(wav.samples.count - expected) <= 30, "\(wav.samples.count) samples, expected \(expected)")
        #expect(wav.channel(0, from: 40 * 30, count: 60).allSatisfy { $0 == 0 })
        #expect(wav.channel(0, from: 200 * 30 + 2, count: 890).allSatisfy { $0 == 0 })
        #expect(wav.channel(0, from: 199 * 30, count: 30).contains { abs($0) > 8000 })
        // Every planted loss at its record, nothing else: packets 40–41 (no data) are one dropout, 100 another.
        let flags = SCOFixtures.records(g, "flags")
        let (flagged, missing, underruns) = SCOFixtures.kinds(s)
        #expect(flagged.map(\.record) == [flags[0], flags[2]])
        #expect(flagged.map(\.kind) == [.erroneous(status: 2, packets: 2), .erroneous(status: 1, packets: 1)])
        #expect(flagged.map(\.positionMicros) == [40 * 3750, 100 * 3750])
        #expect(missing.isEmpty && v.noData == 2 && v.possiblyInvalid == 1 && v.partiallyLost == 0)
        #expect(underruns.map(\.record) == SCOFixtures.records(g, "gaps") && underruns.allSatisfy { abs($0.durationMicros - 112_500) < 1000 })
        #expect(s.dropoutCount == 3 && s.decodeErrors == 0 && s.payloadErrors == 0)
        let level = try #require(s.level)
        #expect(abs((AudioLevel.dBFS(level.rms) ?? 0) - -9.2) < 0.5 && level.peak <= 16_000 && level.peak > 15_900 && level.clipped == 0)
        #expect(r.summary.diagnoses.filter { $0.id.rawValue.hasPrefix("audio_") }.map(\.id) == [.audioDropout])
    }

    @Test("mSBC in 24-byte packets (frames span packets): the tone, the duration, every planted loss",
          .enabled(if: SCOFixtures.canMSBC))
    func msbc() throws {
        let (path, g) = try SCOFixtures.generate(["--codec", "msbc", "--seconds", "1.5", "--freq", "1000", "--packet-bytes", "24",
                                                  "--lose-frames", "30", "--flag", "150:2", "--truncate-frame", "90",
                                                  "--corrupt-frame", "110"])
        let (r, wav) = try AudioFixtures.decode(path)
        let s = try #require(r.streams.first)
        let v = try #require(s.voice)
        #expect(r.streams.count == 1 && r.unavailable == nil && r.failures.isEmpty)
        #expect(v.negotiation.airMode == 0x03 && v.negotiation.hfpCodec == 2 && v.negotiated == .msbc && v.found == .msbc)
        #expect(wav.rate == 16_000 && wav.channels == 1 && s.found?.msbc == true)
        // The tone on frames 112–178 (120 samples each), clear of every planted problem.
        let x = wav.channel(0, from: 112 * 120, count: 8000)
        let f = WAV.dominant(x, rate: 16_000)
        let z = try #require(WAV.crossings(x, rate: 16_000))
        #expect(abs(f - 1000) <= 20 && abs(z - 1000) <= 20, "Goertzel \(f) Hz, zero crossings \(z) Hz")
        // Duration: every frame the encoder made, lost ones as silence.
        let frames = try #require(g["frames"] as? Int)
        #expect(wav.samples.count == frames * 120, "\(wav.samples.count) samples, \(frames) frames")
        #expect(wav.channel(0, from: 30 * 120, count: 120).allSatisfy { $0 == 0 })
        // The lost frame found at the first frame after it; the flagged packet at its record, with the frames it spoiled.
        let (flagged, missing, underruns) = SCOFixtures.kinds(s)
        #expect(missing.map(\.record) == SCOFixtures.records(g, "lost_frames", "record_after") && missing.map(\.kind) == [.missingFrames(1)])
        #expect(missing.map(\.positionMicros) == [Int64(30 * 7500)])
        #expect(flagged.map(\.record) == SCOFixtures.records(g, "flags") && flagged.first?.kind == .erroneous(status: 2, packets: 1))
        // Packet 150 holds bytes 3600–3623: the end of frame 59 and the header of frame 60 (positions shift by the lost frame).
        #expect(flagged.first.map { $0.durationMicros >= 7500 && $0.durationMicros <= 15_000 } == true)
        #expect(underruns.isEmpty && s.dropoutCount == 2 && s.lostPackets == 1 && v.noData == 1)
        // The truncated and the corrupt frame: decode errors at their records.
        let truncated = try #require((g["truncated"] as? [Int])?.first)
        let corrupt = try #require((g["corrupt"] as? [Int])?.first)
        #expect(s.errorRecords.map(\.record) == [truncated, corrupt] && s.decodeErrors == 2 && s.payloadErrors == 0)
        #expect(s.errorRecords.first?.kind == .msbc(.truncated(bytes: 28)))
        // Frame 30 lost, frame 61's header in the flagged packet: neither comes out of the framer.
        #expect(s.frames == frames - 2 && s.decodedFrames == frames - 4)
        let ids = Set(r.summary.diagnoses.map(\.id).filter { $0.rawValue.hasPrefix("audio_") })
        #expect(ids == [.audioDropout, .audioDecodeError])
    }

    @Test("mSBC in 60-byte packets, enhanced setup: a gap in time is one underrun, not also a sequence gap",
          .enabled(if: SCOFixtures.canMSBC))
    func msbcGap() throws {
        let (path, g) = try SCOFixtures.generate(["--codec", "msbc", "--seconds", "1", "--freq", "700", "--enhanced", "--gap", "50:10"])
        let (r, wav) = try AudioFixtures.decode(path)
        let s = try #require(r.streams.first)
        let v = try #require(s.voice)
        #expect(v.negotiation.enhanced?.inputCoding == 0x03 && v.negotiation.enhanced?.transmitCoding == 0x05 && v.negotiated == .msbc)
        let (flagged, missing, underruns) = SCOFixtures.kinds(s)
        #expect(flagged.isEmpty && missing.isEmpty && underruns.map(\.record) == SCOFixtures.records(g, "gaps"))
        #expect(underruns.allSatisfy { abs($0.durationMicros - 75_000) < 1000 })
        let frames = try #require(g["frames"] as? Int)
        #expect(abs(wav.samples.count - frames * 120) <= 16)
        let x = wav.channel(0, from: 60 * 120, count: 6000)
        #expect(abs(WAV.dominant(x, rate: 16_000) - 700) <= 14)
        #expect(s.decodeErrors == 0 && s.payloadErrors == 0 && s.decodedFrames == s.frames)
    }

    @Test("no negotiation in the trace: mSBC recognised from its H2 headers", .enabled(if: SCOFixtures.canMSBC))
    func detected() throws {
        let (path, _) = try SCOFixtures.generate(["--codec", "msbc", "--seconds", "0.5", "--no-negotiation", "--sent"])
        let (r, _) = try AudioFixtures.decode(path)
        let s = try #require(r.streams.first)
        let v = try #require(s.voice)
        // Synchronous Connection Complete alone: transparent air mode, no codec chosen: transparent data, found to be mSBC.
        #expect(v.sent && v.negotiated == .transparent && v.found == .msbc && !v.mismatch)
        #expect(s.dropoutCount == 0 && s.decodedFrames == s.frames && s.frames > 60)
    }
}

extension HFPAudioEndToEndTests {
    /// Bumble's own HFP (scripts/gen-bumble-hfp.py): service level connection, +BCS / AT+BCS, Enhanced Setup
    /// Synchronous Connection with mSBC T2 parameters (16 kHz linear PCM over HCI), the tone sent in real time.
    @Test("Bumble's HFP gateway: the negotiation read, the sent tone back at 16 kHz",
          .enabled(if: A2DPAudioEndToEndTests.bumble))
    func bumbleGateway() throws {
        let path = NSTemporaryDirectory() + "bletrace-bumble-hfp-" + UUID().uuidString + ".btsnoop"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: AudioFixtures.python ?? "/usr/bin/python3")
        p.arguments = [TestSupport.packageRoot.appendingPathComponent("scripts/gen-bumble-hfp.py").path, path, "--freq", "700", "--seconds", "0.8"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0)
        let (r, wav) = try AudioFixtures.decode(path)
        let s = try #require(r.streams.first)
        let v = try #require(s.voice)
        #expect(r.streams.count == 1 && v.sent && v.negotiation.hfpCodec == 2)
        #expect(v.negotiation.enhanced?.transmitCoding == 0x05 && v.negotiation.enhanced?.inputCoding == 0x04)
        #expect(v.negotiated == .linear(rate: 16_000, bits: 16, encoding: 1) && v.found == v.negotiated)
        #expect(wav.rate == 16_000 && s.decodedFrames == s.packets && s.decodeErrors == 0 && v.erroneousPackets == 0)
        // Every sample sent, plus whatever silence the real-time pacing left (underruns).
        #expect(wav.samples.count == s.packets * 30 + s.gapSamples)
        // The tone on the longest stretch with no gap in it.
        var edges = [(0, 0)]
        for d in s.dropouts {
            edges.append((Int(d.positionMicros * 16 / 1000), Int((d.positionMicros + d.durationMicros) * 16 / 1000) + 1))
        }
        edges.append((wav.samples.count, wav.samples.count))
        let runs = zip(edges, edges.dropFirst()).map { (start: $0.0.1 + 64, count: $0.1.0 - $0.0.1 - 64) }
        let run = try #require(runs.max { $0.count < $1.count })
        #expect(run.count >= 2048)
        let x = wav.channel(0, from: run.start, count: min(run.count, 8000))
        let z = try #require(WAV.crossings(x, rate: 16_000))
        #expect(abs(WAV.dominant(x, rate: 16_000) - 700) <= 14 && abs(z - 700) <= 14, "\(z) Hz")
    }
}

@Suite("HFP voice over SCO: framing, negotiation and PCM forms")
struct SCOVoiceTests {
    static func framed(_ frames: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for (i, f) in frames.enumerated() { out += [0x01, MSBCFramer.h2[i % 4]] + f + [0] }
        return out
    }

    static func frame(_ fill: UInt8) -> [UInt8] { [0xAD, 0, 0] + [UInt8](repeating: fill, count: 54) }

    @Test func framerSplitsAcrossPackets() {
        var f = MSBCFramer()
        var got: [MSBCFramer.Frame] = []
        let bytes = Self.framed((0..<6).map { Self.frame(UInt8($0)) })
        var record = 0
        for chunk in stride(from: 0, to: bytes.count, by: 24) {
            record += 1
            f.push(bytes[chunk..<min(bytes.count, chunk + 24)], record: record, tainted: false) { if case let .frame(x) = $0 { got.append(x) } }
        }
        f.flush { if case let .frame(x) = $0 { got.append(x) } }
        #expect(got.count == 6 && got.map(\.sequence) == [0, 1, 2, 3, 0, 1] && got.allSatisfy { $0.problem == nil && $0.bytes.count == 57 })
        #expect(got.map(\.record) == [1, 3, 6, 8, 11, 13])
    }

    @Test func truncatedAndMalformedFramesAreProblemsNotTraps() {
        var bytes = Self.framed((0..<4).map { Self.frame(UInt8($0)) })
        bytes.removeSubrange(70..<100)          // frame 1 cut short: frame 2's header comes early
        bytes[bytes.count - 60 + 2] = 0x00      // frame 3 lost its syncword
        var f = MSBCFramer()
        var got: [MSBCFramer.Frame] = []
        f.push(bytes[...], record: 1, tainted: false) { if case let .frame(x) = $0 { got.append(x) } }
        f.flush { if case let .frame(x) = $0 { got.append(x) } }
        #expect(got.map(\.problem) == [nil, .truncated(bytes: 28), nil, .noSyncword])
        // Random bytes, short bytes, bytes full of headers: no trap, bounded buffer.
        var g = SeededGenerator(seed: 0x5EED_0001)
        for n in [0, 1, 2, 3, 59, 60, 61, 62, 63, 200] {
            var f = MSBCFramer()
            let junk = (0..<n).map { _ in [0x01, 0x08, 0xAD, UInt8.random(in: 0...255, using: &g)].randomElement(using: &g) ?? 0 }
            f.push(junk[...], record: 1, tainted: true) { _ in }
            #expect(f.buffer.count < 64)
            f.flush { _ in }
            #expect(f.buffer.isEmpty)
        }
    }

    @Test func codecNegotiationText() {
        #expect(SCOSetups.bcs(Array("\r\n+BCS: 2\r\n".utf8)[...]) == 2)
        #expect(SCOSetups.bcs(Array("AT+BCS=1\r".utf8)[...]) == 1)
        #expect(SCOSetups.bcs(Array("AT+BAC=1,2\r".utf8)[...]) == nil)
        #expect(SCOSetups.bcs(Array("+BCS:".utf8)[...]) == nil)
    }

    @Test func negotiatedFormats() {
        var n = SCONegotiation()
        #expect(n.format(sent: false) == nil)
        n.airMode = 0x02
        #expect(n.format(sent: false) == .linear(rate: 8000, bits: 16, encoding: 1))
        n.voiceSetting = 0x0160      // µ-law input coding
        #expect(n.format(sent: true) == .muLaw)
        n.voiceSetting = 0x0040      // 8-bit two's complement
        #expect(n.format(sent: true) == .linear(rate: 8000, bits: 8, encoding: 1))
        n.airMode = 0x03
        #expect(n.format(sent: true) == .transparent)
        n.hfpCodec = 2
        #expect(n.format(sent: true) == .msbc)
    }

    @Test func g711() {
        // ITU-T G.711: µ-law 0xFF and 0x7F are ±0, 0x80 is the largest positive step; A-law 0xD5 is +8.
        #expect(VoicePCM.muLaw[0xFF] == 0 && VoicePCM.muLaw[0x7F] == 0)
        #expect(VoicePCM.muLaw[0x80] == 32_124 && VoicePCM.muLaw[0x00] == -32_124)
        #expect(VoicePCM.aLaw[0xD5] == 8 && VoicePCM.aLaw[0x55] == -8 && VoicePCM.aLaw[0xAA] == 32_256)
        var out: [Int16] = []
        VoicePCM.decode([0x00, 0x80, 0xFF, 0x7F, 0x01][...], .linear(rate: 8000, bits: 16, encoding: 1), into: &out)
        #expect(out == [-32_768, 32_767])
    }
}

@Suite("HFP voice over SCO: hostile bytes")
struct SCOHostileBytesTests {
    /// A handle used again after its link closed starts new streams: the time between is no underrun.
    @Test func handleReusedStartsNewStreams() throws {
        let h = TraceHarness()
        let audio = A2DPAudio(a2dp: h.pipeline.chain.signaling!.a2dp, options: A2DPAudio.Options(decode: true))
        h.pipeline.chain.a2dpAudio = audio
        h.layers.append(audio)
        let complete: [UInt8] = [0x2C, 17, 0x00, 0x01, 0x01, 0x56, 0x34, 0x12, 0x70, 0x1B, 0x00, 0x02, 12, 2, 60, 0, 60, 0, 0x02]
        let packet: [UInt8] = [0x01, 0x01, 60] + [UInt8](repeating: 0x10, count: 60)
        h.feed(.event, complete, .controllerToHost)
        for _ in 0..<10 { h.feed(.sco, packet, .controllerToHost, advance: 3750) }
        h.feed(.event, [0x05, 4, 0x00, 0x01, 0x01, 0x13], .controllerToHost)
        h.feed(.event, complete, .controllerToHost, advance: 5_000_000)
        for _ in 0..<10 { h.feed(.sco, packet, .controllerToHost, advance: 3750) }
        audio.finish()
        #expect(audio.streams.count == 2 && audio.streams.allSatisfy { $0.packets == 10 && $0.underruns == 0 && $0.dropoutCount == 0 })
        #expect(audio.streams.map(\.positionSamples) == [300, 300])
    }

    /// SCO packets of random length, status and content on a handle negotiated as mSBC, another as PCM and one
    /// never negotiated, with clock jumps: no trap, every stream bounded, every problem tied to a record.
    @Test func randomPacketsNeverTrap() throws {
        let h = TraceHarness()
        let audio = A2DPAudio(a2dp: h.pipeline.chain.signaling!.a2dp, options: A2DPAudio.Options(decode: true))
        h.pipeline.chain.a2dpAudio = audio
        h.layers.append(audio)
        let peer: [UInt8] = [0x56, 0x34, 0x12, 0x70, 0x1B, 0x00]
        h.feed(.event, [0x2C, 17, 0x00, 0x01, 0x01] + peer + [0x02, 12, 2, 60, 0, 60, 0, 0x03], .controllerToHost)
        h.feed(.event, [0x2C, 17, 0x00, 0x02, 0x01] + peer + [0x02, 12, 2, 60, 0, 60, 0, 0x02], .controllerToHost)
        var g = SeededGenerator(seed: 0x5EED_0001)
        for i in 0..<3000 {
            let handle: UInt16 = [0x0101, 0x0102, 0x0103].randomElement(using: &g) ?? 0x0101
            let status = UInt16.random(in: 0...3, using: &g)
            let n = Int.random(in: 0...80, using: &g)
            var body = (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }
            // Now and then something that looks like an mSBC frame start, to reach the framer's paths.
            if i % 7 == 0, n >= 3 { body[0] = 0x01; body[1] = MSBCFramer.h2[i % 4]; body[2] = 0xAD }
            let declared = UInt8(clamping: i % 11 == 0 ? n + 5 : n)
            let hf = handle | (status << 12)
            let advance: Int64 = i % 500 == 0 ? Int64.max / 8 : Int64.random(in: 0...20_000, using: &g)
            h.feed(.sco, [UInt8(hf & 0xFF), UInt8(hf >> 8), declared] + body, i % 3 == 0 ? .hostToController : .controllerToHost,
                   advance: advance)
        }
        audio.finish()
        #expect(audio.streams.count == 6)
        for s in audio.streams {
            #expect(s.dropouts.count <= AudioStream.maxDropouts && s.errorRecords.count <= AudioStream.maxRecords)
            #expect(s.errorRecords.allSatisfy { $0.record > 0 } && s.gapSamples >= 0)
        }
        #expect(audio.streams.contains { $0.voice?.found == .msbc } && audio.streams.contains { $0.payloadErrors > 0 })
    }
}
