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
        public var summaryPayload: (any Sendable)? { nil }
    }

    static func features(_ v: ArraySlice<UInt8>, key: String, names: [String]) -> Dissection {
        guard !v.isEmpty else { return .invalid("gatt", "empty value") }
        var f = Fields()
        f.add(key, hex: v)
        var set: [String] = []
        for (i, b) in v.enumerated() {
            for bit in 0..<8 where b & (1 << bit) != 0 {
                let n = i * 8 + bit
                set.append(n < names.count ? names[n] : "bit \(n)")
            }
        }
        f.add("features", DissectorText.list(set))
        return Dissection("gatt", fields: f, text: set.isEmpty ? "no features" : set.joined(separator: ", "))
    }

    static func databaseHash(_ v: ArraySlice<UInt8>) -> Dissection {
        guard v.count == 16 else { return .invalid("gatt", DissectorText.length(v.count, expected: 16)) }
        var f = Fields()
        f.add("database_hash", hex: v)
        return Dissection("gatt", fields: f, text: "database hash " + Hex.string(v))
    }
}
