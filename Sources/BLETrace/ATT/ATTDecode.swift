/// ATT PDU decoding: one PDU into its typed `ATTEvent`, with the GATT locations it names and the values the
/// dissectors decode (the one place they are called).
extension ATTLayer {
    // MARK: Decoding

    /// Decodes one ATT PDU carried on `bearer` (0x0004, or an EATT channel's CID); a request's event is held
    /// in `pipeline` until its answer.
    public func decodeATT(_ bytes: ArraySlice<UInt8>, connection: Connection, bearer: UInt16, event e: inout TraceEvent,
                          _ pipeline: Pipeline) {
        pduCount += 1
        // The connection's state used uncounted (a counted one was retained and released for every PDU).
        connStateUnretained(connection.id)._withUnsafeGuaranteedRef { state in
            decodeATT(bytes, connection: connection, state: state, bearer: bearer, event: &e, pipeline)
        }
    }

    /// `decodeATT` given the connection's state.
    func decodeATT(_ bytes: ArraySlice<UInt8>, connection: Connection, state: ConnState, bearer: UInt16,
                   event e: inout TraceEvent, _ pipeline: Pipeline) {
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
        // The PDU goes into the event last (its last use moves it there); the facts are gathered around it.
        var a = ATTEvent(.empty, bearer: bearer)
        a.userNames = userNames
        let client = ATTNames.sentByClient(op)
        let peerIsServer: Bool
        switch e.direction {
        case .unknown: peerIsServer = true
        case .hostToController: peerIsServer = client
        case .controllerToHost: peerIsServer = !client
        }
        a.peerIsServer = peerIsServer
        let serverKey = peerIsServer ? ATTLayer.deviceKey(connection, state) : DeviceKey.local

        // Transactions.
        let request: ATTPDU? = transaction(pdu, &a, state: state, bearer: bearer, peerIsServer: peerIsServer,
                                  record: e.record, time: e.timestamp, sniffed: e.radio != nil, pipeline)

        // The handle the PDU is about: its own, or its request's.
        var handle = pdu.handle
        if handle == nil, op != 0x01 { handle = request?.handle }
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
        var slot = knownSlot(serverKey, state, peerIsServer: peerIsServer)
        if let r = request, pdu.opcode != 0x01 {
            if slot == nil { slot = madeSlot(serverKey, state, peerIsServer: peerIsServer) }
            // Past `maxDatabases` a server's discovery is not kept.
            if let s = slot, servers[s].ingest(request: r, response: pdu) {
                generation += 1
                if !early.isEmpty { resolveEarly(serverKey) }
            }
        }
        if case let .errorResponse(reqOp, eh, code) = pdu {
            errorCount += 1
            if errors.count < ATTLayer.maxListed { errors.append((e.record, reqOp, eh, code)) }
        }
        var ctx = borrowContext(serverKey, slot: slot, state, peerIsServer: peerIsServer)
        let values = ValueSite(connection: connection.id, device: serverKey, record: e.record, time: e.timestamp, opcode: op,
                               fromClient: client, state: state.values)
        locateAndDissect(pdu, request: request, into: &a, ctx: &ctx, values: values)
        if case let .errorResponse(_, _, code) = pdu, let d = a.decoded, let name = ATTLayer.serviceErrorName(d),
           name != ATTNames.error(code) {
            serviceErrorNames[code] = name
        }
        longValues(pdu, request: request, into: &a, state: state, peerIsServer: peerIsServer, ctx: &ctx, values: values)
        giveBack(&ctx, state)
        a.content = .pdu(pdu)
        e.body = .att(moveOut(&a, leaving: ATTEvent(.empty, bearer: bearer)))
    }

