/// LE Audio rules over the isochronous control plane (Core 5.4 Vol 4 Part E 7.8.97–7.8.109) and the streams.

/// `cis_not_established`, `big_sync_failed` and `big_sync_lost`: LE Create CIS, LE BIG Create Sync and LE
/// Periodic Advertising Create Sync answered with a failure or never answered; a BIG sync or periodic sync
/// lost; a periodic sync that never reported a BIGInfo and was not used for a BIG.
final class IsochronousSetupRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.hciCommand, .hciEvent] }
    /// CIS handles created and not yet established: the Create CIS record (at most 64).
    @exclusivity(unchecked) var pendingCIS: [UInt16: Int] = [:]
    @exclusivity(unchecked) var pendingBIG: [UInt8: Int] = [:]
    @exclusivity(unchecked) var pendingSync: (record: Int, address: BDAddr)?
    /// Periodic syncs established: their record, whether a BIGInfo came, whether a BIG sync was asked over them.
    @exclusivity(unchecked) var syncs: [UInt16: (record: Int, address: BDAddr, bigInfo: Bool, used: Bool)] = [:]
    static let maxPending = 64

    override func hciCommand(_ c: HCICommandBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard case let .iso(p) = c.params else { return }
        switch p {
        case let .createCIS(pairs):
            for pair in pairs where pendingCIS.count < IsochronousSetupRule.maxPending { pendingCIS[pair.cis] = e.record }
        case let .bigCreateSync(s):
            pendingBIG[s.big] = e.record
            syncs.modifyValue(forKey: s.syncHandle) { $0.used = true }
        case let .periodicCreateSync(s):
            pendingSync = (e.record, s.address)
        default:
            break
        }
    }

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        switch h.params {
        case let .commandStatus(status, _, opcode) where status != 0:
            if opcode == 0x2064 {
                for (handle, record) in pendingCIS.sorted(by: { $0.value < $1.value }) {
                    raise(.cisNotEstablished, .cisFailed(handle: handle, answered: true), reason: status, ctx, evidence: [e.record, record])
                }
                pendingCIS.removeAll()
            } else if opcode == 0x206B {
                for (big, record) in pendingBIG { raise(.bigSyncFailed, .bigSyncFailed(big: big, answered: true), reason: status, ctx, evidence: [e.record, record]) }
                pendingBIG.removeAll()
            } else if opcode == 0x2044, let p = pendingSync {
                raise(.bigSyncFailed, .periodicSyncFailed(address: p.address, answered: true), reason: status, ctx, evidence: [e.record, p.record])
                pendingSync = nil
            }
        case let .le(_, .iso(i)):
            switch i {
            case let .cisEstablished(c):
                guard let created = pendingCIS.removeValue(forKey: c.handle) else { return }
                if c.status != 0 {
                    raise(.cisNotEstablished, .cisFailed(handle: c.handle, answered: true), reason: c.status, ctx, evidence: [e.record, created])
                }
            case let .bigEstablished(g) where !g.created:
                let asked = pendingBIG.removeValue(forKey: g.big)
                if g.status != 0 {
                    raise(.bigSyncFailed, .bigSyncFailed(big: g.big, answered: true), reason: g.status, ctx, evidence: [e.record] + (asked.map { [$0] } ?? []))
                }
            case let .bigEnded(big, reason, lost) where lost:
                raise(.bigSyncLost, .bigSyncLost(big: big), reason: reason, ctx, evidence: [e.record])
            case let .periodicSyncEstablished(s):
                let asked = pendingSync
                pendingSync = nil
                if s.status != 0 {
                    raise(.bigSyncFailed, .periodicSyncFailed(address: s.address, answered: true), reason: s.status, ctx,
                          evidence: [e.record] + (asked.map { [$0.record] } ?? []))
                } else if syncs.count < IsochronousSetupRule.maxPending {
                    syncs[s.handle] = (e.record, s.address, false, false)
                }
            case let .bigInfo(b):
                syncs.modifyValue(forKey: b.syncHandle) { $0.bigInfo = true }
            case let .periodicSyncLost(handle):
                raise(.bigSyncLost, .periodicSyncLost(sync: handle), reason: nil, ctx, evidence: [e.record])
                syncs[handle] = nil
            default:
                break
            }
        default:
            break
        }
    }

    override func finish(_ ctx: DiagnosisContext) {
        for (handle, record) in pendingCIS.sorted(by: { $0.value < $1.value }) {
            raise(.cisNotEstablished, .cisFailed(handle: handle, answered: false), reason: nil, ctx, evidence: [record])
        }
        for (big, record) in pendingBIG.sorted(by: { $0.value < $1.value }) {
            raise(.bigSyncFailed, .bigSyncFailed(big: big, answered: false), reason: nil, ctx, evidence: [record])
        }
        if let p = pendingSync { raise(.bigSyncFailed, .periodicSyncFailed(address: p.address, answered: false), reason: nil, ctx, evidence: [p.record]) }
        for (handle, s) in syncs.sorted(by: { $0.value.record < $1.value.record }) where !s.bigInfo && !s.used {
            var f = DiagnosisFacts()
            f.iso = .noBIGInfo(sync: handle)
            ctx.raise(Diagnosis(id: .bigSyncFailed, severity: .warning, facts: f, peer: s.address, evidence: [s.record]))
        }
    }

    func raise(_ id: DiagnosisID, _ problem: ISOProblem, reason: UInt8?, _ ctx: DiagnosisContext, evidence: [Int]) {
        var f = DiagnosisFacts()
        f.reason = reason
        f.iso = problem
        var peer: BDAddr?
        if case let .periodicSyncFailed(a, _) = problem { peer = a }
        ctx.raise(Diagnosis(id: id, facts: f, peer: peer, evidence: evidence))
    }
}

