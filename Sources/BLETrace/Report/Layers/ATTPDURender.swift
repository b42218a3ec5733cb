/// Text and JSON of an ATT PDU's own parameters: the part of the one-line text after "ATT ", and the members
/// of the `att` object after `handle` and `value`.
extension ATTEvent {
    // MARK: Text

    /// "0x0001–0x0005"
    static func writeRange(_ a: UInt16, _ b2: UInt16, into b: inout TextBytes) {
        b.append(hex: UInt64(a), width: 4)
        b.append(string: "–")
        b.append(hex: UInt64(b2), width: 4)
    }

    /// A raw value: spaced hex, and the text when it reads as text (printable ASCII, a line ending escaped).
    static func writeValue(_ v: ArraySlice<UInt8>, into b: inout TextBytes) {
        if v.isEmpty { b.append(string: "(empty)"); return }
        b.append(spacedHex: v, limit: 20)
        if v.count >= 3, v.count <= 64, let text = TextValue.quoted(v) {
            b.append(UInt8(ascii: " "))
            b.append(string: text)
        }
    }

    /// The value as decoded when a dissector knew it, else raw.
    static func writeValue(_ v: ArraySlice<UInt8>, _ d: Dissection?, into b: inout TextBytes) {
        if let d { d.writeSummaryText(raw: v, into: &b) } else { writeValue(v, into: &b) }
    }

    /// The PDU's part of the text, after "ATT ". The cases match the event's content down to the PDU's fields: a
    /// PDU bound whole out of the stored content would be copied (its bytes retained) for each event, and so would
    /// one matched by a case of several patterns that bind (the frequent PDUs have a case each, in a switch of
    /// their own).
    func writeDetail(into b: inout TextBytes) {
        b.append(string: ATTNames.opcode(opcode ?? 0))
        // The frequent PDUs, matched in a switch of their own: matched among all the others, the content was
        // copied (its bytes retained) for every event.
        switch content {
        case let .pdu(.notification(x, v)): writeHandleValue(x, v, into: &b)
        case let .pdu(.writeRequest(x, v)): writeHandleValue(x, v, into: &b)
        case let .pdu(.writeCommand(x, v)): writeHandleValue(x, v, into: &b)
        case let .pdu(.indication(x, v)): writeHandleValue(x, v, into: &b)
        default: writeOtherDetail(into: &b)
        }
    }

