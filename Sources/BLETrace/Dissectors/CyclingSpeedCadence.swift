/// Cycling Speed and Cadence 0x1816: CSC Measurement 0x2A5B, CSC Feature 0x2A5C, Sensor Location 0x2A5D.
/// Speed and cadence come from the difference between two measurements of one connection, so the previous
/// measurement is kept in `CSCState`.
public struct CyclingSpeedCadenceDissector: ValueDissector {
    public let name = "cycling_speed_cadence"
    public let uuids: [BLEUUID] = [0x2A5B, 0x2A5C, 0x2A5D].map { BLEUUID(UInt16($0)) }
    /// Wheel circumference used for speed, metres (700×23C road tyre).
    public static let wheelCircumference = 2.096
    public init() {}

    public struct Measurement: Sendable, Equatable {
        public var wheelRevolutions: UInt32?
        /// 1/1024 s, wrapping at 64 s.
        public var wheelEventTime: UInt16?
        public var crankRevolutions: UInt16?
        public var crankEventTime: UInt16?
    }

    public final class CSCState {
        var last: Measurement?
        public init() {}
    }

    static let locations = ["Other", "Top of shoe", "In shoe", "Hip", "Front wheel", "Left crank", "Right crank", "Left pedal",
                            "Right pedal", "Front hub", "Rear dropout", "Chainstay", "Rear wheel", "Rear hub", "Chest", "Spider",
                            "Chain ring"]

    public static func locationName(_ b: UInt8) -> String { Int(b) < locations.count ? locations[Int(b)] : "reserved (\(b))" }

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        switch ctx.uuid.uuid16 {
        case 0x2A5B:
            let state = ctx.state.get(CSCState.self) { CSCState() }
            var d = CyclingSpeedCadenceDissector.measurement(v, previous: state.last)
            if d.problem == nil, let m = d.payload as? Measurement { state.last = m }
            if var f = d.value as? FieldsValue {
                f.payload = nil
                d.value = f
            }
            return d
        case 0x2A5C:
            var c = ByteCursor(v)
            guard v.count == 2, let x = try? c.u16le() else { return .invalid(name, DissectorText.length(v.count, expected: 2)) }
            let names = DissectorText.bits(Int(x), ["wheel revolution data", "crank revolution data", "multiple sensor locations"])
            var f = Fields()
            f.add("features", DissectorText.list(names))
            return Dissection(name, fields: f, text: names.isEmpty ? "no features" : names.joined(separator: ", "))
        default:
            guard v.count == 1, let b = v.first else { return .invalid(name, DissectorText.length(v.count, expected: 1)) }
            var f = Fields()
            f.add("sensor_location", Int(b))
            f.add("location", CyclingSpeedCadenceDissector.locationName(b))
            return Dissection(name, fields: f, text: "sensor location " + CyclingSpeedCadenceDissector.locationName(b))
        }
    }

    /// Decodes a measurement; with the previous one, adds wheel speed and crank cadence over the interval.
    /// The payload is the `Measurement` (for the caller to keep).
    public static func measurement(_ v: ArraySlice<UInt8>, previous: Measurement?) -> Dissection {
        var c = ByteCursor(v)
        var f = Fields()
        var m = Measurement()
        var parts: [String] = []
        do {
            let flags = try c.u8()
            f.add("flags", Int(flags))
            if flags & 1 != 0 {
                m.wheelRevolutions = try c.u32le()
                m.wheelEventTime = try c.u16le()
            }
            if flags & 2 != 0 {
                m.crankRevolutions = try c.u16le()
                m.crankEventTime = try c.u16le()
            }
        } catch {
            return .invalid("cycling_speed_cadence", "\(error)")
        }
        if let w = m.wheelRevolutions, let t = m.wheelEventTime {
            f.add("wheel_revolutions", Int(w))
            f.add("wheel_event_time", Int(t))
            parts.append("wheel \(w) rev")
            if let p = previous, let pw = p.wheelRevolutions, let pt = p.wheelEventTime {
                let revs = Int(w &- pw)
                let dt = Int(t &- pt)   // 1/1024 s, modulo 64 s
                if dt > 0, revs >= 0, revs < 1 << 20 {
                    let rpm = Double(revs) * 60 * 1024 / Double(dt)
                    let kmh = rpm * wheelCircumference * 60 / 1000
                    f.add("wheel_rpm", .double((rpm * 10).rounded() / 10))
                    f.add("speed_kmh", .double((kmh * 10).rounded() / 10))
                    parts.append("\(Fmt.fixed(Int((kmh * 10).rounded()), scale: 10)) km/h")
                }
            }
        }
        if let r = m.crankRevolutions, let t = m.crankEventTime {
            f.add("crank_revolutions", Int(r))
            f.add("crank_event_time", Int(t))
            parts.append("crank \(r) rev")
            if let p = previous, let pr = p.crankRevolutions, let pt = p.crankEventTime {
                let revs = Int(r &- pr)
                let dt = Int(t &- pt)
                if dt > 0 {
                    let rpm = Double(revs) * 60 * 1024 / Double(dt)
                    f.add("cadence_rpm", .double((rpm * 10).rounded() / 10))
                    parts.append("\(Fmt.fixed(Int((rpm * 10).rounded()), scale: 10)) rpm")
                }
            }
        }
        return Dissection("cycling_speed_cadence", fields: f, text: parts.isEmpty ? "no data" : parts.joined(separator: ", "),
                          problem: DissectorText.extra(c), payload: m)
    }
}
