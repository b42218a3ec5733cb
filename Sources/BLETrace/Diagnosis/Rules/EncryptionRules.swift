/// Encryption rules: stored keys that no longer match, encryption that failed, requests refused for lack of
/// security, and links whose security is weak.

/// `bond_lost` (PIN or Key Missing: one side forgot the bond) and `encryption_failed` (MIC failure, other errors);
/// BR/EDR `pairing_rejected_by_user` (the local host's User Confirmation or Passkey Request Negative Reply),
/// which is then the cause of the authentication failure that follows, not a lost bond.
final class EncryptionRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.hciEvent, .hciCommand] }
    /// BR/EDR: Link Key Request Negative Reply per peer address (record), waiting for an authentication failure.
    @exclusivity(unchecked) var noLinkKey: [UInt64: Int] = [:]

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        switch h.params {
        case let .encryptionChange(status, _, _, _) where status != 0, let .encryptionKeyRefresh(status, _) where status != 0:
            raise(status == 0x06 ? .bondLost : .encryptionFailed, status, e, ctx)
        case let .disconnectionComplete(0, _, reason) where reason == 0x06 || reason == 0x3D:
            raise(reason == 0x06 ? .bondLost : .encryptionFailed, reason, e, ctx)
        case let .classic(.authenticationComplete(status, _)) where status != 0,
             let .classic(.simplePairingComplete(status, _)) where status != 0:
            // A failure after the host said it had no link key for a peer it was bonded with.
            guard let c = ctx.connection(e.connection), let p = c.peer, let at = noLinkKey.removeValue(forKey: p.value) else { return }
            ctx.raise(Diagnosis(id: .bondLost, facts: DiagnosisFacts(reason: status, opcode: 0x040C), peer: p, connection: c.id,
                                evidence: [e.record, at]))
        default:
            return
        }
    }

    override func hciCommand(_ c: HCICommandBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        switch c.opcode {
        case 0x201B: // LE Long Term Key Request Negative Reply: the peripheral has no key for the central.
            let conn = ctx.connection(e.connection)
            ctx.raise(Diagnosis(id: .bondLost, facts: DiagnosisFacts(opcode: 0x201B, byLocal: true), peer: conn?.peer,
                                connection: conn?.id, evidence: [e.record]))
        case 0x040C: // Link Key Request Negative Reply
            if case let .classic(.addressOnly(a)) = c.params, noLinkKey.count < 1000 { noLinkKey[a.value] = e.record }
        case 0x042D, 0x042F: // User Confirmation / User Passkey Request Negative Reply: the local user said no.
            guard case let .classic(.addressOnly(a)) = c.params else { return }
            // The pairing that follows fails because of it: a rejection, not a lost bond.
            noLinkKey[a.value] = nil
            let conn = ctx.pipeline?.connections.all.last { $0.peer == a && !$0.le && $0.closedRecord == nil }
            ctx.raise(Diagnosis(id: .pairingRejectedByUser, facts: DiagnosisFacts(reason: c.opcode == 0x042D ? 0x0C : 0x01, opcode: c.opcode, byLocal: true),
                                peer: a, connection: conn?.id, evidence: [e.record]))
        default:
            return
        }
    }

    func raise(_ id: DiagnosisID, _ code: UInt8, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        let c = ctx.connection(e.connection)
        ctx.raise(Diagnosis(id: id, facts: DiagnosisFacts(reason: code), peer: c?.peer, connection: c?.id, evidence: [e.record]))
    }
}

