/// Decodes an L2CAP channel's frames into timeline events (ATT, SMP, LE signaling, …).
public protocol ChannelDecoder: AnyObject {
    /// Turns a complete frame into an event. `event` arrives pre-filled with record, time, direction,
    /// handle and connection; the decoder sets kind, summary and layers. The pipeline is lent for the call
    /// (its held events and its chain): a decoder keeps no reference to it.
    func decode(_ frame: L2CAPFrame, connection: Connection, event: inout TraceEvent, in p: Pipeline)
}

/// Options that change how a capture is decoded.
public struct DecodeOptions: Sendable {
    /// GATT databases to use for peers whose discovery the capture does not show (`--gatt FILE`).
    public var gatt: GATTDatabaseSet?
    /// Names and decoders for vendor UUIDs (`--uuids FILE`).
    public var uuids: UserDefinedUUIDs?
    /// Keys for decrypting sniffed links (`--ltk`, `--keys`).
    public var keys = KeyOptions()
    public init() {}
}

/// Counts kept while decoding, for the summary.
public struct CaptureStats: Sendable {
    public var records = 0
    public var first: Timestamp?
    public var last: Timestamp?
    /// Event count per kind, indexed like `EventKind.allCases`.
    public var kindCounts = [Int](repeating: 0, count: EventKind.allCases.count)
    public var kinds: [String: Int] {
        var out: [String: Int] = [:]
        for (i, k) in EventKind.allCases.enumerated() where kindCounts[i] > 0 { out[k.rawValue] = kindCounts[i] }
        return out
    }
    public var malformed = 0
    public var malformedRecords: [Int] = []
    public var notes = 0
    /// Records the capture itself cut short (Android filtered snoop logs, snap length).
    public var filtered = 0
    /// The first record whose time is more than a millisecond (logging jitter) before the record's before it,
    /// and by how much; `lastBackwards` is the last such record (time-based absences are not judged across it).
    public var timeBackwards: (record: Int, micros: Int64)?
    public var lastBackwards = 0
    /// Records whose time is more than a day after the record's before it (at most 16).
    public var timeJumps: [(record: Int, micros: Int64)] = []

    /// Counts a record as it arrives.
    @inline(__always) mutating func arrived(_ number: Int, at t: Timestamp) {
        records += 1
        if let l = last {
            if t.micros < l.micros &- 1000 { wentBack(number, by: l.micros &- t.micros) }
            else if t.micros &- l.micros > 86_400_000_000, timeJumps.count < 16 { timeJumps.append((number, t.micros &- l.micros)) }
        } else {
            first = t
        }
        last = t
    }

    mutating func wentBack(_ number: Int, by micros: Int64) {
        if timeBackwards == nil { timeBackwards = (number, micros) }
        lastBackwards = number
    }

    /// Counts a record's event by kind, and as malformed when it is.
    @inline(__always) mutating func decoded(_ kind: EventKind, malformed isMalformed: Bool, record: Int) {
        kindCounts[kind.index] += 1
        if isMalformed {
            malformed += 1
            if malformedRecords.count < 1000 { malformedRecords.append(record) }
        }
    }
}

