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

    public var text: String {
        "\(vendorIDSource == 1 ? "SIG" : vendorIDSource == 2 ? "USB" : sourceName) vendor \(Hex.hex(vendorID, width: 4))"
            + (vendorName.map { " (\($0))" } ?? "") + " product \(Hex.hex(productID, width: 4)) version \(versionText)"
    }
}

extension PnPID: DecodedValue {
    public func writeFields<S: FieldSink>(into s: inout S) { s.object("pnp_id") { writeMembers(into: &$0) } }
    public var summaryPayload: (any Sendable)? { IdentityItem.pnp(self) }
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
    public var summaryPayload: (any Sendable)? { IdentityItem.systemID(self) }
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

    static func authorizingBody(_ b: UInt8) -> String {
        switch b {
        case 0: return "empty"
        case 1: return "IEEE 11073"
        case 2: return "Continua"
        case 254: return "experimental"
        case 255: return "reserved"
        default: return "unknown (\(b))"
        }
    }

    /// IEEE 11073-20601 Regulatory Certification Data List (MDER, big-endian): count, length, then per item
    /// authorizing body, structure type, length and data.
    public static func regulatoryList(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        var f = Fields()
        var items: [FieldValue] = []
        var bodies: [String] = []
        do {
            let count = Int(try c.u16be())
            let length = Int(try c.u16be())
            f.add("count", count)
            f.add("length", length)
            guard length == c.remaining else {
                f.add("items", .list(items))
                return Dissection("device_information", fields: f, text: "Regulatory Certification Data List",
                                  problem: "list length \(length) but \(c.remaining) bytes follow")
            }
            for _ in 0..<count {
                let body = try c.u8(), type = try c.u8()
                let n = Int(try c.u16be())
                let data = try c.bytes(n)
                var it = Fields()
                it.add("authorizing_body", Int(body))
                it.add("authorizing_body_name", authorizingBody(body))
                it.add("structure_type", Int(type))
                it.add("data", hex: data)
                if body == 2, type == 1, data.count == 2 {
                    it.add("continua_version", "\(data[data.startIndex]).\(data[data.startIndex + 1])")
                }
                items.append(.object(it))
                bodies.append(authorizingBody(body))
            }
        } catch {
            f.add("items", .list(items))
            return Dissection("device_information", fields: f, text: "Regulatory Certification Data List", problem: "\(error)")
        }
        f.add("regulatory_certification", .list(items))
        return Dissection("device_information", fields: f,
                          text: "Regulatory Certification Data List: \(items.count) item\(items.count == 1 ? "" : "s")"
                            + (bodies.isEmpty ? "" : " (" + bodies.joined(separator: ", ") + ")"),
                          problem: DissectorText.extra(c))
    }

    /// UDI for Medical Devices: flags, then the label, device identifier, issuer and authority strings the
    /// flags announce, each NUL-terminated.
    public static func udi(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard let flags = try? c.u8() else { return .invalid("device_information", DissectorText.length(0, expected: 1)) }
        var f = Fields()
        f.add("flags", Int(flags))
        var inner = Fields()
        var parts: [String] = []
        var problem: String? = nil
        let names = [("label", "UDI"), ("device_identifier", "DI"), ("issuer", "issuer"), ("authority", "authority")]
        for (i, (key, label)) in names.enumerated() where flags & (1 << i) != 0 {
            let rest = c.rest()
            let end = rest.firstIndex(of: 0) ?? rest.endIndex
            let body = rest[rest.startIndex..<end]
            c = ByteCursor(rest[(end == rest.endIndex ? end : end + 1)...])
            if let s = DissectorText.utf8(body) {
                inner.add(key, s)
                parts.append("\(label) \"\(s)\"")
            } else {
                inner.add(key, String(decoding: body, as: UTF8.self))
                problem = "\(key) is not valid UTF-8"
            }
        }
        if flags & 0x10 != 0 { inner.add("fda_compliant", true) }
        f.add("udi", inner)
        if problem == nil { problem = DissectorText.extra(c) }
        return Dissection("device_information", fields: f, text: "UDI: " + (parts.isEmpty ? "none" : parts.joined(separator: ", ")),
                          problem: problem)
    }
}
