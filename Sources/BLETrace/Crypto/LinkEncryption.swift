/// The encryption of one sniffed link: the sessions started with LL_ENC_REQ / LL_ENC_RSP, the key each
/// uses (found from the pairing the capture shows, the keys it distributes, or the user's), the per-direction
/// packet counters, and what was decrypted.
///
/// Counters: each side's counter starts at 0 with the session and advances by one for each new non-empty
/// PDU it sends (retransmissions never reach here). A packet the sniffer missed leaves a gap: when the
/// expected counter does not verify, the next few are tried and the counter moves on to the one that does.
public final class LinkEncryption {
    struct Request {
        var ediv: UInt16
        var rand: [UInt8]
        var skdm: [UInt8]
        var ivm: [UInt8]
        var record: Int
    }

    var request: Request?
    var skds: [UInt8]?
    var ivs: [UInt8]?
    var cipher: LECCM?
    var keyTried = false
    var counters: [UInt64] = [0, 0]
    /// The counter of each side's last decrypted PDU: a PDU sent again after its acknowledgement was lost
    /// carries it again.
    var lastCounters: [UInt64?] = [nil, nil]
    static let lookAhead: UInt64 = 4

    /// Pairings seen on this link (the last one is the one the next encryption uses).
    public internal(set) var pairings: [SniffedPairing] = []
    /// For each pairing, the TK found (legacy) or nil.
    public internal(set) var tk: Int?
    public internal(set) var tkSearched = false
    /// The TK was searched against a MIC for the current pairing (once per pairing).
    var micSearched = false
    /// The pairing's method and whether it was LE Secure Connections.
    public internal(set) var method: PairingMethod?
    public internal(set) var secureConnections = false
    /// Keys used by this link's sessions, in order.
    public internal(set) var keysUsed: [FoundKey] = []
    /// The LTK the capture showed or the user gave (distributed, debug keys, given).
    public internal(set) var ltk: FoundKey?
    /// Every LTK the pairing distributed: the key (MSB first), who sent it and its record (at most 16).
    public internal(set) var distributedLTKs: [(key: [UInt8], fromCentral: Bool, record: Int)] = []
    public internal(set) var sessions = 0
    public internal(set) var decrypted = 0
    public internal(set) var micFailures = 0
    public internal(set) var notDecrypted = 0
    public internal(set) var firstMICFailure: Int?
    /// Why the link's PDUs could not be decrypted.
    public internal(set) var problem: EncryptionProblem?
    /// An Encryption Information LTK waiting for its Central Identification, per side.
    var pendingLTK: [([UInt8], Int)?] = [nil, nil]
    var pendingIRK: [([UInt8], Int)?] = [nil, nil]

    /// A pairing, a key, or an encrypted PDU was seen: the summary reports the link.
    public var worthReporting: Bool {
        method != nil || tk != nil || ltk != nil || decrypted + micFailures + notDecrypted > 0
    }

    // MARK: Sessions

    func encryptionRequest(ediv: UInt16, rand: ArraySlice<UInt8>, skd: ArraySlice<UInt8>, iv: ArraySlice<UInt8>, record: Int) {
        request = Request(ediv: ediv, rand: Array(rand), skdm: Array(skd), ivm: Array(iv), record: record)
        skds = nil; ivs = nil
        cipher = nil
        keyTried = false
    }

    func encryptionResponse(skd: ArraySlice<UInt8>, iv: ArraySlice<UInt8>) {
        skds = Array(skd); ivs = Array(iv)
        cipher = nil
        keyTried = false
        counters = [0, 0]
        lastCounters = [nil, nil]
        sessions += 1
    }

    /// The link's encryption paused (LL_PAUSE_ENC_RSP): the next session starts with a new LL_ENC_REQ.
    func pause() {
        cipher = nil
        request = nil
    }

    // MARK: Decryption

    public enum Outcome {
        case plaintext([UInt8], LLDirection)
        /// The same PDU as the side's last one (its counter again): sent again, not decoded twice.
        case repeated(LLDirection)
        case micFailure
        case noKey
    }

