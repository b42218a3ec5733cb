/// One AD structure (Core Specification Supplement, Part A) from advertising or scan-response data.
public struct ADStructure: Sendable, Equatable {
    public var type: UInt8
    public var data: [UInt8]
    /// Set when the structure's length ran past the payload; `data` then holds the rest of the payload.
    public var malformed: String?
}

/// Splits advertising data into AD structures and renders them.
public enum ADParser {
    /// Parses `length type data…` structures. Zero-length padding ends parsing without complaint; a structure
    /// running past the end is returned flagged malformed with the remaining bytes as its data.
    public static func parse(_ payload: ArraySlice<UInt8>) -> [ADStructure] {
        var out: [ADStructure] = []
        var i = payload.startIndex
        while i < payload.endIndex {
            let len = Int(payload[i])
            if len == 0 {
                // Zero-length structures are padding (some controllers pad to 31 bytes).
                i += 1
                continue
            }
            let end = i + 1 + len
            if end > payload.endIndex {
                let rest = Array(payload[i...])
                out.append(ADStructure(type: i + 1 < payload.endIndex ? payload[i + 1] : 0, data: rest,
                                       malformed: "AD structure length \(len) runs past the payload (\(payload.endIndex - i - 1) bytes left)"))
                break
            }
            out.append(ADStructure(type: payload[i + 1], data: Array(payload[(i + 2)..<end]), malformed: nil))
            i = end
        }
        return out
    }

    public static func typeName(_ t: UInt8) -> String {
        switch t {
        case 0x01: return "Flags"
        case 0x02: return "Incomplete List of 16-bit Service UUIDs"
        case 0x03: return "Complete List of 16-bit Service UUIDs"
        case 0x04: return "Incomplete List of 32-bit Service UUIDs"
        case 0x05: return "Complete List of 32-bit Service UUIDs"
        case 0x06: return "Incomplete List of 128-bit Service UUIDs"
        case 0x07: return "Complete List of 128-bit Service UUIDs"
        case 0x08: return "Shortened Local Name"
        case 0x09: return "Complete Local Name"
        case 0x0A: return "Tx Power Level"
        case 0x0D: return "Class of Device"
        case 0x0E: return "Simple Pairing Hash C-192"
        case 0x0F: return "Simple Pairing Randomizer R-192"
        case 0x10: return "Device ID / Security Manager TK Value"
        case 0x11: return "Security Manager Out of Band Flags"
        case 0x12: return "Peripheral Connection Interval Range"
        case 0x14: return "List of 16-bit Service Solicitation UUIDs"
        case 0x15: return "List of 128-bit Service Solicitation UUIDs"
        case 0x16: return "Service Data - 16-bit UUID"
        case 0x17: return "Public Target Address"
        case 0x18: return "Random Target Address"
        case 0x19: return "Appearance"
        case 0x1A: return "Advertising Interval"
        case 0x1B: return "LE Bluetooth Device Address"
        case 0x1C: return "LE Role"
        case 0x1D: return "Simple Pairing Hash C-256"
        case 0x1E: return "Simple Pairing Randomizer R-256"
        case 0x1F: return "List of 32-bit Service Solicitation UUIDs"
        case 0x20: return "Service Data - 32-bit UUID"
        case 0x21: return "Service Data - 128-bit UUID"
        case 0x22: return "LE Secure Connections Confirmation Value"
        case 0x23: return "LE Secure Connections Random Value"
        case 0x24: return "URI"
        case 0x25: return "Indoor Positioning"
        case 0x26: return "Transport Discovery Data"
        case 0x27: return "LE Supported Features"
        case 0x28: return "Channel Map Update Indication"
        case 0x29: return "PB-ADV"
        case 0x2A: return "Mesh Message"
        case 0x2B: return "Mesh Beacon"
        case 0x2C: return "BIGInfo"
        case 0x2D: return "Broadcast_Code"
        case 0x2E: return "Resolvable Set Identifier"
        case 0x2F: return "Advertising Interval - long"
        case 0x30: return "Broadcast_Name"
        case 0x31: return "Encrypted Advertising Data"
        case 0x32: return "Periodic Advertising Response Timing Information"
        case 0x34: return "Electronic Shelf Label"
        case 0x3D: return "3D Information Data"
        case 0xFF: return "Manufacturer Specific Data"
        default: return "AD type \(Hex.hex(t, width: 2))"
        }
    }