/// Drives the stages: record → HCI → L2CAP → channel decoders → timeline events.
/// Every record yields exactly one event, handed to `emit` in record order.
///
/// The state every record touches (counters, the reassembler, the channel table, the observer lists, set up
/// before the first record) is used by the pipeline's own thread alone and never by two overlapping accesses, so
/// it carries no run-time exclusivity checks (each costs about 80 instructions, several a record).
public final class Pipeline {
    public let options: DecodeOptions
    public let connections = ConnectionTracker()
    @exclusivity(unchecked) public private(set) var stats = CaptureStats()
    @exclusivity(unchecked) var l2cap = L2CAPReassembler()
    /// The isochronous control plane: CIGs, CISes, BIGs and periodic syncs (opens the CIS and BIS connections).
    let iso = ISOTracker()
    @exclusivity(unchecked) var advertising = AdvertisingDecoder()
    /// Fixed and dynamic channels → decoder. Layers register themselves here.
    @exclusivity(unchecked) public var channels: [UInt16: ChannelDecoder] = [:] {
        didSet { fixedChannels = (0..<0x40).map { channels[UInt16($0)] } }
    }
    /// `channels` for the fixed CIDs (below 0x0040), read by index for every frame instead of hashed.
    @exclusivity(unchecked) var fixedChannels = [ChannelDecoder?](repeating: nil, count: 0x40)
    /// Decoder for dynamic L2CAP channels (CIDs the `channels` table does not hold, 0x0040 and above).
    @exclusivity(unchecked) public var dynamicChannels: ChannelDecoder?
    /// Every stage and consumer after HCI decoding, in order (Chain.swift).
    public let chain: Chain
    /// Hands each finished event on, lent: the receiver may change it (the pipeline drops it after the call).
    /// Nil when nothing reads the events (`--summary-only`): no call is made for them.
    let emit: ((inout TraceEvent) -> Void)?
    /// Sniffer captures: link-layer decoding, created with the first link-layer record.
    @exclusivity(unchecked) var linkLayerDecoder: LinkLayerDecoder?
    var linkLayer: LinkLayerDecoder {
        if let d = linkLayerDecoder { return d }
        let d = LinkLayerDecoder(pipeline: self)
        linkLayerDecoder = d
        return d
    }
    public var linkLayerIfUsed: LinkLayerDecoder? { linkLayerDecoder }
    /// Events waiting to be emitted behind a held one, in record order (`hold`), each decoded in its slot.
    let queue = EventQueue()
    /// The slot an event is decoded into when nothing waits: it leaves from there, or moves into the queue once.
    let scratch = UnsafeMutablePointer<TraceEvent>.allocate(capacity: 1)
    /// The records held, in ascending order: each is a queued event's (the oldest is the first).
    @exclusivity(unchecked) var held: HeldRecords = HeldRecords()
    /// Bound on the events kept behind a held one; beyond it the oldest hold is released.
    public static let maxQueued = 20_000

    public init(options: DecodeOptions = DecodeOptions(), chain: Chain = Chain(), emit: @escaping (TraceEvent) -> Void) {
        self.options = options
        self.chain = chain
        self.emit = { e in emit(e) }
        chain.bind(self)
    }

    /// A pipeline that lends each finished event to `sink` (`EventSink.event(taking:)`: the sink may change or
    /// keep it).
    public init(options: DecodeOptions = DecodeOptions(), chain: Chain = Chain(), lendingTo sink: EventSink?) {
        self.options = options
        self.chain = chain
        // Made here, not through `Optional.map`: a closure returned by a generic function is called through a
        // thunk that converts its form, an extra call for every event.
        if let sink { self.emit = { e in sink.event(taking: &e) } } else { self.emit = nil }
        chain.bind(self)
    }

    deinit { scratch.deallocate() }

    public func process(_ r: Record) {
        chain.record(r.number, at: r.timestamp, self)
        stats.arrived(r.number, at: r.timestamp)
        // Behind a held event the event is decoded in the queue's next slot, where it waits (counted once decoded);
        // otherwise in the pipeline's own slot, from which it leaves at once, or moves into the queue when it held
        // itself (a request waiting for its answer).
        let waiting = !queue.isEmpty || !held.isEmpty
        let slot = waiting ? queue.reserve() : scratch
        slot.initialize(to: TraceEvent(record: r.number, timestamp: r.timestamp, direction: r.direction, body: .pending(.vendor)))
        decode(r, &slot.pointee)
        if waiting {
            queue.commit()
            drain()
        } else if held.isEmpty {
            // The queue stays empty while nothing is held: only this function adds to it.
            deliver(&slot.pointee)
            slot.deinitialize(count: 1)
        } else {
            queue.reserve().moveInitialize(from: slot, count: 1)
            queue.commit()
            drain()
        }
    }

    /// Decodes a record into its event (pre-filled with the record's number, time and direction).
    func decode(_ r: Record, _ e: inout TraceEvent) {
        switch r.kind {
        case .command: decodeCommand(r, &e)
        case .event: decodeEvent(r, &e)
        case .acl:
            decodeACL(r.data, number: r.number, direction: r.direction, originalLength: r.originalLength, &e)
            chain.acl(e)
        case .sco:
            e.body = .sco(length: r.data.count)
            // The payload goes on only when the audio layer is in the chain (`bletrace audio`, `--audio`).
            if chain.a2dpAudio != nil, r.originalLength == nil { chain.sco(r) }
        case .iso: decodeISO(r, &e)
        case .vendor: e.body = .vendor(r.data)
        case .note:
            Notes.describe(r, &e)
            stats.notes += 1
        case .linkLayer:
            linkLayer.decode(r, &e)
        }
        if let o = r.originalLength, !e.isFiltered { e.cut = CutShort(captured: r.data.count, original: o) }
    }

