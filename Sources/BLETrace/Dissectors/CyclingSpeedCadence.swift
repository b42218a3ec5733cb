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
            let d = CyclingSpeedCadenceDissector.measurement(v, previous: state.last)
            if d.problem == nil, let m = d.value as? Reading { state.last = m.measurement }
            return d
        case 0x2A5C:
            var c = ByteCursor(v)
            guard v.count == 2, let x = try? c.u16le() else { return .invalid(name, DissectorText.length(v.count, expected: 2)) }
            return Dissection(name, value: Features(bits: x))
        default:
            guard v.count == 1, let b = v.first else { return .invalid(name, DissectorText.length(v.count, expected: 1)) }
            return Dissection(name, value: SensorLocation(location: b))
        }
    }

    /// CSC Feature bits.
    public struct Features: DecodedValue, Equatable {
        public var bits: UInt16
        var names: [String] { DissectorText.bits(Int(bits), ["wheel revolution data", "crank revolution data", "multiple sensor locations"]) }
        public func writeFields<S: FieldSink>(into s: inout S) {
            s.list("features") { l in for n in names { l.string(n) } }
        }
        public var text: String {
            let n = names
            return n.isEmpty ? "no features" : n.joined(separator: ", ")
        }
    }

    /// Sensor Location.
    public struct SensorLocation: DecodedValue, Equatable {
        public var location: UInt8
        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("sensor_location", location)
            s.field("location", CyclingSpeedCadenceDissector.locationName(location))
        }
        public var text: String { "sensor location " + CyclingSpeedCadenceDissector.locationName(location) }
    }

    /// A CSC Measurement as read, with the wheel speed and crank cadence over the interval since the previous
    /// measurement of the connection (in tenths, as shown), where there was one.
    public struct Reading: DecodedValue, Equatable {
        public var flags: UInt8
        public var measurement: Measurement
        public var wheelRPMTenths: Int?
        public var speedTenthsKmh: Int?
        public var cadenceTenthsRPM: Int?

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("flags", flags)
            if let w = measurement.wheelRevolutions, let t = measurement.wheelEventTime {
                s.field("wheel_revolutions", w)
                s.field("wheel_event_time", t)
                if let r = wheelRPMTenths, let k = speedTenthsKmh {
                    s.key("wheel_rpm"); s.double(Double(r) / 10)
                    s.key("speed_kmh"); s.double(Double(k) / 10)
                }
            }
            if let r = measurement.crankRevolutions, let t = measurement.crankEventTime {
                s.field("crank_revolutions", r)
                s.field("crank_event_time", t)
                if let c = cadenceTenthsRPM { s.key("cadence_rpm"); s.double(Double(c) / 10) }
            }
        }

        public var text: String {
            var parts: [String] = []
            if let w = measurement.wheelRevolutions, measurement.wheelEventTime != nil {
                parts.append("wheel \(w) rev")
                if let k = speedTenthsKmh { parts.append("\(Fmt.fixed(k, scale: 10)) km/h") }
            }
            if let r = measurement.crankRevolutions, measurement.crankEventTime != nil {
                parts.append("crank \(r) rev")
                if let c = cadenceTenthsRPM { parts.append("\(Fmt.fixed(c, scale: 10)) rpm") }
            }
            return parts.isEmpty ? "no data" : parts.joined(separator: ", ")
        }
    }

    /// Decodes a measurement; with the previous one, adds wheel speed and crank cadence over the interval.
    /// The value is a `Reading`, whose `measurement` the caller keeps for the next one.
    public static func measurement(_ v: ArraySlice<UInt8>, previous: Measurement?) -> Dissection {
        var c = ByteCursor(v)
        var m = Measurement()
        let flags: UInt8
        do {
            flags = try c.u8()
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
        var r = Reading(flags: flags, measurement: m)
        if let w = m.wheelRevolutions, let t = m.wheelEventTime,
           let p = previous, let pw = p.wheelRevolutions, let pt = p.wheelEventTime {
            let revs = Int(w &- pw)
            let dt = Int(t &- pt)   // 1/1024 s, modulo 64 s
            if dt > 0, revs >= 0, revs < 1 << 20 {
                let rpm = Double(revs) * 60 * 1024 / Double(dt)
                let kmh = rpm * wheelCircumference * 60 / 1000
                r.wheelRPMTenths = Int((rpm * 10).rounded())
                r.speedTenthsKmh = Int((kmh * 10).rounded())
            }
        }
        if let cr = m.crankRevolutions, let t = m.crankEventTime,
           let p = previous, let pr = p.crankRevolutions, let pt = p.crankEventTime {
            let revs = Int(cr &- pr)
            let dt = Int(t &- pt)
            if dt > 0 {
                let rpm = Double(revs) * 60 * 1024 / Double(dt)
                r.cadenceTenthsRPM = Int((rpm * 10).rounded())
            }
        }
        return Dissection("cycling_speed_cadence", value: r, problem: DissectorText.extra(c))
    }
}