    /// The JSON form: a list of `{type, name, data, …decoded}`.
    public static func fields(_ ads: [ADStructure]) -> FieldValue {
        .list(ads.map { ad in
            var f = Fields()
            f.add("type", Int(ad.type))
            f.add("name", typeName(ad.type))
            f.add("data", hex: ad.data)
            if let m = ad.malformed { f.add("malformed", m) }
            else { for (k, v) in ADDecode.fields(ad).items { f.add(k, v) } }
            return .object(f)
        })
    }

    /// A compact one-line rendering: `name "Foo", flags 0x06, 16-bit UUIDs 180f, …`.
    public static func summary(_ ads: [ADStructure]) -> String {
        if ads.isEmpty { return "no data" }
        return ads.map { ad in
            if let m = ad.malformed { return "malformed (\(m))" }
            return ADDecode.text(ad)
        }.joined(separator: ", ")
    }
}

/// Per-type decoding of AD structures into fields and text.
public enum ADDecode {
    public static func fields(_ ad: ADStructure) -> Fields {
        var f = Fields()
        let d = ad.data
        switch ad.type {
        case 0x01:
            if let b = d.first {
                var names: [FieldValue] = []
                if b & 0x01 != 0 { names.append(.string("LE Limited Discoverable")) }
                if b & 0x02 != 0 { names.append(.string("LE General Discoverable")) }
                if b & 0x04 != 0 { names.append(.string("BR/EDR Not Supported")) }
                if b & 0x08 != 0 { names.append(.string("Simultaneous LE and BR/EDR (Controller)")) }
                if b & 0x10 != 0 { names.append(.string("Simultaneous LE and BR/EDR (Host)")) }
                f.add("flags", .list(names))
            }
        case 0x08, 0x09:
            f.add("local_name", String(decoding: d, as: UTF8.self))
        case 0x0A:
            if let b = d.first { f.add("tx_power", Int(Int8(bitPattern: b))) }
        case 0x02, 0x03, 0x14:
            f.add("uuids", .list(uuidList(d, size: 2).map { .string($0.description) }))
        case 0x04, 0x05, 0x1F:
            f.add("uuids", .list(uuidList(d, size: 4).map { .string($0.description) }))
        case 0x06, 0x07, 0x15:
            f.add("uuids", .list(uuidList(d, size: 16).map { .string($0.description) }))
        case 0xFF:
            if d.count >= 2 {
                let company = UInt16(d[0]) | UInt16(d[1]) << 8
                f.add("company", Int(company))
                if let n = AssignedNumbers.companyName(company) { f.add("company_name", n) }
            }
        default:
            break
        }
        return f
    }

    public static func text(_ ad: ADStructure) -> String {
        let d = ad.data
        switch ad.type {
        case 0x01: return "flags \(d.first.map { Hex.hex($0, width: 2) } ?? "?")"
        case 0x08, 0x09: return "name \"\(String(decoding: d, as: UTF8.self))\""
        case 0x0A: return "tx power \(d.first.map { String(Int8(bitPattern: $0)) } ?? "?") dBm"
        case 0x02, 0x03: return "services " + uuidList(d, size: 2).map { $0.shortName }.joined(separator: " ")
        case 0x06, 0x07: return "services " + uuidList(d, size: 16).map { $0.shortName }.joined(separator: " ")
        case 0xFF:
            if d.count >= 2 {
                let company = UInt16(d[0]) | UInt16(d[1]) << 8
                return "manufacturer \(AssignedNumbers.companyName(company) ?? Hex.hex(company, width: 4)) \(Hex.string(d.dropFirst(2)))"
            }
            return "manufacturer data \(Hex.string(d))"
        default: return "\(typeName(ad.type)) \(Hex.string(d))"
        }
    }

    static func typeName(_ t: UInt8) -> String { ADParser.typeName(t) }

    /// Little-endian UUIDs of `size` bytes each; a trailing partial UUID is dropped.
    public static func uuidList(_ d: [UInt8], size: Int) -> [BLEUUID] {
        var out: [BLEUUID] = []
        var i = 0
        while i + size <= d.count {
            if let u = BLEUUID(littleEndian: d[i..<(i + size)]) { out.append(u) }
            i += size
        }
        return out
    }
}