    // MARK: Held events
    //
    // A request's event names its response's record, which arrives later. A layer holds the request's
    // event while it waits (`hold` during decode), fills it in with `update`, and lets it go with `release`.
    // Events behind a held one wait too, so the timeline stays in record order.

    /// Keeps the event of `record` (the one being decoded) from being emitted until `release(record)`.
    public func hold(_ record: Int) {
        held.insert(record)
    }

    /// Changes a held event. Returns false when the event has already been emitted.
    @discardableResult
    public func update(_ record: Int, _ body: (inout TraceEvent) -> Void) -> Bool {
        guard held.contains(record) else { return false }
        var i = queue.count - 1
        while i >= 0 {
            let p = queue[i]
            if p.pointee.record == record { body(&p.pointee); return true }
            if p.pointee.record < record { break }
            i -= 1
        }
        return false
    }

    /// Lets a held event go; it is emitted as soon as every event before it has been.
    public func release(_ record: Int) {
        guard held.remove(record) else { return }
        drain()
    }

    func drain() {
        while !queue.isEmpty {
            let first = queue.first
            let record = first.pointee.record
            held.dropBefore(record)
            if held.first == record {
                if queue.count <= Pipeline.maxQueued { break }
                held.remove(record)
            }
            // Delivered where it is, not moved out: nothing the chain or the sink calls touches the queue; what the
            // sink leaves of the event goes with its slot.
            deliver(&first.pointee)
            queue.removeFirst()
        }
    }

    /// Hands a finished event to the chain and the sink, and counts it by the kind the chain's look found (an
    /// event is counted as it leaves, in record order: every event leaves, held ones at the latest in `finish`).
    @inline(__always) func deliver(_ e: inout TraceEvent) {
        let (kind, malformed) = chain.finished(&e)
        stats.decoded(kind, malformed: malformed, record: e.record)
        emit?(&e)
    }

    func markMalformed(_ e: inout TraceEvent, _ r: Record, layer: String, _ error: Error) {
        markMalformed(&e, data: r.data, originalLength: r.originalLength, layer: layer, error)
    }

    /// `markMalformed` given the record's bytes and original length (the hot paths read those once and keep
    /// no reference to the record: one kept for this rare path copied the whole record on every packet).
    func markMalformed(_ e: inout TraceEvent, data: ArraySlice<UInt8>, originalLength: Int?, layer: String, _ error: Error) {
        if let original = originalLength {
            // The capture (e.g. Android's filtered snoop log) cut this packet short: not a malformed packet.
            markFiltered(&e, data: data, original: original, layer: layer)
            return
        }
        let reason = (error as? ByteError)?.description ?? "\(error)"
        e.body = .malformed(Malformed(kind: e.kind, layer: layer, reason: reason, data: data))
    }

    func markFiltered(_ e: inout TraceEvent, data: ArraySlice<UInt8>, original: Int, layer: String) {
        stats.filtered += 1
        e.body = .filtered(Filtered(kind: e.kind, layer: layer, data: data, original: original))
    }

    func decodeCommand(_ r: Record, _ e: inout TraceEvent) {
        e.body = .pending(.hciCommand)
        do {
            let body = try HCICommandDecoder.decode(r.data)
            e.body = .hciCommand(body)
            if case let .classic(c) = body.params { connections.pairingCommand(c, record: r.number) }
            if case .iso = body.params { iso.command(body) }
            if let h = body.handle {
                // Write Link Policy Settings, Sniff Mode, Exit Sniff Mode: BR/EDR only.
                if body.opcode == 0x080D || body.opcode == 0x0803 || body.opcode == 0x0804, connections.existing(h) != nil {
                    connections.bredrOnly(h)
                }
                e.handle = h
                e.connection = connections.existingID(h)
            }
            chain.hciCommand(body, e)
        } catch {
            markMalformed(&e, r, layer: "HCI command", error)
        }
    }

