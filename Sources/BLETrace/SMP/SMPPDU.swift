/// The parameters Pairing Request and Pairing Response share (Core 5.4 Vol 3 Part H 3.5.1, 3.5.2).
public struct PairingFeatures: Sendable, Equatable {
    public var ioCapability: UInt8
    public var oob: UInt8
    public var authReq: UInt8
    public var maxKeySize: UInt8
    public var initiatorKeys: UInt8
    public var responderKeys: UInt8

    public var bonding: Bool { authReq & 0x03 == 0x01 }
    public var mitm: Bool { authReq & 0x04 != 0 }
    public var secureConnections: Bool { authReq & 0x08 != 0 }
    public var keypress: Bool { authReq & 0x10 != 0 }
    public var ct2: Bool { authReq & 0x20 != 0 }
    public var oobPresent: Bool { oob == 0x01 }

    public init(ioCapability: UInt8, oob: UInt8, authReq: UInt8, maxKeySize: UInt8, initiatorKeys: UInt8, responderKeys: UInt8) {
        self.ioCapability = ioCapability; self.oob = oob; self.authReq = authReq
        self.maxKeySize = maxKeySize; self.initiatorKeys = initiatorKeys; self.responderKeys = responderKeys
    }
}

/// Security Manager Protocol PDUs (Core 5.4 Vol 3 Part H 3).
public enum SMPPDU: Sendable {
    case pairingRequest(PairingFeatures)
    case pairingResponse(PairingFeatures)
    case pairingConfirm(ArraySlice<UInt8>)
    case pairingRandom(ArraySlice<UInt8>)
    case pairingFailed(reason: UInt8)
    case encryptionInformation(ltk: ArraySlice<UInt8>)
    case centralIdentification(ediv: UInt16, rand: ArraySlice<UInt8>)
    case identityInformation(irk: ArraySlice<UInt8>)
    case identityAddressInformation(type: UInt8, address: BDAddr)
    case signingInformation(csrk: ArraySlice<UInt8>)
    case securityRequest(authReq: UInt8)
    case pairingPublicKey(x: ArraySlice<UInt8>, y: ArraySlice<UInt8>)
    case pairingDHKeyCheck(ArraySlice<UInt8>)
    case keypressNotification(type: UInt8)
    case unknown(code: UInt8, data: ArraySlice<UInt8>)

    public static func parse(_ bytes: ArraySlice<UInt8>) throws -> SMPPDU {
        var c = ByteCursor(bytes)
        let code = try c.u8()
        func features() throws -> PairingFeatures {
            PairingFeatures(ioCapability: try c.u8(), oob: try c.u8(), authReq: try c.u8(), maxKeySize: try c.u8(),
                            initiatorKeys: try c.u8(), responderKeys: try c.u8())
        }
        let pdu: SMPPDU
        switch code {
        case 0x01: pdu = .pairingRequest(try features())
        case 0x02: pdu = .pairingResponse(try features())
        case 0x03: pdu = .pairingConfirm(try c.bytes(16))
        case 0x04: pdu = .pairingRandom(try c.bytes(16))
        case 0x05: pdu = .pairingFailed(reason: try c.u8())
        case 0x06: pdu = .encryptionInformation(ltk: try c.bytes(16))
        case 0x07: pdu = .centralIdentification(ediv: try c.u16le(), rand: try c.bytes(8))
        case 0x08: pdu = .identityInformation(irk: try c.bytes(16))
        case 0x09: pdu = .identityAddressInformation(type: try c.u8(), address: try c.address())
        case 0x0A: pdu = .signingInformation(csrk: try c.bytes(16))
        case 0x0B: pdu = .securityRequest(authReq: try c.u8())
        case 0x0C: pdu = .pairingPublicKey(x: try c.bytes(32), y: try c.bytes(32))
        case 0x0D: pdu = .pairingDHKeyCheck(try c.bytes(16))
        case 0x0E: pdu = .keypressNotification(type: try c.u8())
        default: return .unknown(code: code, data: c.rest())
        }
        if !c.isAtEnd { throw c.invalid("\(c.remaining) bytes after the \(SMPNames.code(code)) parameters") }
        return pdu
    }

