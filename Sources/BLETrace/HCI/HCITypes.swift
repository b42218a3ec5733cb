/// The kinds of Bluetooth LE address (Core Vol 6 Part B 1.3).
public enum AddressType: Sendable, Hashable {
    case `public`
    case randomStatic
    case resolvablePrivate
    case nonResolvablePrivate
    /// Random address whose subtype is reserved (top bits 0b10).
    case randomReserved
    /// Controller-resolved identity addresses (HCI address types 2 and 3).
    case publicIdentity
    case randomIdentity
    case anonymous
    case unknown(UInt8)

    /// From an HCI address-type byte and the address itself (random subtypes come from the top two bits).
    public init(hci: UInt8, address: BDAddr) {
        switch hci {
        case 0x00: self = .public
        case 0x01: self = AddressType.randomKind(address)
        case 0x02: self = .publicIdentity
        case 0x03: self = .randomIdentity
        case 0xFF: self = .anonymous
        default: self = .unknown(hci)
        }
    }

    public static func randomKind(_ a: BDAddr) -> AddressType {
        switch a.value >> 46 {
        case 0b11: return .randomStatic
        case 0b01: return .resolvablePrivate
        case 0b00: return .nonResolvablePrivate
        default: return .randomReserved
        }
    }

    /// "public", "random static", …; "type 0x07" for an unknown one.
    public var name: String {
        if case let .unknown(v) = self { return "type \(Hex.hex(v, width: 2))" }
        return staticName?.description ?? ""
    }

    /// `name`'s bytes appended (a known type's from its static name, without making a String).
    public func write(into b: inout TextBytes) {
        if let s = staticName { s.withUTF8Buffer { b.append(contentsOf: $0) } } else { b.append(string: name) }
    }

    /// The name as static bytes, for every type but an unknown one (JSON copies them without a String).
    public var staticName: StaticString? {
        switch self {
        case .public: return "public"
        case .randomStatic: return "random static"
        case .resolvablePrivate: return "resolvable private"
        case .nonResolvablePrivate: return "non-resolvable private"
        case .randomReserved: return "random (reserved subtype)"
        case .publicIdentity: return "public identity"
        case .randomIdentity: return "random static identity"
        case .anonymous: return "anonymous"
        case .unknown: return nil
        }
    }

    public var isRandom: Bool {
        switch self {
        case .public, .publicIdentity: return false
        default: return true
        }
    }

    /// A number for each type, different for different types (0–8, 0x100 + the byte of an unknown one): a key
    /// part that hashes as one integer.
    public var code: UInt16 {
        switch self {
        case .public: return 0
        case .randomStatic: return 1
        case .resolvablePrivate: return 2
        case .nonResolvablePrivate: return 3
        case .randomReserved: return 4
        case .publicIdentity: return 5
        case .randomIdentity: return 6
        case .anonymous: return 7
        case let .unknown(v): return 0x100 | UInt16(v)
        }
    }
}

public enum HCIText {
    public static func status(_ code: UInt8) -> String {
        if let n = HCINames.status(code) { return n }
        return "Unknown status \(Hex.hex(code, width: 2))"
    }

    public static func role(_ r: UInt8) -> String {
        switch r {
        case 0: return "central"
        case 1: return "peripheral"
        default: return "role \(Hex.hex(r, width: 2))"
        }
    }

    public static func phy(_ p: UInt8) -> String {
        switch p {
        case 0x00: return "none"
        case 0x01: return "LE 1M"
        case 0x02: return "LE 2M"
        case 0x03: return "LE Coded"
        case 0x04: return "LE Coded S2"
        default: return "PHY \(Hex.hex(p, width: 2))"
        }
    }

    public static func commandName(_ opcode: UInt16) -> String {
        if opcode >> 10 == 0x3F { return "Vendor command \(Hex.hex(opcode & 0x3FF, width: 3))" }
        if opcode == 0 { return "NOP" }
        return HCINames.command(opcode) ?? "Unknown command \(Hex.hex(opcode, width: 4))"
    }

    public static func eventName(_ code: UInt8) -> String {
        if code == 0xFF { return "Vendor event" }
        return HCINames.event(code) ?? "Unknown event \(Hex.hex(code, width: 2))"
    }

    public static func subeventName(_ code: UInt8) -> String {
        HCINames.leSubevent(code) ?? "Unknown LE subevent \(Hex.hex(code, width: 2))"
    }

    public static func legacyAdvType(_ t: UInt8) -> String {
        switch t {
        case 0: return "ADV_IND"
        case 1: return "ADV_DIRECT_IND"
        case 2: return "ADV_SCAN_IND"
        case 3: return "ADV_NONCONN_IND"
        case 4: return "SCAN_RSP"
        default: return "type \(Hex.hex(t, width: 2))"
        }
    }

    public static func enabled(_ v: UInt8) -> String { v == 0 ? "disabled" : v == 1 ? "enabled" : "value \(v)" }
}