    func decodeEvent(_ r: borrowing Record, _ e: inout TraceEvent) {
        e.body = .pending(.hciEvent)
        // The parts read once into locals (a closure that read them from the borrowed record captured a copy of it).
        let number = r.number, time = r.timestamp, data = r.data, originalLength = r.originalLength
        do {
            switch try HCIEventDecoder.decode(data) {
            case let .hci(body):
                if let ch = body.change {
                    connections.apply(ch, record: number, at: time)
                    chain.connectionChanged(ch, record: number, at: time, self)
                }
                if let h = body.handle {
                    // Mode Change: BR/EDR only.
                    if body.code == 0x14, connections.existing(h) != nil || connections.vendorHandles.contains(h) { connections.bredrOnly(h) }
                    e.handle = h
                    if !body.failedConnectionComplete { e.connection = connections.latestID(h) }
                }
                // Only LE Meta and Command Complete events can be isochronous (Number Of Completed Packets skips this).
                if body.code == 0x3E || body.code == 0x0E { isochronous(body, record: number, at: time, &e) }
                if case let .classic(c) = body.params {
                    switch c {
                    case let .remoteNameComplete(0, a, name):
                        connections.named(a, String(decoding: name, as: UTF8.self))
                    case let .inquiryResult(list):
                        for found in list { chain.inquiry(found, record: number, at: time) }
                    case let .synchronousConnectionComplete(0, h, a, link, _, _, _, _, _):
                        connections.synchronous(handle: h, peer: a, linkType: link, record: number, at: time)
                        e.connection = connections.latestID(h)
                    default:
                        connections.pairingEvent(c, record: number)
                    }
                }
                // The stages here read the body they are handed, not the event's (still `.pending`): the body goes
                // into the event last, moved, not copied.
                chain.hciEvent(body, e)
                e.body = .hciEvent(body)
            case var .adv(body):
                let chain = self.chain
                advertising.take(&body, record: number) { report in chain.advertised(report, record: number, at: time) }
                e.body = .adv(body)
            }
        } catch {
            markMalformed(&e, data: data, originalLength: originalLength, layer: "HCI event", error)
        }
    }

    /// An LE Meta or Command Complete event for the isochronous control plane (it opens CIS and BIS connections).
    func isochronous(_ body: HCIEventBody, record: Int, at time: Timestamp, _ e: inout TraceEvent) {
        switch body.params {
        case let .le(_, .iso(i)):
            iso.event(i, connections: connections, record: record, at: time)
            if let h = i.handle { e.connection = connections.latestID(h) }
        case let .commandComplete(cc):
            if case let .iso(ret) = cc.decoded {
                iso.completed(cc.opcode, status: cc.status, ret, connections: connections, record: record, at: time)
            }
        default:
            break
        }
    }

    /// Decodes an ACL record given its parts (a borrowed record whose parts were read in here was copied whole).
    func decodeACL(_ data: ArraySlice<UInt8>, number: Int, direction: Direction, originalLength: Int?, _ e: inout TraceEvent) {
        e.body = .pending(.acl)
        if data.count >= 4 {
            let s = data.startIndex
            let hf = UInt16(data[s]) | UInt16(data[s + 1]) << 8
            e.acl = ACLHeader(handle: hf & 0x0FFF, boundary: UInt8((hf >> 12) & 0x3), broadcast: UInt8((hf >> 14) & 0x3),
                              length: UInt16(data[s + 2]) | UInt16(data[s + 3]) << 8)
        }
        if let original = originalLength {
            // A packet the capture cut short cannot be reassembled; show what is left of it.
            if let h = e.acl?.handle {
                e.handle = h
                e.connection = connections.connection(for: h).id
            }
            markFiltered(&e, data: data, original: original, layer: "ACL")
            return
        }
        guard let a = e.acl else {
            // Shorter than the ACL header: the reassembler says why.
            reassemble(data, number: number, direction: direction, originalLength: originalLength, nil, &e)
            return
        }
        // The handle's connection, looked up once and used uncounted: the tracker keeps it open while the record is
        // decoded (only an HCI event closes a connection).
        let known: Unmanaged<Connection>
        if let u = connections.existingUnretained(a.handle) {
            known = u
        } else {
            // No connection on the handle: a pseudo-handle's data is not numbered as one.
            let verdict = connections.vendorHandles.contains(a.handle) ? .implausible
                : PseudoHandleVerdict(data, direction: direction, dynamic: &connections.pseudoChannels)
            if verdict != .plausible {
                if verdict == .implausible { connections.vendorHandles.insert(a.handle) }
                e.handle = a.handle
                e.body = .vendor(data)
                return
            }
            known = Unmanaged.passUnretained(connections.connection(for: a.handle))
        }
        known._withUnsafeGuaranteedRef { c in
            if !c.transportKnown, !l2cap.consistent(data, direction: direction) {
                // A handle no Connection Complete opened (a vendor pseudo-handle): its bytes are not known to be
                // L2CAP unless their header agrees with the ACL length, so they are shown, not decoded.
                e.handle = a.handle
                e.connection = c.id
                e.body = .vendor(data)
                return
            }
            reassemble(data, number: number, direction: direction, originalLength: originalLength, c, &e)
        }
    }