    public var code: UInt8 {
        switch self {
        case .pairingRequest: return 0x01
        case .pairingResponse: return 0x02
        case .pairingConfirm: return 0x03
        case .pairingRandom: return 0x04
        case .pairingFailed: return 0x05
        case .encryptionInformation: return 0x06
        case .centralIdentification: return 0x07
        case .identityInformation: return 0x08
        case .identityAddressInformation: return 0x09
        case .signingInformation: return 0x0A
        case .securityRequest: return 0x0B
        case .pairingPublicKey: return 0x0C
        case .pairingDHKeyCheck: return 0x0D
        case .keypressNotification: return 0x0E
        case let .unknown(code, _): return code
        }
    }
}

/// The association model (Core 5.4 Vol 3 Part H 2.3.5.1).
public enum PairingMethod: String, Sendable {
    case justWorks = "Just Works"
    case passkeyEntry = "Passkey Entry"
    case numericComparison = "Numeric Comparison"
    case outOfBand = "OOB"
}

public enum SMPNames {
    public static func code(_ c: UInt8) -> String {
        switch c {
        case 0x01: return "Pairing Request"
        case 0x02: return "Pairing Response"
        case 0x03: return "Pairing Confirm"
        case 0x04: return "Pairing Random"
        case 0x05: return "Pairing Failed"
        case 0x06: return "Encryption Information"
        case 0x07: return "Central Identification"
        case 0x08: return "Identity Information"
        case 0x09: return "Identity Address Information"
        case 0x0A: return "Signing Information"
        case 0x0B: return "Security Request"
        case 0x0C: return "Pairing Public Key"
        case 0x0D: return "Pairing DHKey Check"
        case 0x0E: return "Pairing Keypress Notification"
        default: return "Unknown SMP code \(Hex.hex(c, width: 2))"
        }
    }

    public static func ioCapability(_ v: UInt8) -> String {
        switch v {
        case 0x00: return "DisplayOnly"
        case 0x01: return "DisplayYesNo"
        case 0x02: return "KeyboardOnly"
        case 0x03: return "NoInputNoOutput"
        case 0x04: return "KeyboardDisplay"
        default: return "Reserved \(Hex.hex(v, width: 2))"
        }
    }

    /// Pairing Failed reasons (Core 5.4 Vol 3 Part H 3.5.5 Table 3.7).
    public static func failReason(_ r: UInt8) -> String {
        switch r {
        case 0x01: return "Passkey Entry Failed"
        case 0x02: return "OOB Not Available"
        case 0x03: return "Authentication Requirements"
        case 0x04: return "Confirm Value Failed"
        case 0x05: return "Pairing Not Supported"
        case 0x06: return "Encryption Key Size"
        case 0x07: return "Command Not Supported"
        case 0x08: return "Unspecified Reason"
        case 0x09: return "Repeated Attempts"
        case 0x0A: return "Invalid Parameters"
        case 0x0B: return "DHKey Check Failed"
        case 0x0C: return "Numeric Comparison Failed"
        case 0x0D: return "BR/EDR Pairing in Progress"
        case 0x0E: return "Cross-transport Key Derivation/Generation Not Allowed"
        case 0x0F: return "Key Rejected"
        default: return "Reserved reason \(Hex.hex(r, width: 2))"
        }
    }

    public static func keypress(_ t: UInt8) -> String {
        switch t {
        case 0: return "Passkey entry started"
        case 1: return "Passkey digit entered"
        case 2: return "Passkey digit erased"
        case 3: return "Passkey cleared"
        case 4: return "Passkey entry completed"
        default: return "Reserved \(Hex.hex(t, width: 2))"
        }
    }

