/// The broadcast view of LE Audio: each broadcast the local side synchronised to (a sink, or an assistant
/// scanning for one) or created (a source), in one place: the advertiser and its announcement (Broadcast_ID,
/// broadcast name), the periodic advertising sync, the BASE it carries, the BIG and its BISes with their
/// connections and ISO data, how it ended; and the BASS receive states a scan delegator reported. Summary
/// section `broadcasts`. Bounded: 64 broadcasts, 256 announcing advertisers, 64 receive-state sources of 32
/// states each.
public final class Broadcasts: AnalysisLayer {
    public struct Broadcast: Sendable {
        public var advertiser: BDAddr?
        public var advertiserType: AddressType?
        public var sid: UInt8?
        public var syncHandle: UInt16?
        public var syncRecord: Int?
        /// 1.25 ms units.
        public var paInterval: UInt16?
        public var syncLostRecord: Int?
        var base: BroadcastAudioData.BASE?
        public var baseRecord: Int?
        public var big: UInt8?
        /// The local side created the BIG (a source), rather than synchronised to it.
        public var created = false
        /// BIS indices asked for in LE BIG Create Sync.
        public var requestedBIS: [UInt8] = []
        public var encrypted: Bool?
        public var bigRecord: Int?
        public var bigStatus: UInt8?
        public var bisHandles: [UInt16] = []
        /// 1.25 ms units.
        public var isoInterval: UInt16?
        public var endRecord: Int?
        public var endReason: UInt8?
        public var endLost = false
    }

    /// One Broadcast Receive State value a server reported, when it changed.
    public struct ReceiveState: Sendable {
        public var record: Int
        public var paSyncState: UInt8
        public var bigEncryption: UInt8
        /// Some subgroup's BIS_Sync bit set (0xFFFFFFFF: "failed to sync" is not).
        public var bisSynced: Bool
    }

    /// A source a scan delegator reported on a connection, with its states in order.
    public struct ReceiveSource: Sendable {
        public var connection: Int
        public var sourceID: UInt8
        public var address: BDAddr
        public var broadcastID: UInt32
        public var states: [ReceiveState] = []
    }

    public private(set) var broadcasts: [Broadcast] = []
    public private(set) var receiveSources: [ReceiveSource] = []
    /// What advertisers announced: Broadcast_ID and broadcast name.
    var announced: [BDAddr: (id: UInt32?, name: String?)] = [:]
    var bySync: [UInt16: Int] = [:]
    var byBIG: [UInt8: Int] = [:]
    static let maxBroadcasts = 64, maxAnnounced = 256, maxSources = 64, maxStates = 32

    /// The ISO streams (held strongly: they refer to nothing back).
    let iso: ISOStreams?
    weak var pipeline: Pipeline?

    public init(iso: ISOStreams?) {
        self.iso = iso
    }

    public func attach(to pipeline: Pipeline) {
        self.pipeline = pipeline
    }

    func hciEvent(_ body: HCIEventBody, _ e: TraceEvent) {
        switch body.params {
        case let .le(_, .iso(event)): self.event(event, record: e.record)
        case let .commandComplete(c):
            // The local host ended its sync to a BIG (LE BIG Terminate Sync): its BISes closed by the host.
            if c.status == 0, case let .iso(.bigSyncTerminated(big)) = c.decoded { ended(big, reason: 0x16, lost: false, record: e.record) }
        default: break
        }
    }

    func hciCommand(_ c: HCICommandBody) {
        guard case let .iso(p) = c.params else { return }
        command(p)
    }

    func value(_ d: Dissection, _ ctx: ValueContext) {
        guard !ctx.fromClient, ctx.uuid == Broadcasts.receiveStateUUID, let s = d.value as? BASSDissector.ReceiveState else { return }
        receive(s, connection: ctx.connection, record: ctx.record)
    }

    static let receiveStateUUID = BLEUUID(UInt16(0x2BC8))

    func command(_ p: ISOCommandParams) {
        switch p {
        case let .bigCreateSync(s):
            guard let i = bySync[s.syncHandle] else { return }
            broadcasts[i].big = s.big
            broadcasts[i].requestedBIS = Array(s.bis)
            broadcasts[i].encrypted = s.encryption != 0
            byBIG[s.big] = i
        case let .createBIG(c):
            guard broadcasts.count < Broadcasts.maxBroadcasts else { return }
            var b = Broadcast()
            b.big = c.big
            b.created = true
            broadcasts.append(b)
            byBIG[c.big] = broadcasts.count - 1
        default:
            break
        }
    }

