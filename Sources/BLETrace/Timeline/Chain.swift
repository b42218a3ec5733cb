/// The whole analysis chain after HCI decoding, in the order each stage and consumer sees a record.
///
/// ```
/// Record ─▶ Pipeline (HCI, ConnectionTracker, ISOTracker, AdvertisingDecoder, L2CAPReassembler, LinkLayerDecoder)
///   ─▶ channel decoders: ATTLayer (0x0004, EATT) · SignalingLayer (0x0001, 0x0005, dynamic: A2DPStreams, HIDReports)
///                        · SMPLayer (0x0006, 0x0007)
///   ─▶ attribute values (AttributeValueConsumers): BatteryHistoryLayer · IdentityLayer · ANCSViewLayer · AudioStreams
///                                                  · Broadcasts
///   ─▶ traffic as decoded: DeviceInventory (reports, inquiries) · LinkStatistics (ACL, HCI, sniffed PDUs)
///                          · ISOStreams (ISO data) · Broadcasts (reports, HCI) · DiagnosisEngine (reports)
///   ─▶ A2DP media packets, SCO data, synchronous link setup, RFCOMM: [A2DPAudio]
///   ─▶ finished events: DeviceInventory · Findings · DiagnosisEngine · [ActivityLog] · [taps]
///   ─▶ sink
/// ```
///
/// Every consumer is a concrete, named property called directly from one hook below (the consumers of attribute
/// values from `AttributeValueConsumers`, which `standard(_:)` makes first and the ATT layer is made with); no layer
/// registers itself anywhere else. The channel decoders keep no reference to the pipeline: a call that holds or releases
/// events is lent it. Adding a consumer is a property, a line in `standard(_:)`, the calls in the hooks
/// it reads, and its place in `layers` (whose `stages` a test checks against docs/architecture.md). `LinkLayerSummary` and
/// `EncryptionSummary` read the pipeline's state at the end and see no record.
///
/// The chain is used by the pipeline's thread alone, so its properties carry no run-time exclusivity checks.
public final class Chain {
    // MARK: Channel decoders (the L2CAP stage hands each complete frame to one of these by CID)
    public let att: ATTLayer?
    public let signaling: SignalingLayer?
    public let smp: SMPLayer?
    // MARK: Consumers of attribute values (fed by `ATTLayer.dissectValue` through `AttributeValueConsumers`)
    public let battery: BatteryHistoryLayer?
    public let identity: IdentityLayer?
    public let ancs: ANCSViewLayer?
    // MARK: Consumers of traffic and finished events
    public let inventory: DeviceInventory?
    public let linkLayerSummary: LinkLayerSummary?
    public let encryption: EncryptionSummary?
    public let linkStatistics: LinkStatistics?
    public let isoStreams: ISOStreams?
    public let audioStreams: AudioStreams?
    public let broadcasts: Broadcasts?
    public let findings: Findings?
    public let diagnosis: DiagnosisEngine?
    // MARK: Chosen by the command
    /// Decoded A2DP audio (`Analyzer.addAudio()`: `bletrace audio`, `analyze --audio`).
    @exclusivity(unchecked) public internal(set) var a2dpAudio: A2DPAudio?
    /// The activity log, for Markdown, HTML and `diff` (`Analyzer.addActivityLog()`).
    @exclusivity(unchecked) public internal(set) var activity: ActivityLog?
    /// Tools' own observers (the redactor's first pass, device resolution, triage's controller facts), after
    /// every standard consumer. The standard chain has none.
    @exclusivity(unchecked) public var taps: [EventTap] = []
    /// Whether the diagnosis engine has rules that read advertising reports.
    let diagnosesAdvertising: Bool

