/// ATT transactions (Core 5.4 Vol 3 Part F 3.3): pending requests and indications per bearer, responses
/// linked to them, timeouts, and what is left unanswered when a request is replaced or the connection ends.
extension ATTLayer {
    /// Which transaction a PDU belongs to on its connection (Core 5.4 Vol 3 Part F 3.3.2: one request and one
    /// indication outstanding per bearer and direction).
    struct PendingKey: Equatable {
        var bearer: UInt16
        var peerIsServer: Bool
        var indication: Bool
    }

    struct Pending {
        var record: Int
        var time: Timestamp
        var pdu: ATTPDU
    }

    /// Links a response to its pending request (whose PDU is returned) and holds a request until its response; flags
    /// what answers nothing and what a new request leaves unanswered. The pending requests live in the
    /// connection's state: a handful a connection, found by a short scan instead of a hash.
    func transaction(_ pdu: ATTPDU, _ a: inout ATTEvent, state: ConnState, bearer: UInt16, peerIsServer: Bool,
                     record: Int, time: Timestamp, sniffed: Bool = false, _ pipeline: Pipeline) -> ATTPDU? {
        let op = pdu.opcode
        let isIndication = op == 0x1D || op == 0x1E
        var key = PendingKey(bearer: bearer, peerIsServer: peerIsServer, indication: isIndication)
        if sniffed && (ATTNames.isResponse(op) || op == 0x1E),
           state.pendingIndex(key).map({ !ATTLayer.answers(pdu, state.pending[$0].request.pdu) }) ?? true {
            // A sniffer watches two devices from outside and may give a packet the wrong side: a response that
            // answers the request pending from the other side is that request's.
            var other = key
            other.peerIsServer.toggle()
            if let i = state.pendingIndex(other), ATTLayer.answers(pdu, state.pending[i].request.pdu) { key = other }
        }
        if ATTNames.isRequest(op) || op == 0x1D {
            let request = Pending(record: record, time: time, pdu: pdu)
            if let i = state.pendingIndex(key) {
                let old = state.pending[i].request
                state.pending[i].request = request
                flagUnanswered(old, .superseded(by: record, indication: isIndication), pipeline)
            } else {
                state.pending.append((key, request))
            }
            nextDeadline = min(nextDeadline, time.micros + ATTLayer.timeoutMicros)
            pipeline.hold(record)
        } else if ATTNames.isResponse(op) || op == 0x1E {
            if let i = state.pendingIndex(key) {
                if ATTLayer.answers(pdu, state.pending[i].request.pdu) {
                    let p = state.pending.remove(at: i).request
                    answered(p, by: record, at: time, &a, pipeline)
                    return p.pdu
                }
                a.unexpected = .mismatch(requestOpcode: state.pending[i].request.pdu.opcode,
                                         record: state.pending[i].request.record)
            } else {
                a.unexpected = .nothingPending(indication: isIndication)
            }
            unexpectedCount += 1
            if unexpected.count < ATTLayer.maxListed { unexpected.append((record, op)) }
        }
        return nil
    }

    /// A response (or confirmation) at `record` answers `p`: the latency is counted and each event names the other.
    func answered(_ p: Pending, by record: Int, at time: Timestamp, _ a: inout ATTEvent, _ pipeline: Pipeline) {
        // Time that went backwards between the two gives no latency (a negative time is not one).
        let d = time.micros &- p.time.micros
        let latency: Int64? = d >= 0 ? d : nil
        transactions += 1
        if let l = latency {
            timed += 1
            latencyTotal += l
            latencyMax = max(latencyMax, l)
        }
        a.request = ATTLink(record: p.record, latencyMicros: latency)
        let link = ATTLink(record: record, latencyMicros: latency)
        settle(p.record, pipeline) { $0.response = link }
    }

    /// Changes a held request's ATT event in place (its body taken out meanwhile, so the change copies nothing)
    /// and lets the event go.
    func settle(_ record: Int, _ pipeline: Pipeline, _ change: (inout ATTEvent) -> Void) {
        pipeline.update(record) { e in
            let body = e.takeBody()
            switch consume body {
            case var .att(a):
                change(&a)
                e.body = .att(a)
            case let other:
                e.body = other
            }
        }
        pipeline.release(record)
    }

    /// True when `response` answers `request` (Core 5.4 Vol 3 Part F 3.4.8: a response's opcode is its
    /// request's plus one; an Error Response names the request's opcode).
    static func answers(_ response: ATTPDU, _ request: ATTPDU) -> Bool {
        let r = response.opcode, q = request.opcode
        if case let .errorResponse(reqOp, _, _) = response { return reqOp == q && q != 0x1D }
        return r == q &+ 1
    }

    // MARK: Timeouts and connection ends

    /// Times out the requests pending for `timeoutMicros` by `now` (all of them at `.max`, the end of the capture).
    /// Requests pending across the last record where time went backwards are not timed out by the clock (a
    /// timeout across it is not known to be one).
    func expire(now: Int64, _ pipeline: Pipeline) {
        var next: Int64 = .max
        var expired: [(ConnState, PendingKey, Pending)] = []
        let backwardsRecord = pipeline.stats.lastBackwards
        for state in conns.values {
            for (k, p) in state.pending {
                if now == .max || (now - p.time.micros >= ATTLayer.timeoutMicros && p.record >= backwardsRecord) {
                    expired.append((state, k, p))
                } else if p.record >= backwardsRecord {
                    next = min(next, p.time.micros + ATTLayer.timeoutMicros)
                }
            }
        }
        for (state, k, p) in expired.sorted(by: { $0.2.record < $1.2.record }) {
            if let i = state.pendingIndex(k) { state.pending.remove(at: i) }
            flagUnanswered(p, now == .max ? .endOfCapture : .timeout, pipeline)
        }
        nextDeadline = next
    }

    func closeConnection(_ id: Int, _ pipeline: Pipeline) {
        if lastState?.id == id { lastState = nil }
        guard var state = conns.removeValue(forKey: id) else { return }
        if !state.pending.isEmpty {
            let left = state.pending.map(\.request).sorted { $0.record < $1.record }
            state.pending.removeAll(keepingCapacity: true)
            for p in left { flagUnanswered(p, .connectionClosed, pipeline) }
        }
        // Kept for the connections the summary lists.
        if state.pdus > 0, id <= ConnectionTracker.maxListed { closedMTU[id] = (state.clientMTU, state.serverMTU, state.mtu) }
        // The server's lookup memo is rebuilt on the next connection; thousands of idle servers keep only content.
        if let key = state.peerKey, let s = serverSlots[key] { servers[s].dropCaches() }
        // Its storage serves a later connection, unless something still holds it.
        if spareStates.count < ATTLayer.maxSpareStates, isKnownUniquelyReferenced(&state) {
            state.reset()
            spareStates.append(state)
        }
    }

    func flagUnanswered(_ p: Pending, _ why: ATTUnanswered, _ pipeline: Pipeline) {
        unansweredCount += 1
        if unanswered.count < ATTLayer.maxListed { unanswered.append((p.record, p.pdu.opcode, why)) }
        settle(p.record, pipeline) { $0.unanswered = why }
    }
}
