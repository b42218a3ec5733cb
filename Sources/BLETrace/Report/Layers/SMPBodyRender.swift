/// Text and JSON of `SMPBody`: the same text and `smp` layer the SMP decoder used to build.
extension SMPBody: LayerBody {
    public func writeText(_ e: TraceEvent, into b: inout TextBytes) {
        switch content {
        case .empty:
            b.append(string: "Malformed SMP: empty PDU")
        case let .malformed(code, reason, _):
            b.append(string: "Malformed SMP ")
            b.append(string: SMPNames.code(code))
            b.append(string: ": ")
            b.append(string: reason)
        case let .pdu(pdu):
            b.append(string: "SMP ")
            b.append(string: SMPNames.code(pdu.code))
            let start = b.count
            b.append(string: ": ")
            let detail = b.count
            writeDetail(pdu, into: &b)
            if b.count == detail { b.removeSubrange(start...) }
        }
    }

    func writeDetail(_ pdu: SMPPDU, into b: inout TextBytes) {
        switch pdu {
        case let .pairingRequest(p):
            SMPBody.writeFeatures(p, into: &b)
        case let .pairingResponse(p):
            SMPBody.writeFeatures(p, into: &b)
            if let m = method {
                b.append(string: " → ")
                b.append(string: m.secureConnections ? "LE Secure Connections" : "legacy")
                b.append(string: ", ")
                b.append(string: m.method.rawValue)
                if let d = m.detail {
                    b.append(string: " (")
                    b.append(string: d)
                    b.append(UInt8(ascii: ")"))
                }
            }
        case let .pairingConfirm(v), let .pairingRandom(v), let .pairingDHKeyCheck(v):
            b.append(smpHex: v)
        case let .pairingFailed(reason):
            b.append(string: SMPNames.failReason(reason))
        case let .encryptionInformation(ltk):
            // Keys are spelled as crackle and --ltk spell them: the value, most significant byte first.
            b.append(string: "LTK ")
            b.append(smpHex: ArraySlice(LEBytes.value(ltk)))
            b.append(string: " (MSB first, as --ltk takes it)")
        case let .centralIdentification(ediv, rand):
            b.append(string: "EDIV ")
            b.append(hex: UInt64(ediv), width: 4)
            b.append(string: ", Rand ")
            b.append(smpHex: rand)
        case let .identityInformation(irk):
            b.append(string: "IRK ")
            b.append(smpHex: ArraySlice(LEBytes.value(irk)))
            b.append(string: " (MSB first)")
        case let .identityAddressInformation(type, address):
            b.append(string: address.description)
            b.append(string: type == 0 ? " (public)" : type == 1 ? " (random static)" : " (reserved type)")
        case let .signingInformation(csrk):
            b.append(string: "CSRK ")
            b.append(smpHex: ArraySlice(LEBytes.value(csrk)))
            b.append(string: " (MSB first)")
        case let .securityRequest(authReq):
            SMPBody.writeAuthReq(authReq, into: &b)
        case let .pairingPublicKey(x, _):
            b.append(string: "X ")
            b.append(smpHex: x.prefix(8))
            b.append(string: "…")
        case let .keypressNotification(t):
            b.append(string: SMPNames.keypress(t))
        case let .unknown(_, data):
            b.append(spacedHex: data, limit: 16)
        }
    }

    /// "KeyboardDisplay, OOB absent, bonding, MITM, SC, max key size 16, initiator keys [EncKey, IdKey], responder keys […]"
    static func writeFeatures(_ p: PairingFeatures, into b: inout TextBytes) {
        b.append(string: SMPNames.ioCapability(p.ioCapability))
        b.append(string: p.oobPresent ? ", OOB present, " : ", OOB absent, ")
        writeAuthReq(p.authReq, into: &b)
        b.append(string: ", max key size ")
        b.append(decimal: Int(p.maxKeySize))
        b.append(string: ", initiator keys [")
        writeKeys(p.initiatorKeys, into: &b)
        b.append(string: "], responder keys [")
        writeKeys(p.responderKeys, into: &b)
        b.append(UInt8(ascii: "]"))
    }

    /// As `SMPNames.authReqText`.
    static func writeAuthReq(_ a: UInt8, into b: inout TextBytes) {
        b.append(string: a & 0x03 == 0x01 ? "bonding" : "no bonding")
        if a & 0x04 != 0 { b.append(string: ", MITM") }
        if a & 0x08 != 0 { b.append(string: ", SC") }
        if a & 0x10 != 0 { b.append(string: ", keypress") }
        if a & 0x20 != 0 { b.append(string: ", CT2") }
    }

