/// An A2DP media packet taken apart for its audio (AVDTP 1.3 7.2, RTP as RFC 3550 gives it, A2DP 1.4 4.3.4):
/// the RTP header (with CSRCs, a header extension and padding skipped), the SBC media payload header and the
/// frames that follow it. Each frame is a slice of the packet; nothing is copied.
public struct A2DPMediaPayload: Sendable {
    public var sequence: UInt16
    public var timestamp: UInt32
    /// The frame count the media payload header declares.
    public var declaredFrames: Int
    /// The media payload header's F bit: the packet carries a fragment of one frame; S and L: the frame's first
    /// and last fragment (the frame count is then the fragments left, this one included); the fragment's bytes.
    public var fragmented: Bool
    public var starting = false
    public var lastFragment = false
    public var fragment: ArraySlice<UInt8> = []
    /// The frames found, each with its header and bytes (a frame cut short by the packet's end is not here:
    /// `problem` says so).
    public var frames: [(header: SBCFrameHeader, bytes: ArraySlice<UInt8>)]
    /// Why the payload did not hold what its header declared, if it did not.
    public var problem: SBCPayloadProblem?

    /// The RTP header and the SBC frames of a media packet; nil if it is not an RTP version 2 packet.
    public static func parseSBC(_ packet: ArraySlice<UInt8>) -> A2DPMediaPayload? {
        guard let rtp = RTPPacket.parse(packet) else { return nil }
        let body = rtp.body
        var p = A2DPMediaPayload(sequence: rtp.sequence, timestamp: rtp.timestamp, declaredFrames: 0, fragmented: false, frames: [], problem: nil)
        guard let mph = body.first else { p.problem = .noPayloadHeader; return p }
        p.fragmented = mph & 0x80 != 0
        p.declaredFrames = Int(mph & 0x0F)
        var rest = body.dropFirst()
        if p.fragmented {
            p.starting = mph & 0x40 != 0
            p.lastFragment = mph & 0x20 != 0
            p.fragment = rest
            return p
        }
        p.frames.reserveCapacity(p.declaredFrames)
        while !rest.isEmpty {
            guard let h = try? SBCFrameHeader.parse(rest), !h.msbc else { p.problem = .badSyncword(offset: rest.startIndex - packet.startIndex); break }
            let n = h.frameLength
            guard n <= rest.count else { p.problem = .truncatedFrame(offset: rest.startIndex - packet.startIndex); break }
            p.frames.append((h, rest.prefix(n)))
            rest = rest.dropFirst(n)
            if p.frames.count > 64 { p.problem = .countMismatch; break }
        }
        if p.problem == nil, p.frames.count != p.declaredFrames { p.problem = .countMismatch }
        return p
    }
}

/// What was wrong with an SBC media payload.
public enum SBCPayloadProblem: Sendable, Equatable, Hashable {
    /// The packet ended after the RTP header.
    case noPayloadHeader
    /// Bytes where a frame should start do not start with the SBC syncword (offset in the packet).
    case badSyncword(offset: Int)
    /// A frame's header gives a length beyond the packet's end.
    case truncatedFrame(offset: Int)
    /// The frames found are not as many as the media payload header says.
    case countMismatch
}

/// RTP's fixed header (RFC 3550 5.1) with CSRCs, a header extension and padding skipped: what an A2DP media
/// packet's payload follows.
struct RTPPacket {
    var marker: Bool
    var sequence: UInt16
    var timestamp: UInt32
    var body: ArraySlice<UInt8>

    /// Nil if it is not an RTP version 2 packet, or its header or padding runs past its end.
    static func parse(_ packet: ArraySlice<UInt8>) -> RTPPacket? {
        var c = ByteCursor(packet)
        guard let b0 = try? c.u8(), b0 >> 6 == 2, let b1 = try? c.u8(), let seq = try? c.u16be(), let ts = try? c.u32be(),
              (try? c.u32be()) != nil, (try? c.skip(Int(b0 & 0x0F) * 4)) != nil else { return nil }
        if b0 & 0x10 != 0 {
            // Header extension: a profile word, its length in 32-bit words, then the words.
            guard (try? c.u16be()) != nil, let words = try? c.u16be(), (try? c.skip(Int(words) * 4)) != nil else { return nil }
        }
        var body = c.rest()
        if b0 & 0x20 != 0, let pad = body.last {
            let n = Int(pad)
            guard n >= 1, n <= body.count else { return nil }
            body = body.dropLast(n)
        }
        return RTPPacket(marker: b1 & 0x80 != 0, sequence: seq, timestamp: ts, body: body)
    }
}
