/// PnP ID (0x2A50): who made the device, as USB and Bluetooth device IDs say it.
public struct PnPID: Sendable, Equatable {
    /// 1 = Bluetooth SIG company identifier, 2 = USB Implementers Forum vendor ID.
    public var vendorIDSource: UInt8
    public var vendorID: UInt16
    public var productID: UInt16
    /// 0xJJMN: major JJ, minor M, sub-minor N.
    public var productVersion: UInt16

    public var sourceName: String {
        switch vendorIDSource {
        case 1: return "Bluetooth SIG"
        case 2: return "USB"
        default: return "reserved (\(vendorIDSource))"
        }
    }

    /// The company name when the source is the Bluetooth SIG.
    public var vendorName: String? { vendorIDSource == 1 ? AssignedNumbers.companyName(vendorID) : nil }

    /// "1.0.0" from 0x0100.
    public var versionText: String {
        "\(productVersion >> 8).\((productVersion >> 4) & 0xF).\(productVersion & 0xF)"
    }

    public var fields: Fields { FieldsBuilder.object { writeMembers(into: &$0) } }

    /// The PnP ID's members as JSON shows them.
    public func writeMembers<S: FieldSink>(into s: inout S) {
        s.field("vendor_id_source", Int(vendorIDSource))
        s.field("vendor_id_source_name", sourceName)
        s.field("vendor_id", Int(vendorID))
        if let n = vendorName { s.field("vendor_name", n) }
        s.field("product_id", Int(productID))
        s.field("product_version", Int(productVersion))
        s.field("product_version_text", versionText)
    }

    public var text: String { TextBytes.string { writeText(into: &$0) } }

    /// "SIG vendor 0x004C (Apple, Inc.) product 0x0001 version 1.0.0".
    public func writeText(into b: inout TextBytes) {
        b.append(string: vendorIDSource == 1 ? "SIG" : vendorIDSource == 2 ? "USB" : sourceName)
        b.append(string: " vendor ")
        b.append(hex: UInt64(vendorID), width: 4)
        if let n = vendorName {
            b.append(string: " (")
            b.append(string: n)
            b.append(UInt8(ascii: ")"))
        }
        b.append(string: " product ")
        b.append(hex: UInt64(productID), width: 4)
        b.append(string: " version ")
        b.append(string: versionText)
    }
}

extension PnPID: DecodedValue {
    public func writeFields<S: FieldSink>(into s: inout S) { s.object("pnp_id") { writeMembers(into: &$0) } }
    public var summaryFact: SummaryFact? { .identity(.pnp(self)) }
}

/// System ID (0x2A23): a 40-bit manufacturer-defined identifier and a 24-bit organizationally unique identifier.
public struct SystemID: DecodedValue, Equatable {
    public var manufacturerIdentifier: UInt64
    public var oui: UInt32

    public func writeFields<S: FieldSink>(into s: inout S) {
        s.object("system_id") { s in
            s.field("manufacturer_identifier", Int(manufacturerIdentifier))
            s.field("oui", Int(oui))
            s.field("oui_text", DeviceInformationDissector.ouiText(oui))
        }
    }
    public var text: String { "manufacturer identifier \(Hex.hex(manufacturerIdentifier, width: 10)), OUI \(DeviceInformationDissector.ouiText(oui))" }
    public var summaryFact: SummaryFact? { .identity(.systemID(self)) }
}

/// One item of the identity card, for the summary.
public enum IdentityItem: Sendable, Equatable {
    case string(key: String, value: String)
    case pnp(PnPID)
    case systemID(SystemID)
    case appearance(UInt16)
}

/// Device Information Service 0x180A.
public struct DeviceInformationDissector: ValueDissector {
    public let name = "device_information"
    public let uuids: [BLEUUID] = [0x2A29, 0x2A24, 0x2A25, 0x2A27, 0x2A26, 0x2A28, 0x2A23, 0x2A2A, 0x2A50, 0x2BFF].map { BLEUUID(UInt16($0)) }
    public init() {}

    /// The string characteristics: UUID → JSON key.
    static let strings: [UInt16: String] = [
        0x2A29: "manufacturer_name", 0x2A24: "model_number", 0x2A25: "serial_number", 0x2A27: "hardware_revision",
        0x2A26: "firmware_revision", 0x2A28: "software_revision",
    ]

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        let u = ctx.uuid.uuid16 ?? 0
        if let key = DeviceInformationDissector.strings[u] {
            return DissectorText.string(name, key: key, v, identity: true)
        }
        switch u {
        case 0x2A23: return DeviceInformationDissector.systemID(v)
        case 0x2A2A: return DeviceInformationDissector.regulatoryList(v)
        case 0x2A50: return DeviceInformationDissector.pnpID(v)
        default: return DeviceInformationDissector.udi(v)
        }
    }

    public static func pnpID(_ v: ArraySlice<UInt8>) -> Dissection {
        guard v.count == 7 else { return .invalid("device_information", DissectorText.length(v.count, expected: 7)) }
        var c = ByteCursor(v)
        guard let src = try? c.u8(), let vid = try? c.u16le(), let pid = try? c.u16le(), let ver = try? c.u16le() else {
            return .invalid("device_information", DissectorText.length(v.count, expected: 7))
        }
        let p = PnPID(vendorIDSource: src, vendorID: vid, productID: pid, productVersion: ver)
        let problem = (src == 1 || src == 2) ? nil : "vendor ID source \(src) is reserved (1 = Bluetooth SIG, 2 = USB)"
        return Dissection("device_information", value: p, problem: problem)
    }

    public static func systemID(_ v: ArraySlice<UInt8>) -> Dissection {
        guard v.count == 8 else { return .invalid("device_information", DissectorText.length(v.count, expected: 8)) }
        var m: UInt64 = 0, o: UInt32 = 0
        for (i, b) in v.enumerated() {
            if i < 5 { m |= UInt64(b) << (8 * UInt64(i)) } else { o |= UInt32(b) << (8 * UInt32(i - 5)) }
        }
        return Dissection("device_information", value: SystemID(manufacturerIdentifier: m, oui: o))
    }

    /// "00:1A:7D" (most significant first).
    static func ouiText(_ o: UInt32) -> String {
        let b = [UInt8(truncatingIfNeeded: o >> 16), UInt8(truncatingIfNeeded: o >> 8), UInt8(truncatingIfNeeded: o)]
        return b.map { String(Hex.hex($0, width: 2).dropFirst(2)) }.joined(separator: ":")
    }
}
