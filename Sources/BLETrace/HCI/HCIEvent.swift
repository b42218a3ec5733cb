/// What an HCI event means for the connection tracker.
public enum ConnectionChange: Sendable {
    case opened(handle: UInt16, peer: BDAddr, peerType: AddressType, role: UInt8, interval: Int, latency: Int, timeout: Int, le: Bool)
    case closed(handle: UInt16, reason: UInt8)
    case updated(handle: UInt16, interval: Int, latency: Int, timeout: Int)
    case encryption(handle: UInt16, enabled: Bool)
}

/// One advertising report from an HCI event, before AD decoding.
public struct AdvertisingReport: Sendable {
    public var eventType: String
    public var connectable: Bool
    public var scannable: Bool
    public var scanResponse: Bool
    public var address: BDAddr
    public var addressType: AddressType
    public var rssi: Int?
    public var txPower: Int?
    public var data: ArraySlice<UInt8>
    /// Extended reports: more data follows in a later report (status "incomplete, more data to come").
    public var incomplete: Bool = false
    /// Extended reports: the data was truncated by the controller.
    public var truncated: Bool = false
    public var sid: Int? = nil
    public var directAddress: BDAddr? = nil
}

/// Decodes HCI event packets (event code, parameter length, parameters).
public enum HCIEventDecoder {
    public struct Decoded {
        public var code: UInt8
        public var subevent: UInt8?
        public var summary: String
        public var fields: Fields
        public var handle: UInt16?
        public var change: ConnectionChange?
        public var reports: [AdvertisingReport] = []
        /// For Command Complete/Status: the opcode the event answers.
        public var commandOpcode: UInt16?
    }

