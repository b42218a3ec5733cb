import Foundation
import Testing
@testable import BLETrace

/// An A2DP source that changes its stream's configuration mid-stream (scripts/gen-a2dp-sbc.py --reconfigure):
/// the media after the change is a new stream that follows the first, each checked against the configuration in
/// force at its packets and decoded into its own WAV file at its own rate.
@Suite("A2DP: configuration changed mid-stream", .serialized)
struct A2DPReconfigureTests {
    struct Segment {
        var rate: Int, bitpool: Int, packets: Int, frames: Int, samples: Int, first: Int, last: Int
    }

    static func segments(_ j: [String: Any]) -> [Segment] {
        (j["segments"] as? [[String: Any]] ?? []).map {
            Segment(rate: $0["rate"] as? Int ?? 0, bitpool: $0["bitpool"] as? Int ?? 0, packets: $0["packets"] as? Int ?? 0,
                    frames: $0["frames"] as? Int ?? 0, samples: $0["samples"] as? Int ?? 0, first: $0["first_record"] as? Int ?? 0,
                    last: $0["last_record"] as? Int ?? 0)
        }
    }

    /// `bletrace audio` with every stream into a WAV file; returns the run and the files by stream number.
    static func decodeAll(_ path: String) throws -> (AudioRun.Result, [Int: WAV]) {
        let dir = NSTemporaryDirectory() + "bletrace-reconf-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let r = AudioRun.run(try InputOpener.open(path: path), path: path, format: .text, output: .all(directory: dir),
                             out: OutputWriter(fd: devNull))
        var wavs: [Int: WAV] = [:]
        for s in r.streams { wavs[s.number] = try WAV(path: dir + "/stream-\(s.number).wav") }
        return (r, wavs)
    }

    /// Two segments, as planted: their rates, durations and tone; no frame unlike the configuration in force.
    /// `reject`: a change to 32 kHz is asked for and rejected first (the configuration in force stays).
    func check(_ via: String, reject: Bool = false) throws {
        let (path, j) = try AudioFixtures.run("gen-a2dp-sbc.py", ["--freq", "1000", "--seconds", "1", "--reconfigure", "48000",
                                                                  "--reconfigure-bitpool", "45", "--reconfigure-via", via]
                                                  + (reject ? ["--reject-first"] : []),
                                              prefix: "bletrace-reconf-")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let planted = Self.segments(j)
        try #require(planted.count == 2)
        let (r, wavs) = try Self.decodeAll(path)
        #expect(r.streams.count == 2 && r.failures.isEmpty && r.unavailable == nil, "\(r.failures)")
        for (s, p) in zip(r.streams, planted) {
            let wav = try #require(wavs[s.number])
            #expect(s.found?.sampleRate == p.rate && s.found?.bitpool == p.bitpool && wav.rate == p.rate && wav.channels == 2)
            #expect(s.negotiated?.parameters.last.map(Int.init) == p.bitpool, "the bitpool range's maximum in force")
            #expect(s.firstRecord == p.first && s.lastRecord == p.last && s.packets == p.packets && s.frames == p.frames)
            #expect(s.mismatchedFrames == 0 && s.decodeErrors == 0 && s.dropoutCount == 0 && s.decodedFrames == p.frames)
            // Duration: every sample of the segment, at its own rate.
            #expect(wav.samples.count == p.samples * 2 && s.positionSamples == p.samples)
            let x = wav.channel(0, from: 2048, count: 8192)
            let f = WAV.dominant(x, rate: p.rate)
            let z = try #require(WAV.crossings(x, rate: p.rate))
            #expect(abs(f - 1000) <= 20 && abs(z - 1000) <= 20, "stream \(s.number): Goertzel \(f) Hz, zero crossings \(z) Hz")
        }
        let second = r.streams[1]
        #expect(r.streams[0].follows == nil && second.follows == 1)
        // The configuration in force for the second stream: the Reconfigure (or new Set Configuration) between the two.
        #expect((second.negotiatedRecord ?? 0) > planted[0].last && (second.negotiatedRecord ?? .max) < planted[1].first)
        // None of the stream diagnoses (dropout, decode error, configuration mismatch, silence).
        #expect(r.diagnoses.isEmpty, "\(r.diagnoses.map(\.id))")
        let lines = AudioRender.lines(r.streams, unavailable: nil)
        #expect(lines.contains("stream 2: A2DP media, connection #1, configuration changed: continues stream 1, records #\(planted[1].first)–#\(planted[1].last)"),
                "\(lines)")
        #expect(AudioRender.fields(second)["follows"] == .int(1) && AudioRender.fields(r.streams[0])["follows"] == nil)
    }

    @Test("Suspend, Reconfigure 44.1 → 48 kHz, Start: two streams, each at its rate, no false mismatch",
          .enabled(if: AudioFixtures.canDecode))
    func suspendReconfigureStart() throws { try check("reconfigure") }

    @Test("Close, a new media channel and Set Configuration at 48 kHz: two streams, each at its rate",
          .enabled(if: AudioFixtures.canDecode))
    func closeAndSetConfiguration() throws { try check("close") }

    @Test("a rejected Reconfigure or Set Configuration changes nothing: the accepted one after it is in force",
          .enabled(if: AudioFixtures.canDecode))
    func rejectedFirst() throws {
        try check("reconfigure", reject: true)
        try check("close", reject: true)
    }

    /// A rejected Reconfigure and no other: the first configuration stays in force, the stream goes on as one.
    @Test("a rejected Reconfigure alone: one stream, its frames as negotiated", .enabled(if: AudioFixtures.canGenerate))
    func rejectedAlone() throws {
        let (path, j) = try AudioFixtures.run("gen-a2dp-sbc.py", ["--seconds", "0.5", "--reconfigure", "44100", "--reject-only"],
                                              prefix: "bletrace-reconf-")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let planted = Self.segments(j)
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let r = AudioRun.run(try InputOpener.open(path: path), path: path, format: .text, decode: false, out: OutputWriter(fd: devNull))
        try #require(planted.count == 2)
        let s = try #require(r.streams.first)
        #expect(r.streams.count == 1 && s.frames == planted[0].frames + planted[1].frames && s.mismatchedFrames == 0)
        #expect(s.negotiated?.parameters.first == 0x21 && s.lastRecord == planted[1].last, "44.1 kHz, joint stereo")
        #expect(!r.diagnoses.contains { $0.id == .audioConfigMismatch })
    }

    /// Frames unlike the configuration in force are still found, and only in the stream they belong to: the first
    /// configuration says 48 kHz while the frames are 44.1 kHz; the second (48 kHz, another bitpool) fits its frames.
    @Test("a mismatch before the change stays with its stream", .enabled(if: AudioFixtures.canGenerate))
    func mismatchBeforeTheChange() throws {
        let (path, j) = try AudioFixtures.run("gen-a2dp-sbc.py", ["--seconds", "0.5", "--misconfigure", "--reconfigure", "48000",
                                                                  "--reconfigure-bitpool", "45"], prefix: "bletrace-reconf-")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let planted = Self.segments(j)
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let r = AudioRun.run(try InputOpener.open(path: path), path: path, format: .text, decode: false, out: OutputWriter(fd: devNull))
        try #require(r.streams.count == 2 && planted.count == 2)
        let (first, second) = (r.streams[0], r.streams[1])
        #expect(first.mismatchedFrames == planted[0].frames && first.mismatch?.sampleRate == 44_100)
        #expect(first.mismatchRecords.first == planted[0].first && first.mismatchRecords.allSatisfy { $0 <= planted[0].last })
        #expect(second.mismatchedFrames == 0 && second.follows == 1 && second.frames == planted[1].frames)
        let mismatches = r.summary.diagnoses.filter { $0.id == .audioConfigMismatch }
        #expect(mismatches.count == 1 && mismatches.first?.facts.audio.map { if case let .configMismatch(s, _, _, _) = $0 { s == 1 } else { false } } == true)
    }
}
