/// ATT and GATT: decodes CID 0x0004 (and EATT bearers handed over by the LE signaling layer), links
/// responses to requests, tracks the MTU, rebuilds each server's database from discovery, and names the
/// service, characteristic and descriptor every PDU touches.
public final class ATTLayer: ChannelDecoder, AnalysisLayer {
    /// ATT transaction timeout (Core 5.4 Vol 3 Part F 3.3.3).
    public static let timeoutMicros: Int64 = 30_000_000
    /// Bound on the number of GATT servers kept.
    public static let maxDatabases = 4096
    /// Bound on the problems listed in the summary (all are counted).
    static let maxListed = 1000

    weak var pipeline: Pipeline?
    let loaded: GATTDatabaseSet?
    public private(set) var databases: [String: GATTDatabase] = [:]
    public private(set) var databaseOrder: [String] = []

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

    var pending: [PendingKey: Pending] = [:]
    var nextDeadline: Int64 = .max

    /// Per-connection state.
    final class ConnState {
        var clientMTU: UInt16?
        var serverMTU: UInt16?
        var mtuRecord: Int?
        var pdus = 0
        /// Read Blob reassembly: handle and bytes so far, per server side.
        var blob: [Bool: (handle: UInt16, bytes: [UInt8])] = [:]
        /// Queued Prepare Write Requests, per server side.
        var prepared: [Bool: [(handle: UInt16, offset: UInt16, value: [UInt8])]] = [:]
        /// State of stateful value dissectors (ANCS, cycling speed and cadence).
        let values = DissectorState()
        /// The server's database key for this connection's peer, kept while the peer stays the same.
        var peerKey: (peer: BDAddr?, key: String)?
        /// Handle lookups of `DescribeContext`, one memo per server side (index 1: the peer is the server).
        var located: [LocateMemo?] = [nil, nil]
        var mtu: Int {
            guard let c = clientMTU, let s = serverMTU else { return 23 }
            return Int(min(c, s))
        }
    }
    var conns: [Int: ConnState] = [:]

    /// What `DescribeContext` found for handles of one server: the location, and its text and `gatt` fields
    /// once asked for. Valid while the server key and `generation` are unchanged.
    struct LocateMemo {
        var key: String
        var generation: Int
        var map: [UInt16: Located] = [:]
    }
    struct Located {
        var location: GATTLocation
        var text: String?
        var fields: Fields?
    }
    /// Bumped whenever a database or fallback changes what a handle lookup may return.
    var generation = 0
    var connObjects: [Int: Connection] = [:]

    // Counts for the summary.
    var pduCount = 0
    var transactions = 0
    var latencyTotal: Int64 = 0
    var latencyMax: Int64 = 0
    var errors: [(record: Int, request: UInt8, handle: UInt16, code: UInt8)] = []
    /// Names of error codes a service defines (ANCS 0xA0–0xA3), learned from its dissector.
    var serviceErrorNames: [UInt8: String] = [:]

    /// The error name a service dissector gives (`{"<service>": {"error_name": …}}`), prefixed with the service.
    static func serviceErrorName(_ d: Dissection) -> String? {
        for (key, value) in d.fields.items {
            if let name = value.objectValue?["error_name"]?.stringValue { return key.uppercased() + " " + name }
        }
        return nil
    }
    var errorCount = 0
    var unanswered: [(record: Int, opcode: UInt8, reason: String)] = []
    var unansweredCount = 0
    var unexpected: [(record: Int, opcode: UInt8)] = []
    var unexpectedCount = 0

    /// The value dissectors: the built-in ones, then those of a `--uuids` file.
    public let registry: DissectorRegistry
    /// Called with every value a dissector decoded (battery history, identity cards, the ANCS view).
    public var valueObservers: [(Dissection, ValueContext) -> Void] = []

    public init(options: DecodeOptions = DecodeOptions()) {
        self.loaded = options.gatt
        var r = DissectorRegistry.standard
        if let u = options.uuids?.dissector { r.add(u) }
        self.registry = r
    }

    public func attach(to pipeline: Pipeline) {
        self.pipeline = pipeline
        pipeline.channels[0x0004] = self
        pipeline.recordObservers.append { [unowned self] _, t in
            if t.micros >= self.nextDeadline { self.expire(now: t.micros) }
        }
        pipeline.finishers.append { [unowned self] in self.expire(now: .max) }
        pipeline.connectionObservers.append { [unowned self, unowned pipeline] change, _, _ in
            if case let .closed(handle, _) = change, let c = pipeline.connections.latest(handle) {
                self.closeConnection(c.id)
            }
        }
    }

    public func decode(_ frame: L2CAPFrame, connection: Connection, event: inout TraceEvent) {
        decodeATT(frame.payload, connection: connection, bearer: frame.cid, event: &event)
    }

    // MARK: Decoding

