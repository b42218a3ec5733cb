/// One pairing attempt on a connection, as the summary reports it.
public final class PairingAttempt {
    public let connection: Int
    public let startRecord: Int
    public internal(set) var securityRequestRecord: Int?
    public internal(set) var request: PairingFeatures?
    public internal(set) var requestDirection: Direction?
    public internal(set) var response: PairingFeatures?
    public internal(set) var method: PairingMethod?
    public internal(set) var methodDetail: String?
    public internal(set) var secureConnections: Bool?
    public internal(set) var failedReason: UInt8?
    public internal(set) var failedRecord: Int?
    public internal(set) var failedBy: String?
    /// Keys seen in the key distribution phase: ("initiator" | "responder", "LTK" | "EDIV/Rand" | "IRK" | "identity address" | "CSRK").
    public internal(set) var keys: [(from: String, key: String)] = []
    public internal(set) var encryptionRecord: Int?

    init(connection: Int, startRecord: Int) {
        self.connection = connection
        self.startRecord = startRecord
    }

    public var outcome: String {
        if let r = failedReason { return "failed: \(SMPNames.failReason(r))" }
        if encryptionRecord != nil { return keys.isEmpty ? "encrypted" : "encrypted, keys distributed" }
        if !keys.isEmpty { return "keys distributed" }
        return "incomplete"
    }

    public var fields: Fields {
        var f = Fields()
        f.add("connection", connection)
        f.add("start_record", startRecord)
        if let s = securityRequestRecord { f.add("security_request_record", s) }
        if let sc = secureConnections { f.add("pairing", sc ? "secure_connections" : "legacy") }
        if let m = method { f.add("method", m.rawValue) }
        if let d = methodDetail { f.add("method_detail", d) }
        if let q = request { f.add("initiator_io", SMPNames.ioCapability(q.ioCapability)) }
        if let r = response { f.add("responder_io", SMPNames.ioCapability(r.ioCapability)) }
        if let q = request, let r = response {
            f.add("key_size", Int(min(q.maxKeySize, r.maxKeySize)))
            f.add("bonding", q.bonding && r.bonding)
        }
        f.add("outcome", outcome)
        if let r = failedReason {
            f.add("failed_reason", Int(r)); f.add("failed_reason_name", SMPNames.failReason(r))
            if let x = failedRecord { f.add("failed_record", x) }
            if let b = failedBy { f.add("failed_by", b) }
        }
        f.add("keys", .list(keys.map { .object(["from": .string($0.from), "key": .string($0.key)]) }))
        f.add("encryption_record", encryptionRecord.map { .int($0) } ?? .null)
        return f
    }

    public var text: String {
        var s = "connection #\(connection), record \(startRecord): "
        if let sc = secureConnections { s += sc ? "LE Secure Connections" : "legacy pairing" } else { s += "pairing" }
        if let m = method { s += ", \(m.rawValue)" + (methodDetail.map { " (\($0))" } ?? "") }
        if let q = request, let r = response {
            s += ", IO \(SMPNames.ioCapability(q.ioCapability))/\(SMPNames.ioCapability(r.ioCapability)), key size \(min(q.maxKeySize, r.maxKeySize))"
        }
        s += ": \(outcome)"
        if let e = encryptionRecord { s += " (encryption on at record \(e))" }
        if !keys.isEmpty { s += "; keys: " + keys.map { "\($0.key) from \($0.from)" }.joined(separator: ", ") }
        return s
    }
}

/// SMP (CID 0x0006): decodes every PDU and follows each pairing to its outcome and the encryption change
/// that follows it.
public final class SMPLayer: ChannelDecoder, AnalysisLayer {
    weak var pipeline: Pipeline?
    public private(set) var attempts: [PairingAttempt] = []
    var current: [Int: PairingAttempt] = [:]
    var pdus = 0
    static let maxAttempts = 10_000

    public init() {}

    public func attach(to pipeline: Pipeline) {
        self.pipeline = pipeline
        pipeline.channels[0x0006] = self
        pipeline.connectionObservers.append { [unowned self, unowned pipeline] change, record, _ in
            switch change {
            case let .encryption(handle, enabled):
                guard enabled, let c = pipeline.connections.existing(handle), let a = self.current[c.id],
                      a.encryptionRecord == nil, a.failedReason == nil else { return }
                a.encryptionRecord = record
            case let .closed(handle, _):
                if let c = pipeline.connections.latest(handle) { self.current[c.id] = nil }
            default: break
            }
        }
    }

    func attempt(_ conn: Int, _ record: Int, fresh: Bool) -> PairingAttempt {
        if !fresh, let a = current[conn] { return a }
        let a = PairingAttempt(connection: conn, startRecord: record)
        current[conn] = a
        if attempts.count < SMPLayer.maxAttempts { attempts.append(a) }
        return a
    }

