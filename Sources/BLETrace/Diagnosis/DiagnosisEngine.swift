/// Runs the diagnosis rules over the finished events (in record order, after the other layers made them) and
/// groups what they raise: the same id, peer and key facts become one diagnosis with a count and a record range.
public final class DiagnosisEngine: AnalysisLayer {
    let context: DiagnosisContext
    let rules: [DiagnosisRule]
    /// The rules that read each input.
    let byInput: RuleTable
    @exclusivity(unchecked) var finished = false

    public init(rules: [DiagnosisRule] = DiagnosisRules.make()) {
        self.rules = rules
        self.context = DiagnosisContext()
        self.byInput = RuleTable(rules)
    }

    var readsAdvertising: Bool { byInput.reads(.advertising) }

    public func attach(to pipeline: Pipeline) {
        context.pipeline = pipeline
        context.tracker = pipeline.connections
    }

    func advertised(_ report: AdvertisingReport, record: Int, at time: Timestamp) {
        byInput.each(.advertising) { $0.advertised(report, record: record, at: time, context) }
    }

    /// Gives the rules that read another layer's state at the end (the pairings) that layer, held weakly: the
    /// layers list holds the engine itself.
    func see(_ chain: Chain) {
        context.smp = chain.smp
        context.linkStatistics = chain.linkStatistics
        context.isoStreams = chain.isoStreams
        context.audioStreams = chain.audioStreams
        context.a2dpAudio = chain.a2dpAudio
    }

    // Each finished event's payload, bound once by the chain, is lent to each rule that reads that input.

    /// Every finished event, first: the clock (time going backwards or jumping).
    @inline(__always) func clock(_ e: TraceEvent) { context.clock(e) }

    func hciEvent(_ h: HCIEventBody, _ e: TraceEvent) {
        // Number Of Completed Packets (the most frequent event of phone logs) concerns no rule; it tells the
        // links it names were alive (the peer acknowledged what was sent).
        if case let .completedPackets(p) = h.params { context.acknowledged(p, e); return }
        byInput.each(.hciEvent) { $0.hciEvent(h, e, context) }
    }

    func hciCommand(_ c: HCICommandBody, _ e: TraceEvent) {
        switch c.params {
        case let .createConnection(x): context.pendingPeer = x.peer
        case let .extendedCreateConnection(x): context.pendingPeer = x.peer
        default: break
        }
        byInput.each(.hciCommand) { $0.hciCommand(c, e, context) }
    }

    func att(_ a: ATTEvent, _ e: TraceEvent) {
        // Error Responses and responses go to the rules that read only those; every PDU to the rest.
        if case .pdu(.errorResponse) = a.content {
            byInput.each(.attError) { $0.att(a, e, context) }
        } else if case .answers? = a.transaction {
            byInput.each(.attResponse) { $0.att(a, e, context) }
        }
        byInput.each(.att) { $0.att(a, e, context) }
    }

    func smp(_ s: SMPBody, _ e: TraceEvent) {
        byInput.each(.smp) { $0.smp(s, e, context) }
    }

    func signaling(_ s: SignalingBody, _ e: TraceEvent) {
        // Media and RFCOMM frames are the bulk of this case on phone logs: only the rules that read them see them.
        switch s.content {
        case .a2dpMedia, .rfcomm, .kFrame, .sdp, .avctp:
            byInput.each(.media) { $0.signaling(s, e, context) }
        default:
            byInput.each(.signaling) { $0.signaling(s, e, context) }
        }
    }

    func linkLayer(_ l: LinkLayerBody, _ e: TraceEvent) {
        context.sniffed = true
        byInput.each(.linkLayer) { $0.linkLayer(l, e, context) }
    }

    func note(_ n: NoteBody, _ e: TraceEvent) {
        byInput.each(.note) { $0.note(n, e, context) }
    }

    func aclProblem(_ e: TraceEvent) {
        byInput.each(.aclProblem) { $0.aclProblem(e, context) }
    }

