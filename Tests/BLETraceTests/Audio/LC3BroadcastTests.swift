import Foundation
import Testing
@testable import BLETrace

/// LE Audio broadcast in the audio layer: captures made by scripts/gen-lc3-iso.py --broadcast (a broadcast
/// sink's host: periodic sync, the BASE in a periodic advertising report, LE BIG Create Sync, BIG Sync
/// Established with two BIS handles, ISO data received on both): each BIS a stream, its LC3 configuration from
/// the BASE (the subgroup's, with the BIS's own entries over it), decoded into its own tone; the planted
/// problems on BIS 2 found at their records, none on BIS 1.
@Suite("LC3 over ISO: broadcast (BIS) streams from the BASE", .serialized)
struct LC3BroadcastTests {
    static var available: Bool { LC3GeneratedTests.available }

    static func generate(_ args: [String]) throws -> (path: String, planted: [String: Any]) {
        try AudioFixtures.run("gen-lc3-iso.py", ["--broadcast"] + args, prefix: "bletrace-bis-")
    }

    /// `bletrace audio` with stream `n` written to a WAV file.
    static func decode(_ path: String, stream n: Int) throws -> (AudioRun.Result, WAV) {
        let wav = path + ".\(n).wav"
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let r = AudioRun.run(try InputOpener.open(path: path), path: path, format: .text, output: .stream(n, path: wav), out: OutputWriter(fd: devNull))
        return (r, try WAV(path: wav))
    }

    @Test("two BISes: each its BASE configuration and its own tone; BIS 2's gap, lost SDU and short SDU at their records",
          .enabled(if: available))
    func twoBISes() throws {
        let (path, g) = try Self.generate(["--seconds", "1", "--freq", "440", "--freq2", "660", "--drop", "30", "--lost", "50", "--truncate", "70"])
        let (r, wav1) = try Self.decode(path, stream: 1)
        let (_, wav2) = try Self.decode(path, stream: 2)
        #expect(r.streams.count == 2 && r.failures.isEmpty && r.unavailable == nil)
        let handles = try #require(g["bis_handles"] as? [Int])
        let base = try #require(g["base_record"] as? Int)
        let s1 = try #require(r.streams.first), s2 = try #require(r.streams.last)
        // Each BIS its stream: received, its BIG and index, the configuration the BASE gave it.
        for (i, s) in [s1, s2].enumerated() {
            guard case let .iso(_, handle, sent) = s.source else {
                Issue.record("not an ISO stream")
                continue
            }
            #expect(Int(handle) == handles[i] && !sent)
            let l = try #require(s.lc3)
            #expect(l.big == 0 && l.bis == UInt8(i + 1) && l.ase == nil && l.negotiatedRecord == base)
            #expect(l.negotiated?.sampleRate == 48_000 && l.negotiated?.frameMicros == 10_000 && l.negotiated?.octetsPerFrame == 100)
            #expect(l.negotiated?.channels == 1 && l.negotiated?.blocksPerSDU == 1 && l.foundLength == 100)
        }
        // BIS 1: every SDU decoded, no dropout, its 440 Hz tone for the whole second.
        #expect(s1.packets == 100 && s1.decodedFrames == 100 && s1.dropoutCount == 0 && s1.decodeErrors == 0 && s1.lc3?.mismatchedSDUs == 0)
        #expect(wav1.rate == 48_000 && wav1.samples.count == 100 * 480)
        let z1 = try #require(WAV.crossings(wav1.channel(0, from: 960, count: 47_000), rate: 48_000))
        #expect(abs(z1 - 440) <= 8.8, "BIS 1: \(z1) Hz")
        // BIS 2: the dropped SDU found at the packet after it, the lost one at its record, the short one a mismatch.
        try LC3GeneratedTests.expectPlanted(s2, wav2, g)
        let x = wav2.channel(0, from: 960, count: 300 * 48 - 960)
        let z2 = try #require(WAV.crossings(x, rate: 48_000))
        #expect(abs(z2 - 660) <= 13.2 && abs(WAV.dominant(x, rate: 48_000) - 660) <= 13.2, "BIS 2: \(z2) Hz")
        // The text counts SDUs and LC3 frames, not packets, and names each BIS.
        let text = AudioRender.lines(r.streams, unavailable: nil)
        let gapRecord = try #require((g["dropped"] as? [[String: Any]])?.first?["record"] as? Int)
        let lost = try #require((g["lost"] as? [[String: Any]])?.first?["record"] as? Int)
        #expect(text.first == "stream 1: BIS 1 of BIG 0, handle 0x0010, received, connection #1, records #\(s1.firstRecord)–#\(s1.lastRecord)")
        #expect(text.contains("  99 SDUs, 98 LC3 frames, 97 decoded, 1.000000 s of audio"))
        #expect(text.contains("    1 SDU missing from the ISO sequence before #\(gapRecord) at 0.300000 s into the stream, 10.0 ms"))
        #expect(text.contains("    1 SDU flagged lost from #\(lost) at 0.500000 s into the stream, 10.0 ms"))
        #expect(!text.contains { $0.contains("packet") }, "\(text)")
        // The audio diagnoses name BIS 2's dropouts and decode error, nothing of BIS 1.
        let audio = r.summary.diagnoses.filter { $0.id.rawValue.hasPrefix("audio_") }
        #expect(Set(audio.map(\.id)).isSuperset(of: [.audioDropout, .audioDecodeError]))
    }

    @Test("a BIS the BASE does not describe is listed, not decoded", .enabled(if: available))
    func noBASE() throws {
        let (path, _) = try Self.generate(["--seconds", "0.2", "--no-base"])
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let r = AudioRun.run(try InputOpener.open(path: path), path: path, format: .text, out: OutputWriter(fd: devNull))
        #expect(r.streams.count == 2)
        #expect(r.streams.allSatisfy { $0.lc3?.negotiated == nil && $0.lc3?.bis != nil && $0.decodedFrames == 0 && $0.packets == 20 })
    }
}
