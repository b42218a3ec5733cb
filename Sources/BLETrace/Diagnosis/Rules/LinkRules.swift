/// Link rules: how connections end or fail to start (Core 5.4 Vol 1 Part F error codes).

/// `link_lost` (supervision timeout), `connection_not_established` (0x3E), `procedure_timeout` (0x22) and
/// `connection_parameters_rejected` (0x3B) from disconnects and connection completes.
final class LinkEndRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.hciEvent] }

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        switch h.params {
        case let .disconnectionComplete(0, _, reason):
            let c = ctx.connection(e.connection)
            var f = DiagnosisFacts(reason: reason)
            f.interval = c?.interval
            f.timeout = c?.timeout
            let id: DiagnosisID
            switch reason {
            case 0x08:
                id = .linkLost
                if let c, let heard = ctx.lastHeard(c.id) {
                    f.silenceMicros = e.timestamp.micros &- heard.time
                    ctx.raise(Diagnosis(id: id, facts: f, peer: c.peer, connection: c.id, evidence: [e.record, heard.record]))
                    return
                }
            case 0x3E: id = .connectionNotEstablished
            case 0x22: id = .procedureTimeout
            case 0x3B: id = .connectionParametersRejected
            default: return
            }
            ctx.raise(Diagnosis(id: id, facts: f, peer: c?.peer, connection: c?.id, evidence: [e.record]))
        case let .le(sub, .connectionComplete(c)) where (sub == 0x01 || sub == 0x0A) && c.status == 0x3E:
            ctx.raise(Diagnosis(id: .connectionNotEstablished, facts: DiagnosisFacts(reason: c.status),
                                peer: c.peer.value == 0 ? ctx.pendingPeer : c.peer, evidence: [e.record]))
        case let .connectionComplete(status, _, address, _, _) where LinkEndRule.classicFailure(status):
            // BR/EDR: the page was not answered (Page Timeout 0x04) or the peer refused or failed the connection.
            ctx.raise(Diagnosis(id: .connectionNotEstablished, facts: DiagnosisFacts(reason: status), peer: address, evidence: [e.record]))
        // Unacceptable Connection Parameters, Invalid LL Parameters, Unsupported LL Parameter Value: the peer refused.
        case let .le(_, .connectionUpdate(status, _, _, _, _)) where [0x3B, 0x1E, 0x20].contains(status):
            let c = ctx.connection(e.connection)
            ctx.raise(Diagnosis(id: .connectionParametersRejected, facts: DiagnosisFacts(reason: status), peer: c?.peer,
                                connection: c?.id, evidence: [e.record]))
        default:
            return
        }
    }
}

extension LinkEndRule {
    /// A BR/EDR Connection Complete status that means the connection failed on the air or at the peer: not the
    /// host's own cancel (0x02 Unknown Connection Identifier after Create Connection Cancel), an existing
    /// connection (0x0B) or a command refusal the Command Status already gave (0x01, 0x0C, 0x11, 0x12).
    static func classicFailure(_ status: UInt8) -> Bool {
        switch status {
        case 0x04, 0x05, 0x06, 0x08, 0x0D, 0x0E, 0x0F, 0x13, 0x14, 0x15, 0x1F, 0x22, 0x28, 0x3E: return true
        default: return false
        }
    }
}

/// `connection_parameters_rejected` from the L2CAP Connection Parameter Update Response (result 1, rejected).
final class ParameterUpdateRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.signaling] }

    override func signaling(_ s: SignalingBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard case let .connectionParameterUpdateResponse(result)? = s.command, result != 0 else { return }
        let c = ctx.connection(e.connection)
        // The response comes from the side that refused: the local host refused the peer's request, or the reverse.
        var f = DiagnosisFacts(reason: UInt8(truncatingIfNeeded: result), byLocal: e.direction == .hostToController)
        f.interval = c?.interval
        ctx.raise(Diagnosis(id: .connectionParametersRejected, facts: f, peer: c?.peer, connection: c?.id, evidence: [e.record]))
    }
}

/// On a sniffer's capture, what LL_REJECT_IND and LL_REJECT_EXT_IND refuse: the encryption procedure (LL_ENC_REQ
/// answered with an error: `encryption_failed`, the key or its bond missing on one side) or a connection update
/// (Unacceptable Connection Parameters 0x3B: `connection_parameters_rejected`). The error code is the rejecter's.
final class SniffedRejectRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.linkLayer] }

    override func linkLayer(_ ll: LinkLayerBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard case let .control(c) = ll.content else { return }
        let rejected: UInt8?, code: UInt8
        switch c.parameters {
        case let .error(x) where c.opcode == 0x0D: rejected = nil; code = x // LL_REJECT_IND answers LL_ENC_REQ only
        case let .rejectExtended(op, x): rejected = op; code = x
        default: return
        }
        let conn = ctx.connection(e.connection)
        // A sniffer's capture has no local side: `byLocal` stays unknown. `opcode`: the LL PDU refused.
        var f = DiagnosisFacts(reason: code, opcode: UInt16(rejected ?? 0x03), byLocal: nil)
        f.interval = conn?.interval
        if code == 0x3B || rejected == 0x0F || rejected == 0x00 {
            ctx.raise(Diagnosis(id: .connectionParametersRejected, facts: f, peer: conn?.peer, connection: conn?.id, evidence: [e.record]))
        } else if rejected == nil || rejected == 0x03 {
            ctx.raise(Diagnosis(id: .encryptionFailed, facts: f, peer: conn?.peer, connection: conn?.id, evidence: [e.record]))
        }
    }
}

