/// Link statistics of HCI captures, per connection and direction: ACL packets and bytes (and the L2CAP payload
/// bytes of complete frames), packets completed, the TX latency from each ACL packet the host sent to the
/// Number Of Completed Packets that completes it (first in, first out per handle), throughput over the link's
/// life and in 1-second windows; and the controller's flow control: its buffers, packets outstanding, and
/// stalls (every buffer taken and no completion for over a second). Summary section `links`.
public final class LinkStatistics: AnalysisLayer {
    /// One direction of one link.
    public struct Way: Sendable, Equatable {
        public var aclPackets = 0
        public var aclBytes = 0
        /// L2CAP payload bytes of the complete frames.
        public var l2capBytes = 0
        public var throughput = ThroughputWindows()

        /// One packet of `bytes` carrying `frame` bytes of complete L2CAP frames.
        @inline(__always) mutating func add(_ bytes: Int, frame: Int, at t: Timestamp) {
            aclPackets += 1
            aclBytes += bytes
            l2capBytes += frame
            throughput.add(bytes, at: t)
        }
    }

    /// One L2CAP channel of a link: complete frames, their payload bytes and the SDUs they started, each way.
    public struct Channel: Sendable, Equatable {
        /// A fixed channel's CID; for a dynamic channel the requester's source CID (frames carry one CID each way).
        public var cid: UInt16
        /// The PSM the channel was opened with (dynamic channels whose opening the capture shows).
        public var psm: UInt16?
        public var txFrames = 0, txBytes = 0, txSDUs = 0
        public var rxFrames = 0, rxBytes = 0, rxSDUs = 0

        /// Counts a frame of `length` bytes (`sdu`: SDUs it completed) one way.
        @inline(__always) mutating func count(length: Int, sdu: Int, tx: Bool) {
            if tx {
                txFrames += 1
                txBytes += length
                txSDUs += sdu
            } else {
                rxFrames += 1
                rxBytes += length
                rxSDUs += sdu
            }
        }
    }

    /// Channels kept per link; frames on further channels are counted in the link's totals only.
    static let maxChannels = 32

    /// One connection's link.
    public struct Link: Sendable, Equatable {
        public var connection: Int
        public var handle: UInt16
        public var le: Bool
        /// A sniffer's view of the link (counts from the air, completions are acknowledgements).
        public var sniffed = false
        public var tx = Way()
        public var rx = Way()
        public var completed = 0
        public var latency = LatencyHistogram()
        /// Completions for packets sent before the capture began (or not seen).
        public var completedUnmatched = 0
        /// Data length and PHY as the controller last reported them (ATT_MTU and interval are read at the end).
        public var limits = LinkLimits()
        /// Its connection parameter requests and updates, in order (at most 64).
        public var parameters: [ParameterStep] = []
        /// Its L2CAP channels in order of their first frame (either side's CID: the one the frame carried).
        public var channels: [Channel] = []
        /// Where the last frame's channel is in `channels` (a run of frames is mostly one channel's).
        var lastChannel = 0

        /// A complete L2CAP frame as the link counts it: its channel, PSM, length and the SDUs it started.
        struct Frame {
            var channel: UInt16
            var psm: UInt16?
            var length: Int
            var sdu: Int
        }

        /// Counts an ACL packet of `bytes` one way, and the complete frame it carries, if any, on its channel.
        /// Returns whether the link is LE (its buffer pool).
        @inline(__always) mutating func packet(_ bytes: Int, frame: Frame?, tx: Bool, at t: Timestamp) -> Bool {
            var length = 0
            if let f = frame {
                length = f.length
                count(f, tx: tx)
            }
            if tx { self.tx.add(bytes, frame: length, at: t) } else { rx.add(bytes, frame: length, at: t) }
            return le
        }

        /// Counts a frame on its channel, made on its first frame (up to `maxChannels`). A dynamic CID is reused
        /// once its channel closed: the new channel (its own PSM) is a row of its own.
        mutating func count(_ f: Frame, tx: Bool) {
            let last = lastChannel
            var k: Int? = last < channels.count && channels[last].cid == f.channel && channels[last].psm == f.psm
                ? last : channels.firstIndex { $0.cid == f.channel && $0.psm == f.psm }
            if k == nil, channels.count < LinkStatistics.maxChannels {
                channels.append(Channel(cid: f.channel, psm: f.psm))
                k = channels.count - 1
            }
            guard let c = k else { return }
            lastChannel = c
            channels[c].count(length: f.length, sdu: f.sdu, tx: tx)
        }
    }

