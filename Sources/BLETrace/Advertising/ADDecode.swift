/// One decoded AD structure: its JSON object and its one-line text.
public struct ADDescription: Sendable {
    public var fields: Fields
    public var text: String
}

/// Per-type decoding of AD structures (Core Specification Supplement, Part A, section 1) into fields and text.
/// Every read goes through `ByteCursor`; a value of the wrong length is reported in `malformed` on the
/// structure's object, never by trapping.
public enum ADDecode {
    /// The Apple Notification Center Service; a device soliciting it wants to receive iOS notifications.
    public static let ancs = BLEUUID(high: 0x7905_F431_B5CE_4E99, low: 0xA40F_4B1E_122D_00D0)

    /// `{type, name, data, …decoded}` and the text; `rssi` feeds beacon distance estimates.
    public static func describe(_ ad: ADStructure, rssi: Int? = nil) -> ADDescription {
        var f = Fields()
        f.add("type", Int(ad.type))
        f.add("name", ADParser.typeName(ad.type))
        f.add("data", hex: ad.data)
        if let m = ad.malformed {
            f.add("malformed", m.description)
            return ADDescription(fields: f, text: "malformed \(ADParser.typeName(ad.type)) (\(m))")
        }
        var problem: String? = nil
        let text = decode(ad.type, ad.data, rssi: rssi, &f, &problem)
        if let p = problem {
            f.add("malformed", p)
            return ADDescription(fields: f, text: text + " [malformed: \(p)]")
        }
        return ADDescription(fields: f, text: text)
    }

    public static func fields(_ ad: ADStructure, rssi: Int? = nil) -> Fields { describe(ad, rssi: rssi).fields }
    public static func text(_ ad: ADStructure, rssi: Int? = nil) -> String { describe(ad, rssi: rssi).text }

    static func lengthProblem(_ d: ArraySlice<UInt8>, _ expected: String) -> String {
        "\(d.count) byte\(d.count == 1 ? "" : "s") where \(expected) expected"
    }

