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

    /// What `DescribeContext` found for handles of one server. Valid while the server key and `generation`
    /// are unchanged.
    struct LocateMemo {
        var key: String
        var generation: Int
        var map: [UInt16: GATTLocation] = [:]
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
    var unanswered: [(record: Int, opcode: UInt8, why: ATTUnanswered)] = []
    var unansweredCount = 0
    var unexpected: [(record: Int, opcode: UInt8)] = []
    var unexpectedCount = 0

    /// Names of a `--uuids` file, handed to every event for its renderer.
    var userNames: [BLEUUID: String]?

    /// The value dissectors: the built-in ones, then those of a `--uuids` file.
    public let registry: DissectorRegistry
    /// Called with every value a dissector decoded (battery history, identity cards, the ANCS view).
    public var valueObservers: [(Dissection, ValueContext) -> Void] = []

    public init(options: DecodeOptions = DecodeOptions()) {
        self.loaded = options.gatt
        if let n = options.uuids?.names, !n.isEmpty { userNames = n }
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
        pduCount += 1
        connObjects[connection.id] = connection
        let state = connState(connection.id)
        state.pdus += 1
        guard let op = bytes.first else {
            e.body = .att(ATTEvent(.empty, bearer: bearer))
            return
        }
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU.parse(bytes)
        } catch {
            let reason = (error as? ByteError)?.description ?? "\(error)"
            var a = ATTEvent(.malformed(opcode: op, reason: reason, data: bytes), bearer: bearer)
            a.userNames = userNames
            e.body = .att(a)
            return
        }
        var a = ATTEvent(.pdu(pdu), bearer: bearer)
        a.userNames = userNames
        let client = ATTNames.sentByClient(op)
        let peerIsServer: Bool
        switch e.direction {
        case .unknown: peerIsServer = true
        case .hostToController: peerIsServer = client
        case .controllerToHost: peerIsServer = !client
        }
        a.peerIsServer = peerIsServer
        let serverKey = peerIsServer ? ATTLayer.deviceKey(connection, state) : "local"

        // Transactions.
        let request = transaction(pdu, &a, connection: connection.id, bearer: bearer, peerIsServer: peerIsServer,
                                  record: e.record, time: e.timestamp)

        // The handle the PDU is about: its own, or its request's.
        var handle = pdu.handle
        if handle == nil, let r = request, op != 0x01 { handle = r.handle }
        a.handle = handle

        // MTU and discovery.
        switch pdu {
        case let .exchangeMTURequest(mtu):
            state.clientMTU = mtu
        case let .exchangeMTUResponse(mtu):
            state.serverMTU = mtu
            state.mtuRecord = e.record
            if request != nil { a.attMTU = UInt16(state.mtu) }
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
        var ctx = DescribeContext(layer: self, serverKey: serverKey, state: state, side: peerIsServer ? 1 : 0)
        let values = ValueSite(connection: connection.id, device: serverKey, record: e.record, time: e.timestamp, opcode: op,
                               fromClient: client, state: state.values)
        locateAndDissect(pdu, request: request?.pdu, into: &a, ctx: &ctx, values: values)
        if case let .errorResponse(_, _, code) = pdu, let d = a.decoded, let name = ATTLayer.serviceErrorName(d),
           name != ATTNames.error(code) {
            serviceErrorNames[code] = name
        }
        longValues(pdu, request: request?.pdu, into: &a, state: state, peerIsServer: peerIsServer, ctx: &ctx, values: values)
        e.body = .att(a)
    }

    /// Links a response to its pending request (returned) and holds a request until its response; flags
    /// what answers nothing and what a new request leaves unanswered.
    func transaction(_ pdu: ATTPDU, _ a: inout ATTEvent, connection: Int, bearer: UInt16, peerIsServer: Bool,
                     record: Int, time: Timestamp) -> Pending? {
        let op = pdu.opcode
        let isIndication = op == 0x1D || op == 0x1E
        let key = PendingKey(connection: connection, bearer: bearer, peerIsServer: peerIsServer, indication: isIndication)
        if ATTNames.isRequest(op) || op == 0x1D {
            if let old = pending.removeValue(forKey: key) {
                flagUnanswered(old, .superseded(by: record, indication: isIndication))
            }
            pending[key] = Pending(record: record, time: time, pdu: pdu, handle: pdu.handle)
            nextDeadline = min(nextDeadline, time.micros + ATTLayer.timeoutMicros)
            pipeline?.hold(record)
        } else if ATTNames.isResponse(op) || op == 0x1E {
            if let p = pending[key], ATTLayer.answers(pdu, p.pdu) {
                pending[key] = nil
                let latency = time.micros - p.time.micros
                transactions += 1
                latencyTotal += latency
                latencyMax = max(latencyMax, latency)
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

    /// Looks up the handles the PDU is about and decodes the values it carries (in the PDU's order: value
    /// dissectors may keep state), into the event's facts.
    func locateAndDissect(_ pdu: ATTPDU, request: ATTPDU?, into a: inout ATTEvent, ctx: inout DescribeContext, values: ValueSite) {
        if let x = a.handle { a.location = ctx.locate(x) }
        switch pdu {
        case let .errorResponse(_, eh, code):
            a.decoded = dissectError(code, location: ctx.locate(eh), site: values)
        case let .readByTypeResponse(entries):
            if case let .readByTypeRequest(_, _, t)? = request { a.requestType = t }
            let t = a.requestType?.uuid16
            guard t != 0x2803 && t != 0x2802 else { return }
            var list: [ATTEntryFacts] = []
            list.reserveCapacity(entries.count)
            for en in entries {
                let loc = ctx.locate(en.handle)
                let d = dissectValue(en.value, location: loc, type: a.requestType, handle: en.handle, site: values)
                list.append(ATTEntryFacts(handle: en.handle, location: loc, decoded: d))
            }
            a.extra = ATTExtra(entries: list)
        case let .readResponse(v):
            if let x = a.handle { a.decoded = dissectValue(v, location: ctx.locate(x), handle: x, site: values) }
        case let .readMultipleRequest(hs), let .readMultipleVariableRequest(hs):
            a.extra = ATTExtra(entries: hs.prefix(8).map { ATTEntryFacts(handle: $0, location: ctx.locate($0)) })
        case .readMultipleResponse:
            if case let .readMultipleRequest(hs)? = request { a.requestHandles = hs }
        case let .readMultipleVariableResponse(vs, truncated):
            guard case let .readMultipleVariableRequest(hs)? = request else { return }
            a.requestHandles = hs
            var list: [ATTEntryFacts] = []
            for (i, v) in vs.enumerated() where i < hs.count {
                let loc = ctx.locate(hs[i])
                // The last value may be cut short by the MTU; only whole values are decoded.
                let d = truncated && i == vs.count - 1 ? nil : dissectValue(v, location: loc, handle: hs[i], site: values)
                list.append(ATTEntryFacts(handle: hs[i], location: loc, decoded: d))
            }
            a.extra = ATTExtra(entries: list)
        case let .writeRequest(x, v), let .writeCommand(x, v), let .signedWriteCommand(x, v, _),
             let .notification(x, v), let .indication(x, v):
            a.decoded = dissectValue(v, location: ctx.locate(x), handle: x, site: values)
        case let .multipleNotification(entries):
            var list: [ATTEntryFacts] = []
            list.reserveCapacity(entries.count)
            for en in entries {
                let loc = ctx.locate(en.handle)
                list.append(ATTEntryFacts(handle: en.handle, location: loc,
                                          decoded: dissectValue(en.value, location: loc, handle: en.handle, site: values)))
            }
            a.extra = ATTExtra(entries: list)
        default:
            break
        }
    }

    /// Reassembles long values: Read Blob sequences, and the queued writes an Execute Write Request writes.
    func longValues(_ pdu: ATTPDU, request: ATTPDU?, into a: inout ATTEvent, state: ConnState, peerIsServer: Bool,
                    ctx: inout DescribeContext, values: ValueSite) {
        switch pdu {
        case let .readResponse(v):
            if let h = a.handle { state.blob[peerIsServer] = (h, Array(v)) }
        case let .readBlobResponse(v):
            guard case let .readBlobRequest(h, offset)? = request else { return }
            var cur = state.blob[peerIsServer]
            if cur == nil || cur?.handle != h { cur = (h, []) }
            if var c = cur, Int(offset) <= c.bytes.count {
                c.bytes.removeSubrange(Int(offset)...)
                if c.bytes.count + v.count <= 65_535 { c.bytes.append(contentsOf: v) }
                state.blob[peerIsServer] = c
                let d = v.count < state.mtu - 1 ? dissectValue(c.bytes[...], location: ctx.locate(h), site: values) : nil
                a.extra = ATTExtra(longValue: ATTLongValue(bytes: c.bytes, offset: offset, decoded: d))
            } else {
                state.blob[peerIsServer] = nil
            }
        case let .prepareWriteRequest(h, offset, v):
            var q = state.prepared[peerIsServer] ?? []
            if q.count < 4096 { q.append((h, offset, Array(v))) }
            state.prepared[peerIsServer] = q
        case let .executeWriteRequest(flags):
            let q = state.prepared[peerIsServer] ?? []
            state.prepared[peerIsServer] = nil
            guard flags == 0x01 else { return }
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
            var list: [ATTWrite] = []
            for h in order {
                let v = written[h] ?? []
                let loc = ctx.locate(h)
                list.append(ATTWrite(handle: h, value: v, location: loc, decoded: dissectValue(v[...], location: loc, site: values)))
            }
            a.extra = ATTExtra(writes: list)
        default: break
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
        if let key = conns[id]?.peerKey?.key { databases[key]?.dropCaches() }
        conns[id] = nil
        connObjects[id] = nil
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

    /// Looks handles up in one server's database, keeping the memo in the connection's state.
    struct DescribeContext {
        unowned let layer: ATTLayer
        let serverKey: String
        /// The connection's state and server side, which keep the memo of lookups.
        unowned let state: ConnState
        let side: Int

        func memo(_ h: UInt16) -> GATTLocation? {
            guard let m = state.located[side], m.generation == layer.generation, m.key == serverKey else { return nil }
            return m.map[h]
        }

        mutating func remember(_ h: UInt16, _ l: GATTLocation) {
            if let m = state.located[side], m.generation == layer.generation, m.key == serverKey {
                if m.map.count >= 4096 && m.map[h] == nil { return }
            } else {
                state.located[side] = LocateMemo(key: serverKey, generation: layer.generation)
            }
            state.located[side]!.map[h] = l
        }

        mutating func locate(_ h: UInt16) -> GATTLocation {
            if let l = memo(h) { return l }
            let loc = lookUp(h)
            remember(h, loc)
            return loc
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
        f.add("unanswered_list", .list(unanswered.map { .object(["record": .int($0.record), "opcode": .int(Int($0.opcode)), "name": .string(ATTNames.opcode($0.opcode)), "reason": .string($0.why.reason)]) }))
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
            text.append("    unanswered: record \(u.record) \(ATTNames.opcode(u.opcode)): \(u.why.reason)")
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