    /// A chain of the given parts; a part left out is skipped by every hook. `standard(_:)` is the full one.
    public init(att: ATTLayer? = nil, signaling: SignalingLayer? = nil, smp: SMPLayer? = nil,
                battery: BatteryHistoryLayer? = nil, identity: IdentityLayer? = nil, ancs: ANCSViewLayer? = nil,
                inventory: DeviceInventory? = nil, linkLayerSummary: LinkLayerSummary? = nil,
                encryption: EncryptionSummary? = nil, linkStatistics: LinkStatistics? = nil,
                isoStreams: ISOStreams? = nil, audioStreams: AudioStreams? = nil, broadcasts: Broadcasts? = nil,
                findings: Findings? = nil, diagnosis: DiagnosisEngine? = nil) {
        self.att = att
        self.signaling = signaling
        self.smp = smp
        self.battery = battery
        self.identity = identity
        self.ancs = ancs
        self.inventory = inventory
        self.linkLayerSummary = linkLayerSummary
        self.encryption = encryption
        self.linkStatistics = linkStatistics
        self.isoStreams = isoStreams
        self.audioStreams = audioStreams
        self.broadcasts = broadcasts
        self.findings = findings
        self.diagnosis = diagnosis
        self.diagnosesAdvertising = diagnosis?.readsAdvertising ?? false
        if let att {
            precondition(att.values.holds(battery: battery, identity: identity, ancs: ancs, audioStreams: audioStreams,
                                          broadcasts: broadcasts),
                         "the chain's ATT layer is made with the chain's consumers of attribute values")
        }
    }

    /// The chain every analysis gets.
    public static func standard(_ options: DecodeOptions = DecodeOptions()) -> Chain {
        let iso = ISOStreams()
        let values = AttributeValueConsumers(battery: BatteryHistoryLayer(), identity: IdentityLayer(), ancs: ANCSViewLayer(),
                                             audioStreams: AudioStreams(iso: iso), broadcasts: Broadcasts(iso: iso))
        let att = ATTLayer(options: options, values: values)
        return Chain(att: att, signaling: SignalingLayer(att: att), smp: SMPLayer(),
                     battery: values.battery, identity: values.identity, ancs: values.ancs,
                     inventory: DeviceInventory(), linkLayerSummary: LinkLayerSummary(), encryption: EncryptionSummary(),
                     linkStatistics: LinkStatistics(att: att), isoStreams: iso,
                     audioStreams: values.audioStreams, broadcasts: values.broadcasts,
                     findings: Findings(), diagnosis: DiagnosisEngine())
    }

    /// The stages in chain order, by type name (what docs/architecture.md lists).
    public var stages: [String] {
        layers.map { String(describing: type(of: $0)) } + taps.map { String(describing: type(of: $0)) }
    }

    /// The parts that make summary sections, in the order the summary lists them.
    public var layers: [AnalysisLayer] {
        let parts: [AnalysisLayer?] = [att, signaling, signaling?.a2dp, signaling?.hid, smp, battery, identity, ancs,
                                       inventory, linkLayerSummary, encryption, linkStatistics, isoStreams, audioStreams,
                                       broadcasts, findings, diagnosis, a2dpAudio, activity]
        return parts.compactMap { $0 }
    }

    /// Gives every part the pipeline and routes the fixed and dynamic L2CAP channels to the decoders.
    func bind(_ p: Pipeline) {
        for l in layers { l.attach(to: p) }
        if let att { p.channels[0x0004] = att }
        if let signaling {
            p.channels[0x0001] = signaling
            p.channels[0x0005] = signaling
            p.dynamicChannels = signaling
        }
        if let smp {
            p.channels[0x0006] = smp
            p.channels[0x0007] = smp // SMP over BR/EDR (cross-transport key derivation)
        }
    }

    // MARK: Hooks, in the order the pipeline reaches them for a record

    /// Each record's number and time, before it is decoded (timeouts).
    @inline(__always) func record(_ number: Int, at t: Timestamp, _ p: Pipeline) {
        if let att, t.micros >= att.nextDeadline { att.expire(now: t.micros, p) }
    }

    /// A connection opened, closed, changed parameters or encryption.
    func connectionChanged(_ change: ConnectionChange, record: Int, at time: Timestamp, _ p: Pipeline) {
        att?.connectionChanged(change, p)
        smp?.connectionChanged(change, record: record, p)
        activity?.connectionChanged(change, at: time, p)
    }

    /// An advertising report with complete data (split extended advertising arrives reassembled).
    func advertised(_ report: AdvertisingReport, record: Int, at time: Timestamp) {
        inventory?.observe(report, record: record, at: time)
        broadcasts?.announcement(report)
        if diagnosesAdvertising, let diagnosis { diagnosis.advertised(report, record: record, at: time) }
        activity?.advertised(report)
        for t in taps { t.advertised(report, record: record, at: time) }
    }

    /// A device a BR/EDR inquiry found.
    func inquiry(_ r: InquiryResponse, record: Int, at time: Timestamp) {
        inventory?.observe(inquiry: r, record: record, at: time)
    }

