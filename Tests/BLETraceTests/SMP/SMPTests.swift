import Testing
@testable import BLETrace

@Suite("SMP")
struct SMPTests {
    static func features(io: UInt8, oob: UInt8 = 0, auth: UInt8, key: UInt8 = 16, ik: UInt8 = 0x07, rk: UInt8 = 0x07) -> PairingFeatures {
        PairingFeatures(ioCapability: io, oob: oob, authReq: auth, maxKeySize: key, initiatorKeys: ik, responderKeys: rk)
    }

    @Test("every PDU parses; bits and reasons are named")
    func pdus() throws {
        guard case let .pairingRequest(p) = try SMPPDU.parse([0x01, 0x04, 0x00, 0x2D, 0x10, 0x0F, 0x0F][...]) else { Issue.record("req"); return }
        #expect(p.ioCapability == 4 && p.bonding && p.mitm && p.secureConnections && !p.keypress && p.ct2 && p.maxKeySize == 16)
        #expect(SMPNames.keys(p.initiatorKeys) == ["EncKey", "IdKey", "SignKey", "LinkKey"])
        #expect(SMPNames.authReqText(0x2D) == "bonding, MITM, SC, CT2")
        guard case .pairingFailed(0x0B) = try SMPPDU.parse([0x05, 0x0B][...]) else { Issue.record("failed"); return }
        #expect(SMPNames.failReason(0x0B) == "DHKey Check Failed")
        #expect(SMPNames.failReason(0x0C) == "Numeric Comparison Failed")
        #expect(SMPNames.failReason(0x0F) == "Key Rejected")
        guard case .centralIdentification(0x1234, _) = try SMPPDU.parse([0x07, 0x34, 0x12] + Array(repeating: 1, count: 8)) else { Issue.record("ci"); return }
        guard case let .identityAddressInformation(0, a) = try SMPPDU.parse([0x09, 0x00, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11][...]) else { Issue.record("ia"); return }
        #expect(a.description == "11:22:33:44:55:66")
        guard case .pairingPublicKey = try SMPPDU.parse([0x0C] + Array(repeating: 2, count: 64)) else { Issue.record("pk"); return }
        guard case .keypressNotification(1) = try SMPPDU.parse([0x0E, 0x01][...]) else { Issue.record("kp"); return }
        guard case .securityRequest(0x0D) = try SMPPDU.parse([0x0B, 0x0D][...]) else { Issue.record("sr"); return }
        for code: UInt8 in [0x03, 0x04, 0x06, 0x08, 0x0A, 0x0D] {
            #expect(try SMPPDU.parse([code] + Array(repeating: 0, count: 16)).code == code)
            #expect(throws: ByteError.self) { try SMPPDU.parse([code] + Array(repeating: 0, count: 15)) }
        }
        #expect(throws: ByteError.self) { try SMPPDU.parse([0x05, 0x01, 0x00][...]) }
    }

    /// Core 5.4 Vol 3 Part H Table 2.8, rows responder, columns initiator (DisplayOnly, DisplayYesNo,
    /// KeyboardOnly, NoInputNoOutput, KeyboardDisplay). J Just Works, P Passkey (who displays), N Numeric Comparison.
    static let legacy: [[String]] = [
        ["J", "J", "P:r", "J", "P:r"],
        ["J", "J", "P:r", "J", "P:r"],
        ["P:i", "P:i", "P:b", "J", "P:i"],
        ["J", "J", "J", "J", "J"],
        ["P:i", "P:i", "P:r", "J", "P:i"],
    ]
    static let secure: [[String]] = [
        ["J", "J", "P:r", "J", "P:r"],
        ["J", "N", "P:r", "J", "N"],
        ["P:i", "P:i", "P:b", "J", "P:i"],
        ["J", "J", "J", "J", "J"],
        ["P:i", "N", "P:r", "J", "N"],
    ]

    static func code(_ m: (method: PairingMethod, secureConnections: Bool, detail: String?)) -> String {
        switch m.method {
        case .justWorks: return "J"
        case .numericComparison: return "N"
        case .outOfBand: return "O"
        case .passkeyEntry:
            switch m.detail {
            case "responder displays, initiator inputs"?: return "P:r"
            case "initiator displays, responder inputs"?: return "P:i"
            case "both input"?: return "P:b"
            default: return "P:?"
            }
        }
    }

    @Test("the IO capability table, legacy and Secure Connections", arguments: [false, true])
    func methodTable(sc: Bool) {
        let table = sc ? Self.secure : Self.legacy
        let auth: UInt8 = sc ? 0x0D : 0x05
        for r in 0..<5 {
            for i in 0..<5 {
                let m = PairingMethodTable.method(initiator: Self.features(io: UInt8(i), auth: auth),
                                                  responder: Self.features(io: UInt8(r), auth: auth))
                #expect(Self.code(m) == table[r][i], "initiator \(i), responder \(r)")
                #expect(m.secureConnections == sc)
            }
        }
    }

