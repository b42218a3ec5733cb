/// Runs the diagnosis rules over the finished events (in record order, after the other layers made them) and
/// groups what they raise: the same id, peer and key facts become one diagnosis with a count and a record range.
public final class DiagnosisEngine: AnalysisLayer {
    let context: DiagnosisContext
    let rules: [DiagnosisRule]
    /// The rules that read each event kind, indexed like `EventKind.allCases`.
    var byKind: [[DiagnosisRule]]
    var advertisingRules: [DiagnosisRule]
    var finished = false

    public init(rules: [DiagnosisRule] = DiagnosisRules.make()) {
        self.rules = rules
        self.context = DiagnosisContext()
        byKind = Array(repeating: [], count: EventKind.allCases.count)
        for r in rules { for k in r.kinds { byKind[k.index].append(r) } }
        advertisingRules = rules.filter { $0.readsAdvertising }
    }

    public func attach(to pipeline: Pipeline) {
        context.pipeline = pipeline
        pipeline.eventObservers.append { [unowned self] e in self.observe(e) }
        if !advertisingRules.isEmpty {
            pipeline.advertisingObservers.append { [unowned self] report, record, time in
                for r in self.advertisingRules { r.advertised(report, record: record, at: time, self.context) }
            }
        }
    }

    /// Gives the rules that read other layers' state at the end (pairings, encryption) those layers.
    func see(_ layers: [AnalysisLayer]) { context.layers = layers }

    @inline(__always) func observe(_ e: TraceEvent) {
        context.clock(e)
        let rs = byKind[e.kind.index]
        if rs.isEmpty { return }
        for r in rs { r.observe(e, context) }
    }

    /// The diagnoses, after the last record (the rules' end-of-capture checks run on the first call).
    public var diagnoses: [Diagnosis] {
        if !finished {
            finished = true
            for r in rules { r.finish(context) }
        }
        return context.ordered
    }

    /// Notes that reading stopped on damage (the analyzer calls this before asking for the diagnoses).
    func damaged(_ error: CaptureError?, filtered: Int) {
        if let e = error {
            context.raise(Diagnosis(id: .captureIncomplete, facts: DiagnosisFacts(problem: .damaged(reason: e.description)),
                                    evidence: [context.lastRecord + 1]))
        }
        if filtered > 0 {
            context.raise(Diagnosis(id: .captureIncomplete, facts: DiagnosisFacts(problem: .filtered(records: filtered)),
                                    evidence: [context.firstFilteredRecord ?? 1]))
        }
    }

    public func summary() -> SummarySection? {
        SummarySection(name: "diagnoses", value: { [self] in .list(diagnoses.map { .object(DiagnosisText.fields($0)) }) },
                       text: { [self] in DiagnosisText.lines(diagnoses, overflow: context.overflow) })
    }
}

/// What the rules share: the connections, whether the capture is a sniffer's, the clock, and the grouped
/// diagnoses they raise.
public final class DiagnosisContext {
    weak var pipeline: Pipeline?
    var layers: [AnalysisLayer] = []
    /// True once a link-layer event was seen: absences may be packets the sniffer missed.
    public internal(set) var sniffed = false
    var lastTime: Int64?
    public internal(set) var lastRecord = 0
    /// The first record whose time went backwards; time-based absences are not raised across it.
    public internal(set) var timeBackwardsRecord: Int?
    var firstFilteredRecord: Int?
    var list: [Diagnosis] = []
    var index: [Key: Int] = [:]
    /// Diagnoses not kept once `maxDiagnoses` distinct ones were (hostile input).
    public internal(set) var overflow = 0
    static let maxDiagnoses = 1000

    struct Key: Hashable {
        var id: DiagnosisID
        var peer: UInt64?
        var facts: DiagnosisFacts.GroupKey
    }