    /// `writeDetail` of the other PDUs.
    func writeOtherDetail(into b: inout TextBytes) {
        func h(_ x: UInt16, _ loc: GATTLocation?) { GATTContextRender.writeHandle(x, loc, into: &b) }
        // The event's own location, as the database's shared entry.
        func own(_ x: UInt16) { GATTContextRender.writeHandle(x, ref: locationRef, into: &b) }
        func colon() { b.append(string: ": ") }
        // Read by the cases that list entries only: read for every PDU, the list was retained and released.
        var listed: [ATTEntryFacts] { extra?.entries ?? [] }
        switch content {
        case .empty, .malformed:
            break
        case let .pdu(.errorResponse(reqOp, eh, code)):
            colon()
            b.append(string: ATTNames.opcode(reqOp))
            b.append(UInt8(ascii: " "))
            own(eh)
            colon()
            b.append(string: decoded?.text ?? ATTNames.error(code))
        case let .pdu(.exchangeMTURequest(mtu)):
            b.append(string: ": client MTU ")
            b.append(decimal: Int(mtu))
        case let .pdu(.exchangeMTUResponse(mtu)):
            b.append(string: ": server MTU ")
            b.append(decimal: Int(mtu))
            if let m = attMTU {
                b.append(string: ", ATT_MTU ")
                b.append(decimal: Int(m))
            }
        case let .pdu(.findInformationRequest(s, e)):
            colon()
            ATTEvent.writeRange(s, e, into: &b)
        case let .pdu(.findInformationResponse(_, list)):
            colon()
            for (i, en) in list.prefix(8).enumerated() {
                if i > 0 { b.append(string: ", ") }
                b.append(hex: UInt64(en.handle), width: 4)
                b.append(UInt8(ascii: " "))
                b.append(shortName: en.uuid)
            }
            if list.count > 8 { b.append(string: ", … ("); b.append(decimal: list.count); b.append(UInt8(ascii: ")")) }
        case let .pdu(.findByTypeValueRequest(s, e, type, value)):
            colon()
            ATTEvent.writeRange(s, e, into: &b)
            b.append(string: ", type ")
            b.append(shortName: BLEUUID(type))
            b.append(string: ", value ")
            if let u = BLEUUID(littleEndian: value) { b.append(shortName: u) } else { b.append(spacedHex: value, limit: 16) }
        case let .pdu(.findByTypeValueResponse(list)):
            colon()
            for (i, en) in list.prefix(8).enumerated() {
                if i > 0 { b.append(string: ", ") }
                ATTEvent.writeRange(en.found, en.groupEnd, into: &b)
            }
        case let .pdu(.readByTypeRequest(s, e, type)), let .pdu(.readByGroupTypeRequest(s, e, type)):
            colon()
            ATTEvent.writeRange(s, e, into: &b)
            b.append(string: ", type ")
            b.append(shortName: type)
        case let .pdu(.readByTypeResponse(list)):
            colon()
            let entries = listed
            let t = requestType?.uuid16
            var parts = 0
            for (i, en) in list.enumerated() where parts < 8 {
                if t == 0x2803 {
                    guard let d = ATTEvent.characteristicDeclaration(en.value) else { continue }
                    if parts > 0 { b.append(string: ", ") }
                    b.append(hex: UInt64(en.handle), width: 4)
                    b.append(string: " → ")
                    b.append(hex: UInt64(d.valueHandle), width: 4)
                    b.append(UInt8(ascii: " "))
                    GATTContextRender.writeLabel(d.uuid, kind: AssignedNumbers.characteristicName, into: &b)
                    b.append(string: " [")
                    b.append(string: ATTNames.properties(d.properties).joined(separator: ", "))
                    b.append(UInt8(ascii: "]"))
                } else if t == 0x2802 {
                    guard let d = ATTEvent.includeDeclaration(en.value) else { continue }
                    if parts > 0 { b.append(string: ", ") }
                    b.append(hex: UInt64(en.handle), width: 4)
                    b.append(string: " includes ")
                    ATTEvent.writeRange(d.start, d.end, into: &b)
                } else {
                    if parts > 0 { b.append(string: ", ") }
                    let f = i < entries.count ? entries[i] : nil
                    h(en.handle, f?.location)
                    colon()
                    ATTEvent.writeValue(en.value, f?.decoded, into: &b)
                }
                parts += 1
            }
            if list.count > parts { b.append(string: ", … ("); b.append(decimal: list.count); b.append(UInt8(ascii: ")")) }
        case let .pdu(.readByGroupTypeResponse(list)):
            colon()
            for (i, en) in list.prefix(8).enumerated() {
                if i > 0 { b.append(string: ", ") }
                ATTEvent.writeRange(en.handle, en.end, into: &b)
                if let u = BLEUUID(littleEndian: en.value) {
                    b.append(UInt8(ascii: " "))
                    GATTContextRender.writeLabel(u, kind: AssignedNumbers.serviceName, into: &b)
                }
            }
            if list.count > 8 { b.append(string: ", … ("); b.append(decimal: list.count); b.append(UInt8(ascii: ")")) }
        case let .pdu(.readRequest(x)):
            colon()
            own(x)
        case let .pdu(.readBlobRequest(x, o)):
            colon()
            own(x)
            b.append(string: ", offset ")
            b.append(decimal: Int(o))
        case let .pdu(.readResponse(v)):
            colon()
            guard let x = handle else { ATTEvent.writeValue(v, into: &b); return }
            own(x)
            colon()
            ATTEvent.writeValue(v, decoded, into: &b)
        case let .pdu(.readBlobResponse(v)):
            colon()
            if let x = handle { own(x); colon() }
            ATTEvent.writeValue(v, into: &b)
            if let l = extra?.longValue, let d = l.decoded {
                b.append(string: " → ")
                d.writeSummaryText(raw: l.bytes[...], into: &b)
            }
        case let .pdu(.readMultipleRequest(hs)), let .pdu(.readMultipleVariableRequest(hs)):
            colon()
            let entries = listed
            for (i, x) in hs.prefix(8).enumerated() {
                if i > 0 { b.append(string: ", ") }
                h(x, i < entries.count ? entries[i].location : nil)
            }
        case let .pdu(.readMultipleResponse(v)):
            colon()
            let entries = listed
            if entries.isEmpty || entries.contains(where: { $0.value == nil }) {
                ATTEvent.writeValue(v, into: &b)
            } else {
                for (i, en) in entries.prefix(6).enumerated() {
                    if i > 0 { b.append(string: "; ") }
                    h(en.handle, en.location)
                    colon()
                    ATTEvent.writeValue(en.value ?? [], en.decoded, into: &b)
                }
                if entries.count > 6 { b.append(string: "; …") }
            }
        case let .pdu(.readMultipleVariableResponse(values, truncated)):
            colon()
            let entries = listed
            let hs = requestHandles ?? []
            for (i, v) in values.prefix(6).enumerated() {
                if i > 0 { b.append(string: "; ") }
                let f = i < hs.count && i < entries.count ? entries[i] : nil
                if i < hs.count { h(hs[i], f?.location); colon() }
                if i < hs.count, !(truncated && i == values.count - 1) {
                    ATTEvent.writeValue(v, f?.decoded, into: &b)
                } else {
                    ATTEvent.writeValue(v, into: &b)
                }
            }
        case .pdu(.writeRequest), .pdu(.writeCommand), .pdu(.notification), .pdu(.indication):
            break // `writeDetail`
        case let .pdu(.signedWriteCommand(x, v, sig)):
            colon()
            own(x)
            colon()
            ATTEvent.writeValue(v, decoded, into: &b)
            b.append(string: ", signature ")
            b.append(string: Hex.string(sig))
        case .pdu(.writeResponse):
            if let x = handle { colon(); own(x) }
        case let .pdu(.prepareWriteRequest(x, o, v)), let .pdu(.prepareWriteResponse(x, o, v)):
            colon()
            own(x)
            b.append(string: ", offset ")
            b.append(decimal: Int(o))
            colon()
            ATTEvent.writeValue(v, into: &b)
        case let .pdu(.executeWriteRequest(flags)):
            colon()
            if flags == 0 { b.append(string: "cancel all prepared writes") }
            else if flags == 1 { b.append(string: "write all prepared values") }
            else { b.append(string: "flags "); b.append(hex: UInt64(flags), width: 2) }
            for w in extra?.writes ?? [] {
                guard let d = w.decoded else { continue }
                b.append(string: "; ")
                h(w.handle, w.location)
                colon()
                d.writeSummaryText(raw: w.value[...], into: &b)
            }
        case .pdu(.executeWriteResponse), .pdu(.confirmation):
            break
        case let .pdu(.multipleNotification(list)):
            colon()
            let entries = listed
            for (i, en) in list.prefix(6).enumerated() {
                if i > 0 { b.append(string: "; ") }
                let f = i < entries.count ? entries[i] : nil
                h(en.handle, f?.location)
                colon()
                ATTEvent.writeValue(en.value, f?.decoded, into: &b)
            }
        case let .pdu(.unknown(_, params)):
            colon()
            b.append(spacedHex: params, limit: 16)
        }
    }

