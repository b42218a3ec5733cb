/// Link rules: how connections end or fail to start (Core 5.4 Vol 1 Part F error codes).

/// `link_lost` (supervision timeout), `connection_not_established` (0x3E), `procedure_timeout` (0x22) and
/// `connection_parameters_rejected` (0x3B) from disconnects and connection completes.
final class LinkEndRule: DiagnosisRule {
    let inputs: [DiagnosisInput] = [.hciEvent]

    func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
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
        case let .le(_, .connectionUpdate(status, _, _, _, _)) where status == 0x3B:
            let c = ctx.connection(e.connection)
            ctx.raise(Diagnosis(id: .connectionParametersRejected, facts: DiagnosisFacts(reason: status), peer: c?.peer,
                                connection: c?.id, evidence: [e.record]))
        default:
            return
        }
    }
}

/// `connection_parameters_rejected` from the L2CAP Connection Parameter Update Response (result 1, rejected).
final class ParameterUpdateRule: DiagnosisRule {
    let inputs: [DiagnosisInput] = [.signaling]

    func signaling(_ s: SignalingBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard case let .connectionParameterUpdateResponse(result)? = s.command, result != 0 else { return }
        let c = ctx.connection(e.connection)
        // The response comes from the side that refused: the local host refused the peer's request, or the reverse.
        var f = DiagnosisFacts(reason: UInt8(truncatingIfNeeded: result), byLocal: e.direction == .hostToController)
        f.interval = c?.interval
        ctx.raise(Diagnosis(id: .connectionParametersRejected, facts: f, peer: c?.peer, connection: c?.id, evidence: [e.record]))
    }
}

/// `reconnect_loop`: three or more connections to one peer ending in failure within five minutes.
final class ReconnectLoopRule: DiagnosisRule {
    let inputs: [DiagnosisInput] = [.hciEvent]
    /// Failures per peer: (record, time); at most 64 per peer and 10,000 peers.
    @exclusivity(unchecked) var failures: [UInt64: [(record: Int, time: Int64)]] = [:]
    static let window: Int64 = 300_000_000
    static let failureReasons: Set<UInt8> = [0x08, 0x22, 0x3D, 0x3E, 0x28, 0x1F, 0x05, 0x06]

    func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        var peer: BDAddr?
        switch h.params {
        case let .disconnectionComplete(0, _, reason) where ReconnectLoopRule.failureReasons.contains(reason):
            peer = ctx.connection(e.connection)?.peer
        case let .le(sub, .connectionComplete(c)) where (sub == 0x01 || sub == 0x0A) && c.status == 0x3E:
            peer = c.peer.value == 0 ? ctx.pendingPeer : c.peer
        default:
            return
        }
        guard let p = peer, p.value != 0 else { return }
        if failures[p.value] == nil && failures.count >= 10_000 { return }
        if failures[p.value, default: []].count < 64 { failures[p.value, default: []].append((e.record, e.timestamp.micros)) }
    }

    func finish(_ ctx: DiagnosisContext) {
        for (peer, list) in failures where list.count >= 3 {
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
            ctx.raise(Diagnosis(id: .reconnectLoop, facts: f, peer: BDAddr(peer), evidence: recs))
        }
    }
}

/// `peer_restarted`: a peer whose link was lost or never established advertises again within 15 s, or (on a
/// sniffer's capture) a peer advertises while its connection is still open: it probably reset.
final class PeerRestartRule: DiagnosisRule {
    let inputs: [DiagnosisInput] = [.hciEvent, .advertising]
    /// Peers whose link just failed: the failure's record, time and connection. Bounded.
    @exclusivity(unchecked) var watched: [UInt64: (record: Int, time: Int64, connection: Int?)] = [:]
    /// Sniffer captures, per connection: the first advert from its peripheral after the link's last data PDU
    /// (bounded by the open connections). Decided at the end: data after it means the link was still alive.
    @exclusivity(unchecked) var candidates: [Int: Int] = [:]
    static let window: Int64 = 15_000_000

    func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        switch h.params {
        case let .disconnectionComplete(0, _, reason) where reason == 0x08 || reason == 0x3E:
            if let c = ctx.connection(e.connection), let p = c.peer { watch(p, e, c.id) }
        case let .le(sub, .connectionComplete(c)) where (sub == 0x01 || sub == 0x0A) && c.status == 0x3E:
            if let p = c.peer.value == 0 ? ctx.pendingPeer : c.peer { watch(p, e, nil) }
        default:
            return
        }
    }

    func watch(_ p: BDAddr, _ e: TraceEvent, _ conn: Int?) {
        guard p.value != 0, watched.count < 1000 || watched[p.value] != nil else { return }
        watched[p.value] = (e.record, e.timestamp.micros, conn)
    }

    func advertised(_ report: AdvertisingReport, record: Int, at time: Timestamp, _ ctx: DiagnosisContext) {
        let a = report.address.value
        if !watched.isEmpty, let w = watched[a] {
            let gap = time.micros &- w.time
            if gap >= 0 && gap <= PeerRestartRule.window {
                var f = DiagnosisFacts()
                f.micros = gap
                ctx.raise(Diagnosis(id: .peerRestarted, facts: f, peer: report.address, connection: w.connection, evidence: [record, w.record]))
            }
            if gap > PeerRestartRule.window || gap >= 0 { watched[a] = nil }
            return
        }
        // A sniffed peripheral that advertises while its connection is open, after the link carried data and
        // with no data after it, has left the connection: it reset.
        guard ctx.sniffed, report.connectable, let open = ctx.pipeline?.connections.open else { return }
        for c in open.values where c.peer?.value == a && c.closedRecord == nil {
            guard let opened = c.openedRecord, opened < record, let data = ctx.lastHeard(c.id)?.record, data > opened else { continue }
            if let cand = candidates[c.id], cand > data { continue }
            candidates[c.id] = record
        }
    }

    func finish(_ ctx: DiagnosisContext) {
        for (id, advert) in candidates.sorted(by: { $0.value < $1.value }) {
            guard let c = ctx.connection(id), let data = ctx.lastHeard(id), data.record < advert else { continue }
            ctx.raise(Diagnosis(id: .peerRestarted, facts: DiagnosisFacts(), peer: c.peer, connection: id, evidence: [advert, data.record]))
        }
        candidates.removeAll()
    }
}

/// `interference`: on a sniffed link, data channels whose packet error rate is at least 20 % and three times the
/// median of the link's channels (each with 20 packets or more): something transmits on those frequencies.
final class InterferenceRule: DiagnosisRule {
    let inputs: [DiagnosisInput] = []
    static let minimumPackets = 20

    func finish(_ ctx: DiagnosisContext) {
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