    /// Decodes one ATT PDU carried on `bearer` (0x0004, or an EATT channel's CID).
    public func decodeATT(_ bytes: ArraySlice<UInt8>, connection: Connection, bearer: UInt16, event e: inout TraceEvent) {
        e.legacy.kind = .att
        pduCount += 1
        connObjects[connection.id] = connection
        let state = connState(connection.id)
        state.pdus += 1
        var att = Fields()
        att.items.reserveCapacity(12)
        guard let op = bytes.first else {
            e.legacy.malformed = "empty ATT PDU"
            e.legacy.summary = "Malformed ATT: empty PDU"
            e.legacy.layers.append(("att", att))
            return
        }
        att.add("opcode", Int(op))
        att.add("name", ATTNames.opcode(op))
        if bearer != 0x0004 { att.add("bearer", Int(bearer)) }
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU.parse(bytes)
        } catch {
            let reason = (error as? ByteError)?.description ?? "\(error)"
            e.legacy.malformed = reason
            att.add("data", hex: bytes)
            e.legacy.summary = "Malformed ATT \(ATTNames.opcode(op)): \(reason) — \(Hex.spaced(bytes, limit: 24))"
            e.legacy.layers.append(("att", att))
            return
        }
        let client = ATTNames.sentByClient(op)
        let peerIsServer: Bool
        switch e.direction {
        case .unknown: peerIsServer = true
        case .hostToController: peerIsServer = client
        case .controllerToHost: peerIsServer = !client
        }
        att.add("role", client ? "client" : "server")
        let serverKey = peerIsServer ? ATTLayer.deviceKey(connection, state) : "local"

        // Transactions.
        var request: Pending? = nil
        var note: String? = nil
        let isIndication = op == 0x1D || op == 0x1E
        if ATTNames.isRequest(op) || op == 0x1D {
            let key = PendingKey(connection: connection.id, bearer: bearer, peerIsServer: peerIsServer, indication: isIndication)
            if let old = pending.removeValue(forKey: key) {
                flagUnanswered(old, reason: "a new \(isIndication ? "indication" : "request") (record \(e.record)) came before any response")
            }
            pending[key] = Pending(record: e.record, time: e.timestamp, pdu: pdu, handle: pdu.handle)
            nextDeadline = min(nextDeadline, e.timestamp.micros + ATTLayer.timeoutMicros)
            pipeline?.hold(e.record)
        } else if ATTNames.isResponse(op) || op == 0x1E {
            let key = PendingKey(connection: connection.id, bearer: bearer, peerIsServer: peerIsServer, indication: isIndication)
            if let p = pending[key], ATTLayer.answers(pdu, p.pdu) {
                pending[key] = nil
                request = p
                let latency = e.timestamp.micros - p.time.micros
                transactions += 1
                latencyTotal += latency
                latencyMax = max(latencyMax, latency)
                att.add("request", p.record)
                att.add("latency_us", Int(latency))
                let responseRecord = e.record
                pipeline?.update(p.record) { req in
                    guard let i = req.legacy.layers.firstIndex(where: { $0.0 == "att" }) else { return }
                    req.legacy.layers[i].1.add("response", responseRecord)
                    req.legacy.layers[i].1.add("latency_us", Int(latency))
                    if !req.legacy.summary.isEmpty { req.legacy.late += " [response at record \(responseRecord)]" }
                }
                pipeline?.release(p.record)
            } else {
                let why: String
                if let p = pending[key] {
                    why = "does not answer the pending \(ATTNames.opcode(p.pdu.opcode)) (record \(p.record))"
                } else {
                    why = "no \(isIndication ? "indication" : "request") pending"
                }
                att.add("unexpected", why)
                note = why
                unexpectedCount += 1
                if unexpected.count < ATTLayer.maxListed { unexpected.append((e.record, op)) }
            }
        }

        // The handle the PDU is about: its own, or its request's.
        var handle = pdu.handle
        if handle == nil, let r = request, op != 0x01 { handle = r.handle }

        // MTU and discovery.
        switch pdu {
        case let .exchangeMTURequest(mtu):
            state.clientMTU = mtu
            att.add("mtu", Int(mtu))
        case let .exchangeMTUResponse(mtu):
            state.serverMTU = mtu
            state.mtuRecord = e.record
            att.add("mtu", Int(mtu))
            if request != nil { att.add("att_mtu", state.mtu) }
        default: break
        }
        if let r = request, pdu.opcode != 0x01 {
            var db = database(serverKey)
            if db.ingest(request: r.pdu, response: pdu) {
                databases[serverKey] = db
                generation += 1
            }
        }
        if case let .errorResponse(reqOp, eh, code) = pdu {
            errorCount += 1
            if errors.count < ATTLayer.maxListed { errors.append((e.record, reqOp, eh, code)) }
        }
        let describes = pipeline?.describes ?? true
        var ctx = DescribeContext(layer: self, serverKey: serverKey, state: state, side: peerIsServer ? 1 : 0, describes: describes)
        let values = ValueSite(connection: connection.id, device: serverKey, record: e.record, time: e.timestamp, opcode: op,
                               fromClient: client, state: state.values)
        var summaryText = describe(pdu, request: request?.pdu, state: state, peerIsServer: peerIsServer, handle: handle,
                                   att: &att, ctx: &ctx, values: values)
        if case let .errorResponse(_, _, code) = pdu, let name = att["error_name"]?.stringValue, name != ATTNames.error(code) {
            serviceErrorNames[code] = name
        }

