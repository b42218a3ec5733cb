/// One pairing attempt on a connection, as the summary reports it.
public final class PairingAttempt {
    public let connection: Int
    public let startRecord: Int
    @exclusivity(unchecked) public internal(set) var securityRequestRecord: Int?
    @exclusivity(unchecked) public internal(set) var request: PairingFeatures?
    @exclusivity(unchecked) public internal(set) var requestDirection: Direction?
    @exclusivity(unchecked) public internal(set) var response: PairingFeatures?
    /// The Pairing Response's record: where the method was chosen.
    @exclusivity(unchecked) public internal(set) var responseRecord: Int?
    /// A Pairing Random was exchanged: phase 2 ran, so a legacy pairing's key can be derived from what was sent.
    @exclusivity(unchecked) public internal(set) var randomExchanged = false
    @exclusivity(unchecked) public internal(set) var method: PairingMethod?
    @exclusivity(unchecked) public internal(set) var methodDetail: String?
    @exclusivity(unchecked) public internal(set) var secureConnections: Bool?
    @exclusivity(unchecked) public internal(set) var failedReason: UInt8?
    @exclusivity(unchecked) public internal(set) var failedRecord: Int?
    @exclusivity(unchecked) public internal(set) var failedBy: String?
    /// Keys seen in the key distribution phase: ("initiator" | "responder", "LTK" | "EDIV/Rand" | "IRK" | "identity address" | "CSRK").
    @exclusivity(unchecked) public internal(set) var keys: [(from: String, key: String)] = []
    @exclusivity(unchecked) public internal(set) var encryptionRecord: Int?

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
    @exclusivity(unchecked) public private(set) var attempts: [PairingAttempt] = []
    @exclusivity(unchecked) var current: [Int: PairingAttempt] = [:]
    @exclusivity(unchecked) var pdus = 0
    static let maxAttempts = 10_000

    public init() {}

    public func attach(to pipeline: Pipeline) {}

    /// Encryption started (the pairing under way succeeded there), or the connection closed.
    func connectionChanged(_ change: ConnectionChange, record: Int, _ pipeline: Pipeline) {
        switch change {
        case let .encryption(handle, enabled):
            guard enabled, let c = pipeline.connections.existing(handle), let a = current[c.id],
                  a.encryptionRecord == nil, a.failedReason == nil else { return }
            a.encryptionRecord = record
        case let .closed(handle, _):
            if let c = pipeline.connections.latest(handle) { current[c.id] = nil }
        default: break
        }
    }

    func attempt(_ conn: Int, _ record: Int, fresh: Bool) -> PairingAttempt {
        if !fresh, let a = current[conn] { return a }
        let a = PairingAttempt(connection: conn, startRecord: record)
        current[conn] = a
        if attempts.count < SMPLayer.maxAttempts { attempts.append(a) }
        return a
    }

    public func decode(_ frame: L2CAPFrame, connection: Connection, event e: inout TraceEvent, in p: Pipeline) {
        pdus += 1
        guard let code = frame.payload.first else {
            e.body = .smp(SMPBody(.empty))
            return
        }
        let pdu: SMPPDU
        do {
            pdu = try SMPPDU.parse(frame.payload)
        } catch {
            let reason = (error as? ByteError)?.description ?? "\(error)"
            e.body = .smp(SMPBody(.malformed(code: code, reason: reason, data: frame.payload)))
            return
        }
        var body = SMPBody(.pdu(pdu))
        func side(_ a: PairingAttempt) -> PairingSide {
            guard let d = a.requestDirection else { return .unknown }
            return d == e.direction ? .initiator : .responder
        }
        func key(_ k: String) {
            let a = attempt(connection.id, e.record, fresh: false)
            let s = side(a)
            if a.keys.count < 16 { a.keys.append((s.name, k)) }
            body.from = s
        }
        switch pdu {
        case let .pairingRequest(p):
            // A Security Request that asked for this pairing belongs to the same attempt.
            let reuse = current[connection.id].map { $0.request == nil && $0.failedReason == nil && $0.keys.isEmpty } ?? false
            let a = attempt(connection.id, e.record, fresh: !reuse)
            a.request = p
            a.requestDirection = e.direction
        case let .pairingResponse(p):
            let a = attempt(connection.id, e.record, fresh: false)
            a.response = p
            a.responseRecord = e.record
            if let q = a.request {
                let m = PairingMethodTable.method(initiator: q, responder: p)
                a.method = m.method
                a.methodDetail = m.detail
                a.secureConnections = m.secureConnections
                body.request = q
            }
        case let .pairingFailed(reason):
            let a = attempt(connection.id, e.record, fresh: false)
            a.failedReason = reason
            a.failedRecord = e.record
            a.failedBy = side(a).name
        case .encryptionInformation: key("LTK")
        case .centralIdentification: key("EDIV/Rand")
        case .identityInformation: key("IRK")
        case .identityAddressInformation: key("identity address")
        case .signingInformation: key("CSRK")
        case .securityRequest:
            let a = attempt(connection.id, e.record, fresh: true)
            a.securityRequestRecord = e.record
        case .pairingRandom:
            current.modifyValue(forKey: connection.id) { $0.randomExchanged = true }
        case .pairingConfirm, .pairingPublicKey, .pairingDHKeyCheck, .keypressNotification, .unknown:
            break
        }
        e.body = .smp(body)
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
