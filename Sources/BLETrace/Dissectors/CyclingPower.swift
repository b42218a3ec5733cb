/// Cycling Power 0x1818: Cycling Power Measurement 0x2A63 and Cycling Power Feature 0x2A65.
public struct CyclingPowerDissector: ValueDissector {
    public let name = "cycling_power"
    public let uuids: [BLEUUID] = [0x2A63, 0x2A65].map { BLEUUID(UInt16($0)) }
    public init() {}

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        if ctx.uuid.uuid16 == 0x2A65 {
            var c = ByteCursor(v)
            guard v.count == 4, let x = try? c.u32le() else { return .invalid(name, DissectorText.length(v.count, expected: 4)) }
            let names = DissectorText.bits(Int(x), [
                "pedal power balance", "accumulated torque", "wheel revolution data", "crank revolution data",
                "extreme magnitudes", "extreme angles", "top and bottom dead spot angles", "accumulated energy",
                "offset compensation indicator", "offset compensation", "content masking", "multiple sensor locations",
                "crank length adjustment", "chain length adjustment", "chain weight adjustment", "span length adjustment",
                "sensor measurement context torque", "instantaneous measurement direction", "factory calibration date",
                "enhanced offset compensation"])
            var f = Fields()
            f.add("features", DissectorText.list(names))
            return Dissection(name, fields: f, text: names.isEmpty ? "no features" : names.joined(separator: ", "))
        }
        return CyclingPowerDissector.measurement(v)
    }

    /// Flags (16 bits), instantaneous power (W), then the optional fields in flag order.
    public static func measurement(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        var f = Fields()
        var parts: [String] = []
        do {
            let flags = try c.u16le()
            f.add("flags", Int(flags))
            let power = Int(Int16(bitPattern: try c.u16le()))
            f.add("power_w", power)
            parts.append("\(power) W")
            if flags & 0x0001 != 0 {
                let b = Int(try c.u8())
                f.add("pedal_power_balance_percent", .double(Double(b) / 2))
                f.add("balance_reference", flags & 0x0002 != 0 ? "left" : "unknown")
                parts.append("balance \(Fmt.fixed(b * 5, scale: 10))%")
            }
            if flags & 0x0004 != 0 {
                let t = Int(try c.u16le())
                f.add("accumulated_torque_nm", .double(Double(t) / 32))
                f.add("torque_source", flags & 0x0008 != 0 ? "crank" : "wheel")
            }
            if flags & 0x0010 != 0 {
                f.add("wheel_revolutions", Int(try c.u32le()))
                f.add("wheel_event_time", Int(try c.u16le()))   // 1/2048 s
            }
            if flags & 0x0020 != 0 {
                let revs = Int(try c.u16le())
                f.add("crank_revolutions", revs)
                f.add("crank_event_time", Int(try c.u16le()))   // 1/1024 s
                parts.append("crank \(revs) rev")
            }
            if flags & 0x0040 != 0 {
                f.add("max_force_n", Int(Int16(bitPattern: try c.u16le())))
                f.add("min_force_n", Int(Int16(bitPattern: try c.u16le())))
            }
            if flags & 0x0080 != 0 {
                f.add("max_torque_nm", .double(Double(Int16(bitPattern: try c.u16le())) / 32))
                f.add("min_torque_nm", .double(Double(Int16(bitPattern: try c.u16le())) / 32))
            }
            if flags & 0x0100 != 0 {
                let a = try c.u24le()
                f.add("max_angle_deg", Int(a & 0xFFF))
                f.add("min_angle_deg", Int(a >> 12))
            }
            if flags & 0x0200 != 0 { f.add("top_dead_spot_angle_deg", Int(try c.u16le())) }
            if flags & 0x0400 != 0 { f.add("bottom_dead_spot_angle_deg", Int(try c.u16le())) }
            if flags & 0x0800 != 0 {
                let e = Int(try c.u16le())
                f.add("accumulated_energy_kj", e)
                parts.append("\(e) kJ")
            }
            if flags & 0x1000 != 0 { f.add("offset_compensation_indicator", true) }
        } catch {
            return Dissection("cycling_power", fields: f, text: parts.joined(separator: ", "), problem: "\(error)")
        }
        return Dissection("cycling_power", fields: f, text: parts.joined(separator: ", "), problem: DissectorText.extra(c))
    }
}