    /// Decrypts one encrypted PDU's payload (with its MIC). `inferred`: the direction was guessed from timing,
    /// so the other direction is tried too.
    func decrypt(_ payload: ArraySlice<UInt8>, header: UInt8, direction: LLDirection, inferred: Bool, record: Int,
                 link: LinkLayerDecoder.Link, ring: KeyRing) -> Outcome {
        if cipher == nil && !keyTried {
            keyTried = true
            chooseKey(payload, header: header, direction: direction, inferred: inferred, link: link, ring: ring)
        }
        guard let c = cipher else {
            notDecrypted += 1
            return .noKey
        }
        if let (plain, dir) = attempt(c, payload, header: header, direction: direction, inferred: inferred, advance: true) {
            decrypted += 1
            return .plaintext(plain, dir)
        }
        for d in inferred ? [direction, direction.opposite] : [direction] {
            let side = d == .centralToPeripheral ? 0 : 1
            if let last = lastCounters[side], c.verifies(payload, header: header, counter: last, fromCentral: d == .centralToPeripheral) {
                return .repeated(d)
            }
        }
        micFailures += 1
        if firstMICFailure == nil { firstMICFailure = record }
        return .micFailure
    }

    /// Tries the expected counter of the direction, then a few after it (missed packets); with an inferred
    /// direction, the other direction too. Moves the counter past the one that verified.
    func attempt(_ c: LECCM, _ payload: ArraySlice<UInt8>, header: UInt8, direction: LLDirection, inferred: Bool,
                 advance: Bool) -> ([UInt8], LLDirection)? {
        let dirs = inferred ? [direction, direction.opposite] : [direction]
        for skip in 0...LinkEncryption.lookAhead {
            for d in dirs {
                let side = d == .centralToPeripheral ? 0 : 1
                let counter = counters[side] &+ skip
                if let plain = c.decrypt(payload, header: header, counter: counter, fromCentral: d == .centralToPeripheral) {
                    if advance {
                        counters[side] = counter &+ 1
                        lastCounters[side] = counter
                    }
                    return (plain, d)
                }
            }
        }
        return nil
    }

