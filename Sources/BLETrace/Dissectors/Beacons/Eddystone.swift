/// Google Eddystone: service data for the 16-bit UUID 0xFEAA. The first byte is the frame type —
/// 0x00 UID, 0x10 URL, 0x20 TLM (telemetry), 0x30 EID (ephemeral identifier). Multi-byte values are big-endian.
public struct Eddystone: Sendable, Equatable {
    public static let serviceUUID: UInt16 = 0xFEAA

    public enum Frame: Sendable, Equatable {
        /// 10-byte namespace and 6-byte instance.
        case uid(namespace: [UInt8], instance: [UInt8])
        case url(String)
        /// Unencrypted telemetry (version 0). Battery is nil when the beacon reports 0 (not supported);
        /// temperature is signed 8.8 fixed point (°C × 256), nil for 0x8000 (not supported).
        /// Uptime counts tenths of a second.
        case tlm(batteryMillivolts: Int?, temperature256: Int?, advertisingCount: UInt32, uptimeTenths: UInt32)
        /// Encrypted telemetry (version 1).
        case encryptedTLM(etlm: [UInt8], salt: UInt16, mic: UInt16)
        /// 8-byte rotating identifier.
        case eid([UInt8])
    }

    public var frame: Frame
    /// Calibrated transmit power at 0 m, dBm (UID, URL and EID frames).
    public var txPower: Int?
    public var rssi: Int?

    public init(frame: Frame, txPower: Int?, rssi: Int? = nil) {
        self.frame = frame
        self.txPower = txPower
        self.rssi = rssi
    }

    /// `data` is the service data after the 16-bit UUID.
    public static func dissect(serviceUUID: UInt16, data: ArraySlice<UInt8>, rssi: Int? = nil) -> BeaconMatch<Eddystone> {
        guard serviceUUID == Eddystone.serviceUUID else { return .none }
        var c = ByteCursor(data)
        guard let type = try? c.u8() else { return .nearMiss("Eddystone service data is empty") }
        do {
            switch type {
            case 0x00:
                guard c.remaining == 17 || c.remaining == 19 else {
                    return .nearMiss("Eddystone-UID frame has \(data.count) bytes, not 18 or 20")
                }
                let tx = Int(try c.i8())
                let ns = try c.array(10), inst = try c.array(6)
                return .beacon(Eddystone(frame: .uid(namespace: ns, instance: inst), txPower: tx, rssi: rssi))
            case 0x10:
                guard c.remaining >= 2, c.remaining <= 19 else {
                    return .nearMiss("Eddystone-URL frame has \(data.count) bytes, not 3 to 20")
                }
                let tx = Int(try c.i8())
                guard let url = decodeURL(scheme: try c.u8(), c.rest()) else {
                    return .nearMiss("Eddystone-URL frame has an invalid scheme or URL byte")
                }
                return .beacon(Eddystone(frame: .url(url), txPower: tx, rssi: rssi))
            case 0x20:
                let version = try c.u8()
                if version == 0x00 {
                    guard c.remaining == 12 else { return .nearMiss("Eddystone-TLM frame has \(data.count) bytes, not 14") }
                    let battery = Int(try c.u16be())
                    let temp = try c.u16be()
                    let count = try c.u32be(), uptime = try c.u32be()
                    return .beacon(Eddystone(frame: .tlm(batteryMillivolts: battery == 0 ? nil : battery,
                                                         temperature256: temp == 0x8000 ? nil : Int(Int16(bitPattern: temp)),
                                                         advertisingCount: count, uptimeTenths: uptime),
                                             txPower: nil, rssi: rssi))
                } else if version == 0x01 {
                    guard c.remaining == 16 else { return .nearMiss("encrypted Eddystone-TLM frame has \(data.count) bytes, not 18") }
                    let etlm = try c.array(12)
                    let salt = try c.u16be(), mic = try c.u16be()
                    return .beacon(Eddystone(frame: .encryptedTLM(etlm: etlm, salt: salt, mic: mic), txPower: nil, rssi: rssi))
                }
                return .nearMiss("Eddystone-TLM version \(Hex.hex(version, width: 2)) is unknown")
            case 0x30:
                guard c.remaining == 9 else { return .nearMiss("Eddystone-EID frame has \(data.count) bytes, not 10") }
                let tx = Int(try c.i8())
                return .beacon(Eddystone(frame: .eid(try c.array(8)), txPower: tx, rssi: rssi))
            default:
                return .nearMiss("Eddystone frame type \(Hex.hex(type, width: 2)) is unknown")
            }
        } catch {
            return .nearMiss("Eddystone frame is truncated")
        }
    }