    /// A controller buffer pool: LE, or BR/EDR (which LE shares when the controller gives LE none).
    public struct Pool: Sendable, Equatable {
        public var count: Int?
        public var length: Int?
        public var outstanding = 0
        public var maxOutstanding = 0
        /// Packets outstanding over time (the most in each time bucket).
        public var overTime = PeakSeries()
        /// When every buffer became taken, while they still are.
        var fullSince: (record: Int, time: Timestamp)?

        public static func == (a: Pool, b: Pool) -> Bool {
            a.count == b.count && a.length == b.length && a.outstanding == b.outstanding && a.maxOutstanding == b.maxOutstanding
        }
    }

    /// Every buffer taken and no completion for longer than `stallThreshold`.
    public struct Stall: Sendable, Equatable {
        public var le: Bool
        public var firstRecord: Int
        public var lastRecord: Int
        public var duration: Int64
        public var buffers: Int
    }

    /// Every ACL packet and completion per handle, whether or not a connection owns the handle (a phone's
    /// pseudo-handle, a handle's first unsure packets): what an independent count (tshark's) gives.
    public struct HandleCounts: Sendable, Equatable {
        public var tx = 0
        public var rx = 0
        public var completed = 0
    }

    public static let stallThreshold: Int64 = 1_000_000
    static let maxLinks = ConnectionTracker.maxListed
    static let maxPendingPerHandle = 4096
    static let maxStalls = 50

    /// The links in order of their first packet, changed in place through their addresses (a copy of a `Link`
    /// would copy its latency samples; an `Array` here checked its storage was not shared before every change).
    let links = InPlaceArray<Link>()
    /// The links in order of their first packet (a copy, for the summary and tools).
    public var orderedLinks: [Link] { links.elements }
    /// Where each connection's link is. Touched several times for each ACL packet and completion, by this class
    /// alone and never re-entrantly: no run-time exclusivity checks (each cost about 80 instructions).
    @exclusivity(unchecked) var slot: [Int: Int] = [:]
    /// The last connection looked up and its index (a run of packets is mostly one link's).
    @exclusivity(unchecked) var lastID = -1
    @exclusivity(unchecked) var lastIndex = 0
    /// The link of connection `id`.
    public func link(_ id: Int) -> Link? { slot[id].map { links[$0] } }
    @exclusivity(unchecked) public private(set) var le = Pool()
    @exclusivity(unchecked) public private(set) var bredr = Pool()
    public private(set) var stalls: [Stall] = []
    public private(set) var stallCount = 0
    /// Per connection handle (12 bits): counts and packets not yet completed, made with the first ACL packet.
    let handles = InPlaceArray<HandleState>(capacity: 1)
    struct HandleState {
        var counts = HandleCounts()
        var seen = false
        /// The packets sent on the handle and not completed yet (time, connection), oldest first.
        var pending = PendingQueue()
    }

    /// Every ACL packet and completion per handle that had any.
    public var byHandle: [UInt16: HandleCounts] {
        var out: [UInt16: HandleCounts] = [:]
        for h in 0..<handles.count where handles[h].seen { out[UInt16(h)] = handles[h].counts }
        return out
    }

    /// The state of `handle`, the table made on first use (a handle is 12 bits).
    /// `seen`: the handle had an ACL packet or a completion (a disconnect alone does not list it).
    @inline(__always) func slotOf(_ handle: UInt16, seen: Bool = true) -> Int {
        if handles.isEmpty { handles.append(repeating: HandleState(), count: 0x1000) }
        let h = Int(handle & 0x0FFF)
        if seen { handles[h].seen = true }
        return h
    }

    weak var pipeline: Pipeline?

    /// The ATT layer, for each connection's ATT_MTU. Held strongly, as every reference from one part of the chain
    /// to another that refers to nothing back: an object something refers to weakly keeps a side table, and
    /// each retain and release of it (the ATT layer's: one for every ATT PDU) takes the slow path through it.
    let att: ATTLayer?

    public init(att: ATTLayer? = nil) { self.att = att }

