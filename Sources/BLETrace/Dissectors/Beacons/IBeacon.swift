/// Apple iBeacon: manufacturer-specific data of company 0x004C whose payload is `02 15` followed by exactly
/// 21 bytes — proximity UUID (16, big-endian), major (2, big-endian), minor (2, big-endian) and measured power
/// (1, signed dBm at 1 m).
public struct IBeacon: Sendable, Equatable {
    public static let company: UInt16 = 0x004C

    public var uuid: BLEUUID
    public var major: UInt16
    public var minor: UInt16
    /// Calibrated RSSI at 1 m, dBm.
    public var measuredPower: Int
    /// RSSI of the report that carried it, when known (for the distance estimate).
    public var rssi: Int?

    public init(uuid: BLEUUID, major: UInt16, minor: UInt16, measuredPower: Int, rssi: Int? = nil) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
        self.rssi = rssi
    }

    /// `company` is the manufacturer data's company identifier; `data` the bytes after it.
    public static func dissect(company: UInt16, data: ArraySlice<UInt8>, rssi: Int? = nil) -> BeaconMatch<IBeacon> {
        guard company == IBeacon.company else { return .none }
        var c = ByteCursor(data)
        guard let type = try? c.u8(), let length = try? c.u8(), type == 0x02, length == 0x15 else { return .none }
        guard c.remaining == 21 else {
            return .nearMiss("Apple data starts 02 15 like an iBeacon but has \(c.remaining) bytes after them, not 21")
        }
        do {
            let uuid = BLEUUID(bigEndian: try c.bytes(16))
            let major = try c.u16be(), minor = try c.u16be()
            let power = Int(try c.i8())
            guard let uuid else { return .none }
            return .beacon(IBeacon(uuid: uuid, major: major, minor: minor, measuredPower: power, rssi: rssi))
        } catch {
            return .none
        }
    }

    /// Metres from the log-distance model (see `BeaconDistance`); an estimate.
    public var distanceEstimate: Double? { BeaconDistance.estimate(powerAt1m: measuredPower, rssi: rssi) }

    public var fields: Fields {
        var f = Fields()
        f.add("uuid", uuid.canonical)
        f.add("major", Int(major))
        f.add("minor", Int(minor))
        f.add("measured_power", measuredPower)
        BeaconDistance.add(powerAt1m: measuredPower, rssi: rssi, to: &f)
        return f
    }

    /// "iBeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 major 1 minor 2, measured power -59 dBm, ~1.78 m (estimate)"
    public var text: String {
        return "iBeacon \(uuid.canonical) major \(major) minor \(minor), measured power \(measuredPower) dBm"
            + BeaconDistance.suffix(powerAt1m: measuredPower, rssi: rssi)
    }
}
