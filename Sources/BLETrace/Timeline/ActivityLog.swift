/// What happened at the GATT level, kept for reports and `diff`: the values each server reported (latest
/// and recent history), the client's procedures in order with their latency and outcome, connection setup
/// times and initial parameters, and advertised manufacturer data. It watches finished events (a request
/// knows its response by then) and reads their typed ATT bodies; value dissectors' results are used when present.
///
/// Not one of the standard layers: the Markdown report and `diff` add it. Handles are resolved to UUID
/// paths only after the last record, against the database as discovery finally left it.
public final class ActivityLog: AnalysisLayer {
    public struct ValueSample: Sendable {
        public var record: Int
        public var time: Timestamp
        /// The ATT opcode that carried the value (read response, notification, …).
        public var opcode: Int
        public var value: [UInt8]
        /// Text from a value dissector's `decoded` object, when one ran.
        public var decoded: String?

        public var text: String { decoded ?? ActivityLog.valueText(value) }
    }

    public struct ValueTrack: Sendable {
        /// The GATT server: peer address, `handle-0x…` or `local`.
        public var server: String
        public var handle: UInt16
        public var latest: ValueSample
        /// Notified and indicated values, oldest first (the last `maxHistory`).
        public var history: [ValueSample] = []
        public var notifications = 0
        public var reads = 0
    }

    /// One client request (or command) and what became of it.
    public struct Step: Sendable {
        public var record: Int
        public var connection: Int
        public var server: String
        public var opcode: Int
        public var handle: UInt16?
        public var start: UInt16?
        public var end: UInt16?
        public var type: BLEUUID?
        /// The written value's first bytes (CCCD writes), when it has one.
        public var value: [UInt8]?
        public var latencyMicros: Int64?
        public var error: Int?
        /// True when the peer is the client (the local host serves the database).
        public var fromPeer: Bool
    }

    /// An Error Response, with what it was about.
    public struct ErrorSeen: Sendable {
        public var record: Int
        public var connection: Int?
        public var server: String
        public var requestOpcode: Int
        public var handle: UInt16?
        public var code: Int
    }

    public static let maxHistory = 16
    static let maxSteps = 20_000
    static let maxValues = 50_000
    static let maxLatencies = 200_000

    let att: ATTLayer?
    weak var pipeline: Pipeline?
    @exclusivity(unchecked) public private(set) var values: [String: [UInt16: ValueTrack]] = [:]
    @exclusivity(unchecked) public private(set) var valueOrder: [(server: String, handle: UInt16)] = []
    @exclusivity(unchecked) var valueCount = 0
    @exclusivity(unchecked) public private(set) var steps: [Int: [Step]] = [:]
    @exclusivity(unchecked) var stepIndex: [Int: (connection: Int, index: Int)] = [:]
    @exclusivity(unchecked) var stepCount = 0
    @exclusivity(unchecked) public private(set) var errors: [ErrorSeen] = []
    @exclusivity(unchecked) public private(set) var latencies: [Int64] = []
    /// Microseconds from LE Create Connection to the connection's completion, per connection id.
    @exclusivity(unchecked) public private(set) var setupMicros: [Int: Int64] = [:]
    @exclusivity(unchecked) var pendingCreate: Timestamp?
    /// Interval, latency and timeout as the connection opened (the tracker keeps the latest).
    @exclusivity(unchecked) public private(set) var initialParameters: [Int: (interval: Int, latency: Int, timeout: Int)] = [:]
    /// Distinct manufacturer data (company ID and payload) per advertiser, in order of first appearance.
    @exclusivity(unchecked) public private(set) var manufacturerData: [DeviceInventory.Key: [[UInt8]]] = [:]
    @exclusivity(unchecked) var paths: [String: GATTPaths] = [:]

    public init(att: ATTLayer?) {
        self.att = att
    }

    public func attach(to pipeline: Pipeline) {
        self.pipeline = pipeline
    }

