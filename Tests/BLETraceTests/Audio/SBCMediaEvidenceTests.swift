import Testing
@testable import BLETrace

/// The SBC header CRC-8 on frames sbcenc made, and the strict per-packet evidence the media recognition asks for.
@Suite("SBC header CRC and A2DP media evidence")
struct SBCMediaEvidenceTests {
    /// Frame starts (header, then join bits and scale factors) copied from sbcenc's output: 44.1 kHz joint stereo
    /// 8 subbands bitpool 53; 16 kHz mono bitpool 32; 48 kHz stereo 4 subbands 8 blocks bitpool 30.
    static let vectors: [[UInt8]] = [
        [0x9C, 0xBD, 0x35, 0xA0, 0xFE, 0xD9, 0x86, 0x66, 0x56, 0x00, 0x00, 0x00, 0x06],
        [0x9C, 0xBD, 0x35, 0x92, 0xD0, 0xD1, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
        [0x9C, 0x31, 0x20, 0x32, 0xDD, 0xA8, 0x78, 0x77],
        [0x9C, 0x31, 0x20, 0x90, 0xCD, 0x00, 0x00, 0x00],
        [0x9C, 0xD8, 0x1E, 0xCB, 0xC6, 0x55, 0xC6, 0x55],
    ]

    /// The CRC as the specification defines it, written here bit by bit (not the code under test): generator
    /// 0x1D, initial 0x0F, over bytes 1–2 and `covered` bits from byte 4.
    static func crc(_ frame: [UInt8]) -> UInt8 {
        let h = try! SBCFrameHeader.parse(frame[...])
        let covered = (h.mode == .jointStereo ? h.subbands : 0) + 4 * h.subbands * h.channels
        var bits: [Bool] = []
        for byte in frame[1...2] { for k in 0..<8 { bits.append(byte >> (7 - k) & 1 == 1) } }
        for i in 0..<covered { bits.append(frame[4 + i / 8] >> (7 - i % 8) & 1 == 1) }
        var r: UInt8 = 0x0F
        for b in bits {
            let top = (r >> 7 == 1) != b
            r <<= 1
            if top { r ^= 0x1D }
        }
        return r
    }

    /// A whole frame with `header` (CRC byte filled in), scale factors from `seed`, filler after them.
    static func frame(_ header: [UInt8], seed: UInt8 = 0x37) -> [UInt8] {
        let h = try! SBCFrameHeader.parse((header + [0])[...])
        var f = Array(header.prefix(3)) + [0]
        for i in 0..<(h.frameLength - 4) { f.append(UInt8(truncatingIfNeeded: Int(seed) &* (i + 3))) }
        f[3] = crc(f)
        return f
    }

    static func rtp(_ seq: UInt16, _ ts: UInt32, ssrc: UInt32 = 1, first: UInt8 = 0x80, pt: UInt8 = 0x60) -> [UInt8] {
        [first, pt, UInt8(seq >> 8), UInt8(seq & 0xFF), UInt8(ts >> 24), UInt8(ts >> 16 & 0xFF), UInt8(ts >> 8 & 0xFF), UInt8(ts & 0xFF),
         UInt8(ssrc >> 24), UInt8(ssrc >> 16 & 0xFF), UInt8(ssrc >> 8 & 0xFF), UInt8(ssrc & 0xFF)]
    }

    /// 44.1 kHz joint stereo, 16 blocks, 8 subbands, loudness, bitpool 53.
    static let joint: [UInt8] = [0x9C, 0xBD, 0x35]

    static func packet(_ seq: UInt16, frames n: Int = 5, header: [UInt8] = joint, ssrc: UInt32 = 1) -> [UInt8] {
        rtp(seq, UInt32(seq) &* 640, ssrc: ssrc) + [UInt8(n)] + (0..<n).flatMap { frame(header, seed: UInt8(truncatingIfNeeded: Int(seq) + $0)) }
    }

    @Test("sbcenc's frames pass; the specification's CRC written here agrees; any flipped bit fails")
    func crcOfRealFrames() {
        for v in Self.vectors {
            #expect(SBCFrameHeader.crcHolds(v[...]), "\(v)")
            #expect(Self.crc(v) == v[3])
            for bit in [8, 16, 23, 24, 39] {
                var bad = v
                bad[bit / 8] ^= 0x80 >> UInt8(bit % 8)
                #expect(!SBCFrameHeader.crcHolds(bad[...]), "bit \(bit) of \(v)")
            }
        }
        // Cut short before the scale factors end; no syncword; mSBC.
        #expect(!SBCFrameHeader.crcHolds(Self.vectors[0].prefix(8)))
        #expect(!SBCFrameHeader.crcHolds(([0x9D] + Self.vectors[0].dropFirst())[...]))
        #expect(!SBCFrameHeader.crcHolds([0xAD, 0x00, 0x00, 0x00, 0, 0, 0, 0][...]))
    }

    @Test("a packet of whole, CRC-checked frames of one configuration is evidence")
    func evidence() throws {
        let e = try #require(SBCMediaEvidence.check(Self.packet(7)[...]))
        #expect(e.sequence == 7 && e.timestamp == 7 * 640 && e.ssrc == 1 && e.payloadType == 96 && e.frames == 5)
        #expect(e.header.sampleRate == 44_100 && e.header.channels == 2 && e.header.bitpool == 53 && e.header.mode == .jointStereo)
        // 16 kHz mono, 4 frames.
        let m = try #require(SBCMediaEvidence.check(Self.packet(1, frames: 4, header: [0x9C, 0x31, 0x20])[...]))
        #expect(m.header.sampleRate == 16_000 && m.header.channels == 1 && m.header.bitpool == 32)
    }

    @Test("anything less is not: RTP options, payload type, payload header, frame count, CRC, bitpool, mixed frames, extra bytes")
    func notEvidence() {
        let good = Self.packet(7)
        var cases: [(String, [UInt8])] = []
        for first: UInt8 in [0x81, 0x90, 0xA0, 0x40, 0xC0] { cases.append(("first byte \(first)", [first] + good.dropFirst())) }
        cases.append(("static payload type", Array(good.prefix(1)) + [0x0E] + good.dropFirst(2)))
        // The good packet with another media payload header (byte 12).
        for (what, header): (String, UInt8) in [("fragment", 0x85), ("reserved bit", 0x15), ("count above the frames", 0x06),
                                                 ("count below the frames", 0x04), ("no frames", 0x00)] {
            var p = good
            p[12] = header
            cases.append((what, p))
        }
        var crc = good
        crc[12 + 1 + 119 * 2 + 3] ^= 0x01
        cases.append(("third frame's CRC", crc))
        cases.append(("trailing byte", good + [0]))
        cases.append(("cut short", Array(good.dropLast())))
        let mixed = Self.rtp(7, 0) + [2] + Self.frame(Self.joint) + Self.frame([0x9C, 0xBD, 0x30])
        cases.append(("mixed bitpools", mixed))
        // Mono, 8 subbands: the bitpool may not exceed 128.
        cases.append(("bitpool beyond the mode's", Self.rtp(7, 0) + [1] + Self.frame([0x9C, 0x31, 200])))
        cases.append(("bitpool 1", Self.rtp(7, 0) + [1] + Self.frame([0x9C, 0x31, 1])))
        let msbc = Self.rtp(7, 0) + [1] + [0xAD, 0, 0, 0] + [UInt8](repeating: 0, count: 53)
        cases.append(("mSBC", msbc))
        // An AAC (LATM) payload after a good RTP header.
        cases.append(("AAC", Self.rtp(7, 0) + [0x47, 0xFC, 0x00, 0x00, 0xB0, 0x90, 0x80, 0x03, 0x00] + [UInt8](repeating: 0x21, count: 300)))
        for (what, bytes) in cases { #expect(SBCMediaEvidence.check(bytes[...]) == nil, "\(what)") }
    }
}
