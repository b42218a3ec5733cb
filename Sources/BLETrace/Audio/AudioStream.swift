/// One audio stream as the audio layer found it: an A2DP media channel, or one direction of an SCO/eSCO handle
/// (later a CIS/BIS direction). Typed facts only; `Report/AudioRender.swift` writes them.
public final class AudioStream {
    public enum Source: Sendable, Equatable {
        /// The A2DP media channel of a connection.
        case a2dp(connection: Int)
        /// One direction of an SCO/eSCO link (`sent`: host to controller), and the connection its Synchronous
        /// Connection Complete opened, when the capture has it.
        case sco(connection: Int?, handle: UInt16, sent: Bool)
        /// One direction of a CIS (LE Audio unicast: LC3 SDUs over HCI ISO data), and its CIS connection.
        case iso(connection: Int?, handle: UInt16, sent: Bool)
    }

    /// 1, 2, … in the order the streams' first media packets came.
    public let number: Int
    public let source: Source
    /// The codec the AVDTP Set Configuration (or Reconfigure) in force chose, and its record.
    public internal(set) var negotiated: A2DPCodec?
    public internal(set) var negotiatedRecord: Int?
    /// A2DP with no AVDTP configuration in the capture: the SBC configuration inferred from the media when its
    /// channel, never seen opened, was recognised as A2DP media (or when its frames changed configuration), and
    /// that record. Frames are not checked against it; a change of it starts a new stream.
    public internal(set) var inferred: SBCFrameHeader?
    public internal(set) var inferredRecord: Int?
    /// The configuration the first frame carried, and its record.
    public internal(set) var found: SBCFrameHeader?
    public internal(set) var foundRecord: Int?
    /// A2DP: the stream this one continues, on the same connection, after the configuration changed (a
    /// Reconfigure, or a Close and a new Set Configuration).
    public internal(set) var follows: Int?
    public internal(set) var firstRecord = 0
    public internal(set) var lastRecord = 0
    public internal(set) var first: Timestamp?
    public internal(set) var last: Timestamp?

    public internal(set) var packets = 0
    public internal(set) var frames = 0
    /// Packets holding a fragment of a frame (the media payload header's F bit): counted, not decoded.
    public internal(set) var fragmentPackets = 0
    /// Packets whose frames could not be taken apart (no syncword, a frame cut short, a frame count that
    /// does not match), and frames the codec refused: the count and the first records.
    public internal(set) var payloadErrors = 0
    public internal(set) var decodeErrors = 0
    public internal(set) var errorRecords: [AudioRecordProblem] = []
    /// Frames that do not fit the negotiated configuration, the first records, and the first such header.
    public internal(set) var mismatchedFrames = 0
    public internal(set) var mismatchRecords: [Int] = []
    public internal(set) var mismatch: SBCFrameHeader?

    /// Packets missing from the RTP sequence, and jumps too large to be losses (a new sequence).
    public internal(set) var lostPackets = 0
    public internal(set) var sequenceJumps = 0
    /// Packets that came after the audio before them had run out, by at most two frames (late) or by more
    /// (an underrun: the stream went silent).
    public internal(set) var latePackets = 0
    public internal(set) var underruns = 0
    /// RFC 3550's interarrival jitter (in microseconds): arrival time against the audio's own time line.
    public internal(set) var jitterMicros: Double = 0
    /// The gaps, in order: at most `maxDropouts`; `dropoutCount` counts them all.
    public internal(set) var dropouts: [AudioDropout] = []
    public internal(set) var dropoutCount = 0
    /// Audio time: decoded (or, without decoding, parsed) samples per channel plus the silence put in gaps.
    public internal(set) var positionSamples = 0
    public internal(set) var gapSamples = 0

    /// An SCO stream's link, negotiation, format and flagged packets.
    public internal(set) var voice: SCOVoice?
    /// An ISO stream's ASE, negotiated LC3 configuration, SDU sizes and flagged SDUs.
    public internal(set) var lc3: LC3Stream?
    /// An A2DP AAC stream's framing and configurations (its frames are counted, not decoded).
    public internal(set) var aac: AACStream?

    /// The decoded signal's level (when the run decoded).
    public internal(set) var level: AudioLevel?
    /// Frames decoded to PCM.
    public internal(set) var decodedFrames = 0

    static let maxDropouts = 256
    static let maxRecords = 16

    init(number: Int, source: Source) {
        self.number = number
        self.source = source
    }

    /// The sample rate the stream's time line counts in (the first frame's; 48 kHz before any frame).
    public var sampleRate: Int { found?.sampleRate ?? aac?.sampleRate ?? voice?.found.sampleRate ?? lc3?.negotiated?.sampleRate ?? 48_000 }

    /// The nominal interval of one frame, in microseconds.
    public var frameMicros: Int64 { found?.durationMicros ?? aac?.frameMicros ?? voice?.frameMicros ?? lc3?.sduMicros ?? 0 }

    public var connection: Int? {
        switch source {
        case let .a2dp(c): return c
        case let .sco(c, _, _): return c
        case let .iso(c, _, _): return c
        }
    }

    /// A packet (or SDU) of the stream arrived: its first and last record and time, and the count.
    func arrived(record: Int, at time: Timestamp) {
        if first == nil {
            first = time
            firstRecord = record
        }
        last = time
        lastRecord = record
        packets += 1
    }

    func error(_ p: AudioRecordProblem) {
        if errorRecords.count < AudioStream.maxRecords { errorRecords.append(p) }
    }

    func dropout(_ d: AudioDropout) {
        dropoutCount += 1
        if dropouts.count < AudioStream.maxDropouts { dropouts.append(d) }
    }
}

/// A gap in a stream's audio: where it is (the packet after it, its time and its place in the audio) and how long.
public struct AudioDropout: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// RTP sequence numbers skipped: that many packets never seen.
        case lost(packets: Int)
        /// Packets stopped coming for longer than two frames beyond the audio already delivered.
        case underrun
        /// SCO: packets the controller flagged (packet status flag 1 possibly invalid, 2 no data received, 3
        /// partially lost: the first packet's), that many in a row.
        case erroneous(status: UInt8, packets: Int)
        /// mSBC or LC3-SWB over SCO: frames missing from the H2 sequence.
        case missingFrames(Int)
    }

    public var kind: Kind
    /// The first packet after the gap, and the one before it.
    public var record: Int
    public var previousRecord: Int
    public var at: Timestamp
    /// Microseconds from the stream's start on its audio time line (so also the offset in its WAV file).
    public var positionMicros: Int64
    public var durationMicros: Int64
    /// The gap's time is silence on the time line (false: flagged packets whose bytes were still played).
    public var filled = true
}

/// A packet or frame the audio layer could not use.
public struct AudioRecordProblem: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case payload(SBCPayloadProblem)
        /// An AAC payload (or an element put together from fragments) that could not be taken apart.
        case aac(AACPayloadProblem)
        /// The codec refused the frame (its index in the packet).
        case decode(frame: Int)
        /// An SCO packet shorter than its header's length.
        case scoShort(declared: Int, present: Int)
        /// An mSBC frame cut short or without its syncword.
        case msbc(MSBCProblem)
        /// An LC3-SWB frame cut short (the next H2 header came early).
        case lc3SWB(MSBCProblem)
        /// Bytes of an mSBC or LC3-SWB stream with no H2 header where a frame should start.
        case msbcSkipped(bytes: Int)
    }

    public var record: Int
    public var kind: Kind
}