    /// A connection opened: its initial parameters, and its setup time from the last Create Connection.
    func connectionChanged(_ change: ConnectionChange, at time: Timestamp, _ pipeline: Pipeline) {
        guard case let .opened(handle, _, _, _, interval, latency, timeout, le) = change, le,
              let c = pipeline.connections.existing(handle) else { return }
        initialParameters[c.id] = (Int(interval), Int(latency), Int(timeout))
        if let t = pendingCreate {
            setupMicros[c.id] = time.micros - t.micros
            pendingCreate = nil
        }
    }

    /// An advertising report: its distinct manufacturer data.
    func advertised(_ r: AdvertisingReport) {
        let key = DeviceInventory.Key(address: r.address, addressType: r.addressType)
        for ad in ADSequence(r.data) where ad.malformed == nil && ad.type == 0xFF && ad.data.count >= 2 {
            var list = manufacturerData[key] ?? []
            if list.count >= 8 || list.contains(where: { $0.elementsEqual(ad.data) }) { continue }
            if list.isEmpty && manufacturerData.count >= DeviceInventory.maxDevices { continue }
            list.append(Array(ad.data))
            manufacturerData[key] = list
        }
    }

    func connection(_ id: Int?) -> Connection? {
        guard let id, let p = pipeline else { return nil }
        return p.connections.connection(id: id)
    }

    static func u16(_ v: FieldValue?) -> UInt16? { v?.intValue.flatMap { UInt16(exactly: $0) } }
    static func bytes(_ v: FieldValue?) -> [UInt8]? { if case let .hex(b)? = v { return b }; return nil }

    public func observe(_ e: TraceEvent) {
        if case let .hciCommand(c) = e.body, c.opcode == 0x200D || c.opcode == 0x2043 {
            pendingCreate = e.timestamp
            return
        }
        guard case let .att(a) = e.body, let pdu = a.pdu else { return }
        let op = Int(pdu.opcode)
        let conn = connection(e.connection)
        let peerKey = conn.map { ATTLayer.deviceKey($0) } ?? "unknown"
        let byServer = !a.fromClient
        // Who serves the database this PDU is about.
        let peerIsServer: Bool
        switch e.direction {
        case .hostToController: peerIsServer = !byServer
        case .controllerToHost, .unknown: peerIsServer = byServer
        }
        let server = peerIsServer ? peerKey : "local"
        if let l = a.response?.latencyMicros, latencies.count < ActivityLog.maxLatencies {
            latencies.append(l)
        }
        if !byServer, ATTNames.isRequest(UInt8(truncatingIfNeeded: op)) || op == 0x52 || op == 0xD2, let cid = e.connection {
            var start: UInt16? = nil, end: UInt16? = nil
            var type: BLEUUID? = nil
            switch pdu {
            case let .findInformationRequest(a, b): start = a; end = b
            case let .findByTypeValueRequest(a, b, t, _): start = a; end = b; type = BLEUUID(string: BLEUUID(t).description)
            case let .readByTypeRequest(a, b, t), let .readByGroupTypeRequest(a, b, t):
                start = a; end = b; type = BLEUUID(string: t.description)
            default: break
            }
            var s = Step(record: e.record, connection: cid, server: server, opcode: op, handle: a.handle,
                         start: start, end: end, type: type, value: nil,
                         latencyMicros: a.response?.latencyMicros, error: nil, fromPeer: !peerIsServer)
            if op == 0x12 || op == 0x52, let v = pdu.value { s.value = Array(v.prefix(2)) }
            if stepCount < ActivityLog.maxSteps {
                stepCount += 1
                stepIndex[e.record] = (cid, steps[cid, default: []].count)
                steps[cid, default: []].append(s)
            }
        }
        if case let .errorResponse(req, eh, code) = pdu {
            if let r = a.request?.record, let at = stepIndex[r] { steps[at.connection]?[at.index].error = Int(code) }
            if errors.count < 10_000 {
                errors.append(ErrorSeen(record: e.record, connection: e.connection, server: server, requestOpcode: Int(req),
                                        handle: eh, code: Int(code)))
            }
            return
        }
        guard byServer else { return }
        switch pdu {
        case .readResponse, .readBlobResponse, .notification, .indication:
            guard let h = a.handle, let v = a.fullValue else { return }
            let decoded = ActivityLog.decodedText(a.decodedValue)
            record(server, h, ValueSample(record: e.record, time: e.timestamp, opcode: op, value: Array(v), decoded: decoded))
        case .readByTypeResponse:
            a.readByTypeValues { h, v in
                self.record(server, h, ValueSample(record: e.record, time: e.timestamp, opcode: op, value: Array(v), decoded: nil))
            }
        case let .multipleNotification(entries):
            for en in entries {
                record(server, en.handle, ValueSample(record: e.record, time: e.timestamp, opcode: op, value: Array(en.value), decoded: nil))
            }
        default:
            break
        }
    }

