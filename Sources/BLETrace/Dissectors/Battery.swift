/// A battery level reading, for the battery history in the summary.
public struct BatteryReading: DecodedValue, Equatable {
    public var percent: Int

    public func writeFields<S: FieldSink>(into s: inout S) { s.field("battery_level", percent) }
    public var text: String { "\(percent)%" }
}

/// Battery Service 0x180F: Battery Level 0x2A19, Battery Level Status 0x2BED, Battery Critical Status 0x2BE9.
public struct BatteryDissector: ValueDissector {
    public let name = "battery"
    public let uuids: [BLEUUID] = [BLEUUID(UInt16(0x2A19)), BLEUUID(UInt16(0x2BED)), BLEUUID(UInt16(0x2BE9))]
    public init() {}

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        switch ctx.uuid.uuid16 {
        case 0x2A19: return BatteryDissector.level(v)
        case 0x2BED: return BatteryDissector.levelStatus(v)
        default: return BatteryDissector.criticalStatus(v)
        }
    }

    /// Battery Level: one byte, 0–100 percent.
    public static func level(_ v: ArraySlice<UInt8>) -> Dissection {
        guard let b = v.first else { return .invalid("battery", DissectorText.length(0, expected: 1)) }
        var problem: String? = nil
        if b > 100 { problem = "battery level \(b) is above 100%" }
        if v.count != 1 { problem = DissectorText.length(v.count, expected: 1) }
        return Dissection("battery", value: BatteryReading(percent: Int(b)), problem: problem)
    }

    static let externalSource = ["no", "yes", "unknown", "reserved"]
    static let chargeState = ["unknown", "charging", "discharging (active)", "discharging (inactive)"]
    static let chargeLevel = ["unknown", "good", "low", "critical"]
    static let chargingType = ["unknown", "constant current", "constant voltage", "trickle", "float", "reserved", "reserved", "reserved"]
    static let serviceRequired = ["no", "yes", "unknown", "reserved"]

    /// Battery Level Status: flags, power state, then identifier, level and additional status as the flags say.
    public static func levelStatus(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        var f = Fields()
        var parts: [String] = []
        var reading: BatteryReading? = nil
        do {
            let flags = try c.u8()
            let power = Int(try c.u16le())
            f.add("flags", Int(flags))
            f.add("battery_present", power & 1 != 0)
            let wired = externalSource[(power >> 1) & 3], wireless = externalSource[(power >> 3) & 3]
            f.add("wired_external_power", wired)
            f.add("wireless_external_power", wireless)
            let state = chargeState[(power >> 5) & 3], level = chargeLevel[(power >> 7) & 3]
            f.add("charge_state", state)
            f.add("charge_level", level)
            f.add("charging_type", chargingType[(power >> 9) & 7])
            let faults = DissectorText.bits((power >> 12) & 7, ["battery", "external power source", "other"])
            f.add("charging_faults", DissectorText.list(faults))
            parts.append(power & 1 != 0 ? "battery present" : "no battery")
            if state != "unknown" { parts.append(state) }
            if level != "unknown" { parts.append("level \(level)") }
            if wired == "yes" { parts.append("wired power") }
            if wireless == "yes" { parts.append("wireless power") }
            if !faults.isEmpty { parts.append("fault: " + faults.joined(separator: ", ")) }
            if flags & 0x01 != 0 { f.add("identifier", Int(try c.u16le())) }
            if flags & 0x02 != 0 {
                let b = try c.u8()
                f.add("battery_level", Int(b))
                parts.insert("\(b)%", at: 0)
                if b > 100 { return Dissection("battery", fields: f, text: parts.joined(separator: ", "), problem: "battery level \(b) is above 100%") }
                reading = BatteryReading(percent: Int(b))
            }
            if flags & 0x04 != 0 {
                let a = Int(try c.u8())
                f.add("service_required", serviceRequired[a & 3])
                f.add("battery_fault", a & 4 != 0)
                if a & 3 == 1 { parts.append("service required") }
                if a & 4 != 0 { parts.append("battery fault") }
            }
        } catch {
            return Dissection("battery", fields: f, text: parts.joined(separator: ", "), problem: "\(error)")
        }
        return Dissection("battery", fields: f, text: parts.joined(separator: ", "), problem: DissectorText.extra(c), payload: reading)
    }

    /// Battery Critical Status: one byte of flags.
    public static func criticalStatus(_ v: ArraySlice<UInt8>) -> Dissection {
        guard let b = v.first else { return .invalid("battery", DissectorText.length(0, expected: 1)) }
        return Dissection("battery", value: CriticalStatus(flags: b), problem: v.count != 1 ? DissectorText.length(v.count, expected: 1) : nil)
    }

    /// Battery Critical Status flags.
    public struct CriticalStatus: DecodedValue, Equatable {
        public var flags: UInt8
        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("critical_power_state", flags & 1 != 0)
            s.field("immediate_service_required", flags & 2 != 0)
        }
        public var text: String {
            switch flags & 3 {
            case 0: return "not critical"
            case 1: return "critical power state"
            case 2: return "immediate service required"
            default: return "critical power state, immediate service required"
            }
        }
        public var summaryPayload: (any Sendable)? { nil }
    }
}
