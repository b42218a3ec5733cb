/// Pairing rules (LE SMP, Core 5.4 Vol 3 Part H 3.5.5): why a pairing failed, and pairings that stopped.

/// `pairing_rejected_by_user`, `pairing_wrong_passkey` (Confirm Value Failed in Passkey Entry),
/// `pairing_unsupported`, `pairing_failed` from Pairing Failed, and `pairing_timeout` for a pairing that stops
/// with no SMP PDU for 30 s and no Pairing Failed.
final class PairingRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.smp, .hciEvent, .linkLayer] }

    struct Active {
        var start: Int
        var lastRecord: Int
        var lastTime: Int64
        var request: PairingFeatures?
        var response: PairingFeatures?
        /// The last SMP PDU's code, and the method the features chose.
        var lastCode: UInt8 = 0x01
        var method: PairingMethod?
    }
    /// Pairings under way, per connection (bounded by the open connections).
    @exclusivity(unchecked) var active: [Int: Active] = [:]
    /// The SMP timeout (Core 5.4 Vol 3 Part H 3.4).
    static let timeout: Int64 = 30_000_000

    override func smp(_ s: SMPBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        if !active.isEmpty { expire(now: e.timestamp.micros, record: e.record, ctx) }
        guard let id = e.connection, let pdu = s.pdu else { return }
        switch pdu {
        case let .pairingRequest(p):
            guard active[id] != nil || active.count < 10_000 else { return }
            active[id] = Active(start: e.record, lastRecord: e.record, lastTime: e.timestamp.micros, request: p)
        case let .pairingResponse(p):
            update(id, e) { a in
                a.response = p
                if let q = a.request { a.method = PairingMethodTable.method(initiator: q, responder: p).method }
            }
        case let .pairingFailed(reason):
            let a = active.removeValue(forKey: id)
            failed(reason, a, e, ctx)
        case .securityRequest:
            break
        default:
            update(id, e) { $0.lastCode = pdu.code }
        }
    }

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        if !active.isEmpty { expire(now: e.timestamp.micros, record: e.record, ctx) }
        switch h.params {
        case let .encryptionChange(0, _, enabled, _) where enabled != 0:
            // Phase 2 done: the link is encrypted with the pairing's key; key distribution may follow.
            if let id = e.connection { active[id] = nil }
        case .disconnectionComplete(0, _, _):
            if let id = e.connection, let a = active.removeValue(forKey: id) {
                if e.timestamp.micros &- a.lastTime >= PairingRule.timeout { timedOut(a, id, end: e.record, ctx) }
            }
        default:
            return
        }
    }

    override func linkLayer(_ ll: LinkLayerBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        if !active.isEmpty { expire(now: e.timestamp.micros, record: e.record, ctx) }
        // Sniffed: encryption starting (LL_ENC_REQ … LL_START_ENC_REQ, sent in the clear) ends phase 2 like an
        // Encryption Change; what follows is encrypted, and may not be decrypted.
        if case let .control(c) = ll.content, (0x03...0x06).contains(c.opcode), let id = e.connection { active[id] = nil }
    }

    /// Changes the pairing under way on `id`, if any, and notes `e` as its latest PDU (in place: see `modifyValue`).
    func update(_ id: Int, _ e: TraceEvent, _ change: (inout Active) -> Void) {
        active.modifyValue(forKey: id) { a in
            change(&a)
            a.lastRecord = e.record
            a.lastTime = e.timestamp.micros
        }
    }

    func expire(now: Int64, record: Int, _ ctx: DiagnosisContext) {
        for (id, a) in active where now &- a.lastTime >= PairingRule.timeout {
            active[id] = nil
            timedOut(a, id, end: record, ctx)
        }
    }

    func timedOut(_ a: Active, _ id: Int, end: Int, _ ctx: DiagnosisContext) {
        // Time that went backwards after the pairing started makes the gap meaningless.
        if let b = ctx.timeBackwardsRecord, b > a.start { return }
        var f = DiagnosisFacts()
        f.initiator = a.request
        f.responder = a.response
        f.method = a.method
        f.stage = a.lastCode
        if ctx.sniffed { f.limit = .snifferMayHaveMissed }
        ctx.raise(Diagnosis(id: .pairingTimeout, severity: ctx.sniffed ? .info : nil, facts: f, peer: ctx.connection(id)?.peer,
                            connection: id, evidence: [a.lastRecord, a.start]))
    }

    func failed(_ reason: UInt8, _ a: Active?, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        let id: DiagnosisID
        switch reason {
        case 0x01, 0x0C: id = .pairingRejectedByUser
        // Confirm Value Failed is a wrong passkey only where a passkey was used; in Just Works and Numeric
        // Comparison (or when the method is not known) the confirm check failed for another reason.
        case 0x04: id = a?.method == .passkeyEntry ? .pairingWrongPasskey : .pairingFailed
        case 0x03, 0x05, 0x06: id = .pairingUnsupported
        default: id = .pairingFailed
        }
        var f = DiagnosisFacts(reason: reason, byLocal: ctx.sniffed ? nil : e.direction == .hostToController)
        if id == .pairingUnsupported {
            f.initiator = a?.request
            f.responder = a?.response
        } else if let a {
            f.method = a.method
            f.stage = a.lastCode
        }
        let c = ctx.connection(e.connection)
        ctx.raise(Diagnosis(id: id, facts: f, peer: c?.peer, connection: c?.id, evidence: [e.record] + (a.map { [$0.start] } ?? [])))
    }

    override func finish(_ ctx: DiagnosisContext) {
        guard let end = ctx.lastTime else { return }
        for (id, a) in active.sorted(by: { $0.key < $1.key }) where end &- a.lastTime >= PairingRule.timeout {
            timedOut(a, id, end: ctx.lastRecord, ctx)
        }
        active.removeAll()
    }
}