    @inline(__always) func clock(_ e: TraceEvent) {
        lastRecord = e.record
        let t = e.timestamp.micros
        if let last = lastTime {
            if t < last - 1000 {
                if timeBackwardsRecord == nil {
                    timeBackwardsRecord = e.record
                    raise(Diagnosis(id: .captureIncomplete, facts: DiagnosisFacts(problem: .timeBackwards(micros: last - t)), evidence: [e.record - 1, e.record]))
                }
            } else if t - last > 86_400_000_000 {
                raise(Diagnosis(id: .captureIncomplete, facts: DiagnosisFacts(problem: .timeJump(micros: t - last)), evidence: [e.record - 1, e.record]))
            }
        }
        lastTime = t
        if e.radio != nil || e.kind == .linkLayer { sniffed = true }
        if let id = e.connection, id < DiagnosisContext.maxTracked {
            if heard.count <= id {
                heard += Array(repeating: (0, 0), count: id + 64 - heard.count)
                firstSeen += Array(repeating: 0, count: id + 64 - firstSeen.count)
            }
            if firstSeen[id] == 0 { firstSeen[id] = e.record }
            if e.acl != nil, e.direction == .controllerToHost { heard[id] = (e.record, t) }
            // Sniffed: any data PDU of the link (empty ones too) shows it alive.
            if e.radio?.data != nil { heard[id] = (e.record, t) }
        }
        switch e.body {
        case .filtered:
            if firstFilteredRecord == nil { firstFilteredRecord = e.record }
        case let .hciCommand(c):
            switch c.params {
            case let .createConnection(x): pendingPeer = x.peer
            case let .extendedCreateConnection(x): pendingPeer = x.peer
            default: break
            }
        default: break
        }
    }

    /// The peer of the last LE Create Connection (a failed connection complete may name no peer).
    public internal(set) var pendingPeer: BDAddr?
    /// Per connection: the last ACL packet from the peer (record 0: none yet).
    var heard: [(record: Int, time: Int64)] = []
    /// Per connection: the first record that named it (0: none).
    var firstSeen: [Int] = []
    static let maxTracked = 100_000

    /// The first record of connection `id`.
    public func firstRecord(_ id: Int) -> Int? {
        guard id < firstSeen.count, firstSeen[id] > 0 else { return nil }
        return firstSeen[id]
    }

    /// The last ACL packet the peer sent on connection `id`: its record and time.
    public func lastHeard(_ id: Int) -> (record: Int, time: Int64)? {
        guard id < heard.count, heard[id].record > 0 else { return nil }
        return heard[id]
    }

    /// The connection numbered `id`.
    public func connection(_ id: Int?) -> Connection? {
        guard let id else { return nil }
        return pipeline?.connections.connection(id: id)
    }

    /// Adds a diagnosis, or counts it into the equal one already raised.
    public func raise(_ d: Diagnosis) {
        let key = Key(id: d.id, peer: d.peer?.value, facts: d.facts.groupKey)
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

    /// A layer of the analysis, by type.
    func layer<T: AnalysisLayer>(_ type: T.Type) -> T? { layers.lazy.compactMap { $0 as? T }.first }
}

/// One rule: reads typed events of the kinds it names and raises diagnoses through the context. A rule keeps
/// bounded state (per connection, per peer) and may check what is still open at the end.
public protocol DiagnosisRule: AnyObject {
    /// The event kinds `observe` is called with.
    var kinds: [EventKind] { get }
    /// True when the rule wants each advertising report (`advertised`).
    var readsAdvertising: Bool { get }
    func observe(_ e: TraceEvent, _ ctx: DiagnosisContext)
    func advertised(_ report: AdvertisingReport, record: Int, at time: Timestamp, _ ctx: DiagnosisContext)
    /// After the last event.
    func finish(_ ctx: DiagnosisContext)
}

extension DiagnosisRule {
    public var readsAdvertising: Bool { false }
    public func advertised(_ report: AdvertisingReport, record: Int, at time: Timestamp, _ ctx: DiagnosisContext) {}
    public func finish(_ ctx: DiagnosisContext) {}
}

extension DiagnosisFacts {
    init(reason: UInt8? = nil, opcode: UInt16? = nil, handle: UInt16? = nil, location: GATTLocation? = nil, byLocal: Bool? = nil,
         problem: CaptureProblem? = nil, weakness: Weakness? = nil, psm: UInt16? = nil, stage: UInt8? = nil, number: Int? = nil) {
        self.init()
        self.reason = reason; self.opcode = opcode; self.handle = handle; self.location = location; self.byLocal = byLocal
        self.problem = problem; self.weakness = weakness; self.psm = psm; self.stage = stage; self.number = number
    }
}