    func record(_ server: String, _ handle: UInt16, _ sample: ValueSample) {
        let notified = sample.opcode == 0x1B || sample.opcode == 0x1D || sample.opcode == 0x23
        if var t = values[server]?[handle] {
            t.latest = sample
            if notified {
                t.notifications += 1
                t.history.append(sample)
                if t.history.count > ActivityLog.maxHistory { t.history.removeFirst() }
            } else {
                t.reads += 1
            }
            values[server]![handle] = t
            return
        }
        guard valueCount < ActivityLog.maxValues else { return }
        valueCount += 1
        var t = ValueTrack(server: server, handle: handle, latest: sample)
        if notified { t.notifications = 1; t.history = [sample] } else { t.reads = 1 }
        values[server, default: [:]][handle] = t
        valueOrder.append((server, handle))
    }

    /// Text for a value from a dissector's `decoded` object: its `text` or `summary` when it has one,
    /// otherwise its fields as `key value` pairs.
    static func decodedText(_ dissection: Dissection?) -> String? {
        guard let d = dissection?.jsonFields, !d.isEmpty else { return nil }
        if let t = d["text"]?.stringValue ?? d["summary"]?.stringValue { return t }
        return d.items.map { "\($0.0) \(plain($0.1))" }.joined(separator: ", ")
    }

    static func plain(_ v: FieldValue) -> String {
        switch v {
        case let .int(i): return String(i)
        case let .double(d): return String(d)
        case let .string(s): return "\"\(s)\""
        case let .bool(b): return b ? "true" : "false"
        case let .hex(b): return Hex.string(b)
        case let .list(l): return "[" + l.map(plain).joined(separator: ", ") + "]"
        case let .object(o): return "{" + o.items.map { "\($0.0) \(plain($0.1))" }.joined(separator: ", ") + "}"
        case .null: return "null"
        }
    }

    /// A raw value as text: hex, and the string when every byte is printable ASCII.
    public static func valueText(_ v: [UInt8]) -> String {
        if v.isEmpty { return "(empty)" }
        if v.count <= 64, let text = TextValue.quoted(v) {
            return text + " (" + Hex.string(v) + ")"
        }
        return "0x" + Hex.string(v.prefix(32)) + (v.count > 32 ? "… (\(v.count) bytes)" : "")
    }

    public func summary() -> SummarySection? { nil }

    // MARK: Paths

    /// The UUID paths of a server's database (as discovery left it, or as loaded with `--gatt`).
    public func paths(_ server: String) -> GATTPaths? {
        if let p = paths[server] { return p }
        guard let att else { return nil }
        var db: GATTDatabase
        if let d = att.database(stored: server), !d.isEmpty {
            db = d
        } else if let key = att.fallback(server), let d = att.fallbacks[key] {
            db = d
        } else {
            return nil
        }
        db.device = server
        let p = GATTPaths(db)
        paths[server] = p
        return p
    }

    /// The path of a handle on a server, or `@0x0012` when unknown.
    public func path(_ server: String, _ handle: UInt16) -> String {
        paths(server)?.path(handle) ?? "@" + Hex.hex(handle, width: 4)
    }

    // MARK: Procedures

