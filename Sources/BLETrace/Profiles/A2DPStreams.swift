/// The A2DP stream of each connection, followed from AVDTP signaling (the codec a Set Configuration chose,
/// Start and Suspend) and the media channel's packets: packets, bytes, duration, bitrate and gaps.
public final class A2DPStreams: AnalysisLayer {
    public final class Stream {
        public let connection: Int
        public internal(set) var codec: A2DPCodec?
        public internal(set) var configuredRecord: Int?
        /// No AVDTP configuration seen: the SBC configuration the media's frames carry, inferred when the
        /// channel was recognised as media (`A2DPMediaCandidates`) or when its frames changed it, and that record.
        public internal(set) var inferred: SBCFrameHeader?
        public internal(set) var inferredRecord: Int?
        /// The configuration before the last Set Configuration or Reconfigure command: in force again if the
        /// peer rejects the command.
        var beforeCommand: (codec: A2DPCodec?, record: Int?)?
        public internal(set) var packets = 0
        public internal(set) var bytes = 0
        public internal(set) var first: Timestamp?
        public internal(set) var last: Timestamp?
        /// Pauses between media packets longer than `gapThreshold` while the stream was started.
        public internal(set) var gaps = 0
        public internal(set) var longestGap: Int64 = 0
        var streaming = false
        /// How many times the stream was started (the audio layer restarts its timing at each start).
        var starts = 0
        init(connection: Int) { self.connection = connection }
    }

    /// A2DP packets come every few tens of milliseconds; a longer silence while streaming is a gap.
    public static let gapThreshold: Int64 = 100_000
    public private(set) var streams: [Stream] = []
    var byConnection: [Int: Stream] = [:]
    static let maxStreams = 10_000

    public init() {}

    public func attach(to pipeline: Pipeline) {}

    func stream(_ connection: Int) -> Stream? {
        if let s = byConnection[connection] { return s }
        guard streams.count < A2DPStreams.maxStreams else { return nil }
        let s = Stream(connection: connection)
        streams.append(s)
        byConnection[connection] = s
        return s
    }

    /// A Set Configuration (or Reconfigure) command chose `codec`.
    func configured(_ connection: Int, _ codec: A2DPCodec, record: Int) {
        guard let s = stream(connection) else { return }
        s.beforeCommand = (s.codec, s.configuredRecord)
        s.codec = codec
        s.configuredRecord = record
    }

    /// A media channel whose opening the capture does not hold was recognised from its frames (or its frames
    /// changed configuration) at `record`, the connection having no AVDTP configuration: `header` is in force.
    func inferred(_ connection: Int, _ header: SBCFrameHeader, record: Int) {
        guard let s = stream(connection) else { return }
        s.inferred = header
        s.inferredRecord = record
    }

    /// The last Set Configuration or Reconfigure command was rejected: the configuration before it is in force.
    func rejected(_ connection: Int) {
        guard let s = byConnection[connection], let b = s.beforeCommand else { return }
        s.codec = b.codec
        s.configuredRecord = b.record
        s.beforeCommand = nil
    }

    /// Start accepted (true) or Suspend, Close or Abort accepted (false).
    func streaming(_ connection: Int, _ on: Bool) {
        guard let s = stream(connection) else { return }
        s.streaming = on
        if on {
            s.last = nil
            s.starts += 1
        }
    }

    func media(_ connection: Int, payload: ArraySlice<UInt8>, record: Int, at t: Timestamp) {
        let length = payload.count
        guard let s = stream(connection) else { return }
        if let l = s.last {
            let (gap, overflow) = t.micros.subtractingReportingOverflow(l.micros)
            if !overflow, gap > A2DPStreams.gapThreshold {
                s.gaps += 1
                s.longestGap = max(s.longestGap, gap)
            }
        }
        if s.first == nil { s.first = t }
        s.last = t
        s.packets += 1
        s.bytes += length
    }

    public func summary() -> SummarySection? {
        guard !streams.isEmpty else { return nil }
        let list = streams
        return SummarySection(name: "a2dp", value: {
            .object(["streams": .list(list.map { s in
                var f = Fields()
                f.add("connection", s.connection)
                if let c = s.codec {
                    f.add("codec", Int(c.codecType))
                    f.add("codec_name", A2DPNames.codecName(c))
                    f.add("configuration", A2DPNames.configuration(c))
                }
                if let r = s.configuredRecord { f.add("configured_record", r) }
                if s.codec == nil, let h = s.inferred { f.add("inferred", AudioRender.frameFields(h, record: s.inferredRecord)) }
                f.add("packets", s.packets)
                f.add("bytes", s.bytes)
                if let d = s.duration { f.add("duration_us", Int(d)) }
                if let b = s.bitrate { f.add("bitrate_bps", b) }
                f.add("gaps", s.gaps)
                if s.gaps > 0 { f.add("longest_gap_us", Int(s.longestGap)) }
                return .object(f)
            })])
        }, text: {
            var lines = ["  A2DP:        \(list.count) stream\(list.count == 1 ? "" : "s")"]
            for s in list.prefix(20) { lines.append("    connection #\(s.connection): " + s.text) }
            return lines
        })
    }
}

extension A2DPStreams.Stream {
    /// "SBC 44.1 kHz, …; 11 media packets, 6600 bytes over 0.480000 s, 110 kbit/s, 1 gap (longest 300 ms)".
    public var text: String {
        var line = codec.map { A2DPNames.codecName($0) + " " + A2DPNames.configuration($0) }
            ?? inferred.map { AudioRender.configuration($0) + " inferred from the media (no AVDTP configuration in the capture)" }
            ?? "codec not seen"
        if packets == 0 {
            line += "; no media packets"
        } else {
            line += "; \(packets) media packets, \(bytes) bytes"
            if let d = duration { line += " over \(Fmt.seconds(micros: d)) s" }
            if let b = bitrate { line += ", \(b / 1000) kbit/s" }
            if gaps > 0 { line += ", \(gaps) gap\(gaps == 1 ? "" : "s") (longest \(longestGap / 1000) ms)" }
        }
        return line
    }

    /// From the first media packet to the last.
    public var duration: Int64? {
        guard let a = first, let b = last else { return nil }
        let (d, overflow) = b.micros.subtractingReportingOverflow(a.micros)
        return overflow || d <= 0 ? nil : d
    }

    /// Bits per second over `duration`.
    public var bitrate: Int? {
        guard let d = duration, d > 0 else { return nil }
        let (bits, o1) = bytes.multipliedReportingOverflow(by: 8_000_000)
        return o1 ? nil : bits / Int(d)
    }
}