    public func decode(_ frame: L2CAPFrame, connection: Connection, event e: inout TraceEvent) {
        e.legacy.kind = .smp
        pdus += 1
        var f = Fields()
        guard let code = frame.payload.first else {
            e.legacy.malformed = "empty SMP PDU"
            e.legacy.summary = "Malformed SMP: empty PDU"
            e.legacy.layers.append(("smp", f))
            return
        }
        f.add("code", Int(code))
        f.add("name", SMPNames.code(code))
        let pdu: SMPPDU
        do {
            pdu = try SMPPDU.parse(frame.payload)
        } catch {
            let reason = (error as? ByteError)?.description ?? "\(error)"
            e.legacy.malformed = reason
            f.add("data", hex: frame.payload)
            e.legacy.summary = "Malformed SMP \(SMPNames.code(code)): \(reason)"
            e.legacy.layers.append(("smp", f))
            return
        }
        let name = SMPNames.code(code)
        var detail = ""
        func side(_ a: PairingAttempt) -> String {
            guard let d = a.requestDirection else { return "unknown side" }
            return d == e.direction ? "initiator" : "responder"
        }
        func features(_ p: PairingFeatures) {
            f.add("io_capability", Int(p.ioCapability)); f.add("io_capability_name", SMPNames.ioCapability(p.ioCapability))
            f.add("oob", p.oobPresent)
            f.add("auth_req", SMPNames.authReqFields(p.authReq))
            f.add("max_key_size", Int(p.maxKeySize))
            f.add("initiator_keys", .list(SMPNames.keys(p.initiatorKeys).map { .string($0) }))
            f.add("responder_keys", .list(SMPNames.keys(p.responderKeys).map { .string($0) }))
            detail = "\(SMPNames.ioCapability(p.ioCapability)), OOB \(p.oobPresent ? "present" : "absent"), \(SMPNames.authReqText(p.authReq)), max key size \(p.maxKeySize), initiator keys [\(SMPNames.keys(p.initiatorKeys).joined(separator: ", "))], responder keys [\(SMPNames.keys(p.responderKeys).joined(separator: ", "))]"
        }
        func key(_ k: String) {
            let a = attempt(connection.id, e.record, fresh: false)
            let s = side(a)
            if a.keys.count < 16 { a.keys.append((s, k)) }
            f.add("from", s)
        }
        switch pdu {
        case let .pairingRequest(p):
            features(p)
            // A Security Request that asked for this pairing belongs to the same attempt.
            let reuse = current[connection.id].map { $0.request == nil && $0.failedReason == nil && $0.keys.isEmpty } ?? false
            let a = attempt(connection.id, e.record, fresh: !reuse)
            a.request = p
            a.requestDirection = e.direction
        case let .pairingResponse(p):
            features(p)
            let a = attempt(connection.id, e.record, fresh: false)
            a.response = p
            if let q = a.request {
                let m = PairingMethodTable.method(initiator: q, responder: p)
                a.method = m.method
                a.methodDetail = m.detail
                a.secureConnections = m.secureConnections
                f.add("pairing", m.secureConnections ? "secure_connections" : "legacy")
                f.add("method", m.method.rawValue)
                if let d = m.detail { f.add("method_detail", d) }
                detail += " → \(m.secureConnections ? "LE Secure Connections" : "legacy"), \(m.method.rawValue)" + (m.detail.map { " (\($0))" } ?? "")
            }
        case let .pairingConfirm(v):
            f.add("confirm", hex: v); detail = Hex.string(v)
        case let .pairingRandom(v):
            f.add("random", hex: v); detail = Hex.string(v)
        case let .pairingFailed(reason):
            f.add("reason", Int(reason)); f.add("reason_name", SMPNames.failReason(reason))
            detail = SMPNames.failReason(reason)
            let a = attempt(connection.id, e.record, fresh: false)
            a.failedReason = reason
            a.failedRecord = e.record
            a.failedBy = side(a)
        case let .encryptionInformation(ltk):
            f.add("ltk", hex: ltk); detail = "LTK \(Hex.string(ltk))"; key("LTK")
        case let .centralIdentification(ediv, rand):
            f.add("ediv", Int(ediv)); f.add("rand", hex: rand)
            detail = "EDIV \(Hex.hex(ediv, width: 4)), Rand \(Hex.string(rand))"; key("EDIV/Rand")
        case let .identityInformation(irk):
            f.add("irk", hex: irk); detail = "IRK \(Hex.string(irk))"; key("IRK")
        case let .identityAddressInformation(type, addr):
            f.add("address_type", type == 0 ? "public" : type == 1 ? "random" : "reserved")
            f.add("address", addr.description)
            detail = "\(addr) (\(type == 0 ? "public" : type == 1 ? "random static" : "reserved type"))"; key("identity address")
        case let .signingInformation(csrk):
            f.add("csrk", hex: csrk); detail = "CSRK \(Hex.string(csrk))"; key("CSRK")
        case let .securityRequest(authReq):
            f.add("auth_req", SMPNames.authReqFields(authReq))
            detail = SMPNames.authReqText(authReq)
            let a = attempt(connection.id, e.record, fresh: true)
            a.securityRequestRecord = e.record
        case let .pairingPublicKey(x, y):
            f.add("x", hex: x); f.add("y", hex: y)
            detail = "X \(Hex.string(x.prefix(8)))…"
        case let .pairingDHKeyCheck(v):
            f.add("check", hex: v); detail = Hex.string(v)
        case let .keypressNotification(t):
            f.add("type", Int(t)); f.add("type_name", SMPNames.keypress(t)); detail = SMPNames.keypress(t)
        case let .unknown(_, data):
            f.add("data", hex: data); detail = Hex.spaced(data, limit: 16)
        }
        e.legacy.summary = "SMP \(name)" + (detail.isEmpty ? "" : ": " + detail)
        e.legacy.layers.append(("smp", f))
    }

    public func summary() -> SummarySection? {
        guard pdus > 0 else { return nil }
        return SummarySection(name: "smp", value: { [self] in
            var f = Fields()
            f.add("pdus", pdus)
            f.add("pairings", .list(attempts.map { .object($0.fields) }))
            return .object(f)
        }, text: { [self] in
            var text = ["  SMP:         \(pdus) PDU\(pdus == 1 ? "" : "s"), \(attempts.count) pairing\(attempts.count == 1 ? "" : "s")"]
            for a in attempts.prefix(50) { text.append("    " + a.text) }
            return text
        })
    }
}