    @Test("OOB and MITM rules")
    func oobAndMITM() {
        let kbd = Self.features(io: 4, auth: 0x05), kbdOOB = Self.features(io: 4, oob: 1, auth: 0x05)
        #expect(PairingMethodTable.method(initiator: kbdOOB, responder: kbdOOB).method == .outOfBand)
        // Legacy needs both OOB flags; Secure Connections either.
        #expect(PairingMethodTable.method(initiator: kbdOOB, responder: kbd).method != .outOfBand)
        let scOOB = Self.features(io: 4, oob: 1, auth: 0x0D), sc = Self.features(io: 4, auth: 0x0D)
        #expect(PairingMethodTable.method(initiator: sc, responder: scOOB).method == .outOfBand)
        // Neither side asks for MITM: Just Works whatever the IO.
        let noMitm = Self.features(io: 4, auth: 0x01)
        #expect(PairingMethodTable.method(initiator: noMitm, responder: noMitm).method == .justWorks)
        // One side without SC: legacy.
        #expect(!PairingMethodTable.method(initiator: sc, responder: kbd).secureConnections)
    }

    @Test("a pairing is summarized per connection and linked to the encryption change")
    func pairingSummary() {
        let h = TraceHarness()
        h.connect(0x0040, peer: 0xAABBCCDDEEFF)
        h.l2cap(0x0040, cid: 6, [0x0B, 0x0D], .controllerToHost)
        h.l2cap(0x0040, cid: 6, [0x01, 0x04, 0x00, 0x0D, 0x10, 0x03, 0x03], .hostToController)
        let rsp = h.l2cap(0x0040, cid: 6, [0x02, 0x00, 0x00, 0x0D, 0x10, 0x02, 0x01], .controllerToHost)
        h.l2cap(0x0040, cid: 6, [0x0C] + Array(repeating: 1, count: 64), .hostToController)
        let enc = h.encryptionChange(0x0040)
        h.l2cap(0x0040, cid: 6, [0x06] + Array(repeating: 7, count: 16), .controllerToHost)
        h.l2cap(0x0040, cid: 6, [0x08] + Array(repeating: 8, count: 16), .hostToController)
        h.finish()
        let f = h.layer(rsp, "smp")
        #expect(f?["pairing"] == .string("secure_connections"))
        #expect(f?["method"] == .string("Passkey Entry"))
        #expect(f?["method_detail"] == .string("responder displays, initiator inputs"))
        let a = h.smp.attempts
        #expect(a.count == 1)
        #expect(a.first?.securityRequestRecord == 2)
        #expect(a.first?.encryptionRecord == enc)
        #expect(a.first?.keys.map { "\($0.key)/\($0.from)" } == ["LTK/responder", "IRK/initiator"])
        #expect(a.first?.outcome == "encrypted, keys distributed")
        #expect(h.event(rsp)?.kind == .smp)
    }

    @Test("a failed pairing names its reason and side")
    func failed() {
        let h = TraceHarness()
        h.l2cap(0x0040, cid: 6, [0x01, 0x03, 0x00, 0x01, 0x10, 0x03, 0x03], .hostToController)
        let f = h.l2cap(0x0040, cid: 6, [0x05, 0x05], .controllerToHost)
        let later = h.encryptionChange(0x0040)
        h.finish()
        let a = h.smp.attempts.first
        #expect(a?.outcome == "failed: Pairing Not Supported")
        #expect(a?.failedBy == "responder" && a?.failedRecord == f)
        #expect(a?.encryptionRecord == nil && later > f)
        #expect(h.layer(f, "smp")?["reason_name"] == .string("Pairing Not Supported"))
    }

    /// The SMP body of an event, or nil.
    static func body(_ e: TraceEvent?) -> SMPBody? {
        guard case let .smp(b)? = e?.body else { return nil }
        return b
    }

