/// What the audio layer knows of an A2DP AAC stream beyond what every stream has: the framing its payloads use,
/// the AAC configuration AVDTP negotiated against the one the payloads carry (an in-band StreamMuxConfig or an
/// ADTS header), and elements lost with a fragment. Not decoded (`notDecoded` says why). Typed facts;
/// `Report/AACRender.swift` writes them.
public struct AACStream: Sendable {
    /// Why AAC is not decoded: no packaged decoder can be linked under terms that fit (Debian's libfdk-aac is in
    /// non-free, libfaad2 is GPL-2.0-or-later, Debian's libavcodec is built with GPL parts).
    public enum NotDecoded: Sendable, Equatable {
        case noLinkableDecoder
    }

    public var framing: AACFraming?
    /// The negotiated configuration (Set Configuration's six bytes), when they were six.
    public var negotiated: A2DPAACConfiguration?
    /// The first configuration the payloads carried, and its record.
    public var found: AACConfiguration?
    public var foundRecord: Int?
    /// The first carried configuration unlike the negotiated one (the stream's `mismatchedFrames` counts them).
    public var firstMismatch: AACConfiguration?
    /// AudioMuxElements (or ADTS runs) sent in several packets and put together, and those that never came
    /// whole (a fragment lost or cut off: their time is silence, found from the next element's timestamp).
    public var reassembled = 0
    public var incomplete = 0
    public var notDecoded = NotDecoded.noLinkableDecoder

    /// The rate the stream's time line counts in: the carried configuration's, else the negotiated one when it
    /// names one rate, else 48 kHz.
    var sampleRate: Int {
        if let f = found { return f.sampleRate }
        if let n = negotiated, n.sampleRates.count == 1, let r = n.sampleRates.first { return r }
        return 48_000
    }

    /// Samples per channel in one access unit (AAC LC: 1024).
    var samplesPerFrame: Int { found?.samplesPerFrame ?? 1024 }

    var frameMicros: Int64 { Int64(samplesPerFrame) * 1_000_000 / Int64(max(1, sampleRate)) }
}

/// An AAC stream's payloads as they come: the framing found in its first whole payload, the StreamMuxConfig in
/// force, and an AudioMuxElement under way across packets (RFC 3016 4.2: its fragments in sequence with one
/// timestamp, the marker bit on the last). A payload cut short is taken for a first fragment when the marker bit
/// is clear; the next packet in sequence with the same timestamp continues it. After a sequence gap, bytes that
/// cannot be taken apart are the rest of an element whose start was lost: given up with the packets after them
/// that share their timestamp, not counted as malformed. Bounded: an element is at most `maxElement` bytes.
struct AACAssembler {
    enum Outcome {
        /// A whole payload (or one put together from `fragments` packets), its first record and timestamp.
        case payload(AACPayload, firstRecord: Int, timestamp: UInt32, fragments: Int)
        /// A fragment of an element under way, or of one given up.
        case fragment
        /// A payload (or a put-together element) that could not be taken apart, and its first record.
        case malformed(AACPayloadProblem, firstRecord: Int)
    }

    static let maxElement = 8192
    private(set) var framing: AACFraming?
    private(set) var mux: LATMMuxConfig?
    private var bytes: [UInt8] = []
    /// The element under way: its first record and timestamp, the packets so far, and whether a gap came before it.
    private var record: Int?
    private var timestamp: UInt32 = 0
    private var fragments = 0
    private var afterGap = false
    private var lastSequence: UInt16?
    /// The timestamp of an element given up, whose later fragments are skipped.
    private var orphan: UInt32?

    /// One packet; `dropped` is set when an element was given up (a fragment of it missing).
    mutating func push(_ p: RTPPacket, record r: Int, dropped: inout Bool) -> [Outcome] {
        let gap = lastSequence.map { p.sequence != $0 &+ 1 } ?? false
        lastSequence = p.sequence
        var out: [Outcome] = []
        if let first = record {
            record = nil
            if !gap, p.timestamp == timestamp {
                bytes.append(contentsOf: p.body.prefix(max(0, AACAssembler.maxElement - bytes.count)))
                fragments += 1
                let result = parse(bytes[...])
                switch result {
                case let .success(payload):
                    return [.payload(payload, firstRecord: first, timestamp: timestamp, fragments: fragments)]
                case .failure where !p.marker:
                    record = first
                    return [.fragment]
                case .failure where afterGap:
                    dropped = true
                    orphan = timestamp
                    return [.fragment]
                case let .failure(problem):
                    return [.malformed(problem, firstRecord: first)]
                }
            }
            if gap || afterGap {
                dropped = true
                orphan = timestamp
            } else {
                // The next packet in sequence starts anew: the element before it was cut short.
                out.append(.malformed(.truncated(offset: bytes.count), firstRecord: first))
            }
        }
        let result = parse(p.body)
        if case let .success(payload) = result {
            orphan = nil
            out.append(.payload(payload, firstRecord: r, timestamp: p.timestamp, fragments: 1))
            return out
        }
        if let o = orphan, o == p.timestamp {
            out.append(.fragment)
            return out
        }
        orphan = nil
        guard case let .failure(problem) = result else { return out }
        if !p.marker, case .truncated = problem {
            bytes = Array(p.body.prefix(AACAssembler.maxElement))
            record = r
            timestamp = p.timestamp
            fragments = 1
            afterGap = gap
            out.append(.fragment)
        } else if gap {
            dropped = true
            orphan = p.timestamp
            out.append(.fragment)
        } else {
            out.append(.malformed(problem, firstRecord: r))
        }
        return out
    }

    /// The payload taken apart as the stream's framing (found at its first whole payload), keeping its
    /// StreamMuxConfig; before a framing is known, a cut-short payload is reported truncated whatever it is.
    private mutating func parse(_ b: ArraySlice<UInt8>) -> Result<AACPayload, AACPayloadProblem> {
        if let f = framing {
            let r = AACPayload.parse(b, as: f, previous: mux)
            if case let .success(p) = r, let m = p.muxConfig { mux = m }
            return r
        }
        if let p = AACPayload.detect(b) {
            framing = p.framing
            mux = p.muxConfig
            return .success(p)
        }
        guard !b.isEmpty else { return .failure(.noPayload) }
        for f in [AACFraming.adts, .latmInBand, .latmOutOfBand] {
            if case .failure(.truncated(let o)) = AACPayload.parse(b, as: f, previous: nil) { return .failure(.truncated(offset: o)) }
        }
        return .failure(.noFraming)
    }
}