        // Long values.
        switch pdu {
        case let .readResponse(v):
            if let h = handle { state.blob[peerIsServer] = (h, Array(v)) }
        case let .readBlobResponse(v):
            if let r = request, case let .readBlobRequest(h, offset) = r.pdu {
                var cur = state.blob[peerIsServer]
                if cur == nil || cur?.handle != h { cur = (h, []) }
                if var c = cur, Int(offset) <= c.bytes.count {
                    c.bytes.removeSubrange(Int(offset)...)
                    if c.bytes.count + v.count <= 65_535 { c.bytes.append(contentsOf: v) }
                    state.blob[peerIsServer] = c
                    att.add("long_value", hex: c.bytes)
                    att.add("long_value_offset", Int(offset))
                    if v.count < state.mtu - 1, let d = dissectValue(c.bytes[...], location: ctx.locate(h), site: values) {
                        att.add("decoded", d.jsonFields)
                        summaryText += " → " + d.summaryText(raw: c.bytes[...])
                    }
                } else {
                    state.blob[peerIsServer] = nil
                }
            }
        case let .prepareWriteRequest(h, offset, v):
            var q = state.prepared[peerIsServer] ?? []
            if q.count < 4096 { q.append((h, offset, Array(v))) }
            state.prepared[peerIsServer] = q
        case let .executeWriteRequest(flags):
            let q = state.prepared[peerIsServer] ?? []
            state.prepared[peerIsServer] = nil
            if flags == 0x01 {
                var order: [UInt16] = []
                var written: [UInt16: [UInt8]] = [:]
                for item in q {
                    var v = written[item.handle] ?? []
                    if written[item.handle] == nil { order.append(item.handle) }
                    let o = Int(item.offset)
                    if o <= v.count {
                        v.removeSubrange(o...)
                    } else {
                        v.append(contentsOf: [UInt8](repeating: 0, count: min(o - v.count, 65_535)))
                    }
                    if v.count + item.value.count <= 65_535 { v.append(contentsOf: item.value) }
                    written[item.handle] = v
                }
                var list: [FieldValue] = []
                for h in order {
                    let v = written[h] ?? []
                    var w = Fields()
                    w.add("handle", Int(h))
                    w.add("value", hex: v)
                    if let g = ctx.gattFields(h) { w.add("gatt", g) }
                    if let d = dissectValue(v[...], location: ctx.locate(h), site: values) {
                        w.add("decoded", d.jsonFields)
                        summaryText += "; \(ctx.text(h)): " + d.summaryText(raw: v[...])
                    }
                    list.append(.object(w))
                }
                att.add("writes", .list(list))
            }
        default: break
        }