    /// Picks the key of the session just started, checking each candidate against its first encrypted packet.
    func chooseKey(_ payload: ArraySlice<UInt8>, header: UInt8, direction: LLDirection, inferred: Bool,
                   link l: LinkLayerDecoder.Link, ring: KeyRing) {
        guard let q = request, let sd = skds, let iv = ivs else { return }
        let zero = q.ediv == 0 && q.rand.allSatisfy { $0 == 0 }
        var candidates: [FoundKey] = []
        let pairing = pairings.last
        if zero, let p = pairing {
            if secureConnections {
                if let k = p.debugKeyLTK(central: l.central ?? BDAddr(0), centralRandomAddress: l.centralType.map { $0 != .public } ?? false,
                                         peripheral: l.peripheral ?? BDAddr(0), peripheralRandomAddress: l.peripheralType.map { $0 != .public } ?? false) {
                    let found = FoundKey(key: k, source: .debugKeys, isSTK: false)
                    ltk = found
                    ring.addPaired(found, devices: [l.central, l.peripheral].compactMap { $0 })
                    candidates.append(found)
                }
            } else {
                if !tkSearched { crackConfirm(p, l, ring) }
                if let t = tk, let stk = stk(p, l, tk: t) { candidates.append(FoundKey(key: stk, source: .crackedTK(t), isSTK: true)) }
            }
        }
        candidates += ring.candidates(ediv: q.ediv, rand: q.rand, central: l.central, peripheral: l.peripheral)
        for k in candidates {
            guard let c = SessionKey.cipher(key: k.key, skdm: q.skdm[...], skds: sd[...], ivm: q.ivm[...], ivs: iv[...]) else { continue }
            if attempt(c, payload, header: header, direction: direction, inferred: inferred, advance: false) != nil {
                use(c, k)
                return
            }
        }
        defer {
            // The user's own key is used even when it fails, so that each PDU is flagged as a MIC failure.
            if cipher == nil, let k = candidates.first(where: { if case .given = $0.source { return true } else { return false } }),
               let c = SessionKey.cipher(key: k.key, skdm: q.skdm[...], skds: sd[...], ivm: q.ivm[...], ivs: iv[...]) {
                cipher = c
                keysUsed.append(k)
            }
        }
        // Legacy pairing without its confirm values: search the TK against this packet's MIC.
        if zero, let p = pairing, !secureConnections, tk == nil, method != .outOfBand, !micSearched,
           let inputs = p.legacyInputs(central: l.central ?? BDAddr(0), centralRandomAddress: l.centralType.map { $0 != .public } ?? false,
                                       peripheral: l.peripheral ?? BDAddr(0), peripheralRandomAddress: l.peripheralType.map { $0 != .public } ?? false) {
            let skdm = q.skdm, ivm = q.ivm, counter = direction == .centralToPeripheral ? counters[0] : counters[1]
            let fromCentral = direction == .centralToPeripheral
            let packet = Array(payload)
            micSearched = true
            let all = method != .justWorks && ring.takeSearch()
            if let t = LegacyCracker.searchMIC(inputs, allPasskeys: all, verify: { stk in
                SessionKey.cipher(key: stk, skdm: skdm[...], skds: sd[...], ivm: ivm[...], ivs: iv[...])?
                    .verifies(packet[...], header: header, counter: counter, fromCentral: fromCentral) == true
            }) {
                tk = t
                if let stk = stk(p, l, tk: t), let c = SessionKey.cipher(key: stk, skdm: q.skdm[...], skds: sd[...], ivm: q.ivm[...], ivs: iv[...]) {
                    use(c, FoundKey(key: stk, source: .crackedTK(t), isSTK: true))
                    return
                }
            }
        }
        if secureConnections && zero {
            // The debug key pair gave an LTK, and it does not decrypt the link: say that, not "LTK needed" next
            // to the LTK the summary shows.
            problem = candidates.contains { $0.source == .debugKeys } ? .debugKeyFails : .secureConnectionsLTKNeeded
        } else if method == .outOfBand && zero && !secureConnections {
            problem = .outOfBand
        } else if candidates.contains(where: { if case .given = $0.source { return true } else { return false } }) {
            problem = .givenKeyFails
        } else if zero && pairing != nil && !secureConnections {
            problem = .notCracked
        } else {
            problem = .ltkNeeded
        }
    }

    func use(_ c: LECCM, _ k: FoundKey) {
        cipher = c
        keysUsed.append(k)
        if !k.isSTK && ltk == nil { ltk = k }
        problem = nil
    }

    // MARK: Pairing

    /// Takes an SMP PDU of this link (decrypted or sent in the clear).
    func smp(_ bytes: ArraySlice<UInt8>, fromCentral: Bool, record: Int, link l: LinkLayerDecoder.Link, ring: KeyRing) {
        guard let code = bytes.first else { return }
        let side = fromCentral ? 0 : 1
        if code == 0x01 {
            if pairings.count >= 16 { pairings.removeFirst() }
            pairings.append(SniffedPairing(record: record))
            tk = nil; tkSearched = false; micSearched = false; method = nil; secureConnections = false
        }
        guard !pairings.isEmpty else {
            distributedKey(bytes, side: side, record: record, l, ring)
            return
        }
        pairings[pairings.count - 1].take(bytes, fromCentral: fromCentral)
        let p = pairings[pairings.count - 1]
        if code == 0x02, let m = p.method { method = m.method; secureConnections = m.secureConnections }
        // Both randoms: legacy pairing's TK can be searched now (even if the link never gets encrypted).
        if code == 0x04, !secureConnections, !tkSearched, p.centralRandom != nil, p.peripheralRandom != nil {
            crackConfirm(p, l, ring)
        }
        distributedKey(bytes, side: side, record: record, l, ring)
    }