    /// An ACL packet's event, as decoded.
    @inline(__always) func acl(_ e: TraceEvent) {
        linkStatistics?.observeACL(e)
    }

    /// An HCI event's body with its event, as decoded (the event's own `body` is still `.pending(.hciEvent)`: the
    /// stages read the body handed to them).
    func hciEvent(_ body: HCIEventBody, _ e: TraceEvent) {
        linkStatistics?.observe(body, e)
        broadcasts?.hciEvent(body, e)
        a2dpAudio?.hciEvent(body, record: e.record)
        for t in taps { t.hciEvent(body) }
    }

    /// An HCI command's body with its event, as decoded.
    func hciCommand(_ body: HCICommandBody, _ e: TraceEvent) {
        linkStatistics?.command(body, e)
        broadcasts?.hciCommand(body)
        a2dpAudio?.hciCommand(body, record: e.record)
    }

    /// A well-formed ISO data packet's event.
    func iso(_ e: TraceEvent) {
        isoStreams?.observe(e)
    }

    /// A sniffed data PDU with a payload that is not a retransmission, and its payload length.
    func sniffedData(_ e: TraceEvent, payload: Int) {
        linkStatistics?.sniffed(e, payload: payload)
    }

    /// Whether anything reads sniffed acknowledgements (their latency is worked out only then).
    var readsSniffedAcks: Bool { linkStatistics != nil }

    /// A sniffed data PDU the other side acknowledged, and how long that took.
    func sniffedAck(connection: Int, handle: UInt16, fromCentral: Bool, after waited: Int64) {
        linkStatistics?.acknowledged(connection, handle: handle, fromCentral: fromCentral, after: waited)
    }

    /// A well-formed ISO data packet's header and bytes, to the audio layer (called only when it is present).
    func isoAudio(_ h: ISOHeader, _ e: TraceEvent, _ r: Record) {
        a2dpAudio?.iso(h, r.data, connection: e.connection, direction: r.direction, record: r.number, at: r.timestamp)
    }

    /// An SCO data packet (header and voice bytes), to the audio layer (called only when it is present).
    func sco(_ r: Record) {
        a2dpAudio?.sco(r.data, direction: r.direction, record: r.number, at: r.timestamp)
    }

    /// An RFCOMM frame on a BR/EDR channel (HFP's codec negotiation, for the audio layer).
    func rfcomm(_ f: RFCOMMFrame, connection: Int, record: Int) {
        a2dpAudio?.rfcomm(f, connection: connection, record: record)
    }

    /// An A2DP media packet (RTP header onwards) on a connection's stream.
    func a2dpMedia(_ connection: Int, record: Int, at time: Timestamp, _ bytes: ArraySlice<UInt8>) {
        a2dpAudio?.media(connection, record: record, at: time, bytes)
    }