    /// Key distribution bits (Core 5.4 Vol 3 Part H 3.6.1).
    public static func keys(_ k: UInt8) -> [String] {
        var out: [String] = []
        if k & 0x01 != 0 { out.append("EncKey") }
        if k & 0x02 != 0 { out.append("IdKey") }
        if k & 0x04 != 0 { out.append("SignKey") }
        if k & 0x08 != 0 { out.append("LinkKey") }
        return out
    }

    public static func authReqText(_ a: UInt8) -> String {
        var parts: [String] = []
        parts.append(a & 0x03 == 0x01 ? "bonding" : "no bonding")
        if a & 0x04 != 0 { parts.append("MITM") }
        if a & 0x08 != 0 { parts.append("SC") }
        if a & 0x10 != 0 { parts.append("keypress") }
        if a & 0x20 != 0 { parts.append("CT2") }
        return parts.joined(separator: ", ")
    }
}

/// Derives the association model from the Pairing Request and Pairing Response.
public enum PairingMethodTable {
    /// Method, and for Passkey Entry who displays and who types.
    public static func method(initiator i: PairingFeatures, responder r: PairingFeatures) -> (method: PairingMethod, secureConnections: Bool, detail: String?) {
        let sc = i.secureConnections && r.secureConnections
        // OOB: legacy needs both flags set, LE Secure Connections either (Part H 2.3.5.1, Tables 2.6 and 2.7).
        if sc ? (i.oobPresent || r.oobPresent) : (i.oobPresent && r.oobPresent) {
            return (.outOfBand, sc, nil)
        }
        if !i.mitm && !r.mitm { return (.justWorks, sc, nil) }
        return ioMethod(initiator: i.ioCapability, responder: r.ioCapability, secureConnections: sc)
    }

    /// Table 2.8: IO capabilities mapping to the key generation method.
    public static func ioMethod(initiator ii: UInt8, responder rr: UInt8, secureConnections sc: Bool) -> (method: PairingMethod, secureConnections: Bool, detail: String?) {
        let displayOnly: UInt8 = 0, yesNo: UInt8 = 1, keyboard: UInt8 = 2, noIO: UInt8 = 3, kbDisplay: UInt8 = 4
        guard ii <= 4, rr <= 4 else { return (.justWorks, sc, "reserved IO capability") }
        if ii == noIO || rr == noIO { return (.justWorks, sc, nil) }
        let rDisplays = "responder displays, initiator inputs"
        let iDisplays = "initiator displays, responder inputs"
        switch (ii, rr) {
        case (displayOnly, displayOnly), (displayOnly, yesNo), (yesNo, displayOnly):
            return (.justWorks, sc, nil)
        case (yesNo, yesNo):
            return sc ? (.numericComparison, sc, nil) : (.justWorks, sc, nil)
        case (keyboard, displayOnly), (keyboard, yesNo), (keyboard, kbDisplay):
            return (.passkeyEntry, sc, rDisplays)
        case (displayOnly, keyboard), (yesNo, keyboard), (kbDisplay, keyboard):
            return (.passkeyEntry, sc, iDisplays)
        case (keyboard, keyboard):
            return (.passkeyEntry, sc, "both input")
        case (kbDisplay, displayOnly):
            return (.passkeyEntry, sc, rDisplays)
        case (displayOnly, kbDisplay):
            return (.passkeyEntry, sc, iDisplays)
        case (kbDisplay, yesNo), (yesNo, kbDisplay), (kbDisplay, kbDisplay):
            if sc { return (.numericComparison, sc, nil) }
            // The DisplayYesNo side has no keyboard, so it displays; two KeyboardDisplay: the initiator displays.
            return (.passkeyEntry, sc, rr == yesNo ? rDisplays : iDisplays)
        default:
            return (.justWorks, sc, nil)
        }
    }
}