    /// Adds the decoded keys to `f` and returns the text; sets `problem` when the value breaks its format.
    static func decode(_ type: UInt8, _ d: ArraySlice<UInt8>, rssi: Int?, _ f: inout Fields, _ problem: inout String?) -> String {
        var c = ByteCursor(d)
        switch type {
        case 0x01: // Flags
            guard let b = try? c.u8() else { problem = "empty Flags"; return "flags (empty)" }
            f.add("flags_value", Int(b))
            f.add("flags", .list(flagNames(b).map { .string($0) }))
            return "flags \(Hex.hex(b, width: 2))"

        case 0x02...0x07, 0x14, 0x15, 0x1F: // service UUID and solicitation lists
            let size: Int
            switch type {
            case 0x02, 0x03, 0x14: size = 2
            case 0x04, 0x05, 0x1F: size = 4
            default: size = 16
            }
            let solicit = type == 0x14 || type == 0x15 || type == 0x1F
            let uuids = uuidList(d, size: size)
            f.add("uuids", .list(uuids.map { .string($0.description) }))
            var names = Fields()
            for u in uuids { if let n = u.name { names.add(u.description, n) } }
            if !names.isEmpty { f.add("uuid_names", names) }
            if solicit {
                f.add("solicitation", true)
            } else {
                f.add("complete", type & 1 == 1)
            }
            if d.count % size != 0 {
                problem = "\(d.count) bytes is not a whole number of \(size * 8)-bit UUIDs"
                f.add("trailing", hex: d.suffix(d.count % size))
            }
            var text = solicit ? "solicits " : (type & 1 == 1 ? "services " : "services (incomplete) ")
            text += uuids.map { $0.shortName }.joined(separator: " ")
            if solicit && uuids.contains(ancs) {
                f.add("wants_ancs", true)
                text += " — wants ANCS"
            }
            return text

        case 0x08, 0x09: // Shortened / Complete Local Name
            let name = utf8(d)
            f.add("local_name", name)
            f.add("complete", type == 0x09)
            let what = type == 0x09 ? "name" : "short name"
            // Padding alone (a name of NUL bytes) is no name: said as such, not as "".
            if name.isEmpty { return what + (d.isEmpty ? " (empty)" : " (empty: \(d.count) NUL byte\(d.count == 1 ? "" : "s"))") }
            return what + " \"" + name + "\""

        case 0x0A: // Tx Power Level
            guard d.count == 1, let p = try? c.i8() else { problem = lengthProblem(d, "1"); return "tx power ?" }
            f.add("tx_power", Int(p))
            return "tx power \(p) dBm"

        case 0x0D: // Class of Device
            guard d.count == 3, let v = try? c.u24le() else { problem = lengthProblem(d, "3"); return "class of device ?" }
            let major = Int(v >> 8 & 0x1F)
            f.add("class_of_device", Int(v))
            f.add("major_class", majorDeviceClass(major))
            f.add("minor_class", Int(v >> 2 & 0x3F))
            f.add("service_classes", .list(serviceClasses(v).map { .string($0) }))
            return "class of device \(Hex.hex(v, width: 6)) (\(majorDeviceClass(major)))"

        case 0x0E, 0x0F, 0x1D, 0x1E, 0x22, 0x23: // pairing hash / randomizer / confirmation / random value
            if d.count != 16 { problem = lengthProblem(d, "16") }
            f.add("value", hex: d)
            return "\(ADParser.typeName(type)) \(Hex.string(d))"

        case 0x10: // Device ID (EIR) or Security Manager TK Value (AD)
            if d.count == 8, let src = try? c.u16le(), let vendor = try? c.u16le(),
               let product = try? c.u16le(), let version = try? c.u16le() {
                f.add("vendor_id_source", Int(src))
                f.add("vendor_id", Int(vendor))
                if src == 1, let n = AssignedNumbers.companyName(vendor) { f.add("vendor_name", n) }
                f.add("product_id", Int(product))
                f.add("version", Int(version))
                return "device ID vendor \(Hex.hex(vendor, width: 4)) product \(Hex.hex(product, width: 4)) version \(Hex.hex(version, width: 4))"
            }
            if d.count != 16 { problem = lengthProblem(d, "8 (Device ID) or 16 (TK value)") }
            f.add("tk_value", hex: d)
            return "TK value \(Hex.string(d))"

        case 0x11: // Security Manager Out of Band Flags
            guard d.count == 1, let b = try? c.u8() else { problem = lengthProblem(d, "1"); return "OOB flags ?" }
            f.add("oob_data_present", b & 0x01 != 0)
            f.add("le_supported_host", b & 0x02 != 0)
            f.add("simultaneous_le_bredr_host", b & 0x04 != 0)
            f.add("address_type", b & 0x08 != 0 ? "random" : "public")
            return "OOB flags \(Hex.hex(b, width: 2))"

        case 0x12: // Peripheral Connection Interval Range
            guard d.count == 4, let lo = try? c.u16le(), let hi = try? c.u16le() else {
                problem = lengthProblem(d, "4"); return "connection interval range ?"
            }
            f.add("interval_min", Int(lo))
            f.add("interval_max", Int(hi))
            func show(_ v: UInt16) -> String { v == 0xFFFF ? "no specific value" : Fmt.interval1250(Int(v)) }
            return "connection interval \(show(lo)) – \(show(hi))"

        case 0x16, 0x20, 0x21: // Service Data
            let size = type == 0x16 ? 2 : type == 0x20 ? 4 : 16
            guard let ub = try? c.bytes(size), let uuid = BLEUUID(littleEndian: ub) else {
                problem = lengthProblem(d, "at least \(size)")
                return "service data ?"
            }
            let rest = c.rest()
            f.add("uuid", uuid.description)
            if let n = uuid.name { f.add("uuid_name", n) }
            f.add("service_data", hex: rest)
            if let u16 = uuid.uuid16 {
                let eddystone = Eddystone.dissect(serviceUUID: u16, data: rest, rssi: rssi).describe(key: "eddystone", into: &f) {
                    "service data \(uuid.shortName) \(Hex.string(rest)) (not a valid Eddystone frame: \($0))"
                }
                if let t = eddystone { return t }
                if let t = BroadcastAudioData.describe(u16, rest, into: &f, problem: &problem) { return t }
            }
            return "service data \(uuid.shortName) \(Hex.string(rest))"

        case 0x17, 0x18: // Public / Random Target Address
            if d.isEmpty || d.count % 6 != 0 { problem = lengthProblem(d, "a multiple of 6") }
            var list: [String] = []
            while let a = try? c.address() { list.append(a.description) }
            f.add("addresses", .list(list.map { .string($0) }))
            return (type == 0x17 ? "public target " : "random target ") + list.joined(separator: " ")

        case 0x19: // Appearance
            guard d.count == 2, let v = try? c.u16le() else { problem = lengthProblem(d, "2"); return "appearance ?" }
            f.add("appearance", Int(v))
            let name = appearanceName(v)
            if let a = AssignedNumbers.appearance(v) {
                f.add("category", a.category)
                if let s = a.subcategory { f.add("subcategory", s) }
            }
            return "appearance \(name)"

        case 0x1A, 0x2F: // Advertising Interval (2 bytes) / Advertising Interval - long (3 or 4 bytes)
            let ok = type == 0x1A ? d.count == 2 : (d.count == 3 || d.count == 4)
            guard ok else { problem = lengthProblem(d, type == 0x1A ? "2" : "3 or 4"); return "advertising interval ?" }
            var v = 0
            for (i, b) in d.enumerated() { v |= Int(b) << (8 * i) }
            f.add("interval", v)
            return "advertising interval \(Fmt.interval625(v))"

        case 0x1B: // LE Bluetooth Device Address
            guard d.count == 7, let a = try? c.address(), let t = try? c.u8() else {
                problem = lengthProblem(d, "7"); return "LE address ?"
            }
            f.add("address", a.description)
            f.add("address_type", t & 1 == 0 ? "public" : "random")
            return "LE address \(a) (\(t & 1 == 0 ? "public" : "random"))"

        case 0x1C: // LE Role
            guard d.count == 1, let r = try? c.u8() else { problem = lengthProblem(d, "1"); return "LE role ?" }
            f.add("role", Int(r))
            f.add("role_name", leRole(r))
            return "LE role: \(leRole(r))"

        case 0x24: // URI
            let all = utf8(d)
            guard let first = all.unicodeScalars.first else { problem = "empty URI"; return "URI ?" }
            let body = String(all.unicodeScalars.dropFirst())
            f.add("scheme_code", Int(first.value))
            if let scheme = uriScheme(first.value) {
                f.add("uri", scheme + body)
                return "URI \(scheme + body)"
            }
            f.add("uri_body", body)
            return "URI (scheme \(Hex.hex(first.value, width: 4))) \(body)"

        case 0x26: // Transport Discovery Data
            var blocks: [FieldValue] = []
            while c.remaining > 0 {
                guard let org = try? c.u8(), let flags = try? c.u8(), let len = try? c.u8(),
                      let data = try? c.bytes(Int(len)) else {
                    problem = "transport block runs past the data"
                    break
                }
                var b = Fields()
                b.add("organization_id", Int(org))
                b.add("flags", Int(flags))
                b.add("role", ["not specified", "seeker", "provider", "seeker and provider"][Int(flags & 3)])
                b.add("data", hex: data)
                blocks.append(.object(b))
            }
            f.add("blocks", .list(blocks))
            return "transport discovery data, \(blocks.count) block\(blocks.count == 1 ? "" : "s")"

        case 0x27: // LE Supported Features
            var names: [FieldValue] = []
            for (i, b) in d.enumerated() {
                for bit in 0..<8 where b & (1 << bit) != 0 {
                    let n = i * 8 + bit
                    names.append(.string(n < leFeatureNames.count ? leFeatureNames[n] : "bit \(n)"))
                }
            }
            f.add("features", .list(names))
            return "LE features \(Hex.string(d))"

        case 0x28: // Channel Map Update Indication
            guard d.count == 7, let map = try? c.bytes(5), let instant = try? c.u16le() else {
                problem = lengthProblem(d, "7"); return "channel map update ?"
            }
            f.add("channel_map", hex: map)
            f.add("instant", Int(instant))
            return "channel map \(Hex.string(map)) at instant \(instant)"

        case 0x29: // PB-ADV
            guard let link = try? c.u32be(), let tn = try? c.u8() else { problem = lengthProblem(d, "at least 5"); return "PB-ADV ?" }
            f.add("link_id", Int(link))
            f.add("transaction", Int(tn))
            f.add("pdu", hex: c.rest())
            return "PB-ADV link \(Hex.hex(link, width: 8)) transaction \(tn)"

        case 0x2A: // Mesh Message
            guard let b = try? c.u8() else { problem = "empty mesh message"; return "mesh message ?" }
            f.add("ivi", Int(b >> 7))
            f.add("nid", Int(b & 0x7F))
            return "mesh message NID \(Hex.hex(b & 0x7F, width: 2)), \(d.count) bytes"

        case 0x2B: // Mesh Beacon
            guard let t = try? c.u8() else { problem = "empty mesh beacon"; return "mesh beacon ?" }
            let names = ["unprovisioned device", "secure network", "mesh private"]
            let name = Int(t) < names.count ? names[Int(t)] : "type \(Hex.hex(t, width: 2))"
            f.add("beacon_type", Int(t))
            f.add("beacon_type_name", name)
            if t == 0 {
                guard let u = try? c.bytes(16), let uuid = BLEUUID(bigEndian: u), let oob = try? c.u16be() else {
                    problem = "unprovisioned device beacon shorter than 19 bytes"
                    return "mesh beacon: \(name)"
                }
                f.add("device_uuid", uuid.canonical)
                f.add("oob_information", Int(oob))
                if let hash = try? c.bytes(4) { f.add("uri_hash", hex: hash) }
                return "mesh beacon: unprovisioned device \(uuid.canonical)"
            }
            return "mesh beacon: \(name)"

        case 0x2E: // Resolvable Set Identifier
            if d.count != 6 { problem = lengthProblem(d, "6") }
            f.add("rsi", hex: d)
            return "resolvable set identifier \(Hex.string(d))"

        case 0x30: // Broadcast_Name
            let name = utf8(d)
            f.add("broadcast_name", name)
            return "broadcast name \"\(name)\""

        case 0x31: // Encrypted Advertising Data
            guard d.count >= 9, let rnd = try? c.bytes(5), let payload = try? c.bytes(d.count - 9), let mic = try? c.bytes(4) else {
                problem = lengthProblem(d, "at least 9"); return "encrypted data ?"
            }
            f.add("randomizer", hex: rnd)
            f.add("payload", hex: payload)
            f.add("mic", hex: mic)
            return "encrypted advertising data, \(payload.count) bytes"

        case 0x3D: // 3D Information Data
            guard d.count == 2, let flags = try? c.u8(), let threshold = try? c.u8() else {
                problem = lengthProblem(d, "2"); return "3D information ?"
            }
            f.add("flags", Int(flags))
            f.add("path_loss_threshold", Int(threshold))
            return "3D information flags \(Hex.hex(flags, width: 2)), path loss threshold \(threshold) dB"

        case 0xFF: // Manufacturer Specific Data
            guard let company = try? c.u16le() else {
                problem = lengthProblem(d, "at least 2 (company identifier)")
                return "manufacturer data \(Hex.string(d))"
            }
            let rest = c.rest()
            let cname = AssignedNumbers.companyName(company)
            f.add("company", Int(company))
            if let n = cname { f.add("company_name", n) }
            f.add("manufacturer_data", hex: rest)
            let who = cname ?? Hex.hex(company, width: 4)
            let ibeacon = IBeacon.dissect(company: company, data: rest, rssi: rssi).describe(key: "ibeacon", into: &f) {
                "manufacturer \(who) \(Hex.string(rest)) (not an iBeacon: \($0))"
            }
            if let t = ibeacon { return t }
            let altbeacon = AltBeacon.dissect(company: company, data: rest, rssi: rssi).describe(key: "altbeacon", into: &f) {
                "manufacturer \(who) \(Hex.string(rest)) (not an AltBeacon: \($0))"
            }
            if let t = altbeacon { return t }
            return rest.isEmpty ? "manufacturer \(who)" : "manufacturer \(who) \(Hex.string(rest))"

        default:
            return "\(ADParser.typeName(type)) \(Hex.string(d))"
        }
    }

