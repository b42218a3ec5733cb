/// Decodes HCI command packets (opcode, parameter length, parameters).
public enum HCICommandDecoder {
    public struct Decoded {
        public var opcode: UInt16
        public var summary: String
        public var fields: Fields
        public var handle: UInt16?
    }

    public static func decode(_ data: ArraySlice<UInt8>) throws -> Decoded {
        var c = ByteCursor(data)
        let opcode = try c.u16le()
        let length = Int(try c.u8())
        let name = HCIText.commandName(opcode)
        var f = Fields()
        f.add("opcode", Int(opcode))
        f.add("ogf", Int(opcode >> 10))
        f.add("ocf", Int(opcode & 0x3FF))
        f.add("name", name)
        if c.remaining < length {
            throw ByteError.truncated(offset: c.offset, needed: length, available: c.remaining)
        }
        var p = ByteCursor(try c.bytes(length))
        var detail = ""
        var handle: UInt16? = nil
        var params = Fields()
        switch opcode {
        case 0x0406: // Disconnect
            let h = try p.u16le() & 0x0FFF
            let reason = try p.u8()
            handle = h
            params.add("handle", h)
            params.add("reason", reason)
            params.add("reason_name", HCIText.status(reason))
            detail = "handle \(Hex.hex(h, width: 4)), reason \(HCIText.status(reason))"
        case 0x041D, 0x2016, 0x201B, 0x1405, 0x0C27: // handle-only commands
            let h = try p.u16le() & 0x0FFF
            handle = h
            params.add("handle", h)
            detail = "handle \(Hex.hex(h, width: 4))"
        case 0x2005: // LE Set Random Address
            let a = try p.address()
            params.add("address", a.description)
            detail = a.description
        case 0x2006: // LE Set Advertising Parameters
            let minI = Int(try p.u16le()), maxI = Int(try p.u16le())
            let type = try p.u8(), own = try p.u8(), peerType = try p.u8()
            let peer = try p.address()
            let map = try p.u8(), filter = try p.u8()
            params.add("interval_min", minI); params.add("interval_max", maxI)
            params.add("type", type); params.add("type_name", advParamType(type))
            params.add("own_address_type", own); params.add("peer_address_type", peerType)
            params.add("peer_address", peer.description)
            params.add("channel_map", map); params.add("filter_policy", filter)
            detail = "\(advParamType(type)), interval \(Fmt.interval625(minI))–\(Fmt.interval625(maxI))"
        case 0x2008, 0x2009: // LE Set Advertising / Scan Response Data
            let n = Int(try p.u8())
            let d = try p.bytes(min(n, p.remaining))
            params.add("data_length", n)
            params.add("data", hex: d)
            let ads = ADParser.parse(d)
            let described = ADParser.describe(ads)
            params.add("ad", described.fields)
            detail = described.text
        case 0x200A: // LE Set Advertising Enable
            let e = try p.u8()
            params.add("enable", e != 0)
            detail = HCIText.enabled(e)
        case 0x200B: // LE Set Scan Parameters
            let type = try p.u8()
            let interval = Int(try p.u16le()), window = Int(try p.u16le())
            let own = try p.u8(), filter = try p.u8()
            params.add("scan_type", type == 1 ? "active" : "passive")
            params.add("interval", interval); params.add("window", window)
            params.add("own_address_type", own); params.add("filter_policy", filter)
            detail = "\(type == 1 ? "active" : "passive"), interval \(Fmt.interval625(interval)), window \(Fmt.interval625(window))"
        case 0x200C: // LE Set Scan Enable
            let e = try p.u8(), dup = try p.u8()
            params.add("enable", e != 0); params.add("filter_duplicates", dup != 0)
            detail = "\(HCIText.enabled(e)), duplicates \(dup == 0 ? "kept" : "filtered")"
        case 0x200D: // LE Create Connection
            let si = Int(try p.u16le()), sw = Int(try p.u16le())
            let filter = try p.u8(), peerType = try p.u8()
            let peer = try p.address()
            let own = try p.u8()
            let cmin = Int(try p.u16le()), cmax = Int(try p.u16le()), lat = Int(try p.u16le()), to = Int(try p.u16le())
            _ = try p.u16le(); _ = try p.u16le()
            params.add("scan_interval", si); params.add("scan_window", sw)
            params.add("filter_policy", filter)
            params.add("peer_address_type", peerType); params.add("peer_address", peer.description)
            params.add("own_address_type", own)
            params.add("interval_min", cmin); params.add("interval_max", cmax)
            params.add("latency", lat); params.add("timeout", to)
            detail = (filter == 0 ? "\(peer) (\(AddressType(hci: peerType, address: peer).name))" : "filter accept list")
                + ", interval \(Fmt.interval1250(cmin))–\(Fmt.interval1250(cmax)), latency \(lat), timeout \(Fmt.timeout10(to))"
        case 0x2043: // LE Extended Create Connection [v1]
            let filter = try p.u8(), own = try p.u8(), peerType = try p.u8()
            let peer = try p.address()
            let phys = try p.u8()
            params.add("filter_policy", filter); params.add("own_address_type", own)
            params.add("peer_address_type", peerType); params.add("peer_address", peer.description)
            params.add("initiating_phys", phys)
            var per: [FieldValue] = []
            var first = ""
            for bit in 0..<3 where phys & (1 << bit) != 0 {
                let si = Int(try p.u16le()), sw = Int(try p.u16le())
                let cmin = Int(try p.u16le()), cmax = Int(try p.u16le()), lat = Int(try p.u16le()), to = Int(try p.u16le())
                _ = try p.u16le(); _ = try p.u16le()
                let phyName = bit == 0 ? "LE 1M" : bit == 1 ? "LE 2M" : "LE Coded"
                per.append(.object(["phy": .string(phyName), "scan_interval": .int(si), "scan_window": .int(sw),
                                    "interval_min": .int(cmin), "interval_max": .int(cmax), "latency": .int(lat),
                                    "timeout": .int(to)]))
                if first.isEmpty {
                    first = ", interval \(Fmt.interval1250(cmin))–\(Fmt.interval1250(cmax)), latency \(lat), timeout \(Fmt.timeout10(to))"
                }
            }
            params.add("phys", .list(per))
            detail = (filter == 0 ? "\(peer) (\(AddressType(hci: peerType, address: peer).name))" : "filter accept list") + first
        case 0x2041: // LE Set Extended Scan Parameters
            let own = try p.u8(), filter = try p.u8(), phys = try p.u8()
            params.add("own_address_type", own); params.add("filter_policy", filter); params.add("scanning_phys", phys)
            var per: [FieldValue] = []
            for bit in 0..<3 where phys & (1 << bit) != 0 {
                let type = try p.u8()
                let interval = Int(try p.u16le()), window = Int(try p.u16le())
                per.append(.object(["scan_type": .string(type == 1 ? "active" : "passive"),
                                    "interval": .int(interval), "window": .int(window)]))
                if detail.isEmpty {
                    detail = "\(type == 1 ? "active" : "passive"), interval \(Fmt.interval625(interval)), window \(Fmt.interval625(window))"
                }
            }
            params.add("phys", .list(per))
        case 0x2042: // LE Set Extended Scan Enable
            let e = try p.u8(), dup = try p.u8()
            let duration = Int(try p.u16le()), period = Int(try p.u16le())
            params.add("enable", e != 0); params.add("filter_duplicates", Int(dup))
            params.add("duration", duration); params.add("period", period)
            detail = "\(HCIText.enabled(e)), duplicates \(dup == 0 ? "kept" : "filtered")"
        case 0x2036: // LE Set Extended Advertising Parameters [v1]
            let set = try p.u8()
            let props = try p.u16le()
            let minI = Int(try p.u24le()), maxI = Int(try p.u24le())
            params.add("advertising_handle", set); params.add("properties", Int(props))
            params.add("interval_min", minI); params.add("interval_max", maxI)
            detail = "set \(set), properties \(Hex.hex(props, width: 4)), interval \(Fmt.interval625(minI))–\(Fmt.interval625(maxI))"
        case 0x2037, 0x2038: // LE Set Extended Advertising / Scan Response Data
            let set = try p.u8(), op = try p.u8(), frag = try p.u8()
            let n = Int(try p.u8())
            let d = try p.bytes(min(n, p.remaining))
            params.add("advertising_handle", set); params.add("operation", op); params.add("fragment_preference", frag)
            params.add("data", hex: d)
            let ads = ADParser.parse(d)
            let described = ADParser.describe(ads)
            params.add("ad", described.fields)
            detail = "set \(set): " + described.text
        case 0x2039: // LE Set Extended Advertising Enable
            let e = try p.u8(), n = Int(try p.u8())
            params.add("enable", e != 0)
            var sets: [FieldValue] = []
            for _ in 0..<n {
                let h = try p.u8(); let dur = Int(try p.u16le()); let maxEv = try p.u8()
                sets.append(.object(["advertising_handle": .int(Int(h)), "duration": .int(dur), "max_events": .int(Int(maxEv))]))
            }
            params.add("sets", .list(sets))
            detail = "\(HCIText.enabled(e)), \(n) set\(n == 1 ? "" : "s")"
        case 0x2013: // LE Connection Update
            let h = try p.u16le() & 0x0FFF
            let cmin = Int(try p.u16le()), cmax = Int(try p.u16le()), lat = Int(try p.u16le()), to = Int(try p.u16le())
            handle = h
            params.add("handle", h); params.add("interval_min", cmin); params.add("interval_max", cmax)
            params.add("latency", lat); params.add("timeout", to)
            detail = "handle \(Hex.hex(h, width: 4)), interval \(Fmt.interval1250(cmin))–\(Fmt.interval1250(cmax)), latency \(lat), timeout \(Fmt.timeout10(to))"
        case 0x2019: // LE Enable Encryption
            let h = try p.u16le() & 0x0FFF
            let rand = try p.array(8)
            let ediv = try p.u16le()
            let ltk = try p.array(16)
            handle = h
            params.add("handle", h); params.add("random", hex: rand); params.add("ediv", Int(ediv)); params.add("ltk", hex: ltk)
            detail = "handle \(Hex.hex(h, width: 4)), EDIV \(Hex.hex(ediv, width: 4))"
        case 0x201A: // LE Long Term Key Request Reply
            let h = try p.u16le() & 0x0FFF
            let ltk = try p.array(16)
            handle = h
            params.add("handle", h); params.add("ltk", hex: ltk)
            detail = "handle \(Hex.hex(h, width: 4))"
        case 0x2022: // LE Set Data Length
            let h = try p.u16le() & 0x0FFF
            let octets = Int(try p.u16le()), time = Int(try p.u16le())
            handle = h
            params.add("handle", h); params.add("tx_octets", octets); params.add("tx_time", time)
            detail = "handle \(Hex.hex(h, width: 4)), \(octets) octets, \(time) µs"
        case 0x2032: // LE Set PHY
            let h = try p.u16le() & 0x0FFF
            let all = try p.u8(), tx = try p.u8(), rx = try p.u8()
            handle = h
            params.add("handle", h); params.add("all_phys", all); params.add("tx_phys", tx); params.add("rx_phys", rx)
            detail = "handle \(Hex.hex(h, width: 4)), tx \(Hex.hex(tx, width: 2)), rx \(Hex.hex(rx, width: 2))"
        default:
            if length > 0 { params.add("parameters", hex: p.rest()) }
        }
        if !params.isEmpty { f.add("parameters", params) }
        let summary = detail.isEmpty ? name : "\(name): \(detail)"
        return Decoded(opcode: opcode, summary: summary, fields: f, handle: handle)
    }

    static func advParamType(_ t: UInt8) -> String {
        switch t {
        case 0: return "ADV_IND"
        case 1: return "ADV_DIRECT_IND (high duty)"
        case 2: return "ADV_SCAN_IND"
        case 3: return "ADV_NONCONN_IND"
        case 4: return "ADV_DIRECT_IND (low duty)"
        default: return "type \(Hex.hex(t, width: 2))"
        }
    }
}
