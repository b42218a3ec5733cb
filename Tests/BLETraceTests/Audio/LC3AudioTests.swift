import Foundation
import Testing
@testable import BLETrace

/// LC3 over ISO in the audio layer, on Bumble's unicast capture (../shared/captures): 60 LC3 SDUs (48 kHz,
/// 10 ms, 100 octets) on a CIS, joined to their Sink ASE, decoded into a 440 Hz tone; and copies of that capture
/// with an SDU removed (a sequence gap), one cut short and others replaced by random bytes.
@Suite("LC3 over ISO: Bumble's unicast tone", .serialized)
struct LC3AudioTests {
    static var capture: String? {
        guard (try? LC3Library.shared.get()) != nil, let d = TestSupport.sharedCaptures else { return nil }
        let p = d.appendingPathComponent("bumble_unicast_central.btsnoop").path
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }
    static var available: Bool { capture != nil }

    /// The capture rewritten: each ISO data packet's bytes (by its index among them) through `change`; nil drops it.
    static func derived(_ change: (Int, [UInt8]) -> [UInt8]?) throws -> String {
        let path = try #require(capture)
        let (records, error) = TestSupport.readAll(try InputOpener.open(path: path).reader)
        #expect(error == nil)
        let w = CaptureWriter(format: .btsnoop(datalink: 1002))
        var i = 0
        for r in records {
            var data = Array(r.data)
            if r.kind == .iso {
                defer { i += 1 }
                guard let d = change(i, data) else { continue }
                data = d
            }
            w.add(kind: r.kind, direction: r.direction, at: r.timestamp, data)
        }
        let out = NSTemporaryDirectory() + "bletrace-lc3-" + UUID().uuidString + ".btsnoop"
        try Data(w.bytes).write(to: URL(fileURLWithPath: out))
        return out
    }

    /// An ISO data packet (complete SDU, no time stamp) with its SDU replaced by `sdu`.
    static func withSDU(_ packet: [UInt8], _ sdu: [UInt8]) -> [UInt8] {
        guard packet.count >= 8 else { return packet }
        let length = 4 + sdu.count, status = packet[7] & 0xC0
        return Array(packet[0..<2]) + [UInt8(length & 0xFF), UInt8(length >> 8), packet[4], packet[5],
                                       UInt8(sdu.count & 0xFF), UInt8(sdu.count >> 8) | status] + sdu
    }

    @Test("the Sink ASE's CIS: 60 frames decoded, 440 Hz, 0.6 s, no gap", .enabled(if: available))
    func tone() throws {
        // A copy in the temporary folder: the WAV is written beside it, never into ../shared.
        let path = NSTemporaryDirectory() + "bletrace-lc3-bumble-" + UUID().uuidString + ".btsnoop"
        try FileManager.default.copyItem(atPath: try #require(Self.capture), toPath: path)
        let (r, wav) = try AudioFixtures.decode(path)
        #expect(r.streams.count == 1 && r.failures.isEmpty && r.unavailable == nil)
        let s = try #require(r.streams.first)
        #expect(s.source == .iso(connection: 2, handle: 0x0002, sent: true))
        let l = try #require(s.lc3)
        #expect(l.ase == 1 && l.sink == true && l.negotiatedRecord == 168 && l.foundLength == 100 && l.mismatchedSDUs == 0)
        let c = try #require(l.negotiated)
        #expect(c.sampleRate == 48_000 && c.frameMicros == 10_000 && c.octetsPerFrame == 100 && c.channels == 1 && c.blocksPerSDU == 1)
        #expect(s.packets == 60 && s.frames == 60 && s.decodedFrames == 60 && s.decodeErrors == 0)
        #expect(s.dropoutCount == 0 && s.lostPackets == 0 && s.gapSamples == 0)
        #expect(wav.rate == 48_000 && wav.channels == 1 && wav.samples.count == 60 * 480)
        // Past the decoder's start-up (its first two frames).
        let x = wav.channel(0, from: 960, count: wav.samples.count - 960)
        let z = try #require(WAV.crossings(x, rate: 48_000))
        #expect(abs(z - 440) <= 8.8 && abs(WAV.dominant(x, rate: 48_000) - 440) <= 8.8, "\(z) Hz")
    }

    @Test("an SDU removed: one gap of one SDU before the next record, silence in its place; a short SDU found",
          .enabled(if: available))
    func plantedGap() throws {
        let path = try Self.derived { i, p in
            if i == 29 { return nil }
            if i == 44 { return Self.withSDU(p, Array(p.dropFirst(8).prefix(60))) }
            return p
        }
        let records = TestSupport.readAll(try InputOpener.open(path: path).reader).0
        let iso = records.filter { $0.kind == .iso }.map(\.number)
        let (r, wav) = try AudioFixtures.decode(path)
        let s = try #require(r.streams.first)
        #expect(s.packets == 59 && s.lostPackets == 1 && s.dropoutCount == 1)
        let d = try #require(s.dropouts.first)
        // The 30th SDU is gone: the gap is found at the packet that came 30th, after the 29th.
        #expect(d.kind == .lost(packets: 1) && d.record == iso[29] && d.previousRecord == iso[28])
        #expect(d.positionMicros == 290_000 && d.durationMicros == 10_000)
        #expect(s.lc3?.mismatchedSDUs == 1 && s.lc3?.mismatchRecords == [iso[43]] && s.lc3?.firstMismatchLength == 60)
        #expect(s.decodeErrors == 1 && s.errorRecords.map(\.record) == [iso[43]])
        #expect(wav.samples.count == 60 * 480 && s.gapSamples == 480)
        #expect(wav.samples[(290 * 48)..<(300 * 48)].allSatisfy { $0 == 0 })
    }

    @Test("random and truncated SDUs: no trap, bounded, every problem tied to a record", .enabled(if: available))
    func randomSDUs() throws {
        var g = SeededGenerator(seed: 0x5EED_0001)
        let path = try Self.derived { i, p in
            guard i >= 5 else { return p }
            let n = [0, 1, 50, 99, 100, 101, 300].randomElement(using: &g) ?? 0
            return Self.withSDU(p, (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) })
        }
        let (r, _) = try AudioFixtures.decode(path)
        let s = try #require(r.streams.first)
        #expect(r.streams.count == 1 && s.packets == 60)
        #expect(s.errorRecords.count <= AudioStream.maxRecords && (s.lc3?.mismatchRecords.count ?? 0) <= AudioStream.maxRecords)
        #expect(s.errorRecords.allSatisfy { $0.record > 0 } && (s.lc3?.mismatchedSDUs ?? 0) > 0)
    }
}