    /// Little-endian UUIDs of `size` bytes each; a trailing partial UUID is dropped.
    public static func uuidList(_ d: ArraySlice<UInt8>, size: Int) -> [BLEUUID] {
        var out: [BLEUUID] = []
        out.reserveCapacity(d.count / size)
        var i = d.startIndex
        while i + size <= d.endIndex {
            if let u = BLEUUID(littleEndian: d[i..<(i + size)]) { out.append(u) }
            i += size
        }
        return out
    }

    public static func uuidList(_ d: [UInt8], size: Int) -> [BLEUUID] { uuidList(d[...], size: size) }

    /// UTF-8 text without trailing NUL padding; invalid sequences become U+FFFD.
    static func utf8(_ d: ArraySlice<UInt8>) -> String {
        var end = d.endIndex
        while end > d.startIndex && d[end - 1] == 0 { end -= 1 }
        return String(decoding: d[d.startIndex..<end], as: UTF8.self)
    }

    public static func flagNames(_ b: UInt8) -> [String] {
        var names: [String] = []
        if b & 0x01 != 0 { names.append("LE Limited Discoverable") }
        if b & 0x02 != 0 { names.append("LE General Discoverable") }
        if b & 0x04 != 0 { names.append("BR/EDR Not Supported") }
        if b & 0x08 != 0 { names.append("Simultaneous LE and BR/EDR (Controller)") }
        if b & 0x10 != 0 { names.append("Simultaneous LE and BR/EDR (Host)") }
        if b & 0xE0 != 0 { names.append("reserved bits \(Hex.hex(b & 0xE0, width: 2))") }
        return names
    }