/// `iso_path_missing` and `iso_data_loss`, at the end: each CIS or BIS with no ISO data path (its setup
/// failed, or none was asked for), or an HCI data path no data used; and each stream that lost SDUs.
final class IsochronousDataRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.hciCommand, .hciEvent] }
    /// Failed LE Setup ISO Data Path: the handle's Command Complete record and status (the command names the
    /// handle; the failed return may not).
    @exclusivity(unchecked) var failedPaths: [UInt16: (record: Int, status: UInt8)] = [:]
    @exclusivity(unchecked) var lastPathHandle: UInt16?

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard case let .commandComplete(cc) = h.params, cc.opcode == 0x206E, let status = cc.status, status != 0 else { return }
        var handle = lastPathHandle
        if case let .iso(.handle(x)) = cc.decoded { handle = x }
        if let handle, failedPaths.count < 256 { failedPaths[handle] = (e.record, status) }
    }

    override func hciCommand(_ c: HCICommandBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        if case let .iso(.setupDataPath(d)) = c.params { lastPathHandle = d.handle }
    }

    override func finish(_ ctx: DiagnosisContext) {
        guard let p = ctx.pipeline else { return }
        let streams = ctx.isoStreams?.streams ?? []
        for c in p.connections.all {
            guard let link = c.iso, let opened = c.openedRecord else { continue }
            var f = DiagnosisFacts()
            if link.dataPaths == 0 {
                let failed = failedPaths[c.handle]
                f.reason = failed?.status
                f.iso = .pathMissing(handle: c.handle, setupFailed: failed != nil)
                ctx.raise(Diagnosis(id: .isoPathMissing, facts: f, peer: c.peer, connection: c.id, evidence: [failed?.record ?? opened, opened]))
                continue
            }
            for output in [false, true] where link.hciPaths & (output ? 2 : 1) != 0 {
                // Input: the host sends SDUs to the controller; output: the controller delivers them.
                let used = streams.contains { $0.connection == c.id && $0.outgoing == !output && $0.packets > 0 }
                guard !used else { continue }
                // A CIS direction with no payload (max PDU 0: no ASE streams that way) has nothing to carry.
                if case .cis = link.kind {
                    let incoming = (c.role ?? 0) == 0 ? link.maxPDU.pToC : link.maxPDU.cToP
                    let outgoing = (c.role ?? 0) == 0 ? link.maxPDU.cToP : link.maxPDU.pToC
                    if (output ? incoming : outgoing) == 0 { continue }
                }
                f.iso = .pathWithoutData(handle: c.handle, output: output)
                ctx.raise(Diagnosis(id: .isoPathMissing, facts: f, peer: c.peer, connection: c.id, evidence: [opened]))
            }
        }
        for s in streams where s.missing + s.lost + s.invalid > 0 {
            var f = DiagnosisFacts()
            f.iso = .dataLoss(handle: s.handle, outgoing: s.outgoing, missing: s.missing, flaggedLost: s.lost, invalid: s.invalid, sdus: s.sdus)
            let first = [s.firstGapRecord, s.firstLostRecord].compactMap { $0 }.min() ?? s.firstRecord
            ctx.raise(Diagnosis(id: .isoDataLoss, facts: f, peer: s.connection.flatMap { p.connections.connection(id: $0)?.peer },
                                connection: s.connection, evidence: [first]))
        }
    }
}
