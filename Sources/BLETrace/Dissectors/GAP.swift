/// Generic Access 0x1800: Device Name, Appearance, Peripheral Preferred Connection Parameters, Central Address
/// Resolution, Resolvable Private Address Only.
public struct GAPDissector: ValueDissector {
    public let name = "gap"
    public let uuids: [BLEUUID] = [0x2A00, 0x2A01, 0x2A04, 0x2AA6, 0x2AC9].map { BLEUUID(UInt16($0)) }
    public init() {}

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        switch ctx.uuid.uuid16 {
        case 0x2A00: return DissectorText.string(name, key: "device_name", v, identity: true)
        case 0x2A01: return GAPDissector.appearance(v)
        case 0x2A04: return GAPDissector.preferredParameters(v)
        case 0x2AA6: return GAPDissector.flag(v, key: "central_address_resolution", label: "address resolution")
        default: return GAPDissector.flag(v, key: "rpa_only", label: "resolvable private addresses only")
        }
    }

    /// Appearance: category (bits 15–6) and sub-category (bits 5–0).
    public static func appearance(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard v.count == 2, let a = try? c.u16le() else { return .invalid("gap", DissectorText.length(v.count, expected: 2)) }
        return Dissection("gap", value: Appearance(value: a))
    }

    /// An Appearance value: category (bits 15–6) and sub-category (bits 5–0), named from the assigned numbers.
    public struct Appearance: DecodedValue, Equatable {
        public var value: UInt16

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("appearance", Int(value))
            s.field("category_value", Int(value >> 6))
            s.field("subcategory_value", Int(value & 0x3F))
            if let n = AssignedNumbers.appearance(value) {
                s.field("category", n.category)
                if let sub = n.subcategory { s.field("subcategory", sub) }
            }
        }
        public var text: String {
            let names = AssignedNumbers.appearance(value)
            return Hex.hex(value, width: 4) + " "
                + (names.map { $0.category + ($0.subcategory.map { ": " + $0 } ?? "") } ?? "unassigned category \(value >> 6)")
        }
        public var summaryFact: SummaryFact? { .identity(.appearance(value)) }
        public var factDespiteProblem: Bool { true }
    }

    /// Peripheral Preferred Connection Parameters: intervals (1.25 ms), latency, timeout (10 ms); 0xFFFF means
    /// no preference.
    public static func preferredParameters(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard v.count == 8, let lo = try? c.u16le(), let hi = try? c.u16le(), let lat = try? c.u16le(), let to = try? c.u16le() else {
            return .invalid("gap", DissectorText.length(v.count, expected: 8))
        }
        let value = PreferredParameters(intervalMin: lo, intervalMax: hi, latency: lat, timeout: to)
        var problems: [String] = []
        for (name, x) in [("minimum interval", lo), ("maximum interval", hi)] where x != 0xFFFF && !(6...3200).contains(x) {
            problems.append("\(name) \(x) outside 6–3200")
        }
        if lo != 0xFFFF, hi != 0xFFFF, lo > hi { problems.append("minimum interval above maximum") }
        if lat > 499 { problems.append("latency \(lat) above 499") }
        if to != 0xFFFF, !(10...3200).contains(to) { problems.append("timeout \(to) outside 10–3200") }
        return Dissection("gap", value: value, problem: problems.isEmpty ? nil : problems.joined(separator: "; "))
    }

    /// Peripheral Preferred Connection Parameters as sent (0xFFFF: no preference).
    public struct PreferredParameters: DecodedValue, Equatable {
        public var intervalMin: UInt16
        public var intervalMax: UInt16
        public var latency: UInt16
        public var timeout: UInt16

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("interval_min", Int(intervalMin))
            s.field("interval_max", Int(intervalMax))
            s.field("latency", Int(latency))
            s.field("timeout", Int(timeout))
        }
        public var text: String {
            func iv(_ x: UInt16) -> String { x == 0xFFFF ? "any" : Fmt.interval1250(Int(x)) }
            return "interval \(iv(intervalMin))–\(iv(intervalMax)), latency \(latency), timeout "
                + (timeout == 0xFFFF ? "any" : Fmt.timeout10(Int(timeout)))
        }
    }

    /// A one-byte 0/1 characteristic.
    static func flag(_ v: ArraySlice<UInt8>, key: String, label: String) -> Dissection {
        guard v.count == 1, let b = v.first else { return .invalid("gap", DissectorText.length(v.count, expected: 1)) }
        return Dissection("gap", value: Flag(key: key, label: label, value: b), problem: b > 1 ? "value \(b) is reserved (0 or 1)" : nil)
    }

    /// A one-byte 0/1 characteristic: its JSON key, its text label and the byte.
    public struct Flag: DecodedValue, Equatable {
        public var key: String
        public var label: String
        public var value: UInt8

        public func writeFields<S: FieldSink>(into s: inout S) { s.field(name: key, Int(value)) }
        public var text: String { (value == 0 ? "no " : "") + label + (value == 1 ? " supported" : "") }
    }
}