    /// Looks up the handles the PDU is about and decodes the values it carries (in the PDU's order: value
    /// dissectors may keep state), into the event's facts.
    func locateAndDissect(_ pdu: ATTPDU, request: ATTPDU?, into a: inout ATTEvent, ctx: inout DescribeContext, values: ValueSite) {
        // The PDU's own handle is looked up once: its location is the event's, and the one its value is decoded at.
        var own = GATTLocation(role: .unknown)
        if let x = a.handle {
            let r = locateRef(x, &ctx)
            own = r.location
            a.locationRef = r
        }
        let ownHandle = a.handle
        // The value of a PDU about one handle, decoded.
        func valueAt(_ x: UInt16, _ v: ArraySlice<UInt8>) -> Dissection? {
            dissectValue(v, location: x == ownHandle ? own : locate(x, &ctx), handle: x, site: values)
        }
        switch pdu {
        case let .errorResponse(_, eh, code):
            a.decoded = dissectError(code, location: eh == ownHandle ? own : locate(eh, &ctx), site: values)
        case let .readByTypeResponse(entries):
            var type: BLEUUID? = nil
            if case let .readByTypeRequest(_, _, t)? = request { type = t }
            let t = type?.uuid16
            guard t != 0x2803 && t != 0x2802 else {
                if type != nil { a.extra = ATTExtra(requestType: type) }
                return
            }
            var list: [ATTEntryFacts] = []
            list.reserveCapacity(entries.count)
            for en in entries {
                let loc = locate(en.handle, &ctx)
                let d = dissectValue(en.value, location: loc, type: type, handle: en.handle, site: values)
                list.append(ATTEntryFacts(handle: en.handle, location: loc, decoded: d))
            }
            a.extra = ATTExtra(entries: list, requestType: type)
        case let .readResponse(v):
            if let x = a.handle {
                a.decoded = dissectValue(v, location: own, handle: x, site: values)
                if v.count < ctx.mtu - 1 { learnLength(ctx.slot, x, v.count) }
            }
        case let .readMultipleRequest(hs), let .readMultipleVariableRequest(hs):
            a.extra = ATTExtra(entries: hs.prefix(8).map { ATTEntryFacts(handle: $0, location: locate($0, &ctx)) })
        case let .readMultipleResponse(v):
            if case let .readMultipleRequest(hs)? = request {
                a.extra = ATTExtra(entries: splitReadMultiple(v, handles: hs, ctx: &ctx, site: values) ?? [], requestHandles: hs)
            }
        case let .readMultipleVariableResponse(vs, truncated):
            guard case let .readMultipleVariableRequest(hs)? = request else { return }
            var list: [ATTEntryFacts] = []
            for (i, v) in vs.enumerated() where i < hs.count {
                let loc = locate(hs[i], &ctx)
                // The last value may be cut short by the MTU; only whole values are decoded.
                let d = truncated && i == vs.count - 1 ? nil : dissectValue(v, location: loc, handle: hs[i], site: values)
                list.append(ATTEntryFacts(handle: hs[i], location: loc, decoded: d))
            }
            a.extra = ATTExtra(entries: list, requestHandles: hs)
        // One case each: a case of several patterns that bind would copy the PDU.
        case let .writeRequest(x, v): a.decoded = valueAt(x, v)
        case let .writeCommand(x, v): a.decoded = valueAt(x, v)
        case let .signedWriteCommand(x, v, _): a.decoded = valueAt(x, v)
        case let .notification(x, v): a.decoded = valueAt(x, v)
        case let .indication(x, v): a.decoded = valueAt(x, v)
        case let .multipleNotification(entries):
            var list: [ATTEntryFacts] = []
            list.reserveCapacity(entries.count)
            for en in entries {
                let loc = locate(en.handle, &ctx)
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
            // Only a full response (ATT_MTU − 1 bytes) can be continued by Read Blob. One shorter than the smallest
            // ATT_MTU allows is the whole value on any bearer (EATT channels have MTUs of their own), and keeping a
            // copy of it would cost an allocation for most reads.
            if let h = a.handle {
                if v.count >= ATTLayer.minimumMTU - 1 { state.blob[peerIsServer] = (h, Array(v)) }
                // Looked up first: an empty table answers without hashing the key, as removing from it does not.
                else if state.blob[peerIsServer] != nil { state.blob[peerIsServer] = nil }
            }
        case let .readBlobResponse(v):
            guard case let .readBlobRequest(h, offset)? = request else { return }
            // Taken out of the state while it grows (a copy read from it would share the bytes, and the append
            // would copy them); put back while the value goes on.
            var c = state.blob.removeValue(forKey: peerIsServer) ?? (h, [])
            if c.handle != h { c = (h, []) }
            if Int(offset) <= c.bytes.count {
                c.bytes.removeSubrange(Int(offset)...)
                if c.bytes.count + v.count <= 65_535 { c.bytes.append(contentsOf: v) }
                let d = v.count < state.mtu - 1 ? dissectValue(c.bytes[...], location: locate(h, &ctx), site: values) : nil
                a.extra = ATTExtra(longValue: ATTLongValue(bytes: c.bytes, offset: offset, decoded: d))
                state.blob[peerIsServer] = c
            }
        case let .prepareWriteRequest(h, offset, v):
            // Appended in place: a copy of the queue read out of the state would be copied again by the append.
            if state.prepared[peerIsServer, default: []].count < 4096 {
                state.prepared[peerIsServer, default: []].append((h, offset, Array(v)))
            }
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
                let loc = locate(h, &ctx)
                list.append(ATTWrite(handle: h, value: v, location: loc, decoded: dissectValue(v[...], location: loc, site: values)))
            }
            a.extra = ATTExtra(writes: list)
        default: break
        }
    }

    /// Where a value travels: the PDU and connection around it, for the dissectors' context. A site lives within
    /// one `decodeATT` call, whose connection state owns the dissector state: the site does not count its
    /// reference, so that copying a site (a nested function's capture, an argument) retains nothing. What keeps a
    /// site longer counts the state itself (`EarlyValue.state`).
    struct ValueSite {
        var connection: Int
        var device: DeviceKey
        var record: Int
        var time: Timestamp
        var opcode: UInt8
        var fromClient: Bool
        unowned(unsafe) let state: DissectorState
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
        if let t = type, registry.knows(t) {
            uuid = t
        } else if isDescriptor, let d = loc.descriptor?.uuid {
            uuid = d
        } else if loc.role == .value, let c = loc.characteristic?.uuid {
            uuid = c
        } else {
            rememberEarly(v, handle: handle, location: loc, site: site)
            return nil
        }
        guard registry.knows(uuid) else { return nil }
        let context = ValueContext(uuid: uuid, characteristic: loc.characteristic?.uuid ?? (isDescriptor ? nil : uuid),
                                   isDescriptor: isDescriptor, opcode: site.opcode, fromClient: site.fromClient,
                                   handle: handle, record: site.record, time: site.time, connection: site.connection,
                                   device: site.device, state: site.state)
        guard let result = registry.dissect(v, context) else { return nil }
        values.value(result, context)
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
        values.value(result, context)
        return result
    }
}
