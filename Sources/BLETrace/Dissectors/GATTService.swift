/// Generic Attribute 0x1801: Service Changed, Client and Server Supported Features, Database Hash.
public struct GATTServiceDissector: ValueDissector {
    public let name = "gatt"
    public let uuids: [BLEUUID] = [0x2A05, 0x2B29, 0x2B2A, 0x2B3A].map { BLEUUID(UInt16($0)) }
    public init() {}

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        switch ctx.uuid.uuid16 {
        case 0x2A05: return GATTServiceDissector.serviceChanged(v)
        case 0x2B29: return GATTServiceDissector.features(v, key: "client_supported_features",
                                                          names: ["robust caching", "EATT", "multiple handle value notifications"])
        case 0x2B3A: return GATTServiceDissector.features(v, key: "server_supported_features", names: ["EATT"])
        default: return GATTServiceDissector.databaseHash(v)
        }
    }

    /// Service Changed: the affected handle range.
    public static func serviceChanged(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard v.count == 4, let a = try? c.u16le(), let b = try? c.u16le() else {
            return .invalid("gatt", DissectorText.length(v.count, expected: 4))
        }
        return Dissection("gatt", value: ServiceChanged(start: a, end: b), problem: a > b || a == 0 ? "invalid handle range" : nil)
    }

    /// Service Changed: the handle range whose attributes changed.
    public struct ServiceChanged: DecodedValue, Equatable {
        public var start: UInt16
        public var end: UInt16

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("start_handle", Int(start))
            s.field("end_handle", Int(end))
        }
        public var text: String { "services changed in \(Hex.hex(start, width: 4))–\(Hex.hex(end, width: 4))" }
    }

    static func features(_ v: ArraySlice<UInt8>, key: String, names: [String]) -> Dissection {
        guard !v.isEmpty else { return .invalid("gatt", "empty value") }
        return Dissection("gatt", value: Features(key: key, names: names, bits: v))
    }

    /// A supported-features bit field: its JSON key, the names of its bits (bit 0 first) and the bytes.
    public struct Features: DecodedValue, Equatable {
        public var key: String
        public var names: [String]
        public var bits: ArraySlice<UInt8>

        /// The names of the set bits; unnamed ones as "bit N".
        public var set: [String] {
            var out: [String] = []
            for (i, b) in bits.enumerated() {
                for bit in 0..<8 where b & (1 << bit) != 0 {
                    let n = i * 8 + bit
                    out.append(n < names.count ? names[n] : "bit \(n)")
                }
            }
            return out
        }

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field(name: key, hex: bits)
            s.list("features") { s in for n in set { s.string(n) } }
        }
        public var text: String {
            let set = self.set
            return set.isEmpty ? "no features" : set.joined(separator: ", ")
        }
    }

    static func databaseHash(_ v: ArraySlice<UInt8>) -> Dissection {
        guard v.count == 16 else { return .invalid("gatt", DissectorText.length(v.count, expected: 16)) }
        return Dissection("gatt", value: DatabaseHash(hash: v))
    }

    /// Database Hash: 128 bits over the server's database.
    public struct DatabaseHash: DecodedValue, Equatable {
        public var hash: ArraySlice<UInt8>
        public func writeFields<S: FieldSink>(into s: inout S) { s.field("database_hash", hex: hash) }
        public var text: String { "database hash " + Hex.string(hash) }
    }
}
