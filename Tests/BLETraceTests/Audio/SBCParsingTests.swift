import Testing
@testable import BLETrace

@Suite("SBC frames and A2DP media payloads")
struct SBCParsingTests {
    /// 44.1 kHz, 16 blocks, joint stereo, loudness, 8 subbands, bitpool 53: 4 + 8 + ceil((8 + 16 × 53) / 8) = 119 bytes.
    static let jointHeader: [UInt8] = [0x9C, 0xBD, 0x35, 0x00]

    static func frame(_ header: [UInt8]) -> [UInt8] {
        let h = try! SBCFrameHeader.parse(header[...])
        return header + [UInt8](repeating: 0x55, count: h.frameLength - 4)
    }

    static func rtp(_ seq: UInt16, _ ts: UInt32, csrc: Int = 0, extensionWords: Int? = nil, padding: Int = 0) -> [UInt8] {
        var b: [UInt8] = [0x80 | UInt8(csrc) | (extensionWords != nil ? 0x10 : 0) | (padding > 0 ? 0x20 : 0), 0x60,
                          UInt8(seq >> 8), UInt8(seq & 0xFF), UInt8(ts >> 24), UInt8(ts >> 16 & 0xFF), UInt8(ts >> 8 & 0xFF), UInt8(ts & 0xFF),
                          0, 0, 0, 1]
        b += [UInt8](repeating: 0xEE, count: csrc * 4)
        if let w = extensionWords { b += [0xBE, 0xDE, 0, UInt8(w)] + [UInt8](repeating: 0xAA, count: w * 4) }
        return b
    }

    @Test("headers give rate, channels, blocks, subbands, bitpool and the frame length by the A2DP formula")
    func headers() throws {
        let j = try SBCFrameHeader.parse(Self.jointHeader[...])
        #expect(j.sampleRate == 44_100 && j.channels == 2 && j.blocks == 16 && j.subbands == 8 && j.bitpool == 53 && j.mode == .jointStereo)
        #expect(j.frameLength == 119 && j.samplesPerFrame == 128 && j.durationMicros == 2902)
        // 48 kHz mono, 8 blocks, SNR, 4 subbands, bitpool 20: 4 + 2 + ceil(8 × 1 × 20 / 8) = 26.
        let m = try SBCFrameHeader.parse([0x9C, 0xD2, 20, 0][...])
        #expect(m.sampleRate == 48_000 && m.channels == 1 && m.blocks == 8 && m.snrAllocation && m.subbands == 4 && m.frameLength == 26)
        // Stereo (not joint): ceil(16 × 53 / 8) = 106, + 4 + 8.
        #expect(try SBCFrameHeader.parse([0x9C, 0xB9, 53, 0][...]).frameLength == 118)
        // Dual channel: ceil(16 × 2 × 32 / 8) = 128, + 4 + 8.
        #expect(try SBCFrameHeader.parse([0x9C, 0xB5, 32, 0][...]).frameLength == 140)
        #expect(try SBCFrameHeader.parse([0xAD, 0, 0, 0][...]).frameLength == 57)
        #expect(throws: ByteError.self) { try SBCFrameHeader.parse([0x9D, 0xBD, 0x35, 0][...]) }
        #expect(throws: ByteError.self) { try SBCFrameHeader.parse([0x9C, 0xBD][...]) }
    }

    @Test("a frame matches the configuration AVDTP chose only when every field and the bitpool fit")
    func configuration() throws {
        let j = try SBCFrameHeader.parse(Self.jointHeader[...])
        // 44.1 kHz + joint stereo; 16 blocks + 8 subbands + loudness; bitpool 2…53.
        #expect(j.matches(configuration: [0x21, 0x15, 0x02, 0x35][...]) == true)
        #expect(j.matches(configuration: [0x11, 0x15, 0x02, 0x35][...]) == false)   // 48 kHz negotiated
        #expect(j.matches(configuration: [0x22, 0x15, 0x02, 0x35][...]) == false)   // stereo negotiated
        #expect(j.matches(configuration: [0x21, 0x15, 0x02, 0x30][...]) == false)   // bitpool above the maximum
        #expect(j.matches(configuration: [0x21, 0x16, 0x02, 0x35][...]) == false)   // SNR negotiated
        #expect(j.matches(configuration: [0x21, 0x15][...]) == nil)
    }

    @Test("media packets: RTP with CSRCs, an extension and padding; frames found; problems named")
    func payloads() throws {
        let f = Self.frame(Self.jointHeader)
        let plain = try #require(A2DPMediaPayload.parseSBC((Self.rtp(7, 640) + [0x03] + f + f + f)[...]))
        #expect(plain.sequence == 7 && plain.timestamp == 640 && plain.declaredFrames == 3 && plain.frames.count == 3 && plain.problem == nil)
        #expect(plain.frames.allSatisfy { $0.bytes.count == 119 && $0.bytes.first == 0x9C })
        let dressed = try #require(A2DPMediaPayload.parseSBC((Self.rtp(8, 0, csrc: 2, extensionWords: 1, padding: 3) + [0x02] + f + f + [0, 0, 3])[...]))
        #expect(dressed.frames.count == 2 && dressed.problem == nil)
        let short = try #require(A2DPMediaPayload.parseSBC((Self.rtp(9, 0) + [0x02] + f + f.prefix(50))[...]))
        #expect(short.frames.count == 1 && short.problem == .truncatedFrame(offset: 12 + 1 + 119))
        let noSync = try #require(A2DPMediaPayload.parseSBC((Self.rtp(9, 0) + [0x02] + f + [0x00] + f.dropFirst())[...]))
        #expect(noSync.frames.count == 1 && noSync.problem == .badSyncword(offset: 132))
        #expect(A2DPMediaPayload.parseSBC((Self.rtp(9, 0) + [0x04] + f + f)[...])?.problem == .countMismatch)
        #expect(A2DPMediaPayload.parseSBC(Self.rtp(9, 0)[...])?.problem == .noPayloadHeader)
        let fragment = try #require(A2DPMediaPayload.parseSBC((Self.rtp(9, 0) + [0xC1] + f.prefix(60))[...]))
        #expect(fragment.fragmented && fragment.frames.isEmpty && fragment.problem == nil)
        #expect(A2DPMediaPayload.parseSBC(([0x40] + Self.rtp(1, 0).dropFirst())[...]) == nil)   // RTP version 1
        #expect(A2DPMediaPayload.parseSBC(Array(Self.rtp(1, 0, padding: 1).prefix(12))[...])?.problem == .noPayloadHeader)
    }
}