    @Test("decoded PDUs are typed bodies: the PDU, the pairing method and the side that sent a key")
    func typedBodies() {
        let h = TraceHarness()
        let sr = h.l2cap(0x0040, cid: 6, [0x0B, 0x0D], .controllerToHost)
        let req = h.l2cap(0x0040, cid: 6, [0x01, 0x04, 0x00, 0x0D, 0x10, 0x03, 0x03], .hostToController)
        let rsp = h.l2cap(0x0040, cid: 6, [0x02, 0x00, 0x00, 0x0D, 0x10, 0x02, 0x01], .controllerToHost)
        let ltk = h.l2cap(0x0040, cid: 6, [0x06] + Array(1...16), .controllerToHost)
        let ci = h.l2cap(0x0040, cid: 6, [0x07, 0x34, 0x12] + Array(repeating: 9, count: 8), .controllerToHost)
        let ia = h.l2cap(0x0040, cid: 6, [0x09, 0x01, 0x66, 0x55, 0x44, 0x33, 0x22, 0xC1], .hostToController)
        let failed = h.l2cap(0x0040, cid: 6, [0x05, 0x04], .hostToController)
        h.finish()

        guard case .securityRequest(authReq: 0x0D)? = Self.body(h.event(sr))?.pdu else { Issue.record("security request"); return }
        guard case let .pairingRequest(p)? = Self.body(h.event(req))?.pdu else { Issue.record("request"); return }
        #expect(p == Self.features(io: 4, auth: 0x0D, ik: 3, rk: 3))
        #expect(Self.body(h.event(req))?.method == nil && Self.body(h.event(req))?.from == nil)

        let r = Self.body(h.event(rsp))
        guard case let .pairingResponse(q)? = r?.pdu else { Issue.record("response"); return }
        #expect(q.ioCapability == 0 && q.responderKeys == 1)
        #expect(r?.method == PairingMethodChoice(method: .passkeyEntry, secureConnections: true, detail: "responder displays, initiator inputs"))
        #expect(h.event(rsp)?.summary.hasSuffix("→ LE Secure Connections, Passkey Entry (responder displays, initiator inputs)") == true)

        let k = Self.body(h.event(ltk))
        guard case let .encryptionInformation(key)? = k?.pdu else { Issue.record("ltk"); return }
        #expect(Array(key) == Array(1...16))
        #expect(k?.from == .responder)
        guard case .centralIdentification(ediv: 0x1234, let rand)? = Self.body(h.event(ci))?.pdu else { Issue.record("ci"); return }
        #expect(Array(rand) == Array(repeating: 9, count: 8))
        let a = Self.body(h.event(ia))
        guard case .identityAddressInformation(type: 1, let address)? = a?.pdu else { Issue.record("ia"); return }
        #expect(address.description == "C1:22:33:44:55:66")
        #expect(a?.from == .initiator)
        #expect(h.event(ia)?.summary == "SMP Identity Address Information: C1:22:33:44:55:66 (random static)")
        #expect(h.layer(ia, "smp")?["from"] == .string("initiator"))

        guard case .pairingFailed(reason: 0x04)? = Self.body(h.event(failed))?.pdu else { Issue.record("failed"); return }
        #expect(h.event(failed)?.summary == "SMP Pairing Failed: Confirm Value Failed")
    }

    @Test("an empty or short SMP PDU is a malformed typed body that keeps its bytes")
    func malformedBodies() {
        let h = TraceHarness()
        h.feed(.event, HCIBuilder.leConnectionComplete(handle: 0x0040, role: 0, peerType: 0, peer: BDAddr(0xC4_7C_8D_6A_11_22),
                                                       interval: 24, timeout: 400), .controllerToHost)
        let empty = h.l2cap(0x0040, cid: 6, [], .hostToController)
        let short = h.l2cap(0x0040, cid: 6, [0x03, 1, 2, 3], .controllerToHost)
        let unknown = h.l2cap(0x0040, cid: 6, [0x3F, 0xAA], .controllerToHost)
        h.finish()
        guard case .empty? = Self.body(h.event(empty))?.content else { Issue.record("empty"); return }
        #expect(h.event(empty)?.malformed == "empty SMP PDU")
        #expect(h.event(empty)?.summary == "Malformed SMP: empty PDU")
        #expect(h.layer(empty, "smp") == Fields())
        guard case let .malformed(code, reason, data)? = Self.body(h.event(short))?.content else { Issue.record("short"); return }
        #expect(code == 0x03 && Array(data) == [0x03, 1, 2, 3])
        #expect(h.event(short)?.malformed == reason)
        #expect(h.event(short)?.summary == "Malformed SMP Pairing Confirm: \(reason)")
        #expect(h.layer(short, "smp")?["data"] == .hex([0x03, 1, 2, 3]))
        guard case .unknown(code: 0x3F, let rest)? = Self.body(h.event(unknown))?.pdu else { Issue.record("unknown"); return }
        #expect(Array(rest) == [0xAA])
        #expect(h.event(unknown)?.summary == "SMP Unknown SMP code 0x3F: aa")
    }

    @Test("the Pairing Failed finding reads the typed PDU")
    func failedFinding() {
        let h = TraceHarness()
        h.l2cap(0x0040, cid: 6, [0x05, 0x0B], .controllerToHost)
        h.finish()
        let findings = Findings()
        for e in h.events { findings.observe(e) }
        #expect(findings.list.map(\.text) == ["DHKey Check Failed (sent by the peer)"])
        #expect(findings.list.first?.kind == .pairingFailed)
    }
}
