/// Heart Rate Service 0x180D: Heart Rate Measurement 0x2A37, Body Sensor Location 0x2A38, Heart Rate Control
/// Point 0x2A39.
public struct HeartRateDissector: ValueDissector {
    public let name = "heart_rate"
    public let uuids: [BLEUUID] = [0x2A37, 0x2A38, 0x2A39].map { BLEUUID(UInt16($0)) }
    public init() {}

    static let locations = ["Other", "Chest", "Wrist", "Finger", "Hand", "Ear Lobe", "Foot"]

    public static func locationName(_ b: UInt8) -> String { Int(b) < locations.count ? locations[Int(b)] : "reserved (\(b))" }

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        switch ctx.uuid.uuid16 {
        case 0x2A37: return HeartRateDissector.measurement(v)
        case 0x2A38:
            guard v.count == 1, let b = v.first else { return .invalid(name, DissectorText.length(v.count, expected: 1)) }
            return Dissection(name, value: SensorLocation(location: b), problem: b > 6 ? "location \(b) is reserved" : nil)
        default:
            guard v.count == 1, let b = v.first else { return .invalid(name, DissectorText.length(v.count, expected: 1)) }
            return Dissection(name, value: ControlPoint(command: b), problem: b != 1 ? "command \(b) is reserved" : nil)
        }
    }

    /// Body Sensor Location.
    public struct SensorLocation: DecodedValue, Equatable {
        public var location: UInt8
        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("body_sensor_location", Int(location))
            s.field("location", HeartRateDissector.locationName(location))
        }
        public var text: String { "sensor on the " + HeartRateDissector.locationName(location).lowercased() }
    }

    /// Heart Rate Control Point command (1: reset energy expended).
    public struct ControlPoint: DecodedValue, Equatable {
        public var command: UInt8
        public func writeFields<S: FieldSink>(into s: inout S) { s.field("command", Int(command)) }
        public var text: String { command == 1 ? "reset energy expended" : "command \(command)" }
    }

    /// Flags; heart rate (8 or 16 bits); energy expended (kJ) and RR intervals (1/1024 s) when flagged.
    public static func measurement(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        var m = Measurement()
        do {
            let flags = try c.u8()
            m.flags = flags
            m.bpm = flags & 1 != 0 ? try c.u16le() : UInt16(try c.u8())
            if flags & 0x08 != 0 { m.energyExpended = try c.u16le() }
            if flags & 0x10 != 0 { m.rrIntervals = try c.bytes(c.remaining & ~1) }
        } catch {
            return Dissection("heart_rate", value: m, problem: "\(error)")
        }
        return Dissection("heart_rate", value: m, problem: DissectorText.extra(c))
    }

    /// A Heart Rate Measurement, as far as its bytes went: a field is nil when the value ended before it.
    public struct Measurement: DecodedValue, Equatable {
        public var flags: UInt8?
        public var bpm: UInt16?
        /// Energy expended in kJ, when flagged (nil also when the value ended before it).
        public var energyExpended: UInt16?
        /// The RR intervals' bytes (16-bit little-endian values in 1/1024 s), when flagged.
        public var rrIntervals: ArraySlice<UInt8>?

        /// Sensor contact, when the flags say the sensor reports it.
        public var sensorContact: Bool? {
            guard let f = flags, f & 0x04 != 0 else { return nil }
            return f & 0x02 != 0
        }

        /// The RR intervals in 1/1024 s.
        public var intervals: [Int] {
            guard let rr = rrIntervals else { return [] }
            return stride(from: rr.startIndex, to: rr.endIndex - 1, by: 2).map { Int(rr[$0]) | Int(rr[$0 + 1]) << 8 }
        }

        public func writeFields<S: FieldSink>(into s: inout S) {
            guard let f = flags else { return }
            s.field("flags", f)
            guard let bpm else { return }
            s.field("heart_rate_bpm", bpm)
            if let contact = sensorContact { s.field("sensor_contact", contact) }
            if f & 0x08 != 0 {
                guard let e = energyExpended else { return }
                s.field("energy_expended_kj", e)
            }
            if rrIntervals != nil {
                s.list("rr_intervals") { l in for x in intervals { l.int(x) } }
            }
        }

        public var text: String {
            guard let f = flags, let bpm else { return "" }
            var parts = ["\(bpm) bpm"]
            if sensorContact == false { parts.append("no skin contact") }
            if f & 0x08 != 0 {
                guard let e = energyExpended else { return parts.joined(separator: ", ") }
                parts.append("\(e) kJ")
            }
            let rr = intervals
            if !rr.isEmpty { parts.append("RR " + rr.map { String(($0 * 1000 + 512) / 1024) }.joined(separator: ", ") + " ms") }
            return parts.joined(separator: ", ")
        }

    }
}