    /// Feeds an ACL packet to the L2CAP reassembler and hands a complete frame on. `conn` is the connection on the
    /// packet's handle (nil only for a packet too short for the header, which the reassembler refuses).
    func reassemble(_ data: ArraySlice<UInt8>, number: Int, direction: Direction, originalLength: Int?, _ conn: Connection?,
                    _ e: inout TraceEvent) {
        do {
            let (outcome, warning) = try l2cap.feed(data, record: number, direction: direction)
            // The reassembler reads the handle from the same header as `e.acl`, so `conn` is its connection (a
            // packet too short for the header throws before this). Consumed: the frame is moved out, not copied.
            switch consume outcome {
            case let .frame(frame):
                if let conn { deliver(frame, conn, record: number, &e) } else {
                    deliver(frame, connections.connection(for: frame.handle), record: number, &e)
                }
            case let .partial(handle, have, expected, start):
                e.handle = handle
                e.connection = conn?.id ?? connections.connection(for: handle).id
                e.body = .aclFragment(ACLFragment(start: start, have: have, expected: expected))
            case let .problem(handle, reason):
                e.handle = handle
                e.connection = conn?.id ?? connections.connection(for: handle).id
                e.body = .aclProblem(ACLProblem(reason: reason, data: data))
            }
            e.warning = warning
        } catch {
            markMalformed(&e, data: data, originalLength: originalLength, layer: "ACL", error)
        }
    }

    /// Hands a complete L2CAP frame to its channel's decoder (or describes it when no decoder claims the channel).
    /// The frame is taken, not lent: bound out of the reassembler's outcome and lent onward, it was copied (its
    /// payload retained) and the outcome destroyed on the side.
    func deliver(_ frame: consuming L2CAPFrame, _ conn: Connection, record: Int, _ e: inout TraceEvent) {
        e.handle = frame.handle
        e.connection = conn.id
        e.l2cap = L2CAPHeader(cid: frame.cid, length: frame.payload.count, fragments: frame.fragments, firstRecord: frame.firstRecord)
        if let decoder = frame.cid < 0x40 ? fixedChannels[Int(frame.cid)] : (channels[frame.cid] ?? dynamicChannels) {
            decoder.decode(frame, connection: conn, event: &e, in: self)
        } else {
            e.body = .l2cap(L2CAPPayload(payload: frame.payload))
        }
    }

    func decodeISO(_ r: Record, _ e: inout TraceEvent) {
        e.body = .pending(.iso)
        var c = ByteCursor(r.data)
        if let hf = try? c.u16le() {
            e.handle = hf & 0x0FFF
            e.connection = connections.existingID(hf & 0x0FFF)
        }
        do {
            let h = try ISOData.parse(r.data)
            e.body = .iso(h)
            chain.iso(e)
            // SDU bytes reach the audio layer only when it is in the chain.
            if chain.a2dpAudio != nil { chain.isoAudio(h, e, r) }
        } catch {
            markMalformed(&e, r, layer: "ISO", error)
        }
    }

    /// Call after the last record: reports frames left half-assembled.
    public func finish() -> [String] {
        chain.finish(self)
        held.removeAll()
        drain()
        return l2cap.unfinished.map { "L2CAP frame on handle \(Hex.hex($0.handle, width: 4)) started at record \($0.firstRecord) never completed (\($0.have) of \($0.expected) bytes)" }
            + (linkLayerDecoder?.finish() ?? []) + advertising.finish()
    }
}