    func event(_ e: ISOEvent, record: Int) {
        switch e {
        case let .periodicSyncEstablished(s) where s.status == 0:
            guard broadcasts.count < Broadcasts.maxBroadcasts else { return }
            var b = Broadcast()
            b.advertiser = s.address
            b.advertiserType = AddressType(hci: s.addressType, address: s.address)
            b.sid = s.sid
            b.syncHandle = s.handle
            b.syncRecord = record
            b.paInterval = s.interval
            broadcasts.append(b)
            bySync[s.handle] = broadcasts.count - 1
        case let .periodicReport(r):
            guard let i = bySync[r.syncHandle], broadcasts[i].base == nil, r.dataStatus == 0 else { return }
            for ad in ADSequence(r.data) where ad.type == 0x16 && ad.data.count >= 2 {
                let s = ad.data.startIndex
                guard UInt16(ad.data[s]) | UInt16(ad.data[s + 1]) << 8 == 0x1851,
                      let base = try? BroadcastAudioData.BASE.parse(ad.data.dropFirst(2)) else { continue }
                broadcasts[i].base = base
                broadcasts[i].baseRecord = record
            }
        case let .periodicSyncLost(h):
            if let i = bySync[h] { broadcasts[i].syncLostRecord = record }
        case let .bigInfo(info):
            if let i = bySync[info.syncHandle], broadcasts[i].encrypted == nil { broadcasts[i].encrypted = info.encryption != 0 }
        case let .bigEstablished(g):
            guard let i = byBIG[g.big] else { return }
            broadcasts[i].bigRecord = record
            broadcasts[i].bigStatus = g.status
            broadcasts[i].bisHandles = g.handles
            broadcasts[i].isoInterval = g.isoInterval
        case let .bigEnded(big, reason, lost):
            ended(big, reason: reason, lost: lost, record: record)
        default:
            break
        }
    }

    func ended(_ big: UInt8, reason: UInt8, lost: Bool, record: Int) {
        guard let i = byBIG.removeValue(forKey: big) else { return }
        broadcasts[i].endRecord = record
        broadcasts[i].endReason = reason
        broadcasts[i].endLost = lost
    }

    /// Broadcast_ID (service data 0x1852) and Broadcast Name (AD type 0x30) of an advertiser. Only extended
    /// advertising with an advertising set (SID) can have the periodic advertising a broadcast needs.
    func announcement(_ r: AdvertisingReport) {
        guard r.sid != nil else { return }
        var id: UInt32?, name: String?
        for ad in ADSequence(r.data) {
            if ad.type == 0x16, ad.data.count == 5 {
                let s = ad.data.startIndex
                if UInt16(ad.data[s]) | UInt16(ad.data[s + 1]) << 8 == 0x1852 {
                    id = UInt32(ad.data[s + 2]) | UInt32(ad.data[s + 3]) << 8 | UInt32(ad.data[s + 4]) << 16
                }
            } else if ad.type == 0x30 {
                name = String(validating: ad.data, as: UTF8.self)
            }
        }
        guard id != nil || name != nil, announced[r.address] != nil || announced.count < Broadcasts.maxAnnounced else { return }
        let old = announced[r.address]
        announced[r.address] = (id ?? old?.id, name ?? old?.name)
    }

    func receive(_ s: BASSDissector.ReceiveState, connection: Int, record: Int) {
        let state = ReceiveState(record: record, paSyncState: s.paSyncState, bigEncryption: s.bigEncryption,
                                 bisSynced: s.subgroups.contains { $0.bisSync != 0 && $0.bisSync != 0xFFFF_FFFF })
        let i: Int
        if let found = receiveSources.firstIndex(where: { $0.connection == connection && $0.sourceID == s.sourceID }) {
            i = found
        } else {
            guard receiveSources.count < Broadcasts.maxSources else { return }
            receiveSources.append(ReceiveSource(connection: connection, sourceID: s.sourceID, address: s.source.address,
                                                broadcastID: s.source.broadcastID))
            i = receiveSources.count - 1
        }
        if let last = receiveSources[i].states.last, last.paSyncState == state.paSyncState,
           last.bigEncryption == state.bigEncryption, last.bisSynced == state.bisSynced { return }
        if receiveSources[i].states.count < Broadcasts.maxStates { receiveSources[i].states.append(state) }
        else { receiveSources[i].states[Broadcasts.maxStates - 1] = state }
    }

    public func summary() -> SummarySection? {
        guard !broadcasts.isEmpty || !receiveSources.isEmpty else { return nil }
        let rows = broadcasts.map { b -> BroadcastRow in
            let conns = b.bisHandles.map { h in
                pipeline?.connections.all.last { c in c.handle == h && c.iso != nil && (b.bigRecord.map { c.openedRecord ?? 0 >= $0 } ?? true) }?.id
            }
            let ids = Set(conns.compactMap { $0 })
            let data = (iso?.streams ?? []).filter { $0.connection.map(ids.contains) ?? false }
            return BroadcastRow(broadcast: b, announced: b.advertiser.flatMap { announced[$0] }, bisConnections: conns, iso: data)
        }
        let sources = receiveSources
        return SummarySection(name: "broadcasts", value: { .object(BroadcastRow.fields(rows, sources)) },
                              text: { BroadcastRow.text(rows, sources) })
    }
}

/// A broadcast with what the end of the capture joins to it: its advertiser's announcement, its BISes'
/// connections and their ISO data.
struct BroadcastRow {
    var broadcast: Broadcasts.Broadcast
    var announced: (id: UInt32?, name: String?)?
    var bisConnections: [Int?]
    var iso: [ISOStreams.Stream]
}