/// Captures made by scripts/gen-lc3-iso.py (liblc3 through ctypes): the ASE/CIS story in HCI, a 440 Hz tone in
/// 100 LC3 SDUs, one SDU dropped (a sequence gap), one flagged lost, one cut short: each found at its record,
/// nothing elsewhere.
@Suite("LC3 over ISO: generated capture with planted gaps", .serialized)
struct LC3GeneratedTests {
    static var available: Bool { AudioFixtures.python != nil && (try? LC3Library.shared.get()) != nil }

    /// What `gen-lc3-iso.py --drop 30 --lost 50 --truncate 70` planted, found where it was put and nothing else:
    /// the dropped SDU at the packet after it, the lost one at its record, the short one a mismatch and a decode
    /// error, silence in the WAV at both gaps.
    static func expectPlanted(_ s: AudioStream, _ wav: WAV, _ g: [String: Any]) throws {
        let dropped = try #require((g["dropped"] as? [[String: Any]])?.first)
        let lost = try #require((g["lost"] as? [[String: Any]])?.first?["record"] as? Int)
        let truncated = try #require((g["truncated"] as? [String: Any])?["record"] as? Int)
        #expect(s.packets == 99 && s.lostPackets == 1 && s.lc3?.lostSDUs == 1 && s.underruns == 0 && s.dropoutCount == 2)
        let gap = try #require(s.dropouts.first)
        #expect(gap.kind == .lost(packets: 1) && gap.record == dropped["record"] as? Int && gap.previousRecord == dropped["previous_record"] as? Int)
        #expect(gap.positionMicros == 300_000 && gap.durationMicros == 10_000)
        let flagged = try #require(s.dropouts.last)
        #expect(flagged.kind == .erroneous(status: 2, packets: 1) && flagged.record == lost && flagged.positionMicros == 500_000)
        #expect(s.lc3?.mismatchRecords == [truncated] && s.errorRecords.map(\.record) == [truncated] && s.decodeErrors == 1)
        #expect(s.decodedFrames == 97 && wav.samples.count == 100 * 480 && s.gapSamples == 2 * 480)
        #expect(wav.samples[(300 * 48)..<(310 * 48)].allSatisfy { $0 == 0 } && wav.samples[(500 * 48)..<(510 * 48)].allSatisfy { $0 == 0 })
    }

    @Test("the gap at the dropped SDU, the lost SDU at its record, the short SDU a mismatch", .enabled(if: available))
    func plantedGaps() throws {
        let (path, g) = try AudioFixtures.run("gen-lc3-iso.py", ["--drop", "30", "--lost", "50", "--truncate", "70"], prefix: "bletrace-lc3gen-")
        let (r, wav) = try AudioFixtures.decode(path)
        #expect(r.streams.count == 1 && r.failures.isEmpty)
        let s = try #require(r.streams.first)
        #expect(s.lc3?.negotiatedRecord == g["codec_record"] as? Int && s.lc3?.ase == 1 && s.lc3?.sink == true)
        try Self.expectPlanted(s, wav, g)
        let x = wav.channel(0, from: 960, count: 300 * 48 - 960)
        let z = try #require(WAV.crossings(x, rate: 48_000))
        #expect(abs(z - 440) <= 8.8, "\(z) Hz")
    }
}
