/// The stream view of LE Audio unicast: one stream per ASE (connection, ASE id), from its configuration to its
/// release, built from the ASE characteristic values the ASCS dissector reads (`SummaryFact.ase`): the codec
/// configuration, the CIG and CIS it was given, its state changes with their records, and when it streamed;
/// at the end joined to the CIS connection carrying it and that CIS's ISO data. Summary section
/// `audio_streams`. Bounded: at most 256 streams and 32 state changes each.
public final class AudioStreams: AnalysisLayer {
    public struct Stream: Sendable {
        public var connection: Int
        public var device: String
        public var ase: UInt8
        public var sink: Bool
        public var codec: AudioCodecSettings?
        public var cig: UInt8?
        public var cis: UInt8?
        public var sduInterval: UInt32?
        public var maxSDU: UInt16?
        public var presentationDelay: UInt32?
        /// Each state the ASE reported, with its record (a repeated state is not listed again).
        public var states: [(state: UInt8, record: Int, time: Timestamp)] = []
        public var streaming: (record: Int, time: Timestamp)?
        public var stopped: (record: Int, time: Timestamp)?
    }

    public private(set) var streams: [Stream] = []
    var index: [Int: Int] = [:]
    static let maxStreams = 256, maxStates = 32
    static let sinkASE = BLEUUID(UInt16(0x2BC4)), sourceASE = BLEUUID(UInt16(0x2BC5)), controlPoint = BLEUUID(UInt16(0x2BC6))

    /// ASE Control Point operations the server refused for an ASE (a non-zero response code): the first 256.
    public private(set) var refusals: [(record: Int, connection: Int, opcode: UInt8, entry: ASEControlResponse.Entry)] = []
    static let maxRefusals = 256

    func refused(_ r: ASEControlResponse, _ ctx: ValueContext) {
        for e in r.entries where e.responseCode != 0 && refusals.count < AudioStreams.maxRefusals {
            refusals.append((ctx.record, ctx.connection, r.opcode, e))
        }
    }
    /// The ISO streams (held strongly: they refer to nothing back).
    let iso: ISOStreams?
    weak var pipeline: Pipeline?

    public init(iso: ISOStreams?) {
        self.iso = iso
    }

    public func attach(to pipeline: Pipeline) {
        self.pipeline = pipeline
    }

    func value(_ fact: SummaryFact?, _ ctx: ValueContext) {
        // Only ASE values and ASE Control Point notifications are looked at.
        guard !ctx.fromClient, ctx.uuid == AudioStreams.sinkASE || ctx.uuid == AudioStreams.sourceASE || ctx.uuid == AudioStreams.controlPoint
        else { return }
        switch fact {
        case let .ase(f)?: add(f, ctx)
        case let .aseControlResponse(r)?: refused(r, ctx)
        default: break
        }
    }

    func add(_ f: ASEFact, _ ctx: ValueContext) {
        let key = ctx.connection << 9 | Int(f.aseID) << 1 | (f.direction == .sink ? 1 : 0)
        let i: Int
        if let k = index[key] {
            i = k
        } else {
            guard streams.count < AudioStreams.maxStreams else { return }
            i = streams.count
            index[key] = i
            streams.append(Stream(connection: ctx.connection, device: ctx.device.description, ase: f.aseID, sink: f.direction == .sink))
        }
        if let c = f.codec { streams[i].codec = c }
        if let v = f.cigID { streams[i].cig = v }
        if let v = f.cisID { streams[i].cis = v }
        if let v = f.sduIntervalMicros { streams[i].sduInterval = v }
        if let v = f.maxSDU { streams[i].maxSDU = v }
        if let v = f.presentationDelayMicros { streams[i].presentationDelay = v }
        let previous = streams[i].states.last?.state
        if previous != f.state {
            // Bounded: past `maxStates` the last entry is the latest state, so the list always ends where the ASE is.
            if streams[i].states.count < AudioStreams.maxStates { streams[i].states.append((f.state, ctx.record, ctx.time)) }
            else { streams[i].states[AudioStreams.maxStates - 1] = (f.state, ctx.record, ctx.time) }
        }
        if f.state == 4, streams[i].streaming == nil || streams[i].stopped != nil {
            streams[i].streaming = (ctx.record, ctx.time)
            streams[i].stopped = nil
        } else if previous == 4, f.state != 4 {
            streams[i].stopped = (ctx.record, ctx.time)
        }
    }

    /// The CIS connection carrying a stream: the CIS with its CIG and CIS ids on the ASE's ACL connection.
    func carrier(_ s: Stream) -> Connection? {
        guard let p = pipeline, let cig = s.cig, let cis = s.cis, let acl = p.connections.connection(id: s.connection) else { return nil }
        return p.connections.all.last { c in
            if case let .cis(g, i, a)? = c.iso?.kind { return g == cig && i == cis && (a == nil || a == acl.handle) }
            return false
        }
    }

    public func summary() -> SummarySection? {
        guard !streams.isEmpty else { return nil }
        let iso = self.iso?.streams ?? []
        let rows = streams.map { s -> AudioStreamRow in
            let cis = carrier(s)
            let data = iso.filter { $0.connection != nil && $0.connection == cis?.id }
            return AudioStreamRow(stream: s, cis: cis?.id, cisHandle: cis?.handle, iso: data)
        }
        return SummarySection(name: "audio_streams", value: { .object(AudioStreamRow.fields(rows)) }, text: { AudioStreamRow.text(rows) })
    }
}

/// A stream with what the end of the capture joins to it: its CIS connection and that CIS's ISO streams.
struct AudioStreamRow {
    var stream: AudioStreams.Stream
    var cis: Int?
    var cisHandle: UInt16?
    var iso: [ISOStreams.Stream]
}