    public static func decode(_ data: ArraySlice<UInt8>) throws -> Decoded {
        var c = ByteCursor(data)
        let code = try c.u8()
        let length = Int(try c.u8())
        var f = Fields()
        f.add("event", Int(code))
        let name = HCIText.eventName(code)
        f.add("name", name)
        if c.remaining < length {
            throw ByteError.truncated(offset: c.offset, needed: length, available: c.remaining)
        }
        var p = ByteCursor(try c.bytes(length))
        var d = Decoded(code: code, subevent: nil, summary: name, fields: f, handle: nil, change: nil)
        var params = Fields()
        var detail = ""
        switch code {
        case 0x05: // Disconnection Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF, reason = try p.u8()
            d.handle = h
            params.add("status", status); params.add("status_name", HCIText.status(status))
            params.add("handle", h); params.add("reason", reason); params.add("reason_name", HCIText.status(reason))
            detail = status == 0 ? "handle \(Hex.hex(h, width: 4)), reason \(HCIText.status(reason))"
                : "failed: \(HCIText.status(status))"
            if status == 0 { d.change = .closed(handle: h, reason: reason) }
        case 0x03: // Connection Complete (BR/EDR)
            let status = try p.u8(), h = try p.u16le() & 0x0FFF
            let a = try p.address()
            let link = try p.u8(), enc = try p.u8()
            d.handle = h
            params.add("status", status); params.add("status_name", HCIText.status(status))
            params.add("handle", h); params.add("address", a.description)
            params.add("link_type", link); params.add("encryption", enc != 0)
            detail = status == 0 ? "\(a), handle \(Hex.hex(h, width: 4))" : "failed: \(HCIText.status(status))"
            if status == 0 && link == 1 {
                d.change = .opened(handle: h, peer: a, peerType: .public, role: 0xFF, interval: 0, latency: 0, timeout: 0, le: false)
            }
        case 0x08, 0x59: // Encryption Change v1 / v2
            let status = try p.u8(), h = try p.u16le() & 0x0FFF, enabled = try p.u8()
            d.handle = h
            params.add("status", status); params.add("status_name", HCIText.status(status))
            params.add("handle", h); params.add("encryption_enabled", Int(enabled))
            var keySize: UInt8? = nil
            if code == 0x59 { keySize = try p.u8(); params.add("key_size", keySize!) }
            let state = enabled == 0 ? "off" : enabled == 1 ? "on (AES-CCM)" : enabled == 2 ? "on (E0/AES-CCM BR/EDR)" : "value \(enabled)"
            detail = status == 0
                ? "handle \(Hex.hex(h, width: 4)), encryption \(state)" + (keySize.map { ", key size \($0)" } ?? "")
                : "handle \(Hex.hex(h, width: 4)), failed: \(HCIText.status(status))"
            if status == 0 { d.change = .encryption(handle: h, enabled: enabled != 0) }
        case 0x30: // Encryption Key Refresh Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF
            d.handle = h
            params.add("status", status); params.add("status_name", HCIText.status(status)); params.add("handle", h)
            detail = "handle \(Hex.hex(h, width: 4)), \(HCIText.status(status))"
        case 0x0C: // Read Remote Version Information Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF
            let version = try p.u8(), company = try p.u16le(), sub = try p.u16le()
            d.handle = h
            params.add("status", status); params.add("status_name", HCIText.status(status)); params.add("handle", h)
            params.add("version", version); params.add("version_name", coreVersion(version))
            params.add("company", Int(company))
            let companyName = AssignedNumbers.companyName(company)
            if let n = companyName { params.add("company_name", n) }
            params.add("subversion", Int(sub))
            detail = status == 0
                ? "handle \(Hex.hex(h, width: 4)), Bluetooth \(coreVersion(version)), \(companyName ?? Hex.hex(company, width: 4)), subversion \(Hex.hex(sub, width: 4))"
                : "failed: \(HCIText.status(status))"
        case 0x0E: // Command Complete
            let credits = try p.u8(), opcode = try p.u16le()
            d.commandOpcode = opcode
            params.add("num_packets", credits); params.add("command_opcode", Int(opcode))
            let cname = HCIText.commandName(opcode)
            params.add("command", cname)
            if p.remaining > 0 {
                let status = try p.peek()
                params.add("status", status); params.add("status_name", HCIText.status(status))
                detail = "\(cname): \(HCIText.status(status))"
                let ret = p.rest()
                if ret.count > 1 {
                    var r = ByteCursor(ret.dropFirst())
                    let extra = try commandReturn(opcode, &r, &params)
                    if !extra.isEmpty { detail += ", " + extra }
                    if r.remaining > 0 { params.add("return_parameters", hex: ret.dropFirst()) }
                }
            } else {
                detail = cname
            }
        case 0x0F: // Command Status
            let status = try p.u8(), credits = try p.u8(), opcode = try p.u16le()
            d.commandOpcode = opcode
            params.add("status", status); params.add("status_name", HCIText.status(status))
            params.add("num_packets", credits); params.add("command_opcode", Int(opcode))
            let cname = HCIText.commandName(opcode)
            params.add("command", cname)
            detail = "\(cname): \(status == 0 ? "Pending" : HCIText.status(status))"
        case 0x13: // Number of Completed Packets
            let n = Int(try p.u8())
            var list: [FieldValue] = []
            var parts: [String] = []
            for _ in 0..<n {
                let h = try p.u16le() & 0x0FFF, count = Int(try p.u16le())
                list.append(.object(["handle": .int(Int(h)), "count": .int(count)]))
                parts.append("\(Hex.hex(h, width: 4)): \(count)")
            }
            if n == 1, case let .object(o) = list[0], let h = o["handle"]?.intValue { d.handle = UInt16(truncatingIfNeeded: h) }
            params.add("handles", .list(list))
            detail = parts.joined(separator: ", ")
        case 0x10: // Hardware Error
            let hw = try p.u8()
            params.add("hardware_code", hw)
            detail = "code \(Hex.hex(hw, width: 2))"
        case 0x1A: // Data Buffer Overflow
            let link = try p.u8()
            params.add("link_type", link)
        case 0x3E:
            return try decodeLEMeta(&p, base: d)
        case 0xFF:
            params.add("data", hex: p.rest())
            detail = "\(length) bytes"
        default:
            if p.remaining > 0 { params.add("parameters", hex: p.rest()) }
        }
        if !params.isEmpty { d.fields.add("parameters", params) }
        d.summary = detail.isEmpty ? name : "\(name): \(detail)"
        return d
    }

