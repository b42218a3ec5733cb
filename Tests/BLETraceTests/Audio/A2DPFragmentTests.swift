import Foundation
import Testing
@testable import BLETrace

/// SBC frames fragmented across A2DP media packets (A2DP 1.4 4.3.4), from scripts/gen-a2dp-sbc.py --fragment:
/// put back together and decoded; a lost fragment loses its frame, found at the packet after it, its time
/// silence in the WAV file.
@Suite("A2DP audio: fragmented SBC frames", .serialized)
struct A2DPFragmentTests {
    static func generate(_ args: [String]) throws -> (path: String, planted: [String: Any]) {
        try AudioFixtures.run("gen-a2dp-sbc.py", args, prefix: "bletrace-frag-")
    }

    @Test("each frame in 3 packets: every whole frame decoded, the tone; lost fragments cost their frames, at their records",
          .enabled(if: AudioFixtures.canDecode))
    func threeFragments() throws {
        // Sequence numbers start at 100, three a frame: 400 is frame 100's first fragment, 601 and 602 frame 167's first two.
        let (path, g) = try Self.generate(["--seconds", "1", "--freq", "1000", "--fragment", "3", "--lose", "400,601,602"])
        let (r, wav) = try AudioFixtures.decode(path)
        let s = try #require(r.streams.first)
        let frames = try #require(g["frames"] as? Int)
        let packets = try #require(g["packets"] as? Int)
        #expect(g["lost_frames"] as? [Int] == [100, 167])
        #expect(r.streams.count == 1 && s.packets == packets && s.fragmentPackets == packets)
        #expect(s.frames == frames - 2 && s.decodedFrames == frames - 2 && s.decodeErrors == 0 && s.payloadErrors == 0)
        #expect(s.lostPackets == 3 && s.underruns == 0)
        // The two gaps at the packets after the lost fragments, each one frame (128 samples at 44.1 kHz) long.
        let after = try #require(g["lost_records_after"] as? [Int])
        #expect(s.dropouts.map(\.record) == after && s.dropouts.map(\.kind) == [.lost(packets: 1), .lost(packets: 2)])
        #expect(s.dropouts.allSatisfy { $0.durationMicros == 2902 }, "\(s.dropouts.map(\.durationMicros))")
        #expect(s.dropouts.map(\.positionMicros) == [Int64(100 * 128) * 1_000_000 / 44_100, Int64(167 * 128) * 1_000_000 / 44_100])
        // Every frame's time in the WAV file, the lost ones silent in their place.
        #expect(wav.rate == 44_100 && wav.samples.count / wav.channels == frames * 128)
        #expect(wav.channel(0, from: 100 * 128, count: 128).allSatisfy { $0 == 0 } && wav.channel(0, from: 167 * 128, count: 128).allSatisfy { $0 == 0 })
        #expect(wav.channel(0, from: 99 * 128, count: 128).contains { abs($0) > 8000 })
        let x = wav.channel(0, from: 2048, count: 8192)
        let z = try #require(WAV.crossings(x, rate: 44_100))
        #expect(abs(WAV.dominant(x, rate: 44_100) - 1000) <= 20 && abs(z - 1000) <= 20, "\(z) Hz")
    }

    static func fragment(_ seq: UInt16, _ ts: UInt32, start: Bool, last: Bool, left: Int, _ bytes: [UInt8]) -> A2DPMediaPayload {
        var p = A2DPMediaPayload(sequence: seq, timestamp: ts, declaredFrames: left, fragmented: true, frames: [], problem: nil)
        p.starting = start
        p.lastFragment = last
        p.fragment = bytes[...]
        return p
    }

    /// Fragments out of order, repeated, with wrong counts or random bytes: no trap, no frame from them, at most
    /// `maxFrame` bytes held.
    @Test func hostileFragmentsNeverTrap() {
        var f = SBCFragments()
        var g = SeededGenerator(seed: 0x5EED_0003)
        var frames = 0
        for i in 0..<5000 {
            let n = Int.random(in: 0...700, using: &g)
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }
            let p = Self.fragment(UInt16.random(in: 0...3, using: &g), 0, start: Bool.random(using: &g), last: Bool.random(using: &g),
                                  left: Int.random(in: 0...15, using: &g), bytes)
            if case .frame? = f.push(p, record: i + 1) { frames += 1 }
            #expect(f.bytes.count <= SBCFragments.maxFrame)
        }
        // Random bytes start with the SBC syncword now and then, but never make a frame of exactly their length.
        #expect(frames < 5)
    }

    /// A frame's fragments out of sequence are not put together; in sequence they are.
    @Test func sequenceMatters() throws {
        let frame: [UInt8] = [0x9C, 0x31, 0x10, 0x00] + [UInt8](repeating: 0x55, count: 40)
        let h = try SBCFrameHeader.parse(frame[...])
        let whole = Array(frame.prefix(h.frameLength))
        let a = Array(whole.prefix(20)), b = Array(whole.dropFirst(20))
        var f = SBCFragments()
        #expect(f.push(Self.fragment(10, 0, start: true, last: false, left: 2, a), record: 1) == nil)
        #expect(f.push(Self.fragment(12, 0, start: false, last: true, left: 1, b), record: 2) == nil)
        #expect(f.push(Self.fragment(13, 0, start: true, last: false, left: 2, a), record: 3) == nil)
        #expect(f.push(Self.fragment(14, 0, start: false, last: true, left: 1, b), record: 4) == .frame(h, whole[...], firstRecord: 3, timestamp: 0))
    }
}
