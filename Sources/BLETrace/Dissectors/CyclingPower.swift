/// Cycling Power 0x1818: Cycling Power Measurement 0x2A63 and Cycling Power Feature 0x2A65.
public struct CyclingPowerDissector: ValueDissector {
    public let name = "cycling_power"
    public let uuids: [BLEUUID] = [0x2A63, 0x2A65].map { BLEUUID(UInt16($0)) }
    public init() {}

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        if ctx.uuid.uuid16 == 0x2A65 {
            var c = ByteCursor(v)
            guard v.count == 4, let x = try? c.u32le() else { return .invalid(name, DissectorText.length(v.count, expected: 4)) }
            return Dissection(name, value: Features(bits: x))
        }
        return CyclingPowerDissector.measurement(v)
    }

    /// Cycling Power Feature bits.
    public struct Features: DecodedValue, Equatable {
        public var bits: UInt32
        static let names = [
            "pedal power balance", "accumulated torque", "wheel revolution data", "crank revolution data",
            "extreme magnitudes", "extreme angles", "top and bottom dead spot angles", "accumulated energy",
            "offset compensation indicator", "offset compensation", "content masking", "multiple sensor locations",
            "crank length adjustment", "chain length adjustment", "chain weight adjustment", "span length adjustment",
            "sensor measurement context torque", "instantaneous measurement direction", "factory calibration date",
            "enhanced offset compensation"]

        var names: [String] { DissectorText.bits(Int(bits), Features.names) }
        public func writeFields<S: FieldSink>(into s: inout S) {
            s.key("features")
            s.value(DissectorText.list(names))
        }
        public var text: String {
            let n = names
            return n.isEmpty ? "no features" : n.joined(separator: ", ")
        }
    }

    /// Flags (16 bits), instantaneous power (W), then the optional fields in flag order.
    public static func measurement(_ v: ArraySlice<UInt8>) -> Dissection {
        let m = Measurement(bytes: v)
        var end = 0
        do {
            end = try m.walk { _ in }
        } catch {
            return Dissection("cycling_power", value: m, problem: "\(error)")
        }
        return Dissection("cycling_power", value: m, problem: end < v.count ? DissectorText.extra(count: v.count - end) : nil)
    }

    /// A Cycling Power Measurement: a view over its bytes. Its fields are read in flag order when rendered
    /// (`walk`), as far as the bytes go.
    public struct Measurement: DecodedValue, Equatable {
        public var bytes: ArraySlice<UInt8>

        /// One field of the measurement, as read.
        public enum Field: Equatable {
            case flags(UInt16)
            case power(Int16)
            case balance(halfPercent: UInt8, left: Bool)
            case torque(thirtySecondNm: UInt16, crank: Bool)
            case wheelRevolutions(UInt32), wheelEventTime(UInt16)
            case crankRevolutions(UInt16), crankEventTime(UInt16)
            case maxForce(Int16), minForce(Int16)
            case maxTorque(Int16), minTorque(Int16)
            case angles(UInt32)
            case topDeadSpot(UInt16), bottomDeadSpot(UInt16)
            case energy(UInt16)
            case offsetCompensation
        }

        /// Reads the fields in order, handing each to `visit`; returns how many bytes they took. Throws where
        /// the bytes end before a flagged field.
        @discardableResult
        public func walk(_ visit: (Field) -> Void) throws -> Int {
            var c = ByteCursor(bytes)
            let flags = try c.u16le()
            visit(.flags(flags))
            visit(.power(Int16(bitPattern: try c.u16le())))
            if flags & 0x0001 != 0 { visit(.balance(halfPercent: try c.u8(), left: flags & 0x0002 != 0)) }
            if flags & 0x0004 != 0 { visit(.torque(thirtySecondNm: try c.u16le(), crank: flags & 0x0008 != 0)) }
            if flags & 0x0010 != 0 {
                visit(.wheelRevolutions(try c.u32le()))
                visit(.wheelEventTime(try c.u16le()))   // 1/2048 s
            }
            if flags & 0x0020 != 0 {
                visit(.crankRevolutions(try c.u16le()))
                visit(.crankEventTime(try c.u16le()))   // 1/1024 s
            }
            if flags & 0x0040 != 0 {
                visit(.maxForce(Int16(bitPattern: try c.u16le())))
                visit(.minForce(Int16(bitPattern: try c.u16le())))
            }
            if flags & 0x0080 != 0 {
                visit(.maxTorque(Int16(bitPattern: try c.u16le())))
                visit(.minTorque(Int16(bitPattern: try c.u16le())))
            }
            if flags & 0x0100 != 0 { visit(.angles(try c.u24le())) }
            if flags & 0x0200 != 0 { visit(.topDeadSpot(try c.u16le())) }
            if flags & 0x0400 != 0 { visit(.bottomDeadSpot(try c.u16le())) }
            if flags & 0x0800 != 0 { visit(.energy(try c.u16le())) }
            if flags & 0x1000 != 0 { visit(.offsetCompensation) }
            return bytes.count - c.remaining
        }

        /// The fields the bytes hold, in order.
        public var fields: [Field] {
            var out: [Field] = []
            _ = try? walk { out.append($0) }
            return out
        }

        public func writeFields<S: FieldSink>(into s: inout S) {
            for f in fields {
                switch f {
                case let .flags(x): s.field("flags", x)
                case let .power(w): s.field("power_w", w)
                case let .balance(b, left):
                    s.key("pedal_power_balance_percent"); s.double(Double(b) / 2)
                    s.field("balance_reference", left ? "left" : "unknown")
                case let .torque(t, crank):
                    s.key("accumulated_torque_nm"); s.double(Double(t) / 32)
                    s.field("torque_source", crank ? "crank" : "wheel")
                case let .wheelRevolutions(x): s.field("wheel_revolutions", x)
                case let .wheelEventTime(x): s.field("wheel_event_time", x)
                case let .crankRevolutions(x): s.field("crank_revolutions", x)
                case let .crankEventTime(x): s.field("crank_event_time", x)
                case let .maxForce(x): s.field("max_force_n", x)
                case let .minForce(x): s.field("min_force_n", x)
                case let .maxTorque(x): s.key("max_torque_nm"); s.double(Double(x) / 32)
                case let .minTorque(x): s.key("min_torque_nm"); s.double(Double(x) / 32)
                case let .angles(a):
                    s.field("max_angle_deg", Int(a & 0xFFF))
                    s.field("min_angle_deg", Int(a >> 12))
                case let .topDeadSpot(x): s.field("top_dead_spot_angle_deg", x)
                case let .bottomDeadSpot(x): s.field("bottom_dead_spot_angle_deg", x)
                case let .energy(x): s.field("accumulated_energy_kj", x)
                case .offsetCompensation: s.field("offset_compensation_indicator", true)
                }
            }
        }

        public var text: String {
            var parts: [String] = []
            for f in fields {
                switch f {
                case let .power(w): parts.append("\(w) W")
                case let .balance(b, _): parts.append("balance \(Fmt.fixed(Int(b) * 5, scale: 10))%")
                case let .crankRevolutions(r): parts.append("crank \(r) rev")
                case let .energy(e): parts.append("\(e) kJ")
                default: break
                }
            }
            return parts.joined(separator: ", ")
        }

    }
}