    /// Return parameters (after the status byte) of the Command Complete events worth decoding.
    static func commandReturn(_ opcode: UInt16, _ r: inout ByteCursor, _ params: inout Fields) throws -> String {
        switch opcode {
        case 0x1009: // Read BD_ADDR
            let a = try r.address()
            params.add("address", a.description)
            return a.description
        case 0x1001: // Read Local Version Information
            let hci = try r.u8(); _ = try r.u16le(); let lmp = try r.u8()
            let company = try r.u16le(); let sub = try r.u16le()
            params.add("hci_version", hci); params.add("lmp_version", lmp)
            params.add("company", Int(company)); params.add("subversion", Int(sub))
            let cname = AssignedNumbers.companyName(company) ?? Hex.hex(company, width: 4)
            return "HCI \(coreVersion(hci)), \(cname)"
        case 0x2002: // LE Read Buffer Size [v1]
            let len = Int(try r.u16le()), num = Int(try r.u8())
            params.add("le_acl_data_packet_length", len); params.add("total_num_le_acl_data_packets", num)
            return "\(num) × \(len) bytes"
        case 0x2007: // LE Read Advertising Physical Channel Tx Power
            let p = Int(try r.i8())
            params.add("tx_power", p)
            return "\(p) dBm"
        case 0x0C14: // Read Local Name
            let raw = try r.bytes(min(248, r.remaining))
            let name = String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            params.add("local_name", name)
            return "\"\(name)\""
        default:
            return ""
        }
    }

