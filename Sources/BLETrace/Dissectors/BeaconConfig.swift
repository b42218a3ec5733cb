/// The IoT Design Shop beacon configuration service (2173E519-9155-4862-AB64-7953AB146156): the beacon's
/// proximity UUID, its major and minor, and its transmit power and advertising interval. The 16-bit values are
/// read little-endian, the byte order of the beacon's firmware and of the iOS app that writes them.
public struct BeaconConfigDissector: ValueDissector {
    public static let service = BLEUUID(string: "2173E519-9155-4862-AB64-7953AB146156")!
    public static let beaconUUID = BLEUUID(string: "2173E519-9155-4862-AB64-7953AB146157")!
    public static let majorMinor = BLEUUID(string: "2173E519-9155-4862-AB64-7953AB146158")!
    public static let powerInterval = BLEUUID(string: "2173E519-9155-4862-AB64-7953AB146159")!
    /// Below 100 ms the vendor warns the beacon's radio may fail.
    public static let minimumSafeInterval = 160

    public let name = "beacon_config"
    public let uuids: [BLEUUID] = [BeaconConfigDissector.beaconUUID, BeaconConfigDissector.majorMinor, BeaconConfigDissector.powerInterval]
    public init() {}

    /// Transmit power code → dBm.
    public static func powerDBm(_ code: UInt16) -> Int? {
        switch code {
        case 0: return -23
        case 1: return -6
        case 2: return 0
        default: return nil
        }
    }

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        switch ctx.uuid {
        case BeaconConfigDissector.beaconUUID:
            guard v.count == 16, let u = BLEUUID(bigEndian: v) else { return .invalid(name, DissectorText.length(v.count, expected: 16)) }
            return Dissection(name, value: Value.beaconUUID(u))
        case BeaconConfigDissector.majorMinor:
            var c = ByteCursor(v)
            guard v.count == 4, let major = try? c.u16le(), let minor = try? c.u16le() else {
                return .invalid(name, DissectorText.length(v.count, expected: 4))
            }
            return Dissection(name, value: Value.majorMinor(major: major, minor: minor))
        default:
            var c = ByteCursor(v)
            guard v.count == 4, let power = try? c.u16le(), let interval = try? c.u16le() else {
                return .invalid(name, DissectorText.length(v.count, expected: 4))
            }
            return Dissection(name, value: Value.powerInterval(powerCode: power, interval: interval),
                              problem: BeaconConfigDissector.powerDBm(power) == nil ? "transmit power code \(power) is not 0, 1 or 2" : nil)
        }
    }

    /// One of the service's three values.
    public enum Value: DecodedValue, Equatable {
        case beaconUUID(BLEUUID)
        case majorMinor(major: UInt16, minor: UInt16)
        /// Transmit power code and advertising interval (units of 0.625 ms).
        case powerInterval(powerCode: UInt16, interval: UInt16)

        static func risky(_ interval: UInt16) -> Bool { Int(interval) < BeaconConfigDissector.minimumSafeInterval }

        public func writeFields<S: FieldSink>(into s: inout S) {
            switch self {
            case let .beaconUUID(u): s.field("beacon_uuid", u.canonical)
            case let .majorMinor(major, minor):
                s.field("major", major)
                s.field("minor", minor)
            case let .powerInterval(power, interval):
                s.field("tx_power_code", power)
                if let d = BeaconConfigDissector.powerDBm(power) { s.field("tx_power_dbm", d) }
                s.field("interval", interval)
                s.key("interval_ms")
                s.double(Double(Int(interval) * 625) / 1000)
                let risky = Value.risky(interval)
                s.field("risky_interval", risky)
                if risky { s.field("warning", "interval below 100 ms: the vendor warns the beacon may fail") }
            }
        }

        public var text: String {
            switch self {
            case let .beaconUUID(u): return "beacon UUID \(u.canonical)"
            case let .majorMinor(major, minor): return "major \(major) minor \(minor)"
            case let .powerInterval(power, interval):
                return "transmit power " + (BeaconConfigDissector.powerDBm(power).map { "\($0) dB" } ?? "code \(power)")
                    + ", interval \(Fmt.interval625(Int(interval)))" + (Value.risky(interval) ? " (risky: below 100 ms)" : "")
            }
        }

    }
}
