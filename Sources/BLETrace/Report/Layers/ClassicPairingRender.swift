/// Names and text for BR/EDR pairing and link types in the summary.
extension ClassicPairing.Method {
    public var name: String {
        switch self {
        case .justWorks: return "Just Works"
        case .numericComparison: return "Numeric Comparison"
        case .passkeyEntry: return "Passkey Entry"
        case .outOfBand: return "Out of Band"
        case .legacyPIN: return "legacy PIN"
        }
    }

    /// For JSON.
    public var key: String {
        switch self {
        case .justWorks: return "just_works"
        case .numericComparison: return "numeric_comparison"
        case .passkeyEntry: return "passkey_entry"
        case .outOfBand: return "out_of_band"
        case .legacyPIN: return "legacy_pin"
        }
    }
}

extension ClassicPairing {
    public var fields: Fields {
        var f = Fields()
        f.add("record", record)
        if let m = method { f.add("method", m.key) }
        if let io = localIO { f.add("local_io_capability", ClassicNames.ioCapability(io)) }
        if let io = remoteIO { f.add("remote_io_capability", ClassicNames.ioCapability(io)) }
        if let a = remoteAuthentication { f.add("remote_authentication", ClassicNames.authenticationRequirements(a)) }
        if let s = status { f.add("simple_pairing_status", Int(s)) }
        if let s = authentication { f.add("authentication_status", Int(s)) }
        if let ok = succeeded { f.add("success", ok) }
        if let t = keyType { f.add("key_type", ClassicNames.keyType(t)) }
        if storedKey { f.add("stored_key", true) }
        return f
    }

    /// "Secure Simple Pairing: Numeric Comparison (DisplayYesNo/DisplayYesNo), success, Authenticated
    /// Combination Key (P-256)".
    public var text: String {
        var s = method == .legacyPIN ? "pairing: legacy PIN"
            : method == nil && storedKey && localIO == nil && remoteIO == nil ? "authenticated with a stored link key"
            : "Secure Simple Pairing"
        if let m = method, m != .legacyPIN { s += ": " + m.name }
        if let l = localIO, let r = remoteIO {
            s += " (\(ClassicNames.ioCapability(l))/\(ClassicNames.ioCapability(r)))"
        }
        if let ok = succeeded {
            let code = status ?? authentication ?? 0
            s += ok ? ", success" : ", failed: \(HCIText.status(code))"
        }
        if let t = keyType { s += ", " + ClassicNames.keyType(t) }
        return s
    }
}

enum ClassicLinkText {
    /// "ACL", "SCO", "eSCO".
    static func name(_ t: UInt8) -> String {
        switch t {
        case 0: return "SCO"
        case 1: return "ACL"
        case 2: return "eSCO"
        default: return "link type \(Hex.hex(t, width: 2))"
        }
    }
}
