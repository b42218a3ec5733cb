/// What an HCI event means for the connection tracker.
public enum ConnectionChange: Sendable {
    case opened(handle: UInt16, peer: BDAddr, peerType: AddressType, role: UInt8, interval: Int, latency: Int, timeout: Int, le: Bool)
    case closed(handle: UInt16, reason: UInt8)
    case updated(handle: UInt16, interval: Int, latency: Int, timeout: Int)
    case encryption(handle: UInt16, enabled: Bool)
}

/// Decodes HCI event packets (event code, parameter length, parameters) into typed bodies.
public enum HCIEventDecoder {
    /// An event's typed body: an HCI event, or the advertising reports of an LE advertising report event.
    public enum Decoded {
        case hci(HCIEventBody)
        case adv(AdvertisingBody)
    }

    public static func decode(_ data: ArraySlice<UInt8>) throws -> Decoded {
        // Number Of Completed Packets, the most frequent event of a busy link, read in place: what the cursors
        // below make of it (its pairs, whole, within the parameter length), without their holds on the bytes.
        let s = data.startIndex
        if data.count >= 3, data[s] == 0x13 {
            let length = Int(data[s &+ 1]), pairs = Int(data[s &+ 2])
            if length <= data.count &- 2, 1 &+ 4 &* pairs <= length {
                return .hci(HCIEventBody(code: 0x13, params: .completedPackets(CompletedPackets(pairs: data[(s &+ 3)..<(s &+ 3 &+ 4 &* pairs)]))))
            }
        }
        // An LE Advertising Report whose reports are all whole, checked in place: what the cursors below make of it.
        if data.count >= 4, data[s] == 0x3E, data[s &+ 2] == 0x02 {
            let end = s &+ 2 &+ Int(data[s &+ 1])
            if end <= data.endIndex, end >= s &+ 4 {
                var i = s &+ 4, whole = true
                for _ in 0..<Int(data[s &+ 3]) {
                    guard let n = AdvertisingReports.wholeLegacyLength(data, at: i, end: end) else { whole = false; break }
                    i &+= n
                }
                if whole { return .adv(AdvertisingBody(.hci(subevent: 0x02, reports: data[(s &+ 3)..<end]))) }
            }
        }
        var c = ByteCursor(data)
        let code = try c.u8()
        let length = Int(try c.u8())
        if c.remaining < length {
            throw ByteError.truncated(offset: c.offset, needed: length, available: c.remaining)
        }
        var p = ByteCursor(try c.bytes(length))
        let params: HCIEventParams
        switch code {
        case 0x05: // Disconnection Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF, reason = try p.u8()
            params = .disconnectionComplete(status: status, handle: h, reason: reason)
        case 0x03: // Connection Complete (BR/EDR)
            let status = try p.u8(), h = try p.u16le() & 0x0FFF
            let a = try p.address()
            let link = try p.u8(), enc = try p.u8()
            params = .connectionComplete(status: status, handle: h, address: a, linkType: link, encryption: enc)
        case 0x08, 0x59: // Encryption Change v1 / v2
            let status = try p.u8(), h = try p.u16le() & 0x0FFF, enabled = try p.u8()
            let keySize: UInt8? = code == 0x59 ? try p.u8() : nil
            params = .encryptionChange(status: status, handle: h, enabled: enabled, keySize: keySize)
        case 0x30: // Encryption Key Refresh Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF
            params = .encryptionKeyRefresh(status: status, handle: h)
        case 0x0C: // Read Remote Version Information Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF
            let version = try p.u8(), company = try p.u16le(), sub = try p.u16le()
            params = .remoteVersion(status: status, handle: h, version: version, company: company, subversion: sub)
        case 0x0E: // Command Complete
            let credits = try p.u8(), opcode = try p.u16le()
            let ret = p.rest()
            var decoded = CommandReturn.none
            var extra = false
            if ret.count > 1 {
                var r = ByteCursor(ret.dropFirst())
                decoded = try commandReturn(opcode, &r)
                extra = r.remaining > 0
            }
            params = .commandComplete(CommandComplete(credits: credits, opcode: opcode, returned: ret, decoded: decoded, extra: extra))
        case 0x0F: // Command Status
            let status = try p.u8(), credits = try p.u8(), opcode = try p.u16le()
            params = .commandStatus(status: status, credits: credits, opcode: opcode)
        case 0x13: // Number of Completed Packets
            let n = Int(try p.u8())
            let start = p.index
            for _ in 0..<n { _ = try p.u16le(); _ = try p.u16le() }
            params = .completedPackets(CompletedPackets(pairs: p.bytes[start..<p.index]))
        case 0x10: // Hardware Error
            params = .hardwareError(code: try p.u8())
        case 0x1A: // Data Buffer Overflow
            params = .dataBufferOverflow(linkType: try p.u8())
        case 0x3E:
            let sub = try p.u8()
            switch sub {
            case 0x02, 0x0D, 0x0B: // LE (Extended, Directed) Advertising Report
                let reports = p.rest()
                var v = p
                v.index = reports.startIndex
                try AdvertisingReports.validate(subevent: sub, &v)
                return .adv(AdvertisingBody(.hci(subevent: sub, reports: reports)))
            default:
                params = .le(subevent: sub, try decodeLEMeta(sub, &p))
            }
        case 0xFF:
            params = .vendor(p.rest())
        default:
            params = ClassicEventParams.handles(code) ? .classic(try ClassicEventParams.parse(code, &p)) : .other(p.rest())
        }
        return .hci(HCIEventBody(code: code, params: params))
    }

