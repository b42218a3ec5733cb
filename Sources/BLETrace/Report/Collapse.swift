/// `--collapse`: runs of the same event folded into one line. A run is a stretch of events drawn from at most
/// two kinds of event ("the same kind, handle and attribute": a notification of one characteristic, A2DP
/// media on one channel, Number Of Completed Packets); the first event of each kind and the last of the run
/// are shown, and the events between them become one `FoldedRun` line with their count and record range.
/// Two kinds rather than one so that a stream and its bookkeeping (media, completed packets, media, …) or a
/// request and its response fold too. The sink holds at most three events.
public final class CollapseSink: EventSink {
    let next: EventSink
    let output: FoldedRunOutput

    /// The kinds of event of the current run, in order of first sight.
    var keys: [CollapseKey] = []
    /// The record of the event shown for each of `keys`.
    var keyRecords: [Int] = []
    /// The newest event of the run not yet shown: shown when the run ends, folded when another follows.
    var pending: TraceEvent?
    /// Folded events: the first two are kept to show when no more than two were folded.
    var folded: [TraceEvent] = []
    var run = FoldedRun()

    /// Runs shorter than this many folded events are shown in full.
    public static let minimumFold = 3

    public init(next: EventSink, output: FoldedRunOutput) {
        self.next = next
        self.output = output
    }

    public func begin(_ capture: CaptureInfo) { next.begin(capture) }

    public func event(_ e: TraceEvent) {
        guard let k = CollapseKey(e) else {
            endRun()
            next.event(e)
            return
        }
        if keys.contains(k) {
            if let p = pending, let pk = CollapseKey(p) { fold(p, key: pk) }
            pending = e
            return
        }
        if keys.count < 2 {
            // A new kind joins the run: what was folded so far ends here, and the event is shown.
            flush()
        } else {
            endRun()
        }
        keys.append(k)
        keyRecords.append(e.record)
        next.event(e)
    }

    public func end(_ summary: Summary) {
        endRun()
        next.end(summary)
    }

    func fold(_ e: TraceEvent, key: CollapseKey) {
        if let i = keys.firstIndex(of: key), !run.like.contains(keyRecords[i]) {
            run.like.append(keyRecords[i])
            run.like.sort()
        }
        if run.count == 0 {
            run.firstRecord = e.record
            run.firstTime = e.timestamp
        }
        run.count += 1
        run.lastRecord = e.record
        run.lastTime = e.timestamp
        if folded.count < CollapseSink.minimumFold - 1 { folded.append(e) }
    }

    /// Shows what the run folded (one line, or the events themselves when they are few) and its newest event.
    func flush() {
        if run.count >= CollapseSink.minimumFold {
            output.folded(run)
        } else {
            for e in folded { next.event(e) }
        }
        if let p = pending { next.event(p) }
        pending = nil
        folded.removeAll(keepingCapacity: true)
        run = FoldedRun()
    }

    func endRun() {
        flush()
        keys.removeAll(keepingCapacity: true)
        keyRecords.removeAll(keepingCapacity: true)
    }
}

/// Events folded by `--collapse`, between the events shown before and after them.
public struct FoldedRun: Sendable, Equatable {
    public var count = 0
    public var firstRecord = 0
    public var lastRecord = 0
    public var firstTime = Timestamp(micros: 0)
    public var lastTime = Timestamp(micros: 0)
    /// The records of the events shown that the folded ones are like (one per kind folded).
    public var like: [Int] = []
}

/// A renderer that writes `FoldedRun` lines.
public protocol FoldedRunOutput: AnyObject {
    func folded(_ run: FoldedRun)
}

/// What makes two events "the same" for `--collapse`: kind, direction, connection handle, and what the event is
/// about (the ATT opcode and attribute, the HCI opcode or event code, the L2CAP channel, the advertiser).
/// Notes, malformed events and pairing are never folded.
public struct CollapseKey: Hashable, Sendable {
    var kind: UInt8
    var direction: UInt8
    var handle: UInt16
    var what: UInt64

    init?(_ e: TraceEvent) {
        kind = UInt8(e.kind.index)
        direction = e.direction.rawValue
        handle = e.handle ?? 0xFFFF
        guard e.malformed == nil else { return nil }
        switch e.body {
        case let .att(a):
            guard case let .pdu(p) = a.content else { return nil }
            what = UInt64(p.opcode) << 16 | UInt64(a.handle ?? 0)
        case let .hciCommand(c):
            what = UInt64(c.opcode)
        case let .hciEvent(ev):
            switch ev.params {
            case let .commandComplete(c): what = 1 << 32 | UInt64(c.opcode)
            case let .commandStatus(_, _, opcode): what = 2 << 32 | UInt64(opcode)
            case let .le(subevent, _): what = 3 << 32 | UInt64(subevent)
            default: what = UInt64(ev.code)
            }
        case let .adv(a):
            guard let r = a.reports.first(where: { _ in true }) else { return nil }
            what = r.address.value | (r.scanResponse ? 1 << 48 : 0)
        case .signaling, .l2cap, .aclFragment:
            guard let cid = e.l2cap?.cid else {
                if case .aclFragment = e.body { what = 0; return }
                return nil
            }
            if case let .signaling(s) = e.body, s.kind == .signaling { return nil }
            what = UInt64(cid)
        case .sco, .iso, .vendor:
            what = 0
        case let .linkLayer(l):
            let side = UInt64(e.radio?.data?.direction.rawValue ?? 0xFF)
            switch l.content {
            case .empty: what = 1 << 8 | side
            case .retransmission: what = 2 << 8 | side
            case .encrypted: what = 3 << 8 | side
            case .badCRC: what = 4 << 8
            case .advertising:
                guard let a = e.radio?.advertising else { return nil }
                what = 5 << 56 | UInt64(a.type) << 48 | (a.advA?.value ?? 0)
            default: return nil
            }
        case .smp, .note, .malformed, .filtered, .aclProblem, .pending:
            return nil
        }
    }
}