    func filtered(_ e: TraceEvent) {
        if context.firstFilteredRecord == nil { context.firstFilteredRecord = e.record }
    }

    /// The diagnoses, after the last record (the rules' end-of-capture checks run on the first call).
    public var diagnoses: [Diagnosis] {
        if !finished {
            finished = true
            if let stats = context.pipeline?.stats {
                if let b = stats.timeBackwards {
                    context.raise(Diagnosis(id: .captureIncomplete, facts: DiagnosisFacts(problem: .timeBackwards(micros: b.micros)),
                                            evidence: [b.record - 1, b.record]))
                }
                for j in stats.timeJumps {
                    context.raise(Diagnosis(id: .captureIncomplete, facts: DiagnosisFacts(problem: .timeJump(micros: j.micros)),
                                            evidence: [j.record - 1, j.record]))
                }
            }
            for r in rules { r.finish(context) }
        }
        return context.ordered
    }

    /// Notes that reading stopped on damage (the analyzer calls this before asking for the diagnoses).
    func damaged(_ error: CaptureError?, filtered: Int, source: CaptureSource) {
        if let e = error {
            context.raise(Diagnosis(id: .captureIncomplete, facts: DiagnosisFacts(problem: .damaged(reason: e.description)),
                                    evidence: [context.lastRecord + 1]))
        }
        if filtered > 0 {
            context.raise(Diagnosis(id: .captureIncomplete, facts: DiagnosisFacts(problem: .filtered(records: filtered, by: source)),
                                    evidence: [context.firstFilteredRecord ?? 1]))
        }
    }

    public func summary() -> SummarySection? {
        SummarySection(name: "diagnoses", value: { [self] in .list(diagnoses.map { .object(DiagnosisText.fields($0)) }) },
                       text: { [self] in DiagnosisText.lines(diagnoses, overflow: context.overflow) })
    }
}

/// The rules that read each input, in the order they were registered, as unretained references kept alive by the
/// engine's `rules`: a call through one retains nothing.
struct RuleTable {
    /// Every input's rules, one input after the other.
    private let refs: [Unmanaged<DiagnosisRule>]
    /// Where each input's rules start in `refs`, indexed by `DiagnosisInput`; one more entry marks the end.
    private let starts: [Int]

    init(_ rules: [DiagnosisRule]) {
        var refs: [Unmanaged<DiagnosisRule>] = []
        var starts: [Int] = []
        for input in DiagnosisInput.allCases {
            starts.append(refs.count)
            for r in rules where r.inputs.contains(input) { refs.append(.passUnretained(r)) }
        }
        starts.append(refs.count)
        self.refs = refs
        self.starts = starts
    }

    func reads(_ input: DiagnosisInput) -> Bool { starts[input.rawValue] < starts[input.rawValue + 1] }

    /// Calls `body` with each rule that reads `input`.
    @inline(__always) func each(_ input: DiagnosisInput, _ body: (DiagnosisRule) -> Void) {
        let end = starts[input.rawValue + 1]
        var i = starts[input.rawValue]
        refs.withUnsafeBufferPointer { b in
            while i < end {
                b[i]._withUnsafeGuaranteedRef { body($0) }
                i &+= 1
            }
        }
    }
}

/// What the rules share: the connections, whether the capture is a sniffer's, the clock, and the grouped
/// diagnoses they raise.
public final class DiagnosisContext {
    weak var pipeline: Pipeline?
    /// The pipeline's connections, read for every Number Of Completed Packets event (held strongly, since the
    /// tracker refers to no layer: a weak reference is loaded anew, and retained, on every read).
    var tracker: ConnectionTracker?
    /// The SMP layer's pairings. This and the parts below are held strongly: none refers back to the diagnoses,
    /// and a weakly held object's retains take the slow path.
    var smp: SMPLayer?
    /// The link statistics (flow-control stalls).
    var linkStatistics: LinkStatistics?
    var isoStreams: ISOStreams?
    var audioStreams: AudioStreams?
    /// The decoded A2DP audio, in runs that asked for audio.
    var a2dpAudio: A2DPAudio?
    @exclusivity(unchecked) var firstFilteredRecord: Int?
    @exclusivity(unchecked) var list: [Diagnosis] = []
    @exclusivity(unchecked) var index: [Key: Int] = [:]
    /// Diagnoses not kept once `maxDiagnoses` distinct ones were (hostile input).
    @exclusivity(unchecked) public internal(set) var overflow = 0
    static let maxDiagnoses = 1000