    /// A link's limits with what is known at the end: its ATT_MTU and last connection interval (LE only).
    public func limits(_ l: Link) -> LinkLimits? {
        guard l.le else { return nil }
        var m = l.limits
        if l.sniffed, let s = sniffedLink(l) {
            if let (tx, rx) = s.dataLength { m.txOctets = tx; m.rxOctets = rx }
            if let p = s.phy { m.txPHY = p.centralToPeripheral; m.rxPHY = p.peripheralToCentral }
        }
        m.attMTU = att?.seenMTU[l.connection]?.mtu
        m.interval = pipeline?.connections.connection(id: l.connection)?.interval
        return m
    }

    public func attach(to pipeline: Pipeline) {
        // Fed at decode time (`Chain`), where the record kind is known: no look at other events, no copy of a body.
        self.pipeline = pipeline
    }

    func observeACL(_ e: TraceEvent) {
        guard let a = e.acl, e.direction != .unknown else { return }
        let s = slotOf(a.handle)
        if e.direction == .hostToController { handles[s].counts.tx += 1 } else { handles[s].counts.rx += 1 }
        guard let c = e.connection else { return }
        acl(a, connection: c, e)
        if let h = e.l2cap?.cid, h == 0x0005 { signaling(e, handle: a.handle) }
    }

    func observe(_ ev: HCIEventBody, _ e: TraceEvent) {
        if ev.code == 0x3E { parameterEvent(ev, e) }
        switch ev.params {
        case let .completedPackets(list):
            for k in 0..<list.count {
                let (h, n) = list.pair(k)
                handles[slotOf(h)].counts.completed += n
                completed(handle: h, count: n, e)
            }
        case let .disconnectionComplete(0, h, _):
            // The controller flushes what was still queued on the link and frees its buffers.
            var dropped = 0
            let s = slotOf(h, seen: false)
            while handles[s].pending.pop() != nil { dropped += 1 }
            if dropped > 0, let id = e.connection ?? pipeline?.connections.latest(h)?.id, let i = slot[id] {
                updatePool(le: links[i].le) { p in p.outstanding = max(0, p.outstanding - dropped); p.fullSince = nil }
            }
        case let .le(_, .dataLengthChange(h, tx, _, rx, _)):
            if let i = linkIndex(handle: h, e) {
                links[i].limits.txOctets = Int(tx)
                links[i].limits.rxOctets = Int(rx)
            }
        case let .le(_, .phyUpdate(0, h, tx, rx)):
            if let i = linkIndex(handle: h, e) {
                links[i].limits.txPHY = tx
                links[i].limits.rxPHY = rx
            }
        case let .commandComplete(cc):
            switch cc.decoded {
            case let .leBufferSize(length, count):
                if count > 0 { le.count = Int(count); le.length = Int(length) }
            case let .bufferSize(aclLength, _, aclCount, _):
                bredr.count = Int(aclCount); bredr.length = Int(aclLength)
            default:
                break
            }
        default:
            break
        }
    }

    /// The frame's channel (its dynamic channel's requester CID, else its CID), PSM, length and whether it
    /// starts an SDU, read field by field (a copy of the header would retain the SDU it may hold); nil without a
    /// complete frame.
    @inline(__always) static func frame(_ e: TraceEvent) -> Link.Frame? {
        guard let cid = e.l2cap?.cid, let length = e.l2cap?.length else { return nil }
        return Link.Frame(channel: e.l2cap?.channel ?? cid, psm: e.l2cap?.psm, length: length, sdu: e.l2cap?.sduLength != nil ? 1 : 0)
    }

    /// The link of an HCI event about `handle` (made if the connection has none yet).
    func linkIndex(handle: UInt16, _ e: TraceEvent) -> Int? {
        guard let id = e.connection ?? pipeline?.connections.latest(handle)?.id else { return nil }
        return index(id, handle: handle)
    }

    /// The index of connection `id`'s link, if it has one.
    func existingIndex(_ id: Int) -> Int? {
        if id == lastID { return lastIndex }
        guard let i = slot[id] else { return nil }
        lastID = id
        lastIndex = i
        return i
    }

    func index(_ id: Int, handle: UInt16) -> Int? {
        if let i = existingIndex(id) { return i }
        guard links.count < LinkStatistics.maxLinks else { return nil }
        let le = pipeline?.connections.connection(id: id)?.le ?? true
        slot[id] = links.count
        links.append(Link(connection: id, handle: handle, le: le))
        return links.count - 1
    }

