/// Decodes HCI command packets (opcode, parameter length, parameters) into typed bodies.
public enum HCICommandDecoder {
    public static func decode(_ data: ArraySlice<UInt8>) throws -> HCICommandBody {
        var c = ByteCursor(data)
        let opcode = try c.u16le()
        let length = Int(try c.u8())
        if c.remaining < length {
            throw ByteError.truncated(offset: c.offset, needed: length, available: c.remaining)
        }
        var p = ByteCursor(try c.bytes(length))
        return HCICommandBody(opcode: opcode, params: try parameters(opcode, &p))
    }

    static func parameters(_ opcode: UInt16, _ p: inout ByteCursor) throws -> HCICommandParams {
        switch opcode {
        case 0x0406: // Disconnect
            let h = try p.u16le() & 0x0FFF
            return .disconnect(handle: h, reason: try p.u8())
        case 0x041D, 0x2016, 0x201B, 0x1405, 0x0C27, 0x0411, 0x041B, 0x0804: // handle-only commands
            return .handleOnly(try p.u16le() & 0x0FFF)
        case 0x2005: // LE Set Random Address
            return .setRandomAddress(try p.address())
        case 0x2006: // LE Set Advertising Parameters
            let minI = try p.u16le(), maxI = try p.u16le()
            let type = try p.u8(), own = try p.u8(), peerType = try p.u8()
            let peer = try p.address()
            let map = try p.u8(), filter = try p.u8()
            return .setAdvertisingParameters(AdvertisingParameters(
                intervalMin: minI, intervalMax: maxI, type: type, ownAddressType: own, peerAddressType: peerType,
                channelMap: map, filter: filter, peer: peer))
        case 0x2008, 0x2009: // LE Set Advertising / Scan Response Data
            let n = try p.u8()
            return .advertisingData(length: n, data: try p.bytes(min(Int(n), p.remaining)))
        case 0x200A: // LE Set Advertising Enable
            return .advertisingEnable(try p.u8())
        case 0x200B: // LE Set Scan Parameters
            let type = try p.u8()
            let interval = try p.u16le(), window = try p.u16le()
            let own = try p.u8(), filter = try p.u8()
            return .scanParameters(type: type, interval: interval, window: window, ownAddressType: own, filter: filter)
        case 0x200C: // LE Set Scan Enable
            let e = try p.u8(), dup = try p.u8()
            return .scanEnable(enable: e, filterDuplicates: dup)
        case 0x200D: // LE Create Connection
            let si = try p.u16le(), sw = try p.u16le()
            let filter = try p.u8(), peerType = try p.u8()
            let peer = try p.address()
            let own = try p.u8()
            let cmin = try p.u16le(), cmax = try p.u16le(), lat = try p.u16le(), to = try p.u16le()
            _ = try p.u16le(); _ = try p.u16le()
            return .createConnection(CreateConnection(
                scanInterval: si, scanWindow: sw, filter: filter, peerAddressType: peerType, ownAddressType: own,
                intervalMin: cmin, intervalMax: cmax, latency: lat, timeout: to, peer: peer))
        case 0x2043: // LE Extended Create Connection [v1]
            let filter = try p.u8(), own = try p.u8(), peerType = try p.u8()
            let peer = try p.address()
            let phys = try p.u8()
            let start = p.index
            for bit in 0..<3 where phys & (1 << bit) != 0 {
                for _ in 0..<8 { _ = try p.u16le() }
            }
            return .extendedCreateConnection(ExtendedCreateConnection(
                filter: filter, ownAddressType: own, peerAddressType: peerType, phys: phys, peer: peer,
                perPHY: p.bytes[start..<p.index]))
        case 0x2041: // LE Set Extended Scan Parameters
            let own = try p.u8(), filter = try p.u8(), phys = try p.u8()
            let start = p.index
            for bit in 0..<3 where phys & (1 << bit) != 0 {
                _ = try p.u8(); _ = try p.u16le(); _ = try p.u16le()
            }
            return .extendedScanParameters(ownAddressType: own, filter: filter, phys: phys, perPHY: p.bytes[start..<p.index])
        case 0x2042: // LE Set Extended Scan Enable
            let e = try p.u8(), dup = try p.u8()
            let duration = try p.u16le(), period = try p.u16le()
            return .extendedScanEnable(enable: e, filterDuplicates: dup, duration: duration, period: period)
        case 0x2036: // LE Set Extended Advertising Parameters [v1]
            let set = try p.u8()
            let props = try p.u16le()
            let minI = try p.u24le(), maxI = try p.u24le()
            return .extendedAdvertisingParameters(set: set, properties: props, intervalMin: minI, intervalMax: maxI)
        case 0x2037, 0x2038: // LE Set Extended Advertising / Scan Response Data
            let set = try p.u8(), op = try p.u8(), frag = try p.u8()
            let n = Int(try p.u8())
            let d = try p.bytes(min(n, p.remaining))
            return .extendedAdvertisingData(set: set, operation: op, fragmentPreference: frag, data: d)
        case 0x2039: // LE Set Extended Advertising Enable
            let e = try p.u8(), n = Int(try p.u8())
            let start = p.index
            for _ in 0..<n { _ = try p.u8(); _ = try p.u16le(); _ = try p.u8() }
            return .extendedAdvertisingEnable(enable: e, sets: p.bytes[start..<p.index])
        case 0x2013: // LE Connection Update
            let h = try p.u16le() & 0x0FFF
            let cmin = try p.u16le(), cmax = try p.u16le(), lat = try p.u16le(), to = try p.u16le()
            return .connectionUpdate(handle: h, intervalMin: cmin, intervalMax: cmax, latency: lat, timeout: to)
        case 0x2019: // LE Enable Encryption
            let h = try p.u16le() & 0x0FFF
            let rand = try p.bytes(8)
            let ediv = try p.u16le()
            return .enableEncryption(handle: h, random: rand, ediv: ediv, ltk: try p.bytes(16))
        case 0x201A: // LE Long Term Key Request Reply
            let h = try p.u16le() & 0x0FFF
            return .longTermKeyReply(handle: h, ltk: try p.bytes(16))
        case 0x2022: // LE Set Data Length
            let h = try p.u16le() & 0x0FFF
            let octets = try p.u16le(), time = try p.u16le()
            return .setDataLength(handle: h, octets: octets, time: time)
        case 0x2032: // LE Set PHY
            let h = try p.u16le() & 0x0FFF
            let all = try p.u8(), tx = try p.u8(), rx = try p.u8()
            return .setPHY(handle: h, all: all, tx: tx, rx: rx)
        default:
            if let c = try ClassicCommandParams.parse(opcode, &p) { return .classic(c) }
            if let i = try ISOCommandParams.parse(opcode, &p) { return .iso(i) }
            return .other(p.rest())
        }
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