    /// Equal causes are one diagnosis whichever peer they were seen with (`Diagnosis.peerCount` counts them).
    struct Key: Hashable {
        var id: DiagnosisID
        var facts: DiagnosisFacts.GroupKey
    }

    /// True for a sniffer's capture (once a link-layer packet of a connection was seen): absences may be packets
    /// it missed.
    @exclusivity(unchecked) public internal(set) var sniffed = false
    /// The time of the last record, the number of the last record, and the first record whose time went
    /// backwards (time-based absences are not raised across it): the pipeline's counts.
    public var lastTime: Int64? { pipeline?.stats.last?.micros }
    public var lastRecord: Int { pipeline?.stats.records ?? 0 }
    public var timeBackwardsRecord: Int? { pipeline?.stats.timeBackwards?.record }

    /// The peer of the last LE Create Connection (a failed connection complete may name no peer).
    @exclusivity(unchecked) public internal(set) var pendingPeer: BDAddr?

    struct Link {
        var first = 0
        var heard = 0
        var heardTime: Int64 = 0
    }
    /// Per connection number: the first record naming it, and the last time the peer was heard: an ACL packet
    /// from it, or Number Of Completed Packets for the link (the peer acknowledged the host's packets); sniffed,
    /// the link's last data PDU, empty ones too: the link is alive. Bounded by `maxTracked`.
    let links = InPlaceArray<Link>(capacity: 64)
    static let maxTracked = 100_000

    @inline(__always) func clock(_ e: TraceEvent) {
        guard let id = e.connection, id < DiagnosisContext.maxTracked else { return }
        if links.count <= id { links.append(repeating: Link(), count: id + 64 - links.count) }
        var heard = e.acl != nil && e.direction == .controllerToHost
        if case .some = e.radio {
            sniffed = true
            heard = true
        }
        let record = e.record, time = e.timestamp.micros
        if links[id].first == 0 { links[id].first = record }
        if heard { links[id].heard = record; links[id].heardTime = time }
    }

    /// Number Of Completed Packets: each link it names was heard from (its packets were acknowledged).
    func acknowledged(_ pairs: CompletedPackets, _ e: TraceEvent) {
        guard let tracker else { return }
        let record = e.record, time = e.timestamp.micros
        for k in 0..<pairs.count {
            let (handle, n) = pairs.pair(k)
            guard n > 0 else { continue }
            // The tracker may be ahead of the rules (events wait for their ATT answers): the latest connection on the
            // handle is the one when it was open at this record.
            guard let c = tracker.latest(handle), (c.openedRecord ?? 0) <= record, (c.closedRecord ?? .max) >= record else { continue }
            let id = c.id
            guard id < DiagnosisContext.maxTracked, id < links.count else { continue }
            links[id].heard = record
            links[id].heardTime = time
        }
    }

    /// The first record of connection `id`.
    public func firstRecord(_ id: Int) -> Int? {
        guard id < links.count, links[id].first > 0 else { return nil }
        return links[id].first
    }

    /// The last time the peer was heard on connection `id` (its ACL data or acknowledgements; sniffed: the link's
    /// last data PDU): record and time.
    public func lastHeard(_ id: Int) -> (record: Int, time: Int64)? {
        guard id < links.count, links[id].heard > 0 else { return nil }
        return (links[id].heard, links[id].heardTime)
    }

    /// The connection numbered `id`.
    public func connection(_ id: Int?) -> Connection? {
        guard let id else { return nil }
        return tracker?.connection(id: id)
    }

