/// SBC frames split across A2DP media packets, put back together (A2DP 1.4 4.3.4: in the media payload header
/// F marks a fragment, S the first and L the last of a frame, and the frame count says how many fragments are
/// left, this one included). A frame is whole when its fragments came in sequence from the first to the last;
/// any other fragment is dropped with the frame it belonged to (the layer finds the frames lost from the RTP
/// timestamps of the frames that did come). Bounded: a frame is at most `maxFrame` bytes.
struct SBCFragments {
    /// A frame put together: its header and bytes, its first fragment's record and RTP timestamp; or bytes that
    /// were no SBC frame.
    enum Outcome: Equatable {
        case frame(SBCFrameHeader, ArraySlice<UInt8>, firstRecord: Int, timestamp: UInt32)
        case malformed(SBCPayloadProblem)
    }

    static let maxFrame = 1024
    private(set) var bytes: [UInt8] = []
    /// The first fragment's record and timestamp, while a frame is under way.
    private(set) var record: Int?
    private var timestamp: UInt32 = 0
    private var left = 0
    private var nextSequence: UInt16 = 0

    /// One fragmented packet: the frame it completes, if it does.
    mutating func push(_ p: A2DPMediaPayload, record r: Int) -> Outcome? {
        defer { nextSequence = p.sequence &+ 1 }
        if p.starting {
            bytes = Array(p.fragment.prefix(SBCFragments.maxFrame))
            record = r
            timestamp = p.timestamp
            left = p.declaredFrames
        } else if record != nil, p.sequence == nextSequence, p.declaredFrames == left - 1 {
            bytes.append(contentsOf: p.fragment.prefix(max(0, SBCFragments.maxFrame - bytes.count)))
            left = p.declaredFrames
        } else {
            // A fragment whose frame's start, or a fragment before it, is missing.
            record = nil
            return nil
        }
        guard p.lastFragment || left <= 1, let first = record else { return nil }
        record = nil
        let frame = bytes[...]
        guard let h = try? SBCFrameHeader.parse(frame), !h.msbc else { return .malformed(.badSyncword(offset: 0)) }
        guard h.frameLength == frame.count else { return .malformed(h.frameLength > frame.count ? .truncatedFrame(offset: 0) : .countMismatch) }
        return .frame(h, frame, firstRecord: first, timestamp: timestamp)
    }
}