/// `insufficient_security`: an ATT request refused for lack of authentication, encryption or key size (0x05,
/// 0x0F, 0x0C) or authorization (0x08), not followed on that connection by encryption and a successful retry.
final class InsufficientSecurityRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.attError, .attResponse, .hciEvent, .linkLayer] }
    struct Refusal {
        var record: Int
        var code: UInt8
        var opcode: UInt8
        var location: GATTLocation?
        var byLocal: Bool
        var count: Int
    }
    /// Per connection, per attribute handle: the first refusal (bounded to 64 handles per connection).
    @exclusivity(unchecked) var refused: [Int: [UInt16: Refusal]] = [:]
    /// Connections encrypted after a refusal.
    @exclusivity(unchecked) var encryptedAfter: Set<Int> = []
    static let codes: Set<UInt8> = [0x05, 0x0F, 0x0C, 0x08]

    override func att(_ a: ATTEvent, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard let id = e.connection else { return }
        if case let .pdu(.errorResponse(req, handle, code)) = a.content {
            guard InsufficientSecurityRule.codes.contains(code) else { return }
            if refused[id] == nil && refused.count >= 10_000 { return }
            if var r = refused[id]?[handle] {
                r.count += 1
                refused.modifyValue(forKey: id) { $0[handle] = r }
            } else if refused[id, default: [:]].count < 64 {
                refused[id, default: [:]][handle] = Refusal(record: e.record, code: code, opcode: req, location: a.location,
                                                            byLocal: a.peerIsServer, count: 1)
            }
            return
        }
        // A successful answer to a retried request on a refused handle, once the link is encrypted.
        guard !encryptedAfter.isEmpty, a.request != nil, encryptedAfter.contains(id), refused[id] != nil, let h = a.handle else { return }
        let emptied = refused.modifyValue(forKey: id) { r in r.removeValue(forKey: h) != nil && r.isEmpty }
        if emptied == true { refused[id] = nil }
    }

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard let id = e.connection else { return }
        switch h.params {
        case let .encryptionChange(0, _, enabled, _) where enabled != 0:
            if refused[id] != nil { encryptedAfter.insert(id) }
        case .disconnectionComplete(0, _, _):
            close(id, ctx)
        default:
            return
        }
    }

    override func linkLayer(_ ll: LinkLayerBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard let id = e.connection else { return }
        if case let .control(c) = ll.content, (0x03...0x06).contains(c.opcode), refused[id] != nil { encryptedAfter.insert(id) }
    }

    func close(_ id: Int, _ ctx: DiagnosisContext) {
        guard let list = refused.removeValue(forKey: id) else { return }
        let encrypted = encryptedAfter.remove(id) != nil
        let c = ctx.connection(id)
        // One diagnosis per connection: the first refused attribute names it, the others are counted.
        let sorted = list.sorted(by: { $0.value.record < $1.value.record })
        guard let (h, r) = sorted.first else { return }
        var f = DiagnosisFacts(reason: r.code, opcode: UInt16(r.opcode), handle: h, location: r.location, byLocal: r.byLocal,
                               number: sorted.reduce(0) { $0 + $1.value.count })
        f.attributes = sorted.count
        f.recovered = encrypted
        // Sniffed: once the link is encrypted, a retry may be among the PDUs the sniffer could not decrypt.
        var severity: DiagnosisSeverity? = nil
        if ctx.sniffed && f.recovered {
            let undecrypted = ctx.pipeline.map(EncryptionSummary.entries)?.first { $0.connection == id }?.encryption.notDecrypted ?? 0
            f.limit = undecrypted > 0 ? .undecrypted(pdus: undecrypted) : .snifferMayHaveMissed
            severity = .info
        }
        ctx.raise(Diagnosis(id: .insufficientSecurity, severity: severity, facts: f, peer: c?.peer, connection: id,
                            evidence: sorted.map(\.value.record)))
    }

    override func finish(_ ctx: DiagnosisContext) {
        for id in refused.keys.sorted() { close(id, ctx) }
    }
}