    /// ": handle 0x000E Battery Level (Battery): 64 %": the handle and its value, decoded when a dissector knew it.
    func writeHandleValue(_ x: UInt16, _ v: ArraySlice<UInt8>, into b: inout TextBytes) {
        b.append(string: ": ")
        GATTContextRender.writeHandle(x, ref: locationRef, into: &b)
        b.append(string: ": ")
        ATTEvent.writeValue(v, decoded, into: &b)
    }

    static func writeDecoded<S: FieldSink>(_ d: Dissection?, into s: inout S) {
        if let d { s.object("decoded") { d.writeJSON(into: &$0) } }
    }

    /// The PDU's own members, after `handle` and `value`.
    func writeParameters<S: FieldSink>(into s: inout S) {
        let entries = extra?.entries ?? []
        switch content {
        case .empty, .malformed:
            break
        case let .pdu(.errorResponse(reqOp, _, code)):
            s.field("request_opcode", Int(reqOp))
            s.field("request_name", ATTNames.opcode(reqOp))
            s.field("error", Int(code))
            s.field("error_name", errorName(code))
            ATTEvent.writeDecoded(decoded, into: &s)
        case let .pdu(.findInformationRequest(a, b)):
            s.field("start_handle", Int(a))
            s.field("end_handle", Int(b))
        case let .pdu(.findInformationResponse(format, list)):
            s.field("format", Int(format))
            s.list("entries") { s in
                for en in list {
                    s.beginObject()
                    s.field("handle", Int(en.handle))
                    s.field("uuid", uuid: en.uuid)
                    if let n = en.uuid.name { s.field("name", n) }
                    s.endObject()
                }
            }
        case let .pdu(.findByTypeValueRequest(a, b, type, value)):
            s.field("start_handle", Int(a))
            s.field("end_handle", Int(b))
            s.field("type", BLEUUID(type).description)
            s.field("value", hex: value)
        case let .pdu(.findByTypeValueResponse(list)):
            s.list("entries") { s in
                for en in list {
                    s.beginObject()
                    s.field("handle", Int(en.found))
                    s.field("group_end_handle", Int(en.groupEnd))
                    s.endObject()
                }
            }
        case let .pdu(.readByTypeRequest(a, b, type)), let .pdu(.readByGroupTypeRequest(a, b, type)):
            s.field("start_handle", Int(a))
            s.field("end_handle", Int(b))
            s.field("type", type.description)
            if let n = type.name { s.field("type_name", n) }
        case let .pdu(.readByTypeResponse(list)):
            let t = requestType?.uuid16
            s.list("entries") { s in
                for (i, en) in list.enumerated() {
                    s.beginObject()
                    s.field("handle", Int(en.handle))
                    s.field("value", hex: en.value)
                    if t == 0x2803 {
                        if let d = ATTEvent.characteristicDeclaration(en.value) {
                            s.field("properties", Int(d.properties))
                            s.field("value_handle", Int(d.valueHandle))
                            s.field("uuid", uuid: d.uuid)
                            if let n = GATTNaming.name(d.uuid, kind: AssignedNumbers.characteristicName) { s.field("uuid_name", n) }
                        }
                    } else if t == 0x2802 {
                        if let d = ATTEvent.includeDeclaration(en.value) {
                            s.field("included_start", Int(d.start))
                            s.field("included_end", Int(d.end))
                            if let u = d.uuid { s.field("uuid", uuid: u) }
                        }
                    } else if i < entries.count {
                        GATTContextRender.writeMember(entries[i].location, into: &s)
                        ATTEvent.writeDecoded(entries[i].decoded, into: &s)
                    }
                    s.endObject()
                }
            }
        case let .pdu(.readByGroupTypeResponse(list)):
            s.list("entries") { s in
                for en in list {
                    s.beginObject()
                    s.field("handle", Int(en.handle))
                    s.field("end_handle", Int(en.end))
                    s.field("value", hex: en.value)
                    if let u = BLEUUID(littleEndian: en.value) {
                        s.field("uuid", uuid: u)
                        if let n = GATTNaming.name(u, kind: AssignedNumbers.serviceName) { s.field("uuid_name", n) }
                    }
                    s.endObject()
                }
            }
        case let .pdu(.readBlobRequest(_, o)):
            s.field("offset", Int(o))
        case .pdu(.readResponse), .pdu(.writeRequest), .pdu(.writeCommand), .pdu(.notification),
             .pdu(.indication):
            ATTEvent.writeDecoded(decoded, into: &s)
        case let .pdu(.readMultipleRequest(hs)), let .pdu(.readMultipleVariableRequest(hs)):
            ATTEvent.writeHandles(hs, into: &s)
        case .pdu(.readMultipleResponse):
            if let hs = requestHandles { ATTEvent.writeHandles(hs, into: &s) }
            if !entries.isEmpty && entries.allSatisfy({ $0.value != nil }) {
                s.list("values") { s in
                    for en in entries {
                        s.beginObject()
                        s.field("handle", Int(en.handle))
                        GATTContextRender.writeMember(en.location, into: &s)
                        s.field("value", hex: en.value ?? [])
                        ATTEvent.writeDecoded(en.decoded, into: &s)
                        s.endObject()
                    }
                }
            }
        case let .pdu(.readMultipleVariableResponse(values, truncated)):
            let hs = requestHandles ?? []
            s.list("values") { s in
                for (i, v) in values.enumerated() {
                    s.beginObject()
                    let f = i < hs.count && i < entries.count ? entries[i] : nil
                    if i < hs.count {
                        s.field("handle", Int(hs[i]))
                        GATTContextRender.writeMember(f?.location, into: &s)
                    }
                    s.field("value", hex: v)
                    ATTEvent.writeDecoded(f?.decoded, into: &s)
                    s.endObject()
                }
            }
            if truncated { s.field("truncated", true) }
        case let .pdu(.signedWriteCommand(_, _, sig)):
            s.field("signature", hex: sig)
            ATTEvent.writeDecoded(decoded, into: &s)
        case let .pdu(.prepareWriteRequest(_, o, _)), let .pdu(.prepareWriteResponse(_, o, _)):
            s.field("offset", Int(o))
        case let .pdu(.executeWriteRequest(flags)):
            s.field("flags", Int(flags))
        case let .pdu(.multipleNotification(list)):
            s.list("entries") { s in
                for (i, en) in list.enumerated() {
                    s.beginObject()
                    s.field("handle", Int(en.handle))
                    s.field("value", hex: en.value)
                    let f = i < entries.count ? entries[i] : nil
                    GATTContextRender.writeMember(f?.location, into: &s)
                    ATTEvent.writeDecoded(f?.decoded, into: &s)
                    s.endObject()
                }
            }
        case let .pdu(.unknown(_, params)):
            s.field("parameters", hex: params)
        case .pdu(.exchangeMTURequest), .pdu(.exchangeMTUResponse), .pdu(.readRequest), .pdu(.readBlobResponse),
             .pdu(.writeResponse), .pdu(.executeWriteResponse), .pdu(.confirmation):
            break
        }
    }

    static func writeHandles<S: FieldSink>(_ hs: [UInt16], into s: inout S) {
        s.list("handles") { s in for x in hs { s.int(Int(x)) } }
    }
}
