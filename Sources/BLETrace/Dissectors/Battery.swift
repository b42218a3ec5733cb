/// A battery level reading, for the battery history in the summary.
public struct BatteryReading: DecodedValue, Equatable {
    public var percent: Int

    public func writeFields<S: FieldSink>(into s: inout S) { s.field("battery_level", percent) }
    public var text: String { TextBytes.string { writeText(into: &$0) } }
    public func writeText(into b: inout TextBytes) {
        b.append(decimal: percent)
        b.append(UInt8(ascii: "%"))
    }
    public var summaryFact: SummaryFact? { .battery(self) }
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
        var s = LevelStatus()
        do {
            s.flags = try c.u8()
            s.powerState = try c.u16le()
            if s.flags & 0x01 != 0 { s.identifier = try c.u16le() }
            if s.flags & 0x02 != 0 {
                let b = try c.u8()
                s.level = b
                if b > 100 { return Dissection("battery", value: s, problem: "battery level \(b) is above 100%") }
            }
            if s.flags & 0x04 != 0 { s.additionalStatus = try c.u8() }
        } catch {
            return Dissection("battery", value: s, problem: "\(error)")
        }
        s.complete = true
        return Dissection("battery", value: s, problem: DissectorText.extra(c))
    }

    /// A Battery Level Status value, as far as its bytes went: a field is nil when the value ended before it
    /// (or, for the additional status, when a level above 100 % ended the decoding).
    public struct LevelStatus: DecodedValue, Equatable {
        public var flags: UInt8 = 0
        public var powerState: UInt16?
        public var identifier: UInt16?
        public var level: UInt8?
        public var additionalStatus: UInt8?
        /// True when every field the flags announce was read.
        public var complete = false

        var wired: String { externalSource[Int(powerState ?? 0) >> 1 & 3] }
        var wireless: String { externalSource[Int(powerState ?? 0) >> 3 & 3] }
        var state: String { chargeState[Int(powerState ?? 0) >> 5 & 3] }
        var chargeLevelName: String { chargeLevel[Int(powerState ?? 0) >> 7 & 3] }
        var faults: [String] { DissectorText.bits(Int(powerState ?? 0) >> 12 & 7, ["battery", "external power source", "other"]) }

        public func writeFields<S: FieldSink>(into s: inout S) {
            guard let power = powerState else { return }
            s.field("flags", flags)
            s.field("battery_present", power & 1 != 0)
            s.field("wired_external_power", wired)
            s.field("wireless_external_power", wireless)
            s.field("charge_state", state)
            s.field("charge_level", chargeLevelName)
            s.field("charging_type", chargingType[Int(power) >> 9 & 7])
            s.key("charging_faults")
            s.value(DissectorText.list(faults))
            if flags & 0x01 != 0 {
                guard let id = identifier else { return }
                s.field("identifier", id)
            }
            if flags & 0x02 != 0 {
                guard let b = level else { return }
                s.field("battery_level", b)
                if b > 100 { return }
            }
            if flags & 0x04 != 0, let a = additionalStatus {
                s.field("service_required", serviceRequired[Int(a) & 3])
                s.field("battery_fault", a & 4 != 0)
            }
        }

        public var text: String {
            guard let power = powerState else { return "" }
            var parts: [String] = []
            if let b = level { parts.append("\(b)%") }
            parts.append(power & 1 != 0 ? "battery present" : "no battery")
            if state != "unknown" { parts.append(state) }
            if chargeLevelName != "unknown" { parts.append("level \(chargeLevelName)") }
            if wired == "yes" { parts.append("wired power") }
            if wireless == "yes" { parts.append("wireless power") }
            let f = faults
            if !f.isEmpty { parts.append("fault: " + f.joined(separator: ", ")) }
            if let a = additionalStatus {
                if a & 3 == 1 { parts.append("service required") }
                if a & 4 != 0 { parts.append("battery fault") }
            }
            return parts.joined(separator: ", ")
        }

        /// The battery history takes the level of a value decoded to its end (also with bytes left over).
        public var summaryFact: SummaryFact? {
            guard complete, let b = level, b <= 100 else { return nil }
            return .battery(BatteryReading(percent: Int(b)))
        }
        public var factDespiteProblem: Bool { true }
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
    }
}
