import Foundation
import Testing
@testable import BLETrace

/// Captures that start while the music plays (scripts/gen-a2dp-sbc.py --start-mid-stream: real SBC frames from
/// sbcenc, no L2CAP channel setup, no AVDTP signaling): one stream, its configuration inferred from the frames,
/// decoded to the tone, every planted loss found at its record.
@Suite("A2DP mid-stream end to end: tone in, tone out", .serialized)
struct A2DPMidStreamEndToEndTests {
    @Test("44.1 kHz stereo with planted losses: inferred configuration, every frame, the tone and the losses",
          .enabled(if: AudioFixtures.canDecode))
    func stereo() throws {
        let (path, j) = try AudioFixtures.run("gen-a2dp-sbc.py", ["--freq", "1000", "--seconds", "1.5", "--lose", "150,151,200",
                                                                  "--start-mid-stream"], prefix: "bletrace-midstream-")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (r, wav) = try AudioFixtures.decode(path)
        defer { try? FileManager.default.removeItem(atPath: path + ".wav") }
        let s = try #require(r.streams.first)
        let packets = try #require(j["packets"] as? Int), frames = try #require(j["frames"] as? Int)
        let lost = j["lost"] as? [Int] ?? [], after = j["lost_records_after"] as? [Int] ?? []
        #expect(r.streams.count == 1 && r.unavailable == nil && r.failures.isEmpty)
        // The configuration: from the frames, said to be inferred; nothing negotiated.
        let inferred = try #require(s.inferred)
        #expect(s.negotiated == nil && inferred.sampleRate == 44_100 && inferred.channels == 2 && inferred.bitpool == 53)
        #expect(inferred.mode == .jointStereo && inferred.blocks == 16 && inferred.subbands == 8 && !inferred.snrAllocation)
        // Every packet and frame, from the first media record (the two held before recognition included).
        #expect(s.firstRecord == j["first_record"] as? Int && s.lastRecord == j["last_record"] as? Int)
        #expect(s.packets == packets && s.frames == frames && s.decodedFrames == frames && s.decodeErrors == 0 && s.payloadErrors == 0)
        // Duration: every packet slot, the lost ones as silence.
        #expect(wav.rate == 44_100 && wav.channels == 2 && wav.samples.count / 2 == (packets + lost.count) * 640)
        let x = wav.channel(0, from: 2048, count: 8192)
        let f = WAV.dominant(x, rate: 44_100)
        let z = try #require(WAV.crossings(wav.channel(0, from: 2048, count: 28_000), rate: 44_100))
        #expect(abs(f - 1000) <= 20 && abs(z - 1000) <= 20, "Goertzel \(f) Hz, zero crossings \(z) Hz")
        let drops = s.dropouts.filter { if case .lost = $0.kind { return true }; return false }
        #expect(drops.map(\.kind) == [.lost(packets: 2), .lost(packets: 1)] && drops.map(\.record) == after)
        #expect(s.lostPackets == 3 && s.mismatchedFrames == 0)
        #expect(Set(r.diagnoses.map(\.id)) == [.audioDropout])
    }

    @Test("16 kHz mono: the configuration inferred, the whole tone", .enabled(if: AudioFixtures.canDecode))
    func mono() throws {
        let (path, j) = try AudioFixtures.run("gen-a2dp-sbc.py", ["--freq", "440", "--seconds", "1", "--rate", "16000", "--mono", "--bitpool", "32",
                                                                  "--frames-per-packet", "4", "--start-mid-stream"], prefix: "bletrace-midstream-")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (r, wav) = try AudioFixtures.decode(path)
        defer { try? FileManager.default.removeItem(atPath: path + ".wav") }
        let s = try #require(r.streams.first)
        #expect(s.inferred?.sampleRate == 16_000 && s.inferred?.channels == 1 && s.inferred?.bitpool == 32)
        #expect(s.frames == j["frames"] as? Int && wav.rate == 16_000 && wav.channels == 1 && wav.samples.count == s.frames * 128)
        let z = try #require(WAV.crossings(wav.channel(0, from: 512, count: 12_000), rate: 16_000))
        #expect(abs(z - 440) <= 8.8 && s.dropoutCount == 0 && r.diagnoses.isEmpty)
    }

    @Test("a Reconfigure on the signaling channel the capture cannot read: two inferred streams at their rates",
          .enabled(if: AudioFixtures.canDecode))
    func reconfigured() throws {
        let (path, j) = try AudioFixtures.run("gen-a2dp-sbc.py", ["--freq", "1000", "--seconds", "1", "--reconfigure", "48000",
                                                                  "--reconfigure-bitpool", "45", "--start-mid-stream"], prefix: "bletrace-midstream-")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let planted = A2DPReconfigureTests.segments(j)
        let (r, wavs) = try A2DPReconfigureTests.decodeAll(path)
        #expect(r.streams.count == 2 && planted.count == 2)
        for (s, p) in zip(r.streams, planted) {
            let wav = try #require(wavs[s.number])
            #expect(s.inferred?.sampleRate == p.rate && s.inferred?.bitpool == p.bitpool && wav.rate == p.rate)
            #expect(s.firstRecord == p.first && s.lastRecord == p.last && s.frames == p.frames && wav.samples.count == p.samples * 2)
            let z = try #require(WAV.crossings(wav.channel(0, from: 2048, count: 8192), rate: p.rate))
            #expect(abs(z - 1000) <= 20)
        }
        #expect(r.streams.last?.follows == 1 && r.streams.last?.inferredRecord == planted.last?.first)
    }

    @Test("a log with nothing but the media, one way (no Connection Complete either): the handle is a BR/EDR link and the stream whole",
          .enabled(if: AudioFixtures.canGenerate))
    func mediaOnly() throws {
        let (path, j) = try AudioFixtures.run("gen-a2dp-sbc.py", ["--seconds", "0.5", "--lose", "120", "--start-mid-stream", "--no-connection-complete"],
                                              prefix: "bletrace-midstream-")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let r = AudioRun.run(try InputOpener.open(path: path), path: path, format: .text, decode: false, out: OutputWriter(fd: devNull))
        let s = try #require(r.streams.first)
        #expect(r.streams.count == 1 && s.firstRecord == 1 && s.packets == j["packets"] as? Int && s.frames == j["frames"] as? Int)
        #expect(s.inferred?.sampleRate == 44_100 && s.lostPackets == 1 && s.dropouts.map(\.record) == j["lost_records_after"] as? [Int])
        let c = try #require(r.summary.connections.first)
        #expect(r.summary.connections.count == 1 && c.handle == 0x000C && !c.le)
    }

    @Test("the analyze report says the configuration was inferred, and the timeline shows media",
          .enabled(if: AudioFixtures.canGenerate))
    func report() throws {
        let (path, j) = try AudioFixtures.run("gen-a2dp-sbc.py", ["--seconds", "0.3", "--start-mid-stream"], prefix: "bletrace-midstream-")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let a = Analyzer(sink: nil)
        let media = MediaRecords()
        a.chain.taps = [media]
        let summary = a.run(try CaptureFile.open(path: path), path: path)
        #expect(media.records.count == j["packets"] as? Int && media.records.min() == j["first_record"] as? Int)
        let text = SummaryRender.text(summary).joined(separator: "\n")
        #expect(text.contains("connection #1: SBC 44.1 kHz, joint stereo, 16 blocks, 8 subbands, loudness, bitpool 53 inferred from the media (no AVDTP configuration in the capture)"), "\(text)")
    }
}
