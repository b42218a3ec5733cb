import Foundation
import Testing
@testable import BLETrace

/// A2DP AAC streams in the audio layer: captures made by scripts/gen-a2dp-aac.py from a known tone (real AAC
/// frames from ffmpeg's native encoder) with planted losses, fragments and a rate unlike the negotiated one; and a
/// stream assembled in the test (no ffmpeg needed) with a malformed packet. Access units are counted, never
/// decoded.
@Suite("A2DP audio: AAC streams", .serialized)
struct A2DPAACTests {
    static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var canGenerate: Bool { ffmpeg != nil && AudioFixtures.python != nil }

    /// The generator's capture through `bletrace audio` (no WAV), and what it planted.
    static func run(_ args: [String]) throws -> (AudioRun.Result, AudioStream, [String: Any]) {
        let (path, g) = try AudioFixtures.run("gen-a2dp-aac.py", args, prefix: "bletrace-aac-")
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let r = AudioRun.run(try InputOpener.open(path: path), path: path, format: .text, out: OutputWriter(fd: devNull))
        let s = try #require(r.streams.first)
        #expect(r.streams.count == 1)
        return (r, s, g)
    }

    static func lost(_ s: AudioStream) -> [AudioDropout] { s.dropouts.filter { if case .lost = $0.kind { return true }; return false } }

    @Test("LATM with the StreamMuxConfig in band: every access unit counted, the losses at their records and lengths",
          .enabled(if: canGenerate))
    func inBand() throws {
        let (r, s, g) = try Self.run(["--seconds", "1.5", "--lose", "110,111,140"])
        let frames = try #require(g["frames"] as? Int), packets = try #require(g["packets"] as? Int)
        #expect(s.frames == frames && s.packets == packets && s.payloadErrors == 0 && s.mismatchedFrames == 0)
        #expect(s.aac?.framing == .latmInBand && s.aac?.found?.sampleRate == 44_100 && s.aac?.found?.channels == 2 && s.aac?.found?.objectType == 2)
        #expect(s.lostPackets == 3 && s.underruns == 0 && s.fragmentPackets == 0)
        let lost = Self.lost(s)
        #expect(lost.map(\.record) == g["lost_records_after"] as? [Int] && lost.map(\.kind) == [.lost(packets: 2), .lost(packets: 1)])
        #expect(lost.map(\.durationMicros) == [2048, 1024].map { Int64($0) * 1_000_000 / 44_100 })
        let positions: [Int64] = [10 * 1024, 40 * 1024].map { (n: Int) -> Int64 in Int64(n) * 1_000_000 / 44_100 }
        #expect(lost.map(\.positionMicros) == positions)
        #expect(s.dropoutCount == 2 && s.positionSamples == (frames + 3) * 1024 && s.gapSamples == 3 * 1024)
        #expect(r.diagnoses.map(\.id) == [.audioDropout])
        // No WAV and no decoder: one line says why.
        let text = AudioRender.lines(r.streams, unavailable: nil)
        #expect(text.contains { $0.contains("in frames:  AAC LC 44.1 kHz, 2 channels, 1024 samples per frame, LATM, StreamMuxConfig in band") })
        #expect(text.filter { $0.contains("AAC is not decoded") }.count == 1)
        let f = AudioRender.fields(s)
        #expect(f["aac"]?.objectValue?["framing"]?.stringValue == "latm_in_band" && f["found"]?.objectValue?["codec"]?.stringValue == "AAC")
        #expect(f["aac"]?.objectValue?["not_decoded"]?.stringValue?.contains("libfdk-aac") == true)
    }

    @Test("out-of-band LATM with three access units per element, ADTS, and audioMuxVersion 1 every fourth element",
          .enabled(if: canGenerate))
    func framings() throws {
        let (_, oob, g1) = try Self.run(["--seconds", "1", "--framing", "latm-out-of-band", "--subframes", "3", "--rate", "48000"])
        #expect(oob.aac?.framing == .latmOutOfBand && oob.frames == g1["frames"] as? Int && oob.aac?.found == nil && oob.payloadErrors == 0)
        #expect(oob.sampleRate == 48_000 && oob.lostPackets == 0 && oob.dropoutCount == 0)
        let (_, adts, g2) = try Self.run(["--seconds", "1", "--framing", "adts", "--mono", "--lose", "120"])
        #expect(adts.aac?.framing == .adts && adts.frames == g2["frames"] as? Int && adts.aac?.found?.channels == 1 && adts.payloadErrors == 0)
        #expect(Self.lost(adts).map(\.record) == g2["lost_records_after"] as? [Int] && adts.lostPackets == 1)
        let (_, v1, g3) = try Self.run(["--seconds", "1", "--mux-version", "1", "--mux-every", "4", "--subframes", "2"])
        #expect(v1.aac?.framing == .latmInBand && v1.frames == g3["frames"] as? Int && v1.payloadErrors == 0 && v1.mismatchedFrames == 0)
    }

