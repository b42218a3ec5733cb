/// GATT rules: ATT error responses by cause (Core 5.4 Vol 3 Part F 3.4.1.1), requests never answered, and a
/// client whose idea of the server's database is out of date.

/// `stale_gatt_cache` (0x01, 0x12), `subscription_failed` (a CCCD write refused), `attribute_not_permitted`
/// (0x02, 0x03), `application_error` (0x80–0x9F, 0xFC–0xFF) and `att_error` (any other, but the Attribute
/// Not Found that ends discovery). Refusals for lack of security are `insufficient_security`'s.
final class ATTErrorRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.attError] }
    /// ATT requests used by discovery: an Attribute Not Found answer is their normal end.
    static let discovery: Set<UInt8> = [0x04, 0x06, 0x08, 0x10]

    override func att(_ a: ATTEvent, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard case let .pdu(.errorResponse(req, handle, code)) = a.content else { return }
        if code == 0x0A && ATTErrorRule.discovery.contains(req) { return }
        if InsufficientSecurityRule.codes.contains(code) { return }
        let loc = a.location
        let service = a.decoded.flatMap(ATTLayer.serviceErrorName)
        let id: DiagnosisID
        if loc?.descriptor?.uuid?.uuid16 == 0x2902 && (req == 0x12 || req == 0x52) {
            id = .subscriptionFailed
        } else if service != nil {
            id = .applicationError
        } else {
            switch code {
            // Handle 0x0000 is never valid: the client's bug, not an old database.
            case 0x01 where handle == 0: id = .attError
            case 0x01, 0x12: id = .staleGATTCache
            case 0x02, 0x03: id = .attributeNotPermitted
            case 0x80...0x9F, 0xFC...0xFF: id = .applicationError
            default: id = .attError
            }
        }
        let c = ctx.connection(e.connection)
        var f = DiagnosisFacts(reason: code, opcode: UInt16(req), handle: handle, location: loc, byLocal: a.peerIsServer)
        f.serviceError = service
        if code == 0x01 && handle == 0 && !a.peerIsServer { f.benign = .peerUsedHandleZero }
        ctx.raise(id, facts: f, peer: c?.peer, connection: c?.id, record: e.record, and: a.request?.record)
    }
}

/// `stale_gatt_cache`: a Service Changed indication from the peer's server not followed on that connection by
/// the local client's rediscovery. The local host indicating its own Service Changed to the peer is not one: the
/// peer (often a peripheral that uses no service of the phone's) need not discover.
final class ServiceChangedRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.att, .hciEvent] }
    /// Per connection: the Service Changed indication still waiting for rediscovery.
    @exclusivity(unchecked) var waiting: [Int: Int] = [:]

    override func att(_ a: ATTEvent, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard let id = e.connection, case let .pdu(pdu) = a.content else { return }
        switch pdu.opcode {
        case 0x10, 0x04, 0x08:
            // Read By Group Type, Find Information, Read By Type: the client discovers again.
            if !waiting.isEmpty { waiting[id] = nil }
        case 0x1D where a.peerIsServer && a.location?.characteristic?.uuid?.uuid16 == 0x2A05:
            if waiting.count < 10_000 { waiting[id] = e.record }
        default:
            return
        }
    }

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard let id = e.connection else { return }
        if case .disconnectionComplete(0, _, _) = h.params, let r = waiting.removeValue(forKey: id) { raise(id, r, ctx) }
    }

    func raise(_ id: Int, _ record: Int, _ ctx: DiagnosisContext) {
        let c = ctx.connection(id)
        ctx.raise(Diagnosis(id: .staleGATTCache, facts: DiagnosisFacts(opcode: 0x1D, byLocal: false), peer: c?.peer, connection: id, evidence: [record]))
    }

    override func finish(_ ctx: DiagnosisContext) {
        for (id, r) in waiting.sorted(by: { $0.value < $1.value }) { raise(id, r, ctx) }
        waiting.removeAll()
    }
}

/// `att_timeout`: a request with no response for 30 s on a link that stayed up (error). One pending when the
/// link went down is context (info): the host closed the link, or the link was lost and that is its own
/// diagnosis; the absence was never given its 30 s. On a sniffer's
/// capture the response may be a packet the sniffer missed: those wait until the end, and stay errors only when
/// the server went on answering other requests; otherwise they are info, with what the capture could not show.
final class ATTTimeoutRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.att, .linkLayer, .aclProblem] }
    struct Held {
        var diagnosis: Diagnosis
        var record: Int
    }
    /// Sniffed timeouts waiting for the end (bounded).
    @exclusivity(unchecked) var held: [Held] = []
    /// Sniffed captures, per connection: the last ATT response the server sent, and the first lost fragment.
    @exclusivity(unchecked) var lastAnswer: [Int: Int] = [:]
    @exclusivity(unchecked) var lostFragments: [Int: [Int]] = [:]

    override func att(_ a: ATTEvent, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard case let .unanswered(why)? = a.transaction else {
            if a.request != nil, ctx.sniffed, let id = e.connection, lastAnswer[id] != nil || lastAnswer.count < 10_000 {
                lastAnswer[id] = e.record
            }
            return
        }
        guard let op = a.opcode else { return }
        switch why {
        case .timeout, .connectionClosed: break
        default: return
        }
        let c = ctx.connection(e.connection)
        // reason 0: 30 s passed; 1: the link went down first.
        var f = DiagnosisFacts(reason: why == .timeout ? 0 : 1, opcode: UInt16(op), handle: a.handle, location: a.location,
                               byLocal: ctx.sniffed ? nil : a.peerIsServer)
        if why == .connectionClosed { f.benign = .linkClosedFirst }
        let closed = why == .connectionClosed ? c?.closedRecord : nil
        let d = Diagnosis(id: .attTimeout, facts: f, peer: c?.peer, connection: c?.id, evidence: [e.record] + (closed.map { [$0] } ?? []))
        if ctx.sniffed {
            if held.count < 1000 { held.append(Held(diagnosis: d, record: e.record)) }
        } else {
            ctx.raise(d)
        }
    }

    override func linkLayer(_ ll: LinkLayerBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        if case .problem = ll.content, let id = e.connection { lost(id, e.record) }
    }

    override func aclProblem(_ e: TraceEvent, _ ctx: DiagnosisContext) {
        if ctx.sniffed, let id = e.connection { lost(id, e.record) }
    }

    func lost(_ id: Int, _ record: Int) {
        if lostFragments[id, default: []].count < 16 && (lostFragments[id] != nil || lostFragments.count < 10_000) {
            lostFragments[id, default: []].append(record)
        }
    }

    override func finish(_ ctx: DiagnosisContext) {
        let undecrypted = Dictionary(ctx.pipeline.map(EncryptionSummary.entries)?.compactMap { en in en.connection.map { ($0, en.encryption.notDecrypted) } } ?? [],
                                     uniquingKeysWith: +)
        for h in held {
            var d = h.diagnosis
            let id = d.connections.first ?? 0
            if let answered = lastAnswer[id], answered > h.record {
                // The server answered later requests: this response was not sent (or was sent and lost).
                ctx.raise(d)
                continue
            }
            if let r = lostFragments[id]?.first(where: { $0 > h.record }) {
                d.facts.limit = .lostFragment(record: r)
                d.evidence.append(r)
            } else if let n = undecrypted[id], n > 0 {
                d.facts.limit = .undecrypted(pdus: n)
            } else {
                d.facts.limit = .snifferMayHaveMissed
            }
            d.severity = .info
            ctx.raise(d)
        }
        held.removeAll()
    }
}