/// `weak_security`: legacy pairing (crackable), Just Works where MITM was possible or asked for, a key shorter
/// than 16 bytes, the LE Secure Connections debug key, encryption after a pairing that never completed.
final class WeakSecurityRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.smp, .hciEvent, .linkLayer] }
    /// LE Secure Connections pairings per connection: whether public keys and the DHKey check were seen.
    @exclusivity(unchecked) var secure: [Int: (record: Int, publicKeys: Int, dhkeyCheck: Bool)] = [:]
    @exclusivity(unchecked) var reportedKeySize: Set<Int> = []

    override func smp(_ s: SMPBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard let id = e.connection else { return }
        switch s.pdu {
        case let .pairingResponse(r)?:
            if let q = s.request, q.secureConnections && r.secureConnections, secure.count < 10_000 { secure[id] = (e.record, 0, false) }
            // The responder must refuse a maximum key size outside 7–16 (Core 5.4 Vol 3 Part H 3.5.1) with Pairing
            // Failed; answering with a Pairing Response accepts it.
            // The request's size first, then the response's (compared in place: no list made per pairing).
            let valid: ClosedRange<UInt8> = 7...16
            if let q = s.request?.maxKeySize, !valid.contains(q) {
                raise(.invalidKeySize(Int(q)), byLocal: nil, e, ctx)
            } else if !valid.contains(r.maxKeySize) {
                raise(.invalidKeySize(Int(r.maxKeySize)), byLocal: nil, e, ctx)
            }
        case let .identityInformation(k)?: zero("IRK", k, e, ctx)
        case let .signingInformation(k)?: zero("CSRK", k, e, ctx)
        case let .encryptionInformation(k)?: zero("LTK", k, e, ctx)
        case .pairingPublicKey?: secure.modifyValue(forKey: id) { $0.publicKeys += 1 }
        case .pairingDHKeyCheck?: secure.modifyValue(forKey: id) { $0.dhkeyCheck = true }
        case .pairingFailed?: secure[id] = nil
        default: return
        }
    }

    func raise(_ w: Weakness, byLocal: Bool?, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        let c = ctx.connection(e.connection)
        ctx.raise(Diagnosis(id: .weakSecurity, facts: DiagnosisFacts(byLocal: byLocal, weakness: w), peer: c?.peer, connection: c?.id,
                            evidence: [e.record]))
    }

    /// A key of all zeros, from the side that sent it (none on a sniffer's capture).
    func zero(_ name: String, _ key: ArraySlice<UInt8>, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard !key.isEmpty, key.allSatisfy({ $0 == 0 }) else { return }
        raise(.zeroKey(name), byLocal: ctx.sniffed ? nil : e.direction == .hostToController, e, ctx)
    }

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard let id = e.connection else { return }
        switch h.params {
        case let .encryptionChange(0, _, enabled, size) where enabled != 0:
            encrypted(id, e, ctx)
            if let s = size, s < 16, s > 0, !reportedKeySize.contains(id), reportedKeySize.count < 10_000 {
                reportedKeySize.insert(id)
                raise(.keySize(Int(s)), byLocal: nil, e, ctx)
            }
        case .disconnectionComplete(0, _, _): secure[id] = nil
        default: return
        }
    }

    override func linkLayer(_ ll: LinkLayerBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard let id = e.connection else { return }
        if case let .control(c) = ll.content, c.opcode == 0x03 { encrypted(id, e, ctx) }
    }

    /// Encryption starts: after an LE Secure Connections pairing with no public keys or DHKey check, the key
    /// cannot have come from that pairing.
    func encrypted(_ id: Int, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard let s = secure.removeValue(forKey: id), s.publicKeys < 2 || !s.dhkeyCheck else { return }
        let c = ctx.connection(id)
        ctx.raise(Diagnosis(id: .weakSecurity, facts: DiagnosisFacts(weakness: .encryptionWithoutPairing), peer: c?.peer, connection: id,
                            evidence: [e.record, s.record]))
    }

    override func finish(_ ctx: DiagnosisContext) {
        // The pairings the SMP layer followed, with what the sniffer's decryption found (cracked TKs, debug keys).
        let cracked = Dictionary(ctx.pipeline.map(EncryptionSummary.entries)?.compactMap { en in en.connection.map { ($0, en.encryption) } } ?? [],
                                 uniquingKeysWith: { a, _ in a })
        guard let smp = ctx.smp else { return }
        // A pairing that produced no key (it stopped before phase 2's random values, encryption or key
        // distribution) has no weak key to find.
        for a in smp.attempts where a.failedReason == nil && (a.randomExchanged || a.encryptionRecord != nil || !a.keys.isEmpty) {
            guard let q = a.request, let r = a.response else { continue }
            let c = ctx.connection(a.connection)
            func raise(_ w: Weakness) {
                ctx.raise(Diagnosis(id: .weakSecurity, facts: DiagnosisFacts(weakness: w), peer: c?.peer, connection: a.connection,
                                    evidence: [a.startRecord] + (a.responseRecord.map { [$0] } ?? [])))
            }
            let sc = q.secureConnections && r.secureConnections
            let link = cracked[a.connection]
            if !sc {
                // Legacy pairing names its method: Just Works there is part of the same weakness, not a second one.
                raise(.legacyPairing(method: a.method, cracked: link?.tk != nil))
            } else if a.method == .justWorks {
                // Only when both sides' IO capabilities allowed an authenticated method: with NoInputNoOutput on one
                // side Just Works is the only method, whatever MITM flag was set.
                var mq = q, mr = r
                mq.authReq |= 0x04; mr.authReq |= 0x04
                let possible = PairingMethodTable.method(initiator: mq, responder: mr).method != .justWorks
                if possible { raise(.justWorksDespiteMITM(mitmRequested: q.mitm || r.mitm)) }
            }
            let size = Int(min(q.maxKeySize, r.maxKeySize))
            if (7..<16).contains(size), !reportedKeySize.contains(a.connection) { raise(.keySize(size)) }
            if link?.pairings.last?.usedDebugKey == true { raise(.debugKey) }
        }
    }
}