    func acl(_ a: ACLHeader, connection id: Int, _ e: TraceEvent) {
        guard let i = index(id, handle: a.handle) else { return }
        let tx = e.direction == .hostToController
        // One access to the link for its way's counts and the frame's channel.
        let le = links[i].packet(Int(a.length), frame: LinkStatistics.frame(e), tx: tx, at: e.timestamp)
        if tx {
            handles[slotOf(a.handle)].pending.push(e.timestamp, connection: id)
            takeBuffer(le: le, e)
        }
    }

    func completed(handle: UInt16, count n: Int, _ e: TraceEvent) {
        for _ in 0..<max(0, min(n, 0xFFFF)) {
            guard let (sent, id) = handles[slotOf(handle)].pending.pop() else {
                if let c = e.connection ?? pipeline?.connections.latest(handle)?.id, let i = existingIndex(c) {
                    links[i].completedUnmatched += 1
                }
                continue
            }
            if let i = existingIndex(id) {
                links[i].completed += 1
                links[i].latency.add(e.timestamp.micros - sent.micros)
                releaseBuffer(le: links[i].le, e)
            }
        }
    }

    func updatePool(le isLE: Bool, _ body: (inout Pool) -> Void) {
        if isLE && le.count != nil { body(&le) } else { body(&bredr) }
    }

    /// A packet sent: one more buffer in use. The pool is changed in place by a static function, not a closure
    /// (closures made for each packet were called out of line).
    func takeBuffer(le isLE: Bool, _ e: TraceEvent) {
        if isLE && le.count != nil { Pool.take(&le, e) } else { Pool.take(&bredr, e) }
    }

    /// A packet completed: its buffer free again, and a stall ended if every buffer had been taken for too long.
    func releaseBuffer(le isLE: Bool, _ e: TraceEvent) {
        let pooledLE = isLE && le.count != nil
        let stall = pooledLE ? Pool.release(&le, le: true, e) : Pool.release(&bredr, le: false, e)
        if let s = stall {
            stallCount += 1
            if stalls.count < LinkStatistics.maxStalls { stalls.append(s) }
        }
    }

}

extension LinkStatistics.Pool {
    @inline(__always) static func take(_ p: inout LinkStatistics.Pool, _ e: TraceEvent) {
        p.outstanding += 1
        p.maxOutstanding = max(p.maxOutstanding, p.outstanding)
        p.overTime.add(p.outstanding, at: e.timestamp)
        if let c = p.count, p.outstanding >= c, p.fullSince == nil { p.fullSince = (e.record, e.timestamp) }
    }

    /// Returns the stall a release ends (`le`: the LE pool's own buffers).
    @inline(__always) static func release(_ p: inout LinkStatistics.Pool, le: Bool, _ e: TraceEvent) -> LinkStatistics.Stall? {
        var stall: LinkStatistics.Stall?
        p.outstanding = max(0, p.outstanding - 1)
        p.overTime.add(p.outstanding, at: e.timestamp)
        if let since = p.fullSince, let c = p.count, p.outstanding < c {
            let waited = e.timestamp.micros - since.time.micros
            if waited > LinkStatistics.stallThreshold {
                stall = LinkStatistics.Stall(le: le, firstRecord: since.record, lastRecord: e.record, duration: waited, buffers: c)
            }
            p.fullSince = nil
        }
        return stall
    }
}

/// The packets sent on one handle and not completed yet, oldest first (a ring of at most 4096: a host that
/// never sees completions must not grow it without end; the oldest are dropped).
struct PendingQueue {
    /// The queued packets are `head..<end` of the two lists; storage past `end` is kept for reuse, so a queue that
    /// empties and fills again (most links, most of the time) neither frees nor grows it.
    var times: [Int64] = []
    var connections: [Int] = []
    var head = 0
    var end = 0

    mutating func push(_ t: Timestamp, connection: Int) {
        if end - head >= LinkStatistics.maxPendingPerHandle { head += 1 }
        if head > 1024 && head * 2 > end {
            // Moves the queued packets to the front.
            for i in 0..<(end - head) {
                times[i] = times[head + i]
                connections[i] = connections[head + i]
            }
            end -= head
            head = 0
        }
        if end < times.count {
            times[end] = t.micros
            connections[end] = connection
        } else {
            times.append(t.micros)
            connections.append(connection)
        }
        end += 1
    }

    @inline(__always) mutating func pop() -> (Timestamp, Int)? {
        guard head < end else { return nil }
        let out = (Timestamp(micros: times[head]), connections[head])
        head += 1
        if head == end { head = 0; end = 0 }
        return out
    }
}
