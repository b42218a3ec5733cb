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
        public var summaryPayload: (any Sendable)? { nil }
    }

    /// Heart Rate Control Point command (1: reset energy expended).
    public struct ControlPoint: DecodedValue, Equatable {
        public var command: UInt8
        public func writeFields<S: FieldSink>(into s: inout S) { s.field("command", Int(command)) }
        public var text: String { command == 1 ? "reset energy expended" : "command \(command)" }
        public var summaryPayload: (any Sendable)? { nil }
    }

    /// Flags; heart rate (8 or 16 bits); energy expended (kJ) and RR intervals (1/1024 s) when flagged.
    public static func measurement(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        var f = Fields()
        var parts: [String] = []
        do {
            let flags = try c.u8()
            f.add("flags", Int(flags))
            let bpm = flags & 1 != 0 ? Int(try c.u16le()) : Int(try c.u8())
            f.add("heart_rate_bpm", bpm)
            parts.append("\(bpm) bpm")
            if flags & 0x04 != 0 {
                let contact = flags & 0x02 != 0
                f.add("sensor_contact", contact)
                if !contact { parts.append("no skin contact") }
            }
            if flags & 0x08 != 0 {
                let e = Int(try c.u16le())
                f.add("energy_expended_kj", e)
                parts.append("\(e) kJ")
            }
            if flags & 0x10 != 0 {
                var rr: [FieldValue] = []
                var ms: [String] = []
                while c.remaining >= 2 {
                    let x = Int(try c.u16le())
                    rr.append(.int(x))
                    ms.append(String((x * 1000 + 512) / 1024))
                }
                f.add("rr_intervals", .list(rr))
                if !ms.isEmpty { parts.append("RR " + ms.joined(separator: ", ") + " ms") }
            }
        } catch {
            return Dissection("heart_rate", fields: f, text: parts.joined(separator: ", "), problem: "\(error)")
        }
        return Dissection("heart_rate", fields: f, text: parts.joined(separator: ", "), problem: DissectorText.extra(c))
    }
}