    static let keyNames = ["EncKey", "IdKey", "SignKey", "LinkKey"]

    /// As `SMPNames.keys(k).joined(separator: ", ")`.
    static func writeKeys(_ k: UInt8, into b: inout TextBytes) {
        var first = true
        for (bit, name) in keyNames.enumerated() where k & (1 << UInt8(bit)) != 0 {
            if !first { b.append(string: ", ") }
            b.append(string: name)
            first = false
        }
    }

    public func writeLayers<S: FieldSink>(_ e: TraceEvent, into s: inout S) {
        s.key("smp")
        s.beginObject()
        switch content {
        case .empty: break
        case let .malformed(code, _, data):
            s.field("code", Int(code))
            s.field("name", SMPNames.code(code))
            s.field("data", hex: data)
        case let .pdu(pdu):
            s.field("code", Int(pdu.code))
            s.field("name", SMPNames.code(pdu.code))
            writeMembers(pdu, into: &s)
        }
        s.endObject()
    }

    func writeMembers<S: FieldSink>(_ pdu: SMPPDU, into s: inout S) {
        switch pdu {
        case let .pairingRequest(p):
            SMPBody.writeFeatures(p, into: &s)
        case let .pairingResponse(p):
            SMPBody.writeFeatures(p, into: &s)
            if let m = method {
                s.field("pairing", m.secureConnections ? "secure_connections" : "legacy")
                s.field("method", m.method.rawValue)
                if let d = m.detail { s.field("method_detail", d) }
            }
        case let .pairingConfirm(v): s.field("confirm", hex: v)
        case let .pairingRandom(v): s.field("random", hex: v)
        case let .pairingFailed(reason):
            s.field("reason", Int(reason))
            s.field("reason_name", SMPNames.failReason(reason))
        case let .encryptionInformation(ltk): s.field("ltk", hex: ArraySlice(LEBytes.value(ltk)))
        case let .centralIdentification(ediv, rand):
            s.field("ediv", Int(ediv))
            s.field("rand", hex: rand)
        case let .identityInformation(irk): s.field("irk", hex: ArraySlice(LEBytes.value(irk)))
        case let .identityAddressInformation(type, address):
            s.field("address_type", type == 0 ? "public" : type == 1 ? "random" : "reserved")
            s.field("address", address.description)
        case let .signingInformation(csrk): s.field("csrk", hex: ArraySlice(LEBytes.value(csrk)))
        case let .securityRequest(authReq):
            SMPBody.writeAuthReq(authReq, into: &s)
        case let .pairingPublicKey(x, y):
            s.field("x", hex: x)
            s.field("y", hex: y)
        case let .pairingDHKeyCheck(v): s.field("check", hex: v)
        case let .keypressNotification(t):
            s.field("type", Int(t))
            s.field("type_name", SMPNames.keypress(t))
        case let .unknown(_, data): s.field("data", hex: data)
        }
        if let f = from { s.field("from", f.name) }
    }

    static func writeFeatures<S: FieldSink>(_ p: PairingFeatures, into s: inout S) {
        s.field("io_capability", Int(p.ioCapability))
        s.field("io_capability_name", SMPNames.ioCapability(p.ioCapability))
        s.field("oob", p.oobPresent)
        writeAuthReq(p.authReq, into: &s)
        s.field("max_key_size", Int(p.maxKeySize))
        writeKeys("initiator_keys", p.initiatorKeys, into: &s)
        writeKeys("responder_keys", p.responderKeys, into: &s)
    }

    /// The `auth_req` object: the value and its bits.
    static func writeAuthReq<S: FieldSink>(_ a: UInt8, into s: inout S) {
        s.object("auth_req") { s in
            s.field("value", Int(a))
            s.field("bonding", a & 0x03 == 0x01)
            s.field("mitm", a & 0x04 != 0)
            s.field("secure_connections", a & 0x08 != 0)
            s.field("keypress", a & 0x10 != 0)
            s.field("ct2", a & 0x20 != 0)
        }
    }

    static func writeKeys<S: FieldSink>(_ key: StaticString, _ k: UInt8, into s: inout S) {
        s.list(key) { s in
            for (bit, name) in keyNames.enumerated() where k & (1 << UInt8(bit)) != 0 { s.string(name) }
        }
    }
}

extension TextBytes {
    /// Lowercase hex without separators (as `Hex.string`).
    fileprivate mutating func append(smpHex bytes: ArraySlice<UInt8>) {
        for x in bytes {
            append(Hex.lower(Int(x >> 4)))
            append(Hex.lower(Int(x)))
        }
    }
}