        if describes {
            // Room for the suffixes, including the "[response at record …]" a held request gets later.
            var s = "ATT "
            s.reserveCapacity(summaryText.utf8.count + 64)
            s += summaryText
            if let n = note { s += " [unexpected: \(n)]" }
            if let r = request { s += " [request at record \(r.record), \(Fmt.fixed(Int((e.timestamp.micros - r.time.micros) / 10), scale: 100)) ms]" }
            e.legacy.summary = s
        }
        e.legacy.layers.append(("att", att))
        if let h = handle, !ctx.multi {
            if let g = ctx.gattFields(h) { e.legacy.layers.append(("gatt", g)) }
        }
    }

    /// Where a value travels: the PDU and connection around it, for the dissectors' context.
    struct ValueSite {
        var connection: Int
        var device: String
        var record: Int
        var time: Timestamp
        var opcode: UInt8
        var fromClient: Bool
        let state: DissectorState
    }

    /// The one place value dissectors are called: once for every attribute value an ATT PDU carries (each entry
    /// of a multi-value PDU, and long values once reassembled from Read Blob or Prepare/Execute Write
    /// sequences). The dissector is chosen by the descriptor's UUID for a descriptor, else by the
    /// characteristic's; `type` (a Read By Type request's attribute type) wins when a dissector knows it.
    /// Returns nil when no dissector applies.
    func dissectValue(_ v: ArraySlice<UInt8>, location loc: GATTLocation, type: BLEUUID? = nil, handle: UInt16 = 0,
                      site: ValueSite) -> Dissection? {
        let isDescriptor = loc.role == .descriptor
        let uuid: BLEUUID
        if let t = type, registry.dissector(for: t) != nil {
            uuid = t
        } else if isDescriptor, let d = loc.descriptor?.uuid {
            uuid = d
        } else if loc.role == .value, let c = loc.characteristic?.uuid {
            uuid = c
        } else {
            return nil
        }
        guard let d = registry.dissector(for: uuid) else { return nil }
        let context = ValueContext(uuid: uuid, characteristic: loc.characteristic?.uuid ?? (isDescriptor ? nil : uuid),
                                   isDescriptor: isDescriptor, opcode: site.opcode, fromClient: site.fromClient,
                                   handle: handle, record: site.record, time: site.time, connection: site.connection,
                                   device: site.device, state: site.state)
        let result = d.dissect(v, context)
        for o in valueObservers { o(result, context) }
        return result
    }

    /// An Error Response about a characteristic whose service defines the error code (ANCS 0xA0–0xA3).
    func dissectError(_ code: UInt8, location loc: GATTLocation, site: ValueSite) -> Dissection? {
        guard code >= 0x80, loc.role == .value || loc.role == .descriptor,
              let uuid = loc.role == .descriptor ? loc.descriptor?.uuid : loc.characteristic?.uuid else { return nil }
        let context = ValueContext(uuid: uuid, characteristic: loc.characteristic?.uuid, isDescriptor: loc.role == .descriptor,
                                   opcode: site.opcode, fromClient: site.fromClient, record: site.record, time: site.time,
                                   connection: site.connection, device: site.device, state: site.state)
        guard let result = registry.dissectError(code, context) else { return nil }
        for o in valueObservers { o(result, context) }
        return result
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
        for (k, p) in pending {
            if now == .max || now - p.time.micros >= ATTLayer.timeoutMicros {
                expired.append((k, p))
            } else {
                next = min(next, p.time.micros + ATTLayer.timeoutMicros)
            }
        }
        for (k, p) in expired.sorted(by: { $0.1.record < $1.1.record }) {
            pending[k] = nil
            if now == .max {
                flagUnanswered(p, reason: "no response before the end of the capture")
            } else {
                flagUnanswered(p, reason: "no response within 30 s (ATT timeout)", timeout: true)
            }
        }
        nextDeadline = next
    }

    func closeConnection(_ id: Int) {
        let keys = pending.keys.filter { $0.connection == id }
        for k in keys.sorted(by: { pending[$0]!.record < pending[$1]!.record }) {
            if let p = pending.removeValue(forKey: k) { flagUnanswered(p, reason: "the connection closed before any response") }
        }
        // Kept for the connections the summary lists.
        if let s = conns[id], s.pdus > 0, id <= ConnectionTracker.maxListed { closedMTU[id] = (s.clientMTU, s.serverMTU, s.mtu) }
        // The server's lookup memo is rebuilt on the next connection; thousands of idle servers keep only content.
        if let key = conns[id]?.peerKey?.key { databases[key]?.dropCaches() }
        conns[id] = nil
        connObjects[id] = nil
    }

    func flagUnanswered(_ p: Pending, reason: String, timeout: Bool = false) {
        unansweredCount += 1
        if unanswered.count < ATTLayer.maxListed { unanswered.append((p.record, p.pdu.opcode, reason)) }
        pipeline?.update(p.record) { e in
            guard let i = e.legacy.layers.firstIndex(where: { $0.0 == "att" }) else { return }
            e.legacy.layers[i].1.add("unanswered", reason)
            if timeout { e.legacy.layers[i].1.add("timeout", true) }
            if !e.legacy.summary.isEmpty { e.legacy.late += " [unanswered: \(reason)]" }
        }
        pipeline?.release(p.record)
    }

    // MARK: Databases

    static func deviceKey(_ c: Connection) -> String { c.peer?.description ?? c.peerKey }

    /// `deviceKey`, remembered in the connection's state while its peer stays the same.
    static func deviceKey(_ c: Connection, _ state: ConnState) -> String {
        if let k = state.peerKey, k.peer == c.peer { return k.key }
        let key = deviceKey(c)
        state.peerKey = (c.peer, key)
        return key
    }

    func connState(_ id: Int) -> ConnState {
        if let s = conns[id] { return s }
        let s = ConnState()
        conns[id] = s
        return s
    }

    /// The database of `key`, created (from a `--gatt` file when one matches) on first use.
    func database(_ key: String) -> GATTDatabase {
        if let d = databases[key] { return d }
        var db = GATTDatabase(device: key)
        if let l = loaded?.databases[key] {
            db.merge(l)
            db.source = l.source
        }
        if databases.count < ATTLayer.maxDatabases {
            databases[key] = db
            databaseOrder.append(key)
            generation += 1
        }
        return db
    }

    /// Databases from `--gatt` used for servers whose discovery the capture does not show, by device.
    var fallbacks: [String: GATTDatabase] = [:]

    /// The key into `fallbacks` for a server without discovery: a loaded database of the same device, or
    /// the only one the file holds (a peer that changed its random address).
    func fallback(_ key: String) -> String? {
        guard let l = loaded?.database(for: key) else { return nil }
        if fallbacks[l.device] == nil {
            fallbacks[l.device] = l
            generation += 1
        }
        return l.device
    }

    /// Looks handles up in one server's database, keeping the memo in the layer's copy.
    struct DescribeContext {
        unowned let layer: ATTLayer
        let serverKey: String
        /// The connection's state and server side, which keep the memo of lookups.
        unowned let state: ConnState
        let side: Int
        var multi = false
        /// False when no one reads the event's summary text (see `Pipeline.describes`).
        var describes = true

        func memo(_ h: UInt16) -> Located? {
            guard let m = state.located[side], m.generation == layer.generation, m.key == serverKey else { return nil }
            return m.map[h]
        }

        mutating func remember(_ h: UInt16, _ l: Located) {
            if let m = state.located[side], m.generation == layer.generation, m.key == serverKey {
                if m.map.count >= 4096 && m.map[h] == nil { return }
            } else {
                state.located[side] = LocateMemo(key: serverKey, generation: layer.generation)
            }
            state.located[side]!.map[h] = l
        }

        mutating func locate(_ h: UInt16) -> GATTLocation {
            if let l = memo(h) { return l.location }
            let loc = lookUp(h)
            remember(h, Located(location: loc))
            return loc
        }

        /// `ATTLayer.handleText` for `h`.
        mutating func text(_ h: UInt16) -> String {
            var l = memo(h) ?? Located(location: lookUp(h))
            if let t = l.text { return t }
            let t = ATTLayer.handleText(h, l.location)
            l.text = t
            remember(h, l)
            return t
        }

        /// `ATTLayer.gattFields` for `h`; nil when nothing is known about the handle.
        mutating func gattFields(_ h: UInt16) -> Fields? {
            var l = memo(h) ?? Located(location: lookUp(h))
            if let f = l.fields { return f.isEmpty ? nil : f }
            let f = l.location.isEmpty ? Fields() : ATTLayer.gattFields(l.location)
            l.fields = f
            remember(h, l)
            return f.isEmpty ? nil : f
        }

        mutating func lookUp(_ h: UInt16) -> GATTLocation {
            if layer.databases[serverKey] == nil { _ = layer.database(serverKey) }
            guard layer.databases[serverKey] != nil else { return GATTLocation(role: .unknown) }
            if layer.databases[serverKey]!.isEmpty, let fallback = layer.fallback(serverKey) {
                return layer.fallbacks[fallback]!.locate(h)
            }
            return layer.databases[serverKey]!.locate(h)
        }
    }

    static func uuidFields(_ u: BLEUUID?, kind: (UInt16) -> String?) -> Fields {
        var f = Fields()
        guard let u else { return f }
        f.add("uuid", u.description)
        if let n = GATTNaming.name(u, kind: kind) { f.add("name", n) }
        return f
    }

    static func gattFields(_ loc: GATTLocation) -> Fields {
        var g = Fields()
        if let s = loc.service {
            var f = uuidFields(s.uuid, kind: AssignedNumbers.serviceName)
            f.add("start", Int(s.start))
            f.add("end", Int(s.end))
            g.add("service", f)
        }
        if let c = loc.characteristic {
            var f = uuidFields(c.uuid, kind: AssignedNumbers.characteristicName)
            f.add("handle", Int(c.handle))
            f.add("value_handle", Int(c.valueHandle))
            g.add("characteristic", f)
        }
        if let d = loc.descriptor {
            var f = uuidFields(d.uuid, kind: AssignedNumbers.descriptorName)
            f.add("handle", Int(d.handle))
            g.add("descriptor", f)
        }
        if loc.role != .unknown { g.add("role", loc.role.rawValue) }
        return g
    }

    /// "handle 0x0003 Battery Level (Battery)" style text.
    static func handleText(_ h: UInt16, _ loc: GATTLocation) -> String {
        var s = "handle " + Hex.hex(h, width: 4)
        let svc = loc.service.flatMap { $0.uuid }.map { GATTNaming.name($0, kind: AssignedNumbers.serviceName) ?? $0.description }
        switch loc.role {
        case .serviceDeclaration:
            s += " service declaration" + (svc.map { " (\($0))" } ?? "")
        case .include:
            s += " include" + (svc.map { " (\($0))" } ?? "")
        case .characteristicDeclaration:
            let c = loc.characteristic?.uuid.map { GATTNaming.name($0, kind: AssignedNumbers.characteristicName) ?? $0.description }
            s += " declaration of " + (c ?? "characteristic") + (svc.map { " (\($0))" } ?? "")
        case .value:
            let c = loc.characteristic?.uuid.map { GATTNaming.name($0, kind: AssignedNumbers.characteristicName) ?? $0.description }
            s += " " + (c ?? "characteristic value") + (svc.map { " (\($0))" } ?? "")
        case .descriptor:
            let d = loc.descriptor?.uuid.map { GATTNaming.name($0, kind: AssignedNumbers.descriptorName) ?? $0.description } ?? "descriptor"
            let c = loc.characteristic?.uuid.map { GATTNaming.name($0, kind: AssignedNumbers.characteristicName) ?? $0.description }
            s += " " + d + (c.map { " of \($0)" } ?? "") + (svc.map { " (\($0))" } ?? "")
        case .unknown:
            if let svc { s += " (\(svc))" }
        }
        return s
    }

    static func valueText(_ v: ArraySlice<UInt8>) -> String {
        if v.isEmpty { return "(empty)" }
        var text = Hex.spaced(v, limit: 20)
        if v.count >= 3, v.count <= 64, v.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            text += " \"" + String(decoding: v, as: UTF8.self) + "\""
        }
        return text
    }

    func uuidText(_ u: BLEUUID) -> String { u.shortName }

    /// Fills `att` with the PDU's parameters and returns the summary text (without the "ATT " prefix).
    func describe(_ pdu: ATTPDU, request: ATTPDU?, state: ConnState, peerIsServer: Bool, handle: UInt16?,
                  att: inout Fields, ctx: inout DescribeContext, values: ValueSite) -> String {
        let name = ATTNames.opcode(pdu.opcode)
        func h(_ x: UInt16) -> String { ctx.text(x) }
        /// The value's text: decoded when a dissector knows it (its fields go to `decoded` in `fields`).
        func value(_ x: UInt16, _ v: ArraySlice<UInt8>, into fields: inout Fields, type: BLEUUID? = nil) -> String {
            guard let d = dissectValue(v, location: ctx.locate(x), type: type, handle: x, site: values) else {
                return ctx.describes ? ATTLayer.valueText(v) : ""
            }
            fields.add("decoded", d.jsonFields)
            return ctx.describes ? d.summaryText(raw: v) : ""
        }
        func range(_ a: UInt16, _ b: UInt16) -> String { "\(Hex.hex(a, width: 4))–\(Hex.hex(b, width: 4))" }
        if let x = handle { att.add("handle", Int(x)) }
        if let v = pdu.value, pdu.opcode != 0x06 { att.add("value", hex: v) }
        if !ctx.describes {
            // The frequent PDUs whose description adds no field but `decoded`: no text when none is read.
            switch pdu {
            case .readRequest, .writeResponse, .confirmation, .exchangeMTURequest, .exchangeMTUResponse, .readBlobResponse: return ""
            case let .readResponse(v):
                if let x = handle { _ = value(x, v, into: &att) }
                return ""
            case let .writeRequest(x, v), let .writeCommand(x, v), let .notification(x, v), let .indication(x, v):
                _ = value(x, v, into: &att)
                return ""
            default: break
            }
        }
        switch pdu {
        case let .errorResponse(reqOp, eh, code):
            att.add("request_opcode", Int(reqOp))
            att.add("request_name", ATTNames.opcode(reqOp))
            att.add("error", Int(code))
            let dissected = dissectError(code, location: ctx.locate(eh), site: values)
            // A service's own error codes (ANCS 0xA0–0xA3) are named by the service's dissector.
            att.add("error_name", dissected.flatMap(ATTLayer.serviceErrorName) ?? ATTNames.error(code))
            if let d = dissected {
                att.add("decoded", d.jsonFields)
                return "\(name): \(ATTNames.opcode(reqOp)) \(h(eh)): \(d.text)"
            }
            return "\(name): \(ATTNames.opcode(reqOp)) \(h(eh)): \(ATTNames.error(code))"
        case let .exchangeMTURequest(mtu): return "\(name): client MTU \(mtu)"
        case let .exchangeMTUResponse(mtu):
            return "\(name): server MTU \(mtu)" + (request != nil ? ", ATT_MTU \(state.mtu)" : "")
        case let .findInformationRequest(s, e):
            att.add("start_handle", Int(s)); att.add("end_handle", Int(e))
            return "\(name): \(range(s, e))"
        case let .findInformationResponse(format, entries):
            att.add("format", Int(format))
            att.add("entries", .list(entries.map { en in
                var f = Fields()
                f.add("handle", Int(en.handle))
                f.add("uuid", en.uuid.description)
                if let n = en.uuid.name { f.add("name", n) }
                return .object(f)
            }))
            ctx.multi = true
            return "\(name): " + entries.prefix(8).map { "\(Hex.hex($0.handle, width: 4)) \(uuidText($0.uuid))" }.joined(separator: ", ")
                + (entries.count > 8 ? ", … (\(entries.count))" : "")
        case let .findByTypeValueRequest(s, e, type, value):
            att.add("start_handle", Int(s)); att.add("end_handle", Int(e))
            att.add("type", BLEUUID(type).description)
            att.add("value", hex: value)
            let u = BLEUUID(littleEndian: value)
            return "\(name): \(range(s, e)), type \(uuidText(BLEUUID(type)))" + (u.map { ", value \(uuidText($0))" } ?? ", value \(Hex.spaced(value, limit: 16))")
        case let .findByTypeValueResponse(entries):
            att.add("entries", .list(entries.map { .object(["handle": .int(Int($0.found)), "group_end_handle": .int(Int($0.groupEnd))]) }))
            ctx.multi = true
            return "\(name): " + entries.prefix(8).map { range($0.found, $0.groupEnd) }.joined(separator: ", ")
        case let .readByTypeRequest(s, e, type), let .readByGroupTypeRequest(s, e, type):
            att.add("start_handle", Int(s)); att.add("end_handle", Int(e))
            att.add("type", type.description)
            if let n = type.name { att.add("type_name", n) }
            return "\(name): \(range(s, e)), type \(uuidText(type))"
        case let .readByTypeResponse(entries):
            ctx.multi = true
            var type: BLEUUID? = nil
            if case let .readByTypeRequest(_, _, t)? = request { type = t }
            var parts: [String] = []
            var list: [FieldValue] = []
            for en in entries {
                var f = Fields()
                f.add("handle", Int(en.handle))
                f.add("value", hex: en.value)
                if type?.uuid16 == 0x2803 {
                    var c = ByteCursor(en.value)
                    if let p = try? c.u8(), let vh = try? c.u16le(), let u = BLEUUID(littleEndian: c.rest()) {
                        f.add("properties", Int(p))
                        f.add("value_handle", Int(vh))
                        f.add("uuid", u.description)
                        if let n = GATTNaming.name(u, kind: AssignedNumbers.characteristicName) { f.add("uuid_name", n) }
                        if parts.count < 8 { parts.append("\(Hex.hex(en.handle, width: 4)) → \(Hex.hex(vh, width: 4)) \(GATTNaming.label(u, kind: AssignedNumbers.characteristicName)) [\(ATTNames.properties(p).joined(separator: ", "))]") }
                    }
                } else if type?.uuid16 == 0x2802 {
                    var c = ByteCursor(en.value)
                    if let a = try? c.u16le(), let b = try? c.u16le() {
                        f.add("included_start", Int(a)); f.add("included_end", Int(b))
                        if let u = BLEUUID(littleEndian: c.rest()) { f.add("uuid", u.description) }
                        if parts.count < 8 { parts.append("\(Hex.hex(en.handle, width: 4)) includes \(range(a, b))") }
                    }
                } else {
                    if let g = ctx.gattFields(en.handle) { f.add("gatt", g) }
                    let text = value(en.handle, en.value, into: &f, type: type)
                    if parts.count < 8 { parts.append("\(h(en.handle)): \(text)") }
                }
                list.append(.object(f))
            }
            att.add("entries", .list(list))
            return "\(name): " + parts.joined(separator: ", ") + (entries.count > parts.count ? ", … (\(entries.count))" : "")
        case let .readByGroupTypeResponse(entries):
            ctx.multi = true
            att.add("entries", .list(entries.map { en in
                var f = Fields()
                f.add("handle", Int(en.handle)); f.add("end_handle", Int(en.end)); f.add("value", hex: en.value)
                if let u = BLEUUID(littleEndian: en.value) {
                    f.add("uuid", u.description)
                    if let n = GATTNaming.name(u, kind: AssignedNumbers.serviceName) { f.add("uuid_name", n) }
                }
                return .object(f)
            }))
            return "\(name): " + entries.prefix(8).map { en in
                range(en.handle, en.end) + (BLEUUID(littleEndian: en.value).map { " " + GATTNaming.label($0, kind: AssignedNumbers.serviceName) } ?? "")
            }.joined(separator: ", ") + (entries.count > 8 ? ", … (\(entries.count))" : "")
        case let .readRequest(x): return "\(name): \(h(x))"
        case let .readBlobRequest(x, o):
            att.add("offset", Int(o))
            return "\(name): \(h(x)), offset \(o)"
        case let .readResponse(v):
            guard let x = handle else { return "\(name): " + ATTLayer.valueText(v) }
            return "\(name): \(h(x)): " + value(x, v, into: &att)
        case let .readBlobResponse(v):
            return "\(name): " + (handle.map { h($0) + ": " } ?? "") + ATTLayer.valueText(v)
        case let .readMultipleRequest(hs), let .readMultipleVariableRequest(hs):
            ctx.multi = true
            att.add("handles", .list(hs.map { .int(Int($0)) }))
            return "\(name): " + hs.prefix(8).map { h($0) }.joined(separator: ", ")
        case let .readMultipleResponse(v):
            ctx.multi = true
            if case let .readMultipleRequest(hs)? = request { att.add("handles", .list(hs.map { .int(Int($0)) })) }
            return "\(name): \(ATTLayer.valueText(v))"
        case let .readMultipleVariableResponse(list_, truncated):
            ctx.multi = true
            var hs: [UInt16] = []
            if case let .readMultipleVariableRequest(q)? = request { hs = q }
            var list: [FieldValue] = []
            var texts: [String] = []
            for (i, v) in list_.enumerated() {
                var f = Fields()
                var text = ATTLayer.valueText(v)
                if i < hs.count {
                    f.add("handle", Int(hs[i]))
                    if let g = ctx.gattFields(hs[i]) { f.add("gatt", g) }
                }
                f.add("value", hex: v)
                // The last value may be cut short by the MTU; only whole values are decoded.
                if i < hs.count, !(truncated && i == list_.count - 1) { text = value(hs[i], v, into: &f) }
                if texts.count < 6 { texts.append((i < hs.count ? h(hs[i]) + ": " : "") + text) }
                list.append(.object(f))
            }
            att.add("values", .list(list))
            if truncated { att.add("truncated", true) }
            return "\(name): " + texts.joined(separator: "; ")
        case let .writeRequest(x, v), let .writeCommand(x, v):
            return "\(name): \(h(x)): " + value(x, v, into: &att)
        case let .signedWriteCommand(x, v, sig):
            att.add("signature", hex: sig)
            return "\(name): \(h(x)): \(value(x, v, into: &att)), signature \(Hex.string(sig))"
        case .writeResponse:
            return name + (handle.map { ": " + h($0) } ?? "")
        case let .prepareWriteRequest(x, o, v), let .prepareWriteResponse(x, o, v):
            att.add("offset", Int(o))
            return "\(name): \(h(x)), offset \(o): \(ATTLayer.valueText(v))"
        case let .executeWriteRequest(flags):
            att.add("flags", Int(flags))
            return "\(name): " + (flags == 0 ? "cancel all prepared writes" : flags == 1 ? "write all prepared values" : "flags \(Hex.hex(flags, width: 2))")
        case .executeWriteResponse: return name
        case let .notification(x, v), let .indication(x, v):
            return "\(name): \(h(x)): " + value(x, v, into: &att)
        case .confirmation: return name
        case let .multipleNotification(entries):
            ctx.multi = true
            var list: [FieldValue] = []
            var texts: [String] = []
            for en in entries {
                var f = Fields()
                f.add("handle", Int(en.handle))
                f.add("value", hex: en.value)
                if let g = ctx.gattFields(en.handle) { f.add("gatt", g) }
                let text = value(en.handle, en.value, into: &f)
                if texts.count < 6 { texts.append("\(h(en.handle)): \(text)") }
                list.append(.object(f))
            }
            att.add("entries", .list(list))
            return "\(name): " + texts.joined(separator: "; ")
        case let .unknown(_, params):
            att.add("parameters", hex: params)
            return "\(name): \(Hex.spaced(params, limit: 16))"
        }
    }

    // MARK: Summary

    public func summary() -> SummarySection? {
        guard pduCount > 0 || !databases.isEmpty else { return nil }
        return SummarySection(name: "att", value: { [self] in .object(summaryFields()) }, text: { [self] in summaryText() })
    }

    /// Service and characteristic counts of each database with content, in order of first use.
    var databaseCounts: [(device: String, services: Int, characteristics: Int, source: String)] {
        databaseOrder.compactMap { k in
            guard var db = databases[k], !db.isEmpty else { return nil }
            return (k, db.orderedServices().count, db.orderedCharacteristics().count, db.source)
        }
    }

    func summaryFields() -> Fields {
        var f = Fields()
        f.add("pdus", pduCount)
        f.add("transactions", transactions)
        if transactions > 0 {
            f.add("mean_latency_us", Int(latencyTotal / Int64(transactions)))
            f.add("max_latency_us", Int(latencyMax))
        }
        f.add("mtu", .list(mtuList.map { m in
            .object(["connection": .int(m.connection), "client_mtu": m.client.map { .int(Int($0)) } ?? .null,
                     "server_mtu": m.server.map { .int(Int($0)) } ?? .null, "att_mtu": .int(m.mtu)])
        }))
        f.add("errors", errorCount)
        f.add("error_list", .list(errors.map { .object(["record": .int($0.record), "request_opcode": .int(Int($0.request)), "handle": .int(Int($0.handle)), "error": .int(Int($0.code)), "error_name": .string(self.serviceErrorNames[$0.code] ?? ATTNames.error($0.code))]) }))
        f.add("unanswered", unansweredCount)
        f.add("unanswered_list", .list(unanswered.map { .object(["record": .int($0.record), "opcode": .int(Int($0.opcode)), "name": .string(ATTNames.opcode($0.opcode)), "reason": .string($0.reason)]) }))
        f.add("unexpected_responses", unexpectedCount)
        f.add("unexpected_list", .list(unexpected.map { .object(["record": .int($0.record), "opcode": .int(Int($0.opcode)), "name": .string(ATTNames.opcode($0.opcode))]) }))
        f.add("databases", .list(databaseCounts.map { d in
            .object(["device": .string(d.device), "services": .int(d.services), "characteristics": .int(d.characteristics), "source": .string(d.source)])
        }))
        return f
    }

    func summaryText() -> [String] {
        var text: [String] = []
        text.append("  ATT:         \(pduCount) PDU\(pduCount == 1 ? "" : "s"), \(transactions) transaction\(transactions == 1 ? "" : "s")"
            + (transactions > 0 ? ", mean latency \(Fmt.fixed(Int(latencyTotal / Int64(transactions) / 10), scale: 100)) ms, max \(Fmt.fixed(Int(latencyMax / 10), scale: 100)) ms" : ""))
        let mtus = mtuList
        for m in mtus.prefix(SummaryRender.textListed) {
            if m.client == nil && m.server == nil {
                text.append("    connection #\(m.connection): ATT_MTU 23 (no MTU exchange seen)")
            } else {
                text.append("    connection #\(m.connection): ATT_MTU \(m.mtu) (client " + (m.client.map { String($0) } ?? "?") + ", server " + (m.server.map { String($0) } ?? "?") + ")")
            }
        }
        if mtus.count > SummaryRender.textListed { text.append("    … ATT_MTU of \(mtus.count - SummaryRender.textListed) more connections in the JSON summary") }
        if errorCount > 0 {
            var byCode: [UInt8: Int] = [:]
            for e in errors { byCode[e.code, default: 0] += 1 }
            text.append("    errors: \(errorCount): " + byCode.sorted { $0.key < $1.key }.map { "\(serviceErrorNames[$0.key] ?? ATTNames.error($0.key)) ×\($0.value)" }.joined(separator: ", "))
        }
        for u in unanswered.prefix(20) {
            text.append("    unanswered: record \(u.record) \(ATTNames.opcode(u.opcode)): \(u.reason)")
        }
        if unansweredCount > 20 { text.append("    … \(unansweredCount - 20) more unanswered") }
        if unexpectedCount > 0 {
            text.append("    responses with no matching request: \(unexpectedCount) (records " + unexpected.prefix(10).map { String($0.record) }.joined(separator: ", ") + (unexpectedCount > 10 ? ", …" : "") + ")")
        }
        let dbs = databaseCounts
        for d in dbs.prefix(SummaryRender.textListed) {
            text.append("    GATT database of \(d.device): \(d.services) service\(d.services == 1 ? "" : "s"), \(d.characteristics) characteristic\(d.characteristics == 1 ? "" : "s")" + (d.source == "capture" ? "" : " (from \(d.source))"))
        }
        if dbs.count > SummaryRender.textListed { text.append("    … and \(dbs.count - SummaryRender.textListed) more GATT databases (bletrace gatt lists them all)") }
        return text
    }

    var mtuList: [(connection: Int, client: UInt16?, server: UInt16?, mtu: Int)] {
        seenMTU.sorted { $0.key < $1.key }.map { ($0.key, $0.value.client, $0.value.server, $0.value.mtu) }
    }

    /// MTU per connection kept after the connection's state is dropped.
    var seenMTU: [Int: (client: UInt16?, server: UInt16?, mtu: Int)] {
        var out = closedMTU
        for (id, s) in conns where s.pdus > 0 { out[id] = (s.clientMTU, s.serverMTU, s.mtu) }
        return out
    }
    var closedMTU: [Int: (client: UInt16?, server: UInt16?, mtu: Int)] = [:]

    /// All databases with content, in order of first use.
    public func exportDatabases() -> [GATTDatabase] {
        databaseOrder.compactMap { databases[$0] }.filter { !$0.isEmpty }
    }
}