    static func decodeLEMeta(_ p: inout ByteCursor, base: Decoded) throws -> Decoded {
        var d = base
        let sub = try p.u8()
        d.subevent = sub
        let name = HCIText.subeventName(sub)
        d.fields.add("subevent", Int(sub))
        d.fields.add("subevent_name", name)
        var params = Fields()
        var detail = ""
        switch sub {
        case 0x01, 0x0A, 0x29: // LE (Enhanced) Connection Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF, role = try p.u8(), peerType = try p.u8()
            let peer = try p.address()
            var localRPA: BDAddr? = nil, peerRPA: BDAddr? = nil
            if sub != 0x01 { localRPA = try p.address(); peerRPA = try p.address() }
            let interval = Int(try p.u16le()), latency = Int(try p.u16le()), timeout = Int(try p.u16le())
            let sca = try p.u8()
            if sub == 0x29 {
                let advHandle = try p.u8(), sync = try p.u16le()
                params.add("advertising_handle", advHandle); params.add("sync_handle", Int(sync))
            }
            let type = AddressType(hci: peerType, address: peer)
            d.handle = h
            params.add("status", status); params.add("status_name", HCIText.status(status))
            params.add("handle", h); params.add("role", HCIText.role(role))
            params.add("peer_address_type", type.name); params.add("peer_address", peer.description)
            if let l = localRPA, l.value != 0 { params.add("local_rpa", l.description) }
            if let r = peerRPA, r.value != 0 { params.add("peer_rpa", r.description) }
            params.add("interval", interval); params.add("latency", latency); params.add("timeout", timeout)
            params.add("clock_accuracy", sca)
            if status == 0 {
                detail = "handle \(Hex.hex(h, width: 4)), \(peer) (\(type.name)), \(HCIText.role(role)), interval \(Fmt.interval1250(interval)), latency \(latency), timeout \(Fmt.timeout10(timeout))"
                d.change = .opened(handle: h, peer: peer, peerType: type, role: role, interval: interval,
                                   latency: latency, timeout: timeout, le: true)
            } else {
                detail = "failed: \(HCIText.status(status))"
            }
        case 0x02: // LE Advertising Report
            let n = Int(try p.u8())
            for _ in 0..<n {
                let type = try p.u8(), addrType = try p.u8()
                let a = try p.address()
                let len = Int(try p.u8())
                let data = try p.bytes(len)
                let rssi = Int(try p.i8())
                d.reports.append(AdvertisingReport(
                    eventType: HCIText.legacyAdvType(type), connectable: type == 0 || type == 1,
                    scannable: type == 0 || type == 2, scanResponse: type == 4, address: a,
                    addressType: AddressType(hci: addrType, address: a), rssi: rssi == 127 ? nil : rssi,
                    txPower: nil, data: data))
            }
        case 0x0D: // LE Extended Advertising Report
            let n = Int(try p.u8())
            for _ in 0..<n {
                let type = try p.u16le(), addrType = try p.u8()
                let a = try p.address()
                let primary = try p.u8(), secondary = try p.u8(), sid = try p.u8()
                let tx = Int(try p.i8()), rssi = Int(try p.i8())
                _ = try p.u16le() // periodic advertising interval
                let directType = try p.u8()
                let direct = try p.address()
                let len = Int(try p.u8())
                let data = try p.bytes(len)
                _ = primary; _ = secondary; _ = directType
                let legacy = type & 0x10 != 0
                let status = (type >> 5) & 0x3
                var typeName: String
                if legacy {
                    switch type & 0x1F {
                    case 0x13: typeName = "ADV_IND"
                    case 0x15: typeName = "ADV_DIRECT_IND"
                    case 0x12: typeName = "ADV_SCAN_IND"
                    case 0x10: typeName = "ADV_NONCONN_IND"
                    case 0x1B: typeName = "SCAN_RSP to ADV_IND"
                    case 0x1A: typeName = "SCAN_RSP to ADV_SCAN_IND"
                    default: typeName = "legacy \(Hex.hex(type, width: 4))"
                    }
                } else {
                    var parts: [String] = []
                    if type & 0x01 != 0 { parts.append("connectable") }
                    if type & 0x02 != 0 { parts.append("scannable") }
                    if type & 0x04 != 0 { parts.append("directed") }
                    if type & 0x08 != 0 { parts.append("scan response") }
                    typeName = "extended" + (parts.isEmpty ? "" : " " + parts.joined(separator: ", "))
                }
                var report = AdvertisingReport(
                    eventType: typeName, connectable: type & 0x01 != 0, scannable: type & 0x02 != 0,
                    scanResponse: type & 0x08 != 0, address: a,
                    addressType: addrType == 0xFF ? .anonymous : AddressType(hci: addrType, address: a),
                    rssi: rssi == 127 ? nil : rssi, txPower: tx == 127 ? nil : tx, data: data)
                report.incomplete = status == 1
                report.truncated = status == 2
                report.sid = sid == 0xFF ? nil : Int(sid)
                if type & 0x04 != 0 { report.directAddress = direct }
                d.reports.append(report)
            }
        case 0x0B: // LE Directed Advertising Report
            let n = Int(try p.u8())
            for _ in 0..<n {
                let type = try p.u8(), addrType = try p.u8()
                let a = try p.address()
                _ = try p.u8()
                let direct = try p.address()
                let rssi = Int(try p.i8())
                var report = AdvertisingReport(
                    eventType: HCIText.legacyAdvType(type), connectable: true, scannable: false, scanResponse: false,
                    address: a, addressType: AddressType(hci: addrType, address: a), rssi: rssi == 127 ? nil : rssi,
                    txPower: nil, data: [])
                report.directAddress = direct
                d.reports.append(report)
            }
        case 0x03: // LE Connection Update Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF
            let interval = Int(try p.u16le()), latency = Int(try p.u16le()), timeout = Int(try p.u16le())
            d.handle = h
            params.add("status", status); params.add("status_name", HCIText.status(status)); params.add("handle", h)
            params.add("interval", interval); params.add("latency", latency); params.add("timeout", timeout)
            if status == 0 {
                detail = "handle \(Hex.hex(h, width: 4)), interval \(Fmt.interval1250(interval)), latency \(latency), timeout \(Fmt.timeout10(timeout))"
                d.change = .updated(handle: h, interval: interval, latency: latency, timeout: timeout)
            } else {
                detail = "handle \(Hex.hex(h, width: 4)), failed: \(HCIText.status(status))"
            }
        case 0x04: // LE Read Remote Features Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF
            let features = try p.array(8)
            d.handle = h
            params.add("status", status); params.add("status_name", HCIText.status(status)); params.add("handle", h)
            params.add("features", hex: features)
            detail = "handle \(Hex.hex(h, width: 4)), \(HCIText.status(status)), features \(Hex.string(features))"
        case 0x05: // LE Long Term Key Request
            let h = try p.u16le() & 0x0FFF
            let rand = try p.array(8)
            let ediv = try p.u16le()
            d.handle = h
            params.add("handle", h); params.add("random", hex: rand); params.add("ediv", Int(ediv))
            detail = "handle \(Hex.hex(h, width: 4)), EDIV \(Hex.hex(ediv, width: 4))"
        case 0x06: // LE Remote Connection Parameter Request
            let h = try p.u16le() & 0x0FFF
            let cmin = Int(try p.u16le()), cmax = Int(try p.u16le()), lat = Int(try p.u16le()), to = Int(try p.u16le())
            d.handle = h
            params.add("handle", h); params.add("interval_min", cmin); params.add("interval_max", cmax)
            params.add("latency", lat); params.add("timeout", to)
            detail = "handle \(Hex.hex(h, width: 4)), interval \(Fmt.interval1250(cmin))–\(Fmt.interval1250(cmax)), latency \(lat), timeout \(Fmt.timeout10(to))"
        case 0x07: // LE Data Length Change
            let h = try p.u16le() & 0x0FFF
            let txO = Int(try p.u16le()), txT = Int(try p.u16le()), rxO = Int(try p.u16le()), rxT = Int(try p.u16le())
            d.handle = h
            params.add("handle", h); params.add("max_tx_octets", txO); params.add("max_tx_time", txT)
            params.add("max_rx_octets", rxO); params.add("max_rx_time", rxT)
            detail = "handle \(Hex.hex(h, width: 4)), tx \(txO) octets/\(txT) µs, rx \(rxO) octets/\(rxT) µs"
        case 0x0C: // LE PHY Update Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF, tx = try p.u8(), rx = try p.u8()
            d.handle = h
            params.add("status", status); params.add("status_name", HCIText.status(status)); params.add("handle", h)
            params.add("tx_phy", HCIText.phy(tx)); params.add("rx_phy", HCIText.phy(rx))
            detail = status == 0 ? "handle \(Hex.hex(h, width: 4)), tx \(HCIText.phy(tx)), rx \(HCIText.phy(rx))"
                : "handle \(Hex.hex(h, width: 4)), failed: \(HCIText.status(status))"
        case 0x14: // LE Channel Selection Algorithm
            let h = try p.u16le() & 0x0FFF, alg = try p.u8()
            d.handle = h
            params.add("handle", h); params.add("algorithm", Int(alg) + 1)
            detail = "handle \(Hex.hex(h, width: 4)), algorithm #\(Int(alg) + 1)"
        default:
            if p.remaining > 0 { params.add("parameters", hex: p.rest()) }
        }
        if !params.isEmpty { d.fields.add("parameters", params) }
        d.summary = detail.isEmpty ? name : "\(name): \(detail)"
        return d
    }

    /// Bluetooth Core version from an HCI/LMP version number.
    public static func coreVersion(_ v: UInt8) -> String {
        let names = ["1.0b", "1.1", "1.2", "2.0", "2.1", "3.0", "4.0", "4.1", "4.2", "5.0", "5.1", "5.2", "5.3", "5.4", "6.0", "6.1"]
        return Int(v) < names.count ? names[Int(v)] : "version \(Hex.hex(v, width: 2))"
    }
}
