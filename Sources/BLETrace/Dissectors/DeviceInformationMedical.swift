/// The medical-device characteristics of the Device Information Service: IEEE 11073-20601 Regulatory
/// Certification Data List (0x2A2A) and UDI for Medical Devices (0x2BFF). Both are typed values holding slices
/// of the value; names and strings are made when rendered.
extension DeviceInformationDissector {
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

    /// A Regulatory Certification Data List (MDER, big-endian): count, length, then per item authorizing body,
    /// structure type, length and data.
    public struct RegulatoryList: DecodedValue, Equatable {
        public struct Item: Sendable, Equatable {
            public var authorizingBody: UInt8
            public var structureType: UInt8
            public var data: ArraySlice<UInt8>
        }
        /// The header's item count and list length; nil when the value is shorter than the header.
        public var count: UInt16?
        public var length: UInt16?
        /// The items read (all of them when `complete`).
        public var items: [Item] = []
        /// True when the length matched and every counted item was read.
        public var complete = false

        public func writeFields<S: FieldSink>(into s: inout S) {
            if let n = count, let l = length {
                s.field("count", n)
                s.field("length", l)
            }
            s.list(complete ? "regulatory_certification" : "items") { l in
                for it in items {
                    l.beginObject()
                    l.field("authorizing_body", it.authorizingBody)
                    l.field("authorizing_body_name", DeviceInformationDissector.authorizingBody(it.authorizingBody))
                    l.field("structure_type", it.structureType)
                    l.field("data", hex: it.data)
                    if it.authorizingBody == 2, it.structureType == 1, it.data.count == 2,
                       let major = it.data.first, let minor = it.data.last {
                        l.field("continua_version", "\(major).\(minor)")
                    }
                    l.endObject()
                }
            }
        }

        public var text: String {
            guard complete else { return "Regulatory Certification Data List" }
            let bodies = items.map { DeviceInformationDissector.authorizingBody($0.authorizingBody) }
            return "Regulatory Certification Data List: \(items.count) item\(items.count == 1 ? "" : "s")"
                + (bodies.isEmpty ? "" : " (" + bodies.joined(separator: ", ") + ")")
        }
    }

    public static func regulatoryList(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        var list = RegulatoryList()
        do {
            let count = try c.u16be()
            let length = try c.u16be()
            list.count = count
            list.length = length
            guard Int(length) == c.remaining else {
                return Dissection("device_information", value: list, problem: "list length \(length) but \(c.remaining) bytes follow")
            }
            for _ in 0..<count {
                let body = try c.u8(), type = try c.u8()
                let n = Int(try c.u16be())
                list.items.append(.init(authorizingBody: body, structureType: type, data: try c.bytes(n)))
            }
        } catch {
            return Dissection("device_information", value: list, problem: "\(error)")
        }
        list.complete = true
        return Dissection("device_information", value: list, problem: DissectorText.extra(c))
    }

    /// UDI for Medical Devices: flags, then the label, device identifier, issuer and authority strings the flags
    /// announce, each NUL-terminated.
    public struct UDI: DecodedValue, Equatable {
        /// The strings' JSON keys and text labels, in flag-bit order.
        static let names = [("label", "UDI"), ("device_identifier", "DI"), ("issuer", "issuer"), ("authority", "authority")]
        public var flags: UInt8
        /// The strings present, in flag order: which one (0 label … 3 authority) and its bytes without the NUL.
        public var strings: [(kind: Int, bytes: ArraySlice<UInt8>)]

        public static func == (a: UDI, b: UDI) -> Bool {
            a.flags == b.flags && a.strings.elementsEqual(b.strings) { $0.kind == $1.kind && $0.bytes == $1.bytes }
        }

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("flags", flags)
            s.object("udi") { o in
                for (kind, bytes) in strings {
                    o.field(name: UDI.names[kind].0, DissectorText.utf8(bytes) ?? String(decoding: bytes, as: UTF8.self))
                }
                if flags & 0x10 != 0 { o.field("fda_compliant", true) }
            }
        }

        public var text: String {
            let parts = strings.compactMap { kind, bytes in DissectorText.utf8(bytes).map { "\(UDI.names[kind].1) \"\($0)\"" } }
            return "UDI: " + (parts.isEmpty ? "none" : parts.joined(separator: ", "))
        }
    }

    public static func udi(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard let flags = try? c.u8() else { return .invalid("device_information", DissectorText.length(0, expected: 1)) }
        var value = UDI(flags: flags, strings: [])
        var problem: String? = nil
        for kind in 0..<UDI.names.count where flags & (1 << kind) != 0 {
            let rest = c.rest()
            let end = rest.firstIndex(of: 0) ?? rest.endIndex
            let body = rest[rest.startIndex..<end]
            c = ByteCursor(rest[(end == rest.endIndex ? end : end + 1)...])
            value.strings.append((kind, body))
            if DissectorText.utf8(body) == nil { problem = "\(UDI.names[kind].0) is not valid UTF-8" }
        }
        return Dissection("device_information", value: value, problem: problem ?? DissectorText.extra(c))
    }
}