    static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    static let expansions = [".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
                             ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov"]

    /// Expands the URL scheme prefix and the 0x00–0x0D text expansion codes; nil on a reserved byte. The
    /// bytes are gathered first and made a string once.
    public static func decodeURL(scheme: UInt8, _ body: ArraySlice<UInt8>) -> String? {
        guard Int(scheme) < schemes.count else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12 + body.count * 2)
        bytes.append(contentsOf: schemes[Int(scheme)].utf8)
        for b in body {
            if Int(b) < expansions.count {
                bytes.append(contentsOf: expansions[Int(b)].utf8)
            } else if b > 0x20 && b < 0x7F {
                bytes.append(b)
            } else {
                return nil
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public var kind: String {
        switch frame {
        case .uid: return "UID"
        case .url: return "URL"
        case .tlm, .encryptedTLM: return "TLM"
        case .eid: return "EID"
        }
    }

    /// Distance from the 0 m transmit power: the power at 1 m is taken as `txPower − 41` dBm.
    public var distanceEstimate: Double? {
        guard let tx = txPower else { return nil }
        return BeaconDistance.estimate(powerAt1m: tx - 41, rssi: rssi)
    }

    public var fields: Fields {
        var f = Fields()
        f.add("frame", kind)
        if let tx = txPower { f.add("tx_power_0m", tx) }
        switch frame {
        case let .uid(ns, inst):
            f.add("namespace", hex: ns)
            f.add("instance", hex: inst)
        case let .url(u):
            f.add("url", u)
        case let .tlm(battery, temp, count, uptime):
            f.add("version", 0)
            f.add("battery_mv", battery.map { .int($0) } ?? .null)
            f.add("temperature_c", temp.map { .double(Double($0) / 256) } ?? .null)
            f.add("advertising_count", Int(count))
            f.add("uptime_s", .double(Double(uptime) / 10))
        case let .encryptedTLM(etlm, salt, mic):
            f.add("version", 1)
            f.add("etlm", hex: etlm)
            f.add("salt", Int(salt))
            f.add("mic", Int(mic))
        case let .eid(eid):
            f.add("eid", hex: eid)
        }
        if let tx = txPower { BeaconDistance.add(powerAt1m: tx - 41, rssi: rssi, to: &f) }
        return f
    }

    public var text: String {
        var s = "Eddystone-\(kind) "
        switch frame {
        case let .uid(ns, inst): s += "namespace \(Hex.string(ns)) instance \(Hex.string(inst))"
        case let .url(u): s += u
        case let .tlm(battery, temp, count, uptime):
            s += "battery " + (battery.map { "\($0) mV" } ?? "n/a")
            s += ", temperature " + (temp.map { Fmt.fixed(($0 * 100) / 256, scale: 100) + " °C" } ?? "n/a")
            s += ", \(count) adverts, up \(Fmt.fixed(Int(uptime), scale: 10)) s"
        case .encryptedTLM: s += "encrypted"
        case let .eid(eid): s += Hex.string(eid)
        }
        if let tx = txPower {
            s += ", tx power \(tx) dBm at 0 m" + BeaconDistance.suffix(powerAt1m: tx - 41, rssi: rssi)
        }
        return s
    }
}