    /// What a step did, independent of handles: a key for alignment and the text to show.
    public func describe(_ s: Step) -> (key: String, text: String) {
        let p = paths(s.server)
        func at(_ h: UInt16?) -> String { h.map { p?.path($0) ?? "@" + Hex.hex($0, width: 4) } ?? "?" }
        func name(_ path: String) -> String { GATTPaths.label(path) }
        let continued = (s.start ?? 1) > 1
        let who = s.fromPeer ? "peer " : ""
        switch s.opcode {
        case 0x02: return ("mtu", "\(who)Exchange MTU")
        case 0x10:
            let kind = s.type?.uuid16 == 0x2801 ? "secondary" : "primary"
            let k = "services:\(kind)" + (continued ? "+" : "")
            return (k, "\(who)Discover \(kind) services" + (continued ? " (continued)" : ""))
        case 0x06:
            return ("service-by-uuid" + (continued ? "+" : ""), "\(who)Discover a primary service by UUID" + (continued ? " (continued)" : ""))
        case 0x08:
            let t = s.type
            if t?.uuid16 == 0x2803 || t?.uuid16 == 0x2802 {
                let what = t?.uuid16 == 0x2803 ? "characteristics" : "included services"
                // Scoped to one service when the range ends where that service ends.
                if let st = s.start, let en = s.end, en != 0xFFFF, let ps = p,
                   let svc = ps.entries.first(where: { $0.kind == .service && $0.second == en && $0.handle <= st }) {
                    let more = st > svc.handle + 1
                    return ("\(what):\(svc.path)" + (more ? "+" : ""), "\(who)Discover \(what) of \(name(svc.path))" + (more ? " (continued)" : ""))
                }
                return ("\(what)" + (continued ? "+" : ""), "\(who)Discover \(what)" + (continued ? " (continued)" : ""))
            }
            let type = t?.description ?? "?"
            return ("read-by-type:\(type)", "\(who)Read by type \(t.map { GATTNaming.label($0, kind: AssignedNumbers.characteristicName) } ?? "?")")
        case 0x04:
            if let st = s.start, let ps = p, ps.knows(st) {
                let path = ps.path(st)
                let owner = path.split(separator: "/").prefix(2).joined(separator: "/")
                return ("descriptors:\(owner)", "\(who)Discover descriptors of \(name(owner))")
            }
            return ("descriptors" + (continued ? "+" : ""), "\(who)Discover descriptors" + (continued ? " (continued)" : ""))
        case 0x0A: let x = at(s.handle); return ("read:\(x)", "\(who)Read \(name(x))")
        case 0x0C: let x = at(s.handle); return ("read-long:\(x)", "\(who)Read long value of \(name(x))")
        case 0x0E, 0x20: return ("read-multiple", "\(who)Read multiple")
        case 0x12, 0x52:
            let x = at(s.handle)
            let cmd = s.opcode == 0x52 ? " (command)" : ""
            if x.hasSuffix("/2902"), let v = s.value, v.count == 2 {
                let owner = String(x.dropLast(5))
                switch v[0] & 0x03 {
                case 0x01: return ("subscribe:\(owner)", "\(who)Subscribe to notifications of \(name(owner))")
                case 0x02, 0x03: return ("subscribe-ind:\(owner)", "\(who)Subscribe to indications of \(name(owner))")
                default: return ("unsubscribe:\(owner)", "\(who)Unsubscribe from \(name(owner))")
                }
            }
            return ("write\(cmd):\(x)", "\(who)Write\(cmd) \(name(x))")
        case 0xD2: let x = at(s.handle); return ("signed-write:\(x)", "\(who)Signed write \(name(x))")
        case 0x16: let x = at(s.handle); return ("prepare-write:\(x)", "\(who)Prepare write \(name(x))")
        case 0x18: return ("execute-write", "\(who)Execute write")
        default: return ("op:\(s.opcode)", "\(who)\(ATTNames.opcode(UInt8(truncatingIfNeeded: s.opcode)))")
        }
    }

    /// The steps of a connection with their descriptions; runs of one repeated long-read or prepare-write
    /// step (one per chunk of a long value) count once.
    public func procedure(_ connection: Int) -> [(step: Step, key: String, text: String)] {
        var out: [(step: Step, key: String, text: String)] = []
        for s in steps[connection] ?? [] {
            let d = describe(s)
            if let last = out.last, last.key == d.key, s.opcode == 0x0C || s.opcode == 0x16 { continue }
            out.append((s, d.key, d.text))
        }
        return out
    }
}