    @Test("timestamps in milliseconds (as Bumble's AAC source stamps them): each gap as long as the packets missing",
          .enabled(if: canGenerate))
    func millisecondClock() throws {
        let (_, s, g) = try Self.run(["--seconds", "1", "--ms-timestamps", "--lose", "110,111,140"])
        #expect(s.frames == g["frames"] as? Int && s.lostPackets == 3 && s.payloadErrors == 0)
        let lost = Self.lost(s)
        #expect(lost.map(\.record) == g["lost_records_after"] as? [Int])
        let durations: [Int64] = [2048, 1024].map { (n: Int) -> Int64 in Int64(n) * 1_000_000 / 44_100 }
        #expect(lost.map(\.durationMicros) == durations && s.gapSamples == 3 * 1024)
    }

    @Test("elements split over packets (marker bit on the last): put together and counted; a lost fragment loses its element",
          .enabled(if: canGenerate))
    func fragments() throws {
        let (_, s, g) = try Self.run(["--seconds", "1", "--mtu", "100", "--lose", "160"])
        let frames = try #require(g["frames"] as? Int)
        let fragments = try #require(g["fragment_records"] as? [Int])
        #expect(s.frames == frames && g["lost_frames"] as? [Int] != [] && s.payloadErrors == 0)
        #expect(s.aac?.reassembled == g["fragmented_elements"] as? Int && s.aac?.incomplete == 1 && s.fragmentPackets == fragments.count)
        let lost = Self.lost(s)
        #expect(lost.map(\.record) == g["lost_records_after"] as? [Int] && s.lostPackets == 1)
        // The spoiled element's time, found from the next element's timestamp, is the gap.
        #expect(lost.map(\.durationMicros) == [Int64(1024) * 1_000_000 / 44_100] && s.gapSamples == 1024)
        #expect(s.positionSamples == (frames + 1) * 1024)
    }

    @Test("frames at 48 kHz on a stream negotiated at 44.1 kHz: every frame mismatched, audio_config_mismatch raised",
          .enabled(if: canGenerate))
    func mismatch() throws {
        let (r, s, g) = try Self.run(["--seconds", "0.5", "--rate", "48000", "--negotiate-rate", "44100"])
        #expect(s.mismatchedFrames == g["frames"] as? Int && s.aac?.firstMismatch?.sampleRate == 48_000)
        #expect(s.mismatchRecords.count == AudioStream.maxRecords)
        let d = try #require(r.diagnoses.first { $0.id == .audioConfigMismatch })
        #expect(DiagnosisText.title(d).contains("AAC LC 48 kHz"))
        #expect(d.evidence.first == s.mismatchRecords.first && d.evidence.count > 1)
    }

    @Test("a WAV asked for an AAC stream: none written, one line says why", .enabled(if: canGenerate))
    func noWAV() throws {
        let (path, _) = try AudioFixtures.run("gen-a2dp-aac.py", ["--seconds", "0.3"], prefix: "bletrace-aac-")
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let wav = path + ".wav"
        let r = AudioRun.run(try InputOpener.open(path: path), path: path, format: .text, output: .stream(1, path: wav), out: OutputWriter(fd: devNull))
        #expect(r.written.isEmpty && !FileManager.default.fileExists(atPath: wav))
        #expect(r.failures.count == 1 && r.failures.first?.hasPrefix("stream 1: AAC is not decoded") == true)
    }

    @Test("bletrace audio --stream 1 -o on an AAC stream: exit status 1, one line on standard error, no file",
          .enabled(if: canGenerate && ExitStatusTests.binary != nil))
    func cliNoWAV() throws {
        let (path, _) = try AudioFixtures.run("gen-a2dp-aac.py", ["--seconds", "0.3"], prefix: "bletrace-aac-")
        let wav = path + ".wav"
        let r = try ExitStatusTests.run(["audio", path, "--stream", "1", "-o", wav, "-q"])
        #expect(r.status == 1 && !FileManager.default.fileExists(atPath: wav))
        #expect(r.err.split(separator: "\n").count == 1 && r.err.contains("stream 1: AAC is not decoded"), "\(r.err)")
        let json = try ExitStatusTests.run(["audio", path, "--format", "json", "-q"])
        #expect(json.status == 0 && json.out.contains("\"framing\":\"latm_in_band\""), "\(json.out.prefix(800))")
    }

    // MARK: A stream assembled in the test (no ffmpeg)

