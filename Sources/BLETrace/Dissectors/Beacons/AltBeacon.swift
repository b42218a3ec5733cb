/// AltBeacon (open beacon format): manufacturer-specific data of any company whose payload is the beacon code
/// `BE AC`, a 20-byte beacon ID, the reference RSSI (signed dBm at 1 m) and one manufacturer-reserved byte —
/// 24 bytes after the company identifier.
public struct AltBeacon: Sendable, Equatable {
    public var company: UInt16
    /// 20 bytes; by convention a 16-byte organisational UUID followed by two 16-bit big-endian numbers.
    public var id: [UInt8]
    public var referenceRSSI: Int
    public var reserved: UInt8
    public var rssi: Int?

    public init(company: UInt16, id: [UInt8], referenceRSSI: Int, reserved: UInt8, rssi: Int? = nil) {
        self.company = company
        self.id = id
        self.referenceRSSI = referenceRSSI
        self.reserved = reserved
        self.rssi = rssi
    }

    public static func dissect(company: UInt16, data: ArraySlice<UInt8>, rssi: Int? = nil) -> BeaconMatch<AltBeacon> {
        var c = ByteCursor(data)
        guard let code = try? c.u16be(), code == 0xBEAC else { return .none }
        guard c.remaining == 22 else {
            return .nearMiss("manufacturer data starts BE AC like an AltBeacon but has \(c.remaining) bytes after them, not 22")
        }
        do {
            let id = try c.array(20)
            let ref = Int(try c.i8())
            let reserved = try c.u8()
            return .beacon(AltBeacon(company: company, id: id, referenceRSSI: ref, reserved: reserved, rssi: rssi))
        } catch {
            return .none
        }
    }

    /// The conventional reading of the ID: UUID (first 16 bytes, big-endian) and two 16-bit big-endian values.
    public var uuid: BLEUUID? { BLEUUID(bigEndian: id.prefix(16)) }
    public var major: UInt16? { id.count == 20 ? UInt16(id[16]) << 8 | UInt16(id[17]) : nil }
    public var minor: UInt16? { id.count == 20 ? UInt16(id[18]) << 8 | UInt16(id[19]) : nil }

    public var distanceEstimate: Double? { BeaconDistance.estimate(powerAt1m: referenceRSSI, rssi: rssi) }

    public var fields: Fields {
        var f = Fields()
        f.add("company", Int(company))
        if let n = AssignedNumbers.companyName(company) { f.add("company_name", n) }
        f.add("id", hex: id)
        if let u = uuid { f.add("uuid", u.canonical) }
        if let m = major { f.add("major", Int(m)) }
        if let m = minor { f.add("minor", Int(m)) }
        f.add("reference_rssi", referenceRSSI)
        f.add("reserved", Int(reserved))
        BeaconDistance.add(powerAt1m: referenceRSSI, rssi: rssi, to: &f)
        return f
    }

    public var text: String {
        var s = "AltBeacon "
        if let u = uuid, let ma = major, let mi = minor { s += "\(u.canonical) major \(ma) minor \(mi)" } else { s += Hex.string(id) }
        return s + ", reference RSSI \(referenceRSSI) dBm" + BeaconDistance.suffix(powerAt1m: referenceRSSI, rssi: rssi)
    }
}