    /// A finished event (a held request complete with its response), in record order, just before the sink.
    /// Its body is taken out of the event, matched once, its payload lent to each stage that reads that kind and
    /// put back: a match on a body still in place copies it first (its payloads share their spare bits with the
    /// case tag, so reading one out of shared memory needs a copy of its own), and a body is as large as the
    /// largest decoded PDU. While the payload is lent, the event's `body` is `EventBody.empty`; the stages read
    /// the payload they are handed and the event's other facts. The look also gives the event's kind and whether
    /// it is malformed, which the pipeline counts.
    @inline(__always) func finished(_ e: inout TraceEvent) -> (kind: EventKind, malformed: Bool) {
        diagnosis?.clock(e)
        let tag: (kind: EventKind, malformed: Bool)
        let body = e.takeBody()
        switch consume body {
        case let .att(a):
            findings?.att(a, e)
            diagnosis?.att(a, e)
            tag = (.att, a.isMalformed)
            e.body = .att(a)
        case let .hciEvent(h):
            findings?.hciEvent(h, e)
            diagnosis?.hciEvent(h, e)
            tag = (h.kind, false)
            e.body = .hciEvent(h)
        case let .hciCommand(c):
            findings?.other(e)
            diagnosis?.hciCommand(c, e)
            tag = (c.kind, false)
            e.body = .hciCommand(c)
        case let .adv(x):
            findings?.adv(x, e)
            tag = (.adv, x.isMalformed)
            e.body = .adv(x)
        case let .smp(s):
            inventory?.smp(s)
            findings?.smp(s, e)
            diagnosis?.smp(s, e)
            tag = (.smp, s.malformedReason != nil)
            e.body = .smp(s)
        case let .signaling(s):
            findings?.signaling(s, e)
            diagnosis?.signaling(s, e)
            tag = (s.kind, s.malformedReason != nil)
            e.body = .signaling(s)
        case let .linkLayer(l):
            findings?.linkLayer(l, e)
            diagnosis?.linkLayer(l, e)
            tag = (.linkLayer, false)
            e.body = .linkLayer(l)
        case let .note(n):
            findings?.other(e)
            diagnosis?.note(n, e)
            tag = (.note, false)
            e.body = .note(n)
        case let .aclProblem(p):
            findings?.aclProblem(p, e)
            diagnosis?.aclProblem(e)
            tag = (.acl, true)
            e.body = .aclProblem(p)
        case let .malformed(m):
            findings?.malformed(m, e)
            tag = (m.kind, true)
            e.body = .malformed(m)
        case let .filtered(f):
            findings?.other(e)
            diagnosis?.filtered(e)
            tag = (f.kind, false)
            e.body = .filtered(f)
        case let .aclFragment(f):
            findings?.other(e)
            tag = (.acl, false)
            e.body = .aclFragment(f)
        case let .l2cap(p):
            findings?.other(e)
            tag = (.l2cap, false)
            e.body = .l2cap(p)
        case let .sco(n):
            findings?.other(e)
            tag = (.sco, false)
            e.body = .sco(length: n)
        case let .iso(h):
            findings?.other(e)
            tag = (.iso, false)
            e.body = .iso(h)
        case let .vendor(v):
            findings?.other(e)
            tag = (.vendor, false)
            e.body = .vendor(v)
        case let .pending(k):
            findings?.other(e)
            tag = (k, false)
            e.body = .pending(k)
        }
        activity?.observe(e)
        for t in taps { t.event(e) }
        return tag
    }

    /// After the last record, before held events are released.
    func finish(_ p: Pipeline) {
        att?.expire(now: .max, p)
    }
}

/// The consumers of attribute values, in the order each sees a value a dissector decoded. The ATT layer is made
/// with them (`ATTLayer(options:values:)`, `Chain.standard`) and keeps them as a constant: calling a consumer it
/// holds in a variable retained and released each one for every value. `ATTLayer.dissectValue`, the one place
/// dissectors are called, calls `value`.
public struct AttributeValueConsumers {
    let battery: BatteryHistoryLayer?
    let identity: IdentityLayer?
    let ancs: ANCSViewLayer?
    let audioStreams: AudioStreams?
    let broadcasts: Broadcasts?

    public init(battery: BatteryHistoryLayer? = nil, identity: IdentityLayer? = nil, ancs: ANCSViewLayer? = nil,
                audioStreams: AudioStreams? = nil, broadcasts: Broadcasts? = nil) {
        self.battery = battery
        self.identity = identity
        self.ancs = ancs
        self.audioStreams = audioStreams
        self.broadcasts = broadcasts
    }

    /// A value a dissector decoded. Its summary fact is made once here for the consumers that read it (each making
    /// it again called through the value's existential, and copied what it holds).
    @inline(__always) func value(_ d: Dissection, _ ctx: ValueContext) {
        let fact = d.fact
        battery?.value(fact, ctx)
        identity?.value(d, fact, ctx)
        ancs?.value(d, fact, ctx)
        audioStreams?.value(fact, ctx)
        broadcasts?.value(d, ctx)
    }

    /// Whether these are the given parts (each the same object, or both absent).
    func holds(battery: BatteryHistoryLayer?, identity: IdentityLayer?, ancs: ANCSViewLayer?, audioStreams: AudioStreams?,
               broadcasts: Broadcasts?) -> Bool {
        self.battery === battery && self.identity === identity && self.ancs === ancs
            && self.audioStreams === audioStreams && self.broadcasts === broadcasts
    }
}

/// A tool's own observer at the end of the chain (not a standard consumer): it sees each finished event,
/// and may read advertising reports and HCI event bodies as they are decoded.
public protocol EventTap: AnyObject {
    func event(_ e: TraceEvent)
    func advertised(_ report: AdvertisingReport, record: Int, at time: Timestamp)
    func hciEvent(_ body: HCIEventBody)
}

extension EventTap {
    public func advertised(_ report: AdvertisingReport, record: Int, at time: Timestamp) {}
    public func hciEvent(_ body: HCIEventBody) {}
}