/// `reconnect_loop`: three or more connections to one peer ending in failure within five minutes.
final class ReconnectLoopRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.hciEvent] }
    /// Failures per peer: (record, time); at most 64 per peer and 10,000 peers.
    @exclusivity(unchecked) var failures: [UInt64: [(record: Int, time: Int64)]] = [:]
    static let window: Int64 = 300_000_000
    static let failureReasons: Set<UInt8> = [0x08, 0x22, 0x3D, 0x3E, 0x28, 0x1F, 0x05, 0x06]

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        var peer: BDAddr?
        switch h.params {
        case let .disconnectionComplete(0, _, reason) where ReconnectLoopRule.failureReasons.contains(reason):
            peer = ctx.connection(e.connection)?.peer
        case let .le(sub, .connectionComplete(c)) where (sub == 0x01 || sub == 0x0A) && c.status == 0x3E:
            peer = c.peer.value == 0 ? ctx.pendingPeer : c.peer
        case let .connectionComplete(status, _, address, _, _) where LinkEndRule.classicFailure(status):
            peer = address
        default:
            return
        }
        guard let p = peer, p.value != 0 else { return }
        if failures[p.value] == nil && failures.count >= 10_000 { return }
        if failures[p.value, default: []].count < 64 { failures[p.value, default: []].append((e.record, e.timestamp.micros)) }
    }

    override func finish(_ ctx: DiagnosisContext) {
        // In order of each peer's first failure: the grouped diagnosis's evidence must not depend on hashing.
        for (peer, list) in failures.sorted(by: { ($0.value.first?.record ?? 0) < ($1.value.first?.record ?? 0) }) where list.count >= 3 {
            // The densest five-minute window.
            var best = 0, bestStart = 0, j = 0
            for i in list.indices {
                while list[i].time &- list[j].time > ReconnectLoopRule.window { j += 1 }
                if i - j + 1 > best { best = i - j + 1; bestStart = j }
            }
            guard best >= 3 else { continue }
            let recs = list[bestStart..<(bestStart + best)].map(\.record)
            var f = DiagnosisFacts(number: best)
            f.micros = list[bestStart + best - 1].time &- list[bestStart].time
            // The loop spans its failures: first to last.
            var d = Diagnosis(id: .reconnectLoop, facts: f, peer: BDAddr(peer), evidence: recs)
            d.lastRecord = recs.last ?? d.lastRecord
            ctx.raise(d)
        }
    }
}

/// `peer_restarted`: a peer that advertises for new connections while the local side still holds its link, is
/// not heard on the link again, and the link then ends in a supervision timeout: it left the link without a word
/// (a reset or crash). Phones and computers advertise while connected, so the advert alone proves nothing; the
/// silence and the timeout that follow do. Never after a failed connection (0x3E), a link the host closed, or a
/// supervision timeout (advertising then is what a peripheral does). On a sniffer's capture: a peripheral that
/// advertises after its link's last packet from it, while the central goes on polling the link (the sniffer
/// still follows it: it did not lose both sides).
final class PeerRestartRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.hciEvent, .advertising] }
    /// HCI captures: the open connections' peers (address → connection id), and each connection's handle.
    @exclusivity(unchecked) var openPeers: [UInt64: Int] = [:]
    @exclusivity(unchecked) var handles: [UInt16: UInt64] = [:]
    /// HCI captures, per open connection: the first connectable advert from its peer while it was open.
    @exclusivity(unchecked) var advertisedWhileOpen: [Int: Int] = [:]
    /// Sniffer captures, per connection: the first connectable advert from its peripheral after the link's last
    /// packet from the peripheral (bounded by the open connections). Each side's last packet is the link layer's.
    @exclusivity(unchecked) var candidates: [Int: Int] = [:]
    static let maxTracked = 10_000

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        switch h.change {
        case let .opened(handle, peer, _, _, _, _, _, le)? where le && peer.value != 0:
            guard let id = e.connection, openPeers.count < PeerRestartRule.maxTracked else { return }
            openPeers[peer.value] = id
            handles[handle] = peer.value
        case let .closed(handle, reason)?:
            if let p = handles.removeValue(forKey: handle) { openPeers[p] = nil }
            guard let id = e.connection, let advert = advertisedWhileOpen.removeValue(forKey: id), reason == 0x08 else { return }
            // Not heard on the link after the advert: it had left it.
            if let heard = ctx.lastHeard(id), heard.record > advert { return }
            let c = ctx.connection(id)
            ctx.raise(Diagnosis(id: .peerRestarted, facts: DiagnosisFacts(reason: reason), peer: c?.peer, connection: id,
                                evidence: [advert, e.record] + (ctx.lastHeard(id).map { [$0.record] } ?? [])))
        default:
            return
        }
    }

    /// A sniffed connection's last good packet from the central and from the peripheral (0: none yet).
    static func lastPackets(_ id: Int, _ ctx: DiagnosisContext) -> (central: Int, peripheral: Int)? {
        guard let l = ctx.pipeline?.linkLayerIfUsed?.linkOrder.first(where: { $0.connection?.id == id }) else { return nil }
        return (l.events.lastGoodRecord[0], l.events.lastGoodRecord[1])
    }

    override func advertised(_ report: AdvertisingReport, record: Int, at time: Timestamp, _ ctx: DiagnosisContext) {
        guard report.connectable else { return }
        let a = report.address.value
        if !openPeers.isEmpty, let id = openPeers[a] {
            // The first advert after the peer was last heard (a later packet from it starts the watch again).
            if let at = advertisedWhileOpen[id], (ctx.lastHeard(id)?.record ?? 0) < at { return }
            if let opened = ctx.connection(id)?.openedRecord, opened < record { advertisedWhileOpen[id] = record }
            return
        }
        guard ctx.sniffed, let open = ctx.pipeline?.connections.open else { return }
        for c in open.values where c.peer?.value == a && c.closedRecord == nil {
            guard let opened = c.openedRecord, opened < record, let data = Self.lastPackets(c.id, ctx)?.peripheral, data > opened else { continue }
            if let cand = candidates[c.id], cand > data { continue }
            candidates[c.id] = record
        }
    }

    override func finish(_ ctx: DiagnosisContext) {
        for (id, advert) in candidates.sorted(by: { $0.value < $1.value }) {
            guard let c = ctx.connection(id), let last = Self.lastPackets(id, ctx), last.peripheral < advert,
                  last.central > advert else { continue }
            let data = last.peripheral, polled = last.central
            ctx.raise(Diagnosis(id: .peerRestarted, facts: DiagnosisFacts(), peer: c.peer, connection: id, evidence: [advert, data, polled]))
        }
        candidates.removeAll()
    }
}