    public static func appearanceName(_ v: UInt16) -> String {
        guard let a = AssignedNumbers.appearance(v) else { return Hex.hex(v, width: 4) }
        if let s = a.subcategory { return "\(a.category): \(s)" }
        return a.category
    }

    static func majorDeviceClass(_ m: Int) -> String {
        let names = ["Miscellaneous", "Computer", "Phone", "LAN/Network Access Point", "Audio/Video",
                     "Peripheral", "Imaging", "Wearable", "Toy", "Health"]
        if m < names.count { return names[m] }
        return m == 31 ? "Uncategorized" : "major class \(m)"
    }

    static func serviceClasses(_ v: UInt32) -> [String] {
        let names: [(Int, String)] = [(13, "Limited Discoverable Mode"), (14, "LE audio"), (16, "Positioning"),
                                      (17, "Networking"), (18, "Rendering"), (19, "Capturing"), (20, "Object Transfer"),
                                      (21, "Audio"), (22, "Telephony"), (23, "Information")]
        return names.filter { v & (1 << UInt32($0.0)) != 0 }.map { $0.1 }
    }

    static func leRole(_ r: UInt8) -> String {
        switch r {
        case 0: return "peripheral only"
        case 1: return "central only"
        case 2: return "peripheral and central, peripheral preferred"
        case 3: return "peripheral and central, central preferred"
        default: return "reserved \(Hex.hex(r, width: 2))"
        }
    }

    /// URI scheme name strings (Assigned Numbers); 0x01 means the scheme is written out in the URI itself.
    static func uriScheme(_ code: UInt32) -> String? {
        switch code {
        case 0x01: return ""
        case 0x16: return "http:"
        case 0x17: return "https:"
        default: return nil
        }
    }

    static let leFeatureNames = [
        "LE Encryption", "Connection Parameters Request Procedure", "Extended Reject Indication",
        "Peripheral-initiated Features Exchange", "LE Ping", "LE Data Packet Length Extension", "LL Privacy",
        "Extended Scanner Filter Policies", "LE 2M PHY", "Stable Modulation Index - Transmitter",
        "Stable Modulation Index - Receiver", "LE Coded PHY", "LE Extended Advertising", "LE Periodic Advertising",
        "Channel Selection Algorithm #2", "LE Power Class 1",
    ]
}