/// `classic_pairing_incomplete`: BR/EDR Secure Simple Pairing started (IO Capability Request or Response)
/// without Simple Pairing Complete, or Authentication Requested without Authentication Complete.
final class ClassicPairingRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.hciEvent, .hciCommand] }
    /// Per peer address: SSP started at this record (not completed yet).
    @exclusivity(unchecked) var ssp: [UInt64: Int] = [:]
    /// Per handle: Authentication Requested at this record.
    @exclusivity(unchecked) var auth: [UInt16: (record: Int, connection: Int?)] = [:]

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard case let .classic(c) = h.params else { return }
        switch c {
        case let .ioCapabilityRequest(a), let .ioCapabilityResponse(a, _, _, _):
            if ssp[a.value] == nil, ssp.count < 1000 { ssp[a.value] = e.record }
        case let .simplePairingComplete(_, a):
            ssp[a.value] = nil
        case let .authenticationComplete(_, handle):
            auth[handle] = nil
        default:
            return
        }
    }

    override func hciCommand(_ c: HCICommandBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        // Authentication Requested (0x0411).
        guard c.opcode == 0x0411, let h = c.handle, auth.count < 1000 else { return }
        auth[h] = (e.record, e.connection)
    }

    override func finish(_ ctx: DiagnosisContext) {
        for (a, record) in ssp.sorted(by: { $0.value < $1.value }) {
            let conn = ctx.pipeline?.connections.all.last { $0.peer?.value == a && !$0.le }
            ctx.raise(Diagnosis(id: .classicPairingIncomplete, facts: DiagnosisFacts(stage: 1), peer: BDAddr(a), connection: conn?.id,
                                evidence: [record]))
        }
        for (_, x) in auth.sorted(by: { $0.value.record < $1.value.record }) {
            let c = ctx.connection(x.connection)
            ctx.raise(Diagnosis(id: .classicPairingIncomplete, facts: DiagnosisFacts(stage: 2), peer: c?.peer, connection: c?.id,
                                evidence: [x.record]))
        }
    }
}