/// `supervision_timeout_short`: an LE link whose supervision timeout covers fewer than four of the connection
/// events in which the peripheral must answer (interval × (1 + latency)): legal when over twice that span
/// (Core 5.4 Vol 6 Part B 4.5.2), but a few missed packets in a row end the link. Once per connection.
final class SupervisionTimeoutRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.hciEvent] }
    @exclusivity(unchecked) var raised: Set<Int> = []
    static let minimumEvents = 4

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        let interval: Int, latency: Int, timeout: Int
        switch h.change {
        case let .opened(_, _, _, _, i, l, t, le)? where le: interval = i; latency = l; timeout = t
        case let .updated(_, i, l, t)?: interval = i; latency = l; timeout = t
        default: return
        }
        guard let id = e.connection, interval > 0, timeout > 0, !raised.contains(id), raised.count < 10_000 else { return }
        // Timeout in 10 ms units, interval in 1.25 ms units: events = timeout × 8 / (interval × (1 + latency)).
        let span = interval * (1 + latency)
        let events = timeout * 8 / span
        guard events < SupervisionTimeoutRule.minimumEvents else { return }
        guard let c = ctx.connection(id), c.le else { return }
        raised.insert(id)
        // The event count in `stage` (kept from the first occurrence when grouped), the latency in `result`.
        var f = DiagnosisFacts(stage: UInt8(clamping: events))
        f.result = UInt16(clamping: latency)
        f.interval = interval
        f.timeout = timeout
        ctx.raise(Diagnosis(id: .supervisionTimeoutShort, facts: f, peer: c.peer, connection: id, evidence: [e.record]))
    }
}

/// `interference`: on a sniffed link, data channels whose packet error rate is at least 20 % and three times the
/// median of the link's channels (each with 20 packets or more): something transmits on those frequencies.
final class InterferenceRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [] }
    static let minimumPackets = 20

    override func finish(_ ctx: DiagnosisContext) {
        guard let ll = ctx.pipeline?.linkLayerIfUsed else { return }
        for l in ll.linkOrder {
            guard let counts = l.channels, let opened = l.connectRecord else { continue }
            let rated = counts.enumerated().filter { $0.element.packets >= InterferenceRule.minimumPackets }
            guard rated.count >= 3 else { continue }
            let rates = rated.map { $0.element.per ?? 0 }.sorted()
            let median = rates[rates.count / 2]
            let outliers = rated.filter { ($0.element.per ?? 0) >= 0.2 && ($0.element.per ?? 0) >= 3 * median }
            guard !outliers.isEmpty else { continue }
            var facts = DiagnosisFacts(number: Int((median * 1000).rounded()))
            facts.channels = outliers.map(\.offset)
            facts.channelPerMille = outliers.map { Int((($0.element.per ?? 0) * 1000).rounded()) }
            ctx.raise(Diagnosis(id: .interference, facts: facts, peer: l.peripheral, connection: l.connection?.id,
                                evidence: [opened]))
        }
    }
}
