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
        /// The subscription the value sets.
        public var subscription: Subscription {
            Subscription(characteristic: characteristic, notifications: bits & 1 != 0, indications: bits & 2 != 0)
        }
    }

    static func sccd(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard v.count == 2, let x = try? c.u16le() else { return .invalid("descriptor", DissectorText.length(v.count, expected: 2)) }
        return Dissection("descriptor", value: SCCDValue(bits: x),
                          problem: x & 0xFFFE != 0 ? "reserved bits set (\(Hex.hex(x, width: 4)))" : nil)
    }

    /// A Server Characteristic Configuration value.
    public struct SCCDValue: DecodedValue, Equatable {
        public var bits: UInt16
        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("sccd", bits)
            s.field("broadcasts", bits & 1 != 0)
        }
        public var text: String { "broadcasts " + (bits & 1 != 0 ? "on" : "off") }
    }

    static func extendedProperties(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard v.count == 2, let x = try? c.u16le() else { return .invalid("descriptor", DissectorText.length(v.count, expected: 2)) }
        return Dissection("descriptor", value: ExtendedProperties(bits: x),
                          problem: x & 0xFFFC != 0 ? "reserved bits set (\(Hex.hex(x, width: 4)))" : nil)
    }

    /// A Characteristic Extended Properties value.
    public struct ExtendedProperties: DecodedValue, Equatable {
        public var bits: UInt16
        var names: [String] { DissectorText.bits(Int(bits), ["reliable write", "writable auxiliaries"]) }
        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("extended_properties", bits)
            s.key("properties")
            s.value(DissectorText.list(names))
        }
        public var text: String {
            let n = names
            return n.isEmpty ? "no extended properties" : n.joined(separator: ", ")
        }
    }

    /// Presentation Format: format, exponent, unit, name space, description.
    public static func presentationFormat(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard v.count == 7, let format = try? c.u8(), let exp = try? c.i8(), let unit = try? c.u16le(),
              let ns = try? c.u8(), let desc = try? c.u16le() else {
            return .invalid("descriptor", DissectorText.length(v.count, expected: 7))
        }
        let value = PresentationFormat(format: format, exponent: exp, unit: unit, namespace: ns, description: desc)
        return Dissection("descriptor", value: value,
                          problem: AssignedNumbers.formatName(format) == nil ? "format \(format) is reserved" : nil)
    }

    /// A Characteristic Presentation Format value.
    public struct PresentationFormat: DecodedValue, Equatable {
        public var format: UInt8
        public var exponent: Int8
        public var unit: UInt16
        public var namespace: UInt8
        public var description: UInt16

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("format", format)
            if let n = AssignedNumbers.formatName(format) { s.field("format_name", n) }
            s.field("exponent", exponent)
            s.field("unit", BLEUUID(unit).description)
            if let n = AssignedNumbers.unitName(unit) { s.field("unit_name", n) }
            s.field("namespace", namespace)
            s.field("description", description)
        }

        public var text: String {
            var text = AssignedNumbers.formatName(format) ?? "format \(Hex.hex(format, width: 2))"
            if exponent != 0 { text += " × 10^\(exponent)" }
            return text + ", " + (AssignedNumbers.unitName(unit) ?? "unit \(Hex.hex(unit, width: 4))")
        }
    }
}
