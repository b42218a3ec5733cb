/// Text and JSON of `ATTEvent`: the one-line text and the `att` and `gatt` layers.
extension ATTEvent: LayerBody {
    public func writeText(_ e: TraceEvent, into b: inout TextBytes) {
        if let n = userNames {
            UserUUIDNames.with(n) { writeText(into: &b) }
        } else {
            writeText(into: &b)
        }
    }

    func writeText(into b: inout TextBytes) {
        if eattBeyond != nil { b.append(string: "EATT ") }
        switch content {
        case .empty:
            b.append(string: "Malformed ATT: empty PDU")
        case let .malformed(op, reason, data):
            b.append(string: "Malformed ATT ")
            b.append(string: ATTNames.opcode(op))
            b.append(string: ": ")
            b.append(string: reason)
            b.append(string: " — ")
            b.append(spacedHex: data, limit: 24)
        case .pdu:
            b.append(string: "ATT ")
            writeDetail(into: &b)
            if let u = unexpected {
                b.append(string: " [unexpected: ")
                b.append(string: u.reason)
                b.append(UInt8(ascii: "]"))
            }
            if let r = request {
                b.append(string: " [request at record ")
                b.append(decimal: r.record)
                if let l = r.latencyMicros {
                    b.append(string: ", ")
                    b.append(fixed: Int(l / 10), scale: 100)
                    b.append(string: " ms")
                }
                b.append(string: "]")
            }
        }
        if let n = eattBeyond, n > 0 {
            b.append(string: " [")
            b.append(decimal: Int(n))
            b.append(string: " bytes beyond the SDU length]")
        }
    }

    public func writeLateText(_ e: TraceEvent, into b: inout TextBytes) {
        if let r = response {
            b.append(string: " [response at record ")
            b.append(decimal: r.record)
            b.append(UInt8(ascii: "]"))
        }
        if let u = unanswered {
            b.append(string: " [unanswered: ")
            b.append(string: u.reason)
            b.append(UInt8(ascii: "]"))
        }
    }

    public func writeLayers<S: FieldSink>(_ e: TraceEvent, into s: inout S) {
        if let n = userNames {
            UserUUIDNames.with(n) { writeLayers(into: &s) }
        } else {
            writeLayers(into: &s)
        }
    }

    func writeLayers<S: FieldSink>(into s: inout S) {
        s.object("att") { s in writeATT(into: &s) }
        // `gattLocation`, as the database's shared entry.
        if handle != nil { GATTContextRender.writeMember(ref: locationRef, into: &s) }
    }

    // MARK: JSON

    /// The members of the `att` object. The PDU's fields are matched in the event's content, never bound whole
    /// (which would copy it).
    func writeATT<S: FieldSink>(into s: inout S) {
        switch content {
        case .empty: return
        case let .malformed(op, _, data):
            s.field("opcode", Int(op))
            s.field("name", ATTNames.opcode(op))
            if bearer != 0x0004 { s.field("bearer", Int(bearer)) }
            s.field("data", hex: data)
            return
        case .pdu: break
        }
        let op = opcode ?? 0
        s.field("opcode", Int(op))
        s.field("name", JSONNames.attOpcodes[Int(op)])
        if bearer != 0x0004 { s.field("bearer", Int(bearer)) }
        s.field("role", ATTNames.sentByClient(op) ? JSONNames.attClient : JSONNames.attServer)
        if let r = request {
            s.field("request", r.record)
            if let l = r.latencyMicros { s.field("latency_us", Int(l)) }
        }
        if let u = unexpected { s.field("unexpected", u.reason) }
        switch content {
        case let .pdu(.exchangeMTURequest(mtu)): s.field("mtu", Int(mtu))
        case let .pdu(.exchangeMTUResponse(mtu)):
            s.field("mtu", Int(mtu))
            if let m = attMTU { s.field("att_mtu", Int(m)) }
        default: break
        }
        if let x = handle { s.field("handle", Int(x)) }
        writeValueMember(into: &s)
        writeParameters(into: &s)
        if let l = extra?.longValue {
            s.field("long_value", hex: l.bytes)
            s.field("long_value_offset", Int(l.offset))
            if let d = l.decoded { s.object("decoded") { d.writeJSON(into: &$0) } }
        }
        if let ws = extra?.writes {
            s.list("writes") { s in
                for w in ws {
                    s.beginObject()
                    s.field("handle", Int(w.handle))
                    s.field("value", hex: w.value)
                    GATTContextRender.writeMember(w.location, into: &s)
                    if let d = w.decoded { s.object("decoded") { d.writeJSON(into: &$0) } }
                    s.endObject()
                }
            }
        }
        if let r = response {
            s.field("response", r.record)
            if let l = r.latencyMicros { s.field("latency_us", Int(l)) }
        }
        if let u = unanswered {
            s.field("unanswered", u.reason)
            if u == .timeout { s.field("timeout", true) }
        }
    }

    /// The `value` member: the attribute value the PDU carries (`ATTPDU.value`; a Find By Type Value Request's
    /// value is one of its parameters).
    func writeValueMember<S: FieldSink>(into s: inout S) {
        // One case each: a case of several patterns that bind would copy the PDU.
        switch content {
        case let .pdu(.readResponse(v)): s.field("value", hex: v)
        case let .pdu(.readBlobResponse(v)): s.field("value", hex: v)
        case let .pdu(.readMultipleResponse(v)): s.field("value", hex: v)
        case let .pdu(.writeRequest(_, v)): s.field("value", hex: v)
        case let .pdu(.writeCommand(_, v)): s.field("value", hex: v)
        case let .pdu(.signedWriteCommand(_, v, _)): s.field("value", hex: v)
        case let .pdu(.prepareWriteRequest(_, _, v)): s.field("value", hex: v)
        case let .pdu(.prepareWriteResponse(_, _, v)): s.field("value", hex: v)
        case let .pdu(.notification(_, v)): s.field("value", hex: v)
        case let .pdu(.indication(_, v)): s.field("value", hex: v)
        default: break
        }
    }

    /// An Error Response's error name: the service's own when its dissector names the code (ANCS 0xA0–0xA3).
    public func errorName(_ code: UInt8) -> String {
        decoded.flatMap(ATTLayer.serviceErrorName) ?? ATTNames.error(code)
    }
}