    /// `raise(Diagnosis(id:facts:peer:connection:evidence:))` for rules that raise the same diagnosis again and
    /// again (an ATT error on every read): a repeat is folded in from its parts, and a diagnosis (three lists) is
    /// made only for a new one. `record`: the decisive record; `more`: another record of the evidence (the request).
    public func raise(_ id: DiagnosisID, facts: DiagnosisFacts, peer: BDAddr?, connection: Int?, record: Int, and more: Int? = nil) {
        if let i = index[Key(id: id, facts: facts.groupKey)] {
            list[i].merge(occurrence: record, facts: facts, peer: peer, connection: connection)
            return
        }
        raise(Diagnosis(id: id, facts: facts, peer: peer, connection: connection, evidence: more.map { [record, $0] } ?? [record]))
    }

    /// Adds a diagnosis, or counts it into the equal one already raised.
    public func raise(_ d: Diagnosis) {
        let key = Key(id: d.id, facts: d.facts.groupKey)
        if let i = index[key] {
            list[i].merge(d)
            return
        }
        guard list.count < DiagnosisContext.maxDiagnoses else { overflow += 1; return }
        index[key] = list.count
        list.append(d)
    }

    /// Errors first, then warnings, then info; within a severity, in order of first record.
    var ordered: [Diagnosis] {
        list.enumerated().sorted { a, b in
            if a.element.severity != b.element.severity { return a.element.severity > b.element.severity }
            if a.element.firstRecord != b.element.firstRecord { return a.element.firstRecord < b.element.firstRecord }
            return a.offset < b.offset
        }.map(\.element)
    }

}

/// What a rule reads: each kind of body (its payload lent to the rule), and advertising reports.
public enum DiagnosisInput: Int, CaseIterable, Sendable {
    case hciCommand, hciEvent
    /// Every ATT PDU; or only Error Responses; or only the other responses (a PDU that answers a request).
    case att, attError, attResponse
    case smp
    /// Signaling commands, AVDTP signaling and HID messages (not media).
    case signaling
    /// A2DP media, RFCOMM, SDP, AVCTP and K-frames (the bulk of a phone log's signaling-layer events).
    case media
    case linkLayer, note, aclProblem, advertising
}

/// One rule: reads the typed bodies of the inputs it names and raises diagnoses through the context. A rule
/// keeps bounded state (per connection, per peer) and may check what is still open at the end.
///
/// A rule is a subclass overriding `inputs` and the calls of those inputs. It is a class, not a protocol, so that
/// the engine can call it through an unretained reference (`RuleTable`): a protocol value taken out of a list is
/// retained and released around every call, several times a record.
open class DiagnosisRule {
    public init() {}
    /// The inputs the rule reads (asked once, when the engine is made).
    open var inputs: [DiagnosisInput] { [] }
    open func hciCommand(_ c: HCICommandBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {}
    open func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {}
    open func att(_ a: ATTEvent, _ e: TraceEvent, _ ctx: DiagnosisContext) {}
    open func smp(_ s: SMPBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {}
    open func signaling(_ s: SignalingBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {}
    open func linkLayer(_ l: LinkLayerBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {}
    open func note(_ n: NoteBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {}
    open func aclProblem(_ e: TraceEvent, _ ctx: DiagnosisContext) {}
    open func advertised(_ report: AdvertisingReport, record: Int, at time: Timestamp, _ ctx: DiagnosisContext) {}
    /// After the last event.
    open func finish(_ ctx: DiagnosisContext) {}
}

extension DiagnosisFacts {
    init(reason: UInt8? = nil, opcode: UInt16? = nil, handle: UInt16? = nil, location: GATTLocation? = nil, byLocal: Bool? = nil,
         problem: CaptureProblem? = nil, weakness: Weakness? = nil, psm: UInt16? = nil, stage: UInt8? = nil, number: Int? = nil) {
        self.init()
        self.reason = reason; self.opcode = opcode; self.handle = handle; self.location = location; self.byLocal = byLocal
        self.problem = problem; self.weakness = weakness; self.psm = psm; self.stage = stage; self.number = number
    }
}
