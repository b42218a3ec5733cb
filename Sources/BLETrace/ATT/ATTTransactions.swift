/// ATT transactions (Core 5.4 Vol 3 Part F 3.3): pending requests and indications per bearer, responses
/// linked to them, timeouts, and what is left unanswered when a request is replaced or the connection ends.
extension ATTLayer {
    struct PendingKey: Hashable {
        var connection: Int
        var bearer: UInt16
        var peerIsServer: Bool
        var indication: Bool
    }

    struct Pending {
        var record: Int
        var time: Timestamp
        var pdu: ATTPDU
        var handle: UInt16?
    }

    /// Links a response to its pending request (returned) and holds a request until its response; flags
    /// what answers nothing and what a new request leaves unanswered.
    func transaction(_ pdu: ATTPDU, _ a: inout ATTEvent, connection: Int, bearer: UInt16, peerIsServer: Bool,
                     record: Int, time: Timestamp, sniffed: Bool = false) -> Pending? {
        let op = pdu.opcode
        let isIndication = op == 0x1D || op == 0x1E
        var key = PendingKey(connection: connection, bearer: bearer, peerIsServer: peerIsServer, indication: isIndication)
        if sniffed && (ATTNames.isResponse(op) || op == 0x1E), pending[key].map({ !ATTLayer.answers(pdu, $0.pdu) }) ?? true {
            // A sniffer watches two devices from outside and may give a packet the wrong side: a response that
            // answers the request pending from the other side is that request's.
            var other = key
            other.peerIsServer.toggle()
            if let p = pending[other], ATTLayer.answers(pdu, p.pdu) { key = other }
        }
        if ATTNames.isRequest(op) || op == 0x1D {
            if let old = pending.removeValue(forKey: key) {
                flagUnanswered(old, .superseded(by: record, indication: isIndication))
            }
            pending[key] = Pending(record: record, time: time, pdu: pdu, handle: pdu.handle)
            nextDeadline = min(nextDeadline, time.micros + ATTLayer.timeoutMicros)
            pipeline?.hold(record)
        } else if ATTNames.isResponse(op) || op == 0x1E {
            if let i = pending.index(forKey: key), ATTLayer.answers(pdu, pending.values[i].pdu) {
                let p = pending.remove(at: i).value
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
                pipeline?.update(p.record) { req in
                    guard case var .att(q) = req.body else { return }
                    req.body = .empty
                    q.response = link
                    req.body = .att(q)
                }
                pipeline?.release(p.record)
                return p
            }
            if let p = pending[key] {
                a.unexpected = .mismatch(requestOpcode: p.pdu.opcode, record: p.record)
            } else {
                a.unexpected = .nothingPending(indication: isIndication)
            }
            unexpectedCount += 1
            if unexpected.count < ATTLayer.maxListed { unexpected.append((record, op)) }
        }
        return nil
    }

    /// True when `response` answers `request` (Core 5.4 Vol 3 Part F 3.4.8: a response's opcode is its
    /// request's plus one; an Error Response names the request's opcode).
    static func answers(_ response: ATTPDU, _ request: ATTPDU) -> Bool {
        let r = response.opcode, q = request.opcode
        if case let .errorResponse(reqOp, _, _) = response { return reqOp == q && q != 0x1D }
        return r == q &+ 1
    }

    // MARK: Timeouts and connection ends

    func expire(now: Int64) {
        var next: Int64 = .max
        var expired: [(PendingKey, Pending)] = []
        let backwardsRecord = self.backwardsRecord
        for (k, p) in pending {
            if now == .max || (now - p.time.micros >= ATTLayer.timeoutMicros && p.record >= backwardsRecord) {
                expired.append((k, p))
            } else if p.record >= backwardsRecord {
                next = min(next, p.time.micros + ATTLayer.timeoutMicros)
            }
        }
        for (k, p) in expired.sorted(by: { $0.1.record < $1.1.record }) {
            pending[k] = nil
            if now == .max {
                flagUnanswered(p, .endOfCapture)
            } else {
                flagUnanswered(p, .timeout)
            }
        }
        nextDeadline = next
    }

    func closeConnection(_ id: Int) {
        let keys = pending.keys.filter { $0.connection == id }
        for k in keys.sorted(by: { pending[$0]!.record < pending[$1]!.record }) {
            if let p = pending.removeValue(forKey: k) { flagUnanswered(p, .connectionClosed) }
        }
        // Kept for the connections the summary lists.
        if let s = conns[id], s.pdus > 0, id <= ConnectionTracker.maxListed { closedMTU[id] = (s.clientMTU, s.serverMTU, s.mtu) }
        // The server's lookup memo is rebuilt on the next connection; thousands of idle servers keep only content.
        if let key = conns[id]?.peerKey?.key, let s = serverSlots[key] { servers[s].dropCaches() }
        conns[id] = nil
        if lastState?.id == id { lastState = nil }
    }

    func flagUnanswered(_ p: Pending, _ why: ATTUnanswered) {
        unansweredCount += 1
        if unanswered.count < ATTLayer.maxListed { unanswered.append((p.record, p.pdu.opcode, why)) }
        pipeline?.update(p.record) { e in
            guard case var .att(a) = e.body else { return }
            e.body = .empty
            a.unanswered = why
            e.body = .att(a)
        }
        pipeline?.release(p.record)
    }
}
