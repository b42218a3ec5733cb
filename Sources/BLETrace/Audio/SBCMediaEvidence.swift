/// What one L2CAP frame on a channel never seen opened must show before it counts towards calling the channel
/// A2DP SBC media (`A2DPMediaCandidates`): checked strictly, so that bytes of any other kind almost never pass.
///
/// - an RTP version 2 header (RFC 3550 5.1) with no padding, no header extension and no CSRC (A2DP sources
///   use none of them), and a payload type in the dynamic range 96–127 (AVDTP 1.3 7.2.1);
/// - the SBC media payload header (A2DP 1.4 4.3.4): not a fragment, its reserved bit clear, a frame count
///   of 1–15;
/// - exactly that many SBC frames filling the rest of the packet, each with the syncword 0x9C, a header
///   CRC-8 that holds (`SBCFrameHeader.crcHolds`), a bitpool within what its channel mode allows (A2DP 1.4
///   12.6: 2 up to 16 per subband per channel, at most 250), and the same configuration as the first frame.
public struct SBCMediaEvidence: Sendable, Equatable {
    public var ssrc: UInt32
    public var sequence: UInt16
    public var timestamp: UInt32
    public var payloadType: UInt8
    /// The first frame's header: the configuration every frame of the packet shares.
    public var header: SBCFrameHeader
    public var frames: Int

    /// The evidence `packet` (an L2CAP frame's payload) holds; nil if any part of it fails.
    public static func check(_ packet: ArraySlice<UInt8>) -> SBCMediaEvidence? {
        var c = ByteCursor(packet)
        guard let b0 = try? c.u8(), b0 == 0x80, let b1 = try? c.u8(), let seq = try? c.u16be(), let ts = try? c.u32be(),
              let ssrc = try? c.u32be(), let mph = try? c.u8() else { return nil }
        let pt = b1 & 0x7F
        guard pt >= 96, mph & 0x80 == 0, mph & 0x10 == 0 else { return nil }
        let count = Int(mph & 0x0F)
        guard count >= 1 else { return nil }
        var rest = c.rest()
        var first: SBCFrameHeader?
        for _ in 0..<count {
            guard let h = try? SBCFrameHeader.parse(rest), !h.msbc, allowedBitpool(h), SBCFrameHeader.crcHolds(rest, h) else { return nil }
            if let f = first {
                guard sameConfiguration(f, h), f.bitpool == h.bitpool else { return nil }
            } else {
                first = h
            }
            guard h.frameLength <= rest.count else { return nil }
            rest = rest.dropFirst(h.frameLength)
        }
        guard rest.isEmpty, let header = first else { return nil }
        return SBCMediaEvidence(ssrc: ssrc, sequence: seq, timestamp: ts, payloadType: pt, header: header, frames: count)
    }

    /// A2DP's bounds on the bitpool: at least 2; at most 16 × subbands (mono, dual channel) or 32 × subbands
    /// (stereo, joint stereo), and never above 250.
    static func allowedBitpool(_ h: SBCFrameHeader) -> Bool {
        let perChannel = h.mode == .mono || h.mode == .dualChannel ? 16 : 32
        return h.bitpool >= 2 && h.bitpool <= min(250, perChannel * h.subbands)
    }

    /// Whether two frames share sampling frequency, channel mode, blocks, subbands and allocation method (the
    /// bitpool may change during a stream: sources lower it when the link is poor).
    public static func sameConfiguration(_ a: SBCFrameHeader, _ b: SBCFrameHeader) -> Bool {
        a.frequencyCode == b.frequencyCode && a.mode == b.mode && a.blocks == b.blocks && a.subbands == b.subbands
            && a.snrAllocation == b.snrAllocation && a.msbc == b.msbc
    }
}
