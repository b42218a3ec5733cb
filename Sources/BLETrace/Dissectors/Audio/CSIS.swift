/// Coordinated Set Identification Service 0x1846 (CSIS 1.0): Set Identity Resolving Key 0x2B84, Coordinated
/// Set Size 0x2B85, Set Member Lock 0x2B86, Set Member Rank 0x2B87. The SIRK is key material: written like
/// the SMP keys (most significant byte first, member `sirk`), which `--redact` replaces.
public struct CSISDissector: ValueDissector {
    public let name = "csis"
    public let uuids: [BLEUUID] = [0x2B84, 0x2B85, 0x2B86, 0x2B87].map { BLEUUID(UInt16($0)) }
    public init() {}

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        switch ctx.uuid.uuid16 {
        case 0x2B84:
            var c = ByteCursor(v)
            guard v.count == 17, let type = try? c.u8(), let key = try? c.array(16) else {
                return .invalid(name, DissectorText.length(v.count, expected: 17))
            }
            return Dissection(name, value: SIRK(type: type, wire: key), problem: type > 1 ? "SIRK type \(type) is reserved" : nil)
        default:
            guard v.count == 1, let b = v.first else { return .invalid(name, DissectorText.length(v.count, expected: 1)) }
            let kind: Member.Kind = ctx.uuid.uuid16 == 0x2B85 ? .size : ctx.uuid.uuid16 == 0x2B86 ? .lock : .rank
            var problem: String?
            switch kind {
            case .size, .rank: if b == 0 { problem = "0 is not allowed" }
            case .lock: if b != 1 && b != 2 { problem = "lock value \(b) is reserved" }
            }
            return Dissection(name, value: Member(kind: kind, value: b), problem: problem)
        }
    }

    /// Set Identity Resolving Key: Type (0x00 encrypted, 0x01 plain text) and the 16-byte SIRK.
    public struct SIRK: DecodedValue, Equatable {
        public var type: UInt8
        /// The key as on the wire (least significant byte first).
        public var wire: [UInt8]
        /// The key most significant byte first, as the SMP keys are shown.
        public var key: [UInt8] { LEBytes.value(wire) }
        var typeName: String { type == 0 ? "encrypted" : type == 1 ? "plain text" : "reserved" }

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("sirk_type", type)
            s.field("sirk_type_name", typeName)
            s.field("sirk", hex: key)
        }
        public var text: String { typeName + " SIRK " + Hex.string(key) }
    }

    /// Coordinated Set Size, Set Member Lock (0x01 unlocked, 0x02 locked) or Set Member Rank.
    public struct Member: DecodedValue, Equatable {
        public enum Kind: Sendable { case size, lock, rank }
        public var kind: Kind
        public var value: UInt8

        public func writeFields<S: FieldSink>(into s: inout S) {
            switch kind {
            case .size: s.field("coordinated_set_size", value)
            case .rank: s.field("set_member_rank", value)
            case .lock:
                s.field("set_member_lock", value)
                s.field("lock", value == 1 ? "unlocked" : value == 2 ? "locked" : "reserved")
            }
        }
        public var text: String {
            switch kind {
            case .size: return "set of \(value)"
            case .rank: return "rank \(value)"
            case .lock: return value == 1 ? "unlocked" : value == 2 ? "locked" : "lock \(value)"
            }
        }
    }
}
