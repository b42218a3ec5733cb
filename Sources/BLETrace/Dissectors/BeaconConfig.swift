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
        var f = Fields()
        switch ctx.uuid {
        case BeaconConfigDissector.beaconUUID:
            guard v.count == 16, let u = BLEUUID(bigEndian: v) else { return .invalid(name, DissectorText.length(v.count, expected: 16)) }
            f.add("beacon_uuid", u.canonical)
            return Dissection(name, fields: f, text: "beacon UUID \(u.canonical)")
        case BeaconConfigDissector.majorMinor:
            var c = ByteCursor(v)
            guard v.count == 4, let major = try? c.u16le(), let minor = try? c.u16le() else {
                return .invalid(name, DissectorText.length(v.count, expected: 4))
            }
            f.add("major", Int(major))
            f.add("minor", Int(minor))
            return Dissection(name, fields: f, text: "major \(major) minor \(minor)")
        default:
            var c = ByteCursor(v)
            guard v.count == 4, let power = try? c.u16le(), let interval = try? c.u16le() else {
                return .invalid(name, DissectorText.length(v.count, expected: 4))
            }
            f.add("tx_power_code", Int(power))
            let dbm = BeaconConfigDissector.powerDBm(power)
            if let d = dbm { f.add("tx_power_dbm", d) }
            f.add("interval", Int(interval))
            f.add("interval_ms", .double(Double(Int(interval) * 625) / 1000))
            let risky = Int(interval) < BeaconConfigDissector.minimumSafeInterval
            f.add("risky_interval", risky)
            if risky { f.add("warning", "interval below 100 ms: the vendor warns the beacon may fail") }
            let text = "transmit power " + (dbm.map { "\($0) dB" } ?? "code \(power)") + ", interval \(Fmt.interval625(Int(interval)))"
                + (risky ? " (risky: below 100 ms)" : "")
            return Dissection(name, fields: f, text: text, problem: dbm == nil ? "transmit power code \(power) is not 0, 1 or 2" : nil)
        }
    }
}