    func distributedKey(_ bytes: ArraySlice<UInt8>, side: Int, record: Int, _ l: LinkLayerDecoder.Link, _ ring: KeyRing) {
        guard let pdu = try? SMPPDU.parse(bytes) else { return }
        let devices = [l.central, l.peripheral].compactMap { $0 }
        switch pdu {
        case let .encryptionInformation(key):
            let k = LEBytes.value(key)
            pendingLTK[side] = (k, record)
            if distributedLTKs.count < 16 { distributedLTKs.append((k, side == 0, record)) }
            ring.addDistributed(KeyRing.Distributed(ltk: k, ediv: nil, rand: nil, record: record, devices: devices))
            if ltk == nil || side == 1 { ltk = FoundKey(key: k, source: .distributed(record: record), isSTK: false) }
        case let .centralIdentification(ediv, rand):
            guard let (k, rec) = pendingLTK[side] else { return }
            pendingLTK[side] = nil
            if let i = ring.distributed.lastIndex(where: { $0.record == rec }) {
                ring.distributed[i].ediv = ediv
                ring.distributed[i].rand = Array(rand)
            } else {
                ring.addDistributed(KeyRing.Distributed(ltk: k, ediv: ediv, rand: Array(rand), record: rec, devices: devices))
            }
        case let .identityInformation(irk):
            pendingIRK[side] = (LEBytes.value(irk), record)
            if ring.irks.count < KeyRing.maxKeys { ring.irks.append((LEBytes.value(irk), nil, record)) }
        case let .identityAddressInformation(_, address):
            if let (_, rec) = pendingIRK[side], let i = ring.irks.lastIndex(where: { $0.record == rec }) {
                ring.irks[i].identity = address
            }
            pendingIRK[side] = nil
        default:
            break
        }
    }

    /// Searches legacy pairing's TK with the confirm values (Just Works: TK 0 only; Passkey Entry: all).
    func crackConfirm(_ p: SniffedPairing, _ l: LinkLayerDecoder.Link, _ ring: KeyRing) {
        tkSearched = true
        guard method != .outOfBand, let c = l.central, let per = l.peripheral,
              let inputs = p.legacyInputs(central: c, centralRandomAddress: l.centralType.map { $0 != .public } ?? false,
                                          peripheral: per, peripheralRandomAddress: l.peripheralType.map { $0 != .public } ?? false),
              inputs.mconfirm != nil || inputs.sconfirm != nil else { return }
        tk = LegacyCracker.searchConfirm(inputs, allPasskeys: method != .justWorks && ring.takeSearch())
    }

    func stk(_ p: SniffedPairing, _ l: LinkLayerDecoder.Link, tk: Int) -> [UInt8]? {
        guard let mr = p.centralRandom, let sr = p.peripheralRandom else { return nil }
        return LegacyPairingFunctions.s1(k: LegacyPairingFunctions.tk(passkey: tk), r1: LEBytes.value(sr), r2: LEBytes.value(mr))
    }
}

/// Why a link's encrypted PDUs stay encrypted.
public enum EncryptionProblem: String, Sendable {
    case secureConnectionsLTKNeeded
    case outOfBand
    case givenKeyFails
    case notCracked
    case ltkNeeded
    case debugKeyFails

    public var text: String {
        switch self {
        case .debugKeyFails: return "the LTK derived from the debug key pair does not decrypt the link (MIC failure): a side may have used another key; LTK needed (--ltk)"
        case .secureConnectionsLTKNeeded: return "LE Secure Connections: LTK needed (--ltk)"
        case .outOfBand: return "legacy pairing with OOB data: the TK cannot be cracked; LTK needed (--ltk)"
        case .givenKeyFails: return "the given LTK does not decrypt the link (MIC failure)"
        case .notCracked: return "legacy pairing: no TK matched; LTK needed (--ltk)"
        case .ltkNeeded: return "LTK needed (--ltk)"
        }
    }
}