    /// The SBC layer tests' harness with Set Configuration for MPEG-2 AAC LC, 44.1 kHz, stereo, VBR.
    static func setUp() -> (TraceHarness, A2DPAudio) {
        let h = TraceHarness()
        let audio = A2DPAudio(a2dp: h.pipeline.chain.signaling!.a2dp)
        h.pipeline.chain.a2dpAudio = audio
        h.layers.append(audio)
        let cmd = A2DPAudioLayerTests.cmd
        h.feed(.event, HCIBuilder.event(0x03, [0] + le(0x000C) + HCIBuilder.addr(BDAddr(0x00_1B_66_AA_BB_CC)) + [1, 0]), .controllerToHost)
        h.l2cap(0x000C, cid: 1, cmd(0x02, 7, le(0x0019) + le(0x0041)), .hostToController)
        h.l2cap(0x000C, cid: 1, cmd(0x03, 7, le(0x01B3) + le(0x0041) + le(0) + le(0)), .controllerToHost)
        h.l2cap(0x000C, cid: 0x01B3, [0x20, 0x03, 0x04, 0x04, 0x07, 0x08, 0x00, 0x02, 0x80, 0x01, 0x04, 0x83, 0xE8, 0x00], .hostToController)
        h.l2cap(0x000C, cid: 0x0041, [0x22, 0x03], .controllerToHost)
        h.l2cap(0x000C, cid: 1, cmd(0x02, 9, le(0x0019) + le(0x0042)), .hostToController)
        h.l2cap(0x000C, cid: 1, cmd(0x03, 9, le(0x01B4) + le(0x0042) + le(0) + le(0)), .controllerToHost)
        h.l2cap(0x000C, cid: 0x01B3, [0x40, 0x07, 0x04], .hostToController)
        h.l2cap(0x000C, cid: 0x0041, [0x42, 0x07], .controllerToHost)
        return (h, audio)
    }

    static func rtp(_ seq: UInt16, _ ts: UInt32, marker: Bool = true) -> [UInt8] {
        var b = SBCParsingTests.rtp(seq, ts)
        if marker { b[1] |= 0x80 }
        return b
    }

    @Test("hand-made LATM elements: frames counted, a loss found at its packet, malformed payloads are packet errors with their records")
    func assembled() throws {
        let (h, audio) = Self.setUp()
        var g = SeededGenerator(seed: 4040)
        var records: [UInt16: Int] = [:]
        for seq in UInt16(0)..<40 where seq != 20 {
            let units = [Int.random(in: 150...400, using: &g)]
            var body = AACParsingTests.element(units: units, config: seq % 5 == 0)
            if seq == 30 { body = Array(body.prefix(12)) }       // cut short, marker set
            if seq == 33 { body = AACParsingTests.element(units: [10], lengthType: 1) }   // frameLengthType 1: not read
            records[seq] = h.l2cap(0x000C, cid: 0x01B4, Self.rtp(seq, UInt32(seq) * 1024) + body, .hostToController, advance: 23_220)
        }
        h.finish()
        let s = try #require(audio.streams.first)
        #expect(audio.streams.count == 1 && s.packets == 39 && s.frames == 37 && s.lostPackets == 1)
        #expect(s.aac?.framing == .latmInBand && s.aac?.found?.sampleRate == 44_100 && s.aac?.found?.objectType == 2 && s.mismatchedFrames == 0)
        #expect(s.payloadErrors == 2 && s.errorRecords.map(\.record) == [records[30], records[33]].compactMap { $0 })
        guard case .aac(.truncated)? = s.errorRecords.first?.kind else { Issue.record("\(s.errorRecords)"); return }
        #expect(s.errorRecords.last?.kind == .aac(.unsupported(.frameLengthType(1))))
        let lost = Self.lost(s)
        #expect(lost.map(\.record) == [records[21]].compactMap { $0 } && lost.first?.durationMicros == Int64(1024) * 1_000_000 / 44_100)
        #expect(s.frameMicros == 23_219 && s.sampleRate == 44_100)
    }

    /// tshark (4.0) has no LATM or AAC dissector for A2DP media (the RTP payload is left as data), so it cannot
    /// count AAC frames; what it can give, the RTP packets of the media channel and their sequence numbers, is
    /// compared: the same packets, and each gap found at the packet after it.
    @Test("RTP packets and sequence gaps equal tshark's RTP dissector's", .enabled(if: canGenerate && TestSupport.tshark != nil))
    func packetsMatchTShark() throws {
        let (path, _) = try AudioFixtures.run("gen-a2dp-aac.py", ["--seconds", "1", "--mtu", "200", "--lose", "130,131,170"], prefix: "bletrace-aac-")
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let r = AudioRun.run(try InputOpener.open(path: path), path: path, format: .text, out: OutputWriter(fd: devNull))
        let s = try #require(r.streams.first)
        var theirs: [(record: Int, seq: Int)] = []
        for line in try TestSupport.runTShark(["-r", path, "-Y", "rtp", "-T", "fields", "-e", "frame.number", "-e", "rtp.seq"]).split(separator: "\n") {
            let c = line.split(separator: "\t")
            guard c.count == 2, let n = Int(c[0]), let q = Int(c[1]) else { continue }
            theirs.append((n, q))
        }
        let gaps = zip(theirs, theirs.dropFirst()).filter { $1.seq != ($0.seq + 1) & 0xFFFF }.map { $1.record }
        #expect(theirs.count == s.packets && theirs.first?.record == s.firstRecord && theirs.last?.record == s.lastRecord)
        #expect(gaps.count == 2 && Self.lost(s).map(\.record) == gaps)
    }
}