    /// Return parameters (after the status byte) of the Command Complete events worth decoding.
    static func commandReturn(_ opcode: UInt16, _ r: inout ByteCursor) throws -> CommandReturn {
        switch opcode {
        case 0x1009: // Read BD_ADDR
            return .address(try r.address())
        case 0x1001: // Read Local Version Information
            let hci = try r.u8(); _ = try r.u16le(); let lmp = try r.u8()
            let company = try r.u16le(); let sub = try r.u16le()
            return .localVersion(hci: hci, lmp: lmp, company: company, subversion: sub)
        case 0x1005: // Read Buffer Size
            let acl = try r.u16le(), sco = try r.u8(), aclCount = try r.u16le(), scoCount = try r.u16le()
            return .bufferSize(aclLength: acl, scoLength: sco, aclCount: aclCount, scoCount: scoCount)
        case 0x2002: // LE Read Buffer Size [v1]
            let len = try r.u16le(), num = try r.u8()
            return .leBufferSize(length: len, count: num)
        case 0x2007: // LE Read Advertising Physical Channel Tx Power
            return .txPower(try r.i8())
        case 0x0C14: // Read Local Name
            return .localName(try r.bytes(min(248, r.remaining)))
        default:
            return try ISOReturn.parse(opcode, &r).map { .iso($0) } ?? .none
        }
    }

    static func decodeLEMeta(_ sub: UInt8, _ p: inout ByteCursor) throws -> LEMetaParams {
        switch sub {
        case 0x01, 0x0A, 0x29: // LE (Enhanced) Connection Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF, role = try p.u8(), peerType = try p.u8()
            let peer = try p.address()
            var localRPA = BDAddr(0), peerRPA = BDAddr(0)
            if sub != 0x01 { localRPA = try p.address(); peerRPA = try p.address() }
            let interval = try p.u16le(), latency = try p.u16le(), timeout = try p.u16le()
            let sca = try p.u8()
            var advHandle: UInt8 = 0, sync: UInt16 = 0
            if sub == 0x29 { advHandle = try p.u8(); sync = try p.u16le() }
            return .connectionComplete(LEConnectionComplete(
                status: status, role: role, peerType: peerType, clockAccuracy: sca, handle: h, interval: interval,
                latency: latency, timeout: timeout, peer: peer, localRPA: localRPA, peerRPA: peerRPA,
                advertisingHandle: advHandle, syncHandle: sync))
        case 0x03: // LE Connection Update Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF
            let interval = try p.u16le(), latency = try p.u16le(), timeout = try p.u16le()
            return .connectionUpdate(status: status, handle: h, interval: interval, latency: latency, timeout: timeout)
        case 0x04: // LE Read Remote Features Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF
            return .remoteFeatures(status: status, handle: h, features: try p.bytes(8))
        case 0x05: // LE Long Term Key Request
            let h = try p.u16le() & 0x0FFF
            let rand = try p.bytes(8)
            return .longTermKeyRequest(handle: h, random: rand, ediv: try p.u16le())
        case 0x06: // LE Remote Connection Parameter Request
            let h = try p.u16le() & 0x0FFF
            let cmin = try p.u16le(), cmax = try p.u16le(), lat = try p.u16le(), to = try p.u16le()
            return .remoteConnectionParameterRequest(handle: h, intervalMin: cmin, intervalMax: cmax, latency: lat, timeout: to)
        case 0x07: // LE Data Length Change
            let h = try p.u16le() & 0x0FFF
            let txO = try p.u16le(), txT = try p.u16le(), rxO = try p.u16le(), rxT = try p.u16le()
            return .dataLengthChange(handle: h, maxTxOctets: txO, maxTxTime: txT, maxRxOctets: rxO, maxRxTime: rxT)
        case 0x0C: // LE PHY Update Complete
            let status = try p.u8(), h = try p.u16le() & 0x0FFF, tx = try p.u8(), rx = try p.u8()
            return .phyUpdate(status: status, handle: h, tx: tx, rx: rx)
        case 0x14: // LE Channel Selection Algorithm
            let h = try p.u16le() & 0x0FFF, alg = try p.u8()
            return .channelSelection(handle: h, algorithm: alg)
        default:
            return ISOEvent.handles(sub) ? .iso(try ISOEvent.parse(sub, &p)) : .other(p.rest())
        }
    }

    /// Bluetooth Core version from an HCI/LMP version number.
    public static func coreVersion(_ v: UInt8) -> String {
        let names = ["1.0b", "1.1", "1.2", "2.0", "2.1", "3.0", "4.0", "4.1", "4.2", "5.0", "5.1", "5.2", "5.3", "5.4", "6.0", "6.1"]
        return Int(v) < names.count ? names[Int(v)] : "version \(Hex.hex(v, width: 2))"
    }
}
