/// GATT descriptors on any characteristic: Extended Properties 0x2900, User Description 0x2901, Client and
/// Server Characteristic Configuration 0x2902/0x2903, Presentation Format 0x2904.
public struct DescriptorDissector: ValueDissector {
    public let name = "descriptor"
    public let uuids: [BLEUUID] = [0x2900, 0x2901, 0x2902, 0x2903, 0x2904].map { BLEUUID(UInt16($0)) }
    public init() {}

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        var d: Dissection
        switch ctx.uuid.uuid16 {
        case 0x2900: d = DescriptorDissector.extendedProperties(v)
        case 0x2901: d = DissectorText.string(name, key: "user_description", v)
        case 0x2902: d = DescriptorDissector.cccd(v, characteristic: ctx.characteristic)
        case 0x2903: d = DescriptorDissector.sccd(v)
        default: d = DescriptorDissector.presentationFormat(v)
        }
        if let ch = ctx.characteristic { d.value = DescribedValue(inner: d.value, characteristic: ch) }
        return d
    }

    /// A subscription change seen in a CCCD value.
    public struct Subscription: Sendable, Equatable {
        public var characteristic: BLEUUID?
        public var notifications: Bool
        public var indications: Bool
    }

    public static func cccd(_ v: ArraySlice<UInt8>, characteristic: BLEUUID? = nil) -> Dissection {
        var c = ByteCursor(v)
        guard v.count == 2, let x = try? c.u16le() else { return .invalid("descriptor", DissectorText.length(v.count, expected: 2)) }
        return Dissection("descriptor", value: CCCDValue(bits: x, characteristic: characteristic),
                          problem: x & 0xFFFC != 0 ? "reserved bits set (\(Hex.hex(x, width: 4)))" : nil)
    }

    /// A Client Characteristic Configuration value.
    public struct CCCDValue: DecodedValue, Equatable {
        public var bits: UInt16
        public var characteristic: BLEUUID?

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("cccd", Int(bits))
            s.field("notifications", bits & 1 != 0)
            s.field("indications", bits & 2 != 0)
        }
        public var text: String {
            (bits & 1 != 0 ? "notifications on" : "notifications off") + (bits & 2 != 0 ? ", indications on" : ", indications off")
        }
        public var summaryPayload: (any Sendable)? {
            Subscription(characteristic: characteristic, notifications: bits & 1 != 0, indications: bits & 2 != 0)
        }
    }

    static func sccd(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard v.count == 2, let x = try? c.u16le() else { return .invalid("descriptor", DissectorText.length(v.count, expected: 2)) }
        var f = Fields()
        f.add("sccd", Int(x))
        f.add("broadcasts", x & 1 != 0)
        return Dissection("descriptor", fields: f, text: "broadcasts " + (x & 1 != 0 ? "on" : "off"),
                          problem: x & 0xFFFE != 0 ? "reserved bits set (\(Hex.hex(x, width: 4)))" : nil)
    }

    static func extendedProperties(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard v.count == 2, let x = try? c.u16le() else { return .invalid("descriptor", DissectorText.length(v.count, expected: 2)) }
        var f = Fields()
        f.add("extended_properties", Int(x))
        let names = DissectorText.bits(Int(x), ["reliable write", "writable auxiliaries"])
        f.add("properties", DissectorText.list(names))
        return Dissection("descriptor", fields: f, text: names.isEmpty ? "no extended properties" : names.joined(separator: ", "),
                          problem: x & 0xFFFC != 0 ? "reserved bits set (\(Hex.hex(x, width: 4)))" : nil)
    }

    /// Presentation Format: format, exponent, unit, name space, description.
    public static func presentationFormat(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard v.count == 7, let format = try? c.u8(), let exp = try? c.i8(), let unit = try? c.u16le(),
              let ns = try? c.u8(), let desc = try? c.u16le() else {
            return .invalid("descriptor", DissectorText.length(v.count, expected: 7))
        }
        var f = Fields()
        f.add("format", Int(format))
        let formatName = AssignedNumbers.formatName(format)
        if let n = formatName { f.add("format_name", n) }
        f.add("exponent", Int(exp))
        f.add("unit", BLEUUID(unit).description)
        let unitName = AssignedNumbers.unitName(unit)
        if let n = unitName { f.add("unit_name", n) }
        f.add("namespace", Int(ns))
        f.add("description", Int(desc))
        var text = formatName ?? "format \(Hex.hex(format, width: 2))"
        if exp != 0 { text += " × 10^\(exp)" }
        text += ", " + (unitName ?? "unit \(Hex.hex(unit, width: 4))")
        return Dissection("descriptor", fields: f, text: text, problem: formatName == nil ? "format \(format) is reserved" : nil)
    }
}
