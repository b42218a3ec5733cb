/// The LE isochronous and periodic advertising HCI commands (Core 5.4 Vol 4 Part E 7.8.97–7.8.115, 7.8.61–7.8.69):
/// CIG and CIS setup, BIG creation and synchronisation, ISO data paths, and the periodic advertising that
/// carries a broadcast's BASE. Typed parameters; names and text come from the renderers.
public enum ISOCommandParams: Sendable {
    /// 0x2062 LE Set CIG Parameters, 0x2063 LE Set CIG Parameters Test (`test` holds the test-only values).
    case setCIGParameters(CIGParameters)
    /// 0x2064 LE Create CIS: (CIS handle, ACL handle) pairs.
    case createCIS([CISPair])
    /// 0x2065 LE Remove CIG
    case removeCIG(cig: UInt8)
    /// 0x2066 LE Accept CIS Request
    case acceptCIS(handle: UInt16)
    /// 0x2067 LE Reject CIS Request
    case rejectCIS(handle: UInt16, reason: UInt8)
    /// 0x2068 LE Create BIG, 0x2069 LE Create BIG Test
    case createBIG(CreateBIG)
    /// 0x206A LE Terminate BIG
    case terminateBIG(big: UInt8, reason: UInt8)
    /// 0x206B LE BIG Create Sync
    case bigCreateSync(BIGCreateSync)
    /// 0x206C LE BIG Terminate Sync
    case bigTerminateSync(big: UInt8)
    /// 0x206D LE Request Peer SCA, 0x2061 LE Read ISO TX Sync, 0x2075 LE Read ISO Link Quality, 0x2072 / 0x2073
    /// LE ISO Read Test Counters / Test End: a connection handle.
    case isoHandle(UInt16)
    /// 0x206E LE Setup ISO Data Path
    case setupDataPath(SetupISODataPath)
    /// 0x206F LE Remove ISO Data Path: bit 0 input (host to controller), bit 1 output.
    case removeDataPath(handle: UInt16, directions: UInt8)
    /// 0x2074 LE Set Host Feature [v1]
    case setHostFeature(bit: UInt8, value: UInt8)
    /// 0x2044 LE Periodic Advertising Create Sync
    case periodicCreateSync(PeriodicCreateSync)
    /// 0x2046 LE Periodic Advertising Terminate Sync
    case periodicTerminateSync(handle: UInt16)
    /// 0x203E LE Set Periodic Advertising Parameters [v1]
    case periodicParameters(advertisingHandle: UInt8, intervalMin: UInt16, intervalMax: UInt16, properties: UInt16)
    /// 0x203F LE Set Periodic Advertising Data: the data (a broadcast source's BASE travels here).
    case periodicData(advertisingHandle: UInt8, operation: UInt8, data: ArraySlice<UInt8>)
    /// 0x2040 LE Set Periodic Advertising Enable
    case periodicEnable(enable: UInt8, advertisingHandle: UInt8)

    /// The handle the command is about (a CIS or BIS, or a periodic sync's handle is not a connection).
    var handle: UInt16? {
        switch self {
        case let .acceptCIS(h), let .rejectCIS(h, _), let .isoHandle(h), let .removeDataPath(h, _): return h
        case let .setupDataPath(p): return p.handle
        default: return nil
        }
    }

    /// Parameters of the isochronous and periodic advertising commands; nil for other opcodes.
    static func parse(_ opcode: UInt16, _ p: inout ByteCursor) throws -> ISOCommandParams? {
        switch opcode {
        case 0x2062, 0x2063:
            return .setCIGParameters(try CIGParameters.parse(test: opcode == 0x2063, &p))
        case 0x2064:
            let n = Int(try p.u8())
            var pairs: [CISPair] = []
            for _ in 0..<n { pairs.append(CISPair(cis: try p.u16le() & 0x0FFF, acl: try p.u16le() & 0x0FFF)) }
            return .createCIS(pairs)
        case 0x2065: return .removeCIG(cig: try p.u8())
        case 0x2066: return .acceptCIS(handle: try p.u16le() & 0x0FFF)
        case 0x2067:
            let h = try p.u16le() & 0x0FFF
            return .rejectCIS(handle: h, reason: try p.u8())
        case 0x2068, 0x2069: return .createBIG(try CreateBIG.parse(test: opcode == 0x2069, &p))
        case 0x206A:
            let big = try p.u8()
            return .terminateBIG(big: big, reason: try p.u8())
        case 0x206B: return .bigCreateSync(try BIGCreateSync.parse(&p))
        case 0x206C: return .bigTerminateSync(big: try p.u8())
        case 0x2061, 0x206D, 0x2072, 0x2073, 0x2075: return .isoHandle(try p.u16le() & 0x0FFF)
        case 0x206E: return .setupDataPath(try SetupISODataPath.parse(&p))
        case 0x206F:
            let h = try p.u16le() & 0x0FFF
            return .removeDataPath(handle: h, directions: try p.u8())
        case 0x2074:
            let bit = try p.u8()
            return .setHostFeature(bit: bit, value: try p.u8())
        case 0x2044: return .periodicCreateSync(try PeriodicCreateSync.parse(&p))
        case 0x2046: return .periodicTerminateSync(handle: try p.u16le() & 0x0FFF)
        case 0x203E:
            let a = try p.u8(), lo = try p.u16le(), hi = try p.u16le()
            return .periodicParameters(advertisingHandle: a, intervalMin: lo, intervalMax: hi, properties: try p.u16le())
        case 0x203F:
            let a = try p.u8(), op = try p.u8(), n = Int(try p.u8())
            return .periodicData(advertisingHandle: a, operation: op, data: try p.bytes(min(n, p.remaining)))
        case 0x2040:
            let e = try p.u8()
            return .periodicEnable(enable: e, advertisingHandle: try p.u8())
        default:
            return nil
        }
    }
}

public struct CISPair: Sendable, Equatable {
    public var cis: UInt16
    public var acl: UInt16
}

/// A value for each direction of a CIS: central to peripheral, peripheral to central.
public struct EachWay<T: Sendable & Equatable>: Sendable, Equatable {
    public var cToP: T
    public var pToC: T
    public init(_ cToP: T, _ pToC: T) { self.cToP = cToP; self.pToC = pToC }
}

/// LE Set CIG Parameters (and Test): the group's SDU intervals (µs), latencies (ms), and each CIS.
public struct CIGParameters: Sendable, Equatable {
    public struct CIS: Sendable, Equatable {
        public var id: UInt8
        public var maxSDU: EachWay<UInt16>
        public var phy: EachWay<UInt8>
        /// Retransmissions (the Test command gives NSE and burst numbers instead).
        public var rtn: EachWay<UInt8>?
        public var nse: UInt8?
        public var maxPDU: EachWay<UInt16>?
        public var bn: EachWay<UInt8>?
    }
    public var test: Bool
    public var cig: UInt8
    public var sduInterval: EachWay<UInt32>
    public var sca: UInt8
    public var packing: UInt8
    public var framing: UInt8
    /// Max transport latency in ms (not in the Test command).
    public var maxLatency: EachWay<UInt16>?
    /// Test command: flush timeouts and the ISO interval (1.25 ms units).
    public var flushTimeout: EachWay<UInt8>?
    public var isoInterval: UInt16?
    public var cis: [CIS]

    static func parse(test: Bool, _ p: inout ByteCursor) throws -> CIGParameters {
        let cig = try p.u8()
        let sdu = EachWay(try p.u24le(), try p.u24le())
        var ft: EachWay<UInt8>?
        var iso: UInt16?
        if test { ft = EachWay(try p.u8(), try p.u8()); iso = try p.u16le() }
        let sca = try p.u8(), packing = try p.u8(), framing = try p.u8()
        var latency: EachWay<UInt16>?
        if !test { latency = EachWay(try p.u16le(), try p.u16le()) }
        let n = Int(try p.u8())
        var list: [CIS] = []
        for _ in 0..<n {
            let id = try p.u8()
            if test {
                let nse = try p.u8()
                let sdu = EachWay(try p.u16le(), try p.u16le()), pdu = EachWay(try p.u16le(), try p.u16le())
                let phy = EachWay(try p.u8(), try p.u8()), bn = EachWay(try p.u8(), try p.u8())
                list.append(CIS(id: id, maxSDU: sdu, phy: phy, rtn: nil, nse: nse, maxPDU: pdu, bn: bn))
            } else {
                let sdu = EachWay(try p.u16le(), try p.u16le())
                let phy = EachWay(try p.u8(), try p.u8()), rtn = EachWay(try p.u8(), try p.u8())
                list.append(CIS(id: id, maxSDU: sdu, phy: phy, rtn: rtn, nse: nil, maxPDU: nil, bn: nil))
            }
        }
        return CIGParameters(test: test, cig: cig, sduInterval: sdu, sca: sca, packing: packing, framing: framing,
                             maxLatency: latency, flushTimeout: ft, isoInterval: iso, cis: list)
    }
}

/// LE Create BIG (and Test).
public struct CreateBIG: Sendable, Equatable {
    public var test: Bool
    public var big: UInt8
    public var advertisingHandle: UInt8
    public var bisCount: UInt8
    public var sduInterval: UInt32
    public var maxSDU: UInt16
    /// ms (not in the Test command).
    public var maxLatency: UInt16?
    public var rtn: UInt8?
    public var phy: UInt8
    public var packing: UInt8
    public var framing: UInt8
    public var encryption: UInt8
    public var broadcastCode: ArraySlice<UInt8>
    /// Test command: ISO interval (1.25 ms units), NSE, max PDU, BN, IRC, PTO.
    public var isoInterval: UInt16?
    public var nse: UInt8?
    public var maxPDU: UInt16?
    public var bn: UInt8?
    public var irc: UInt8?
    public var pto: UInt8?

    static func parse(test: Bool, _ p: inout ByteCursor) throws -> CreateBIG {
        let big = try p.u8(), adv = try p.u8(), n = try p.u8()
        let sdu = try p.u24le()
        if test {
            let iso = try p.u16le(), nse = try p.u8(), maxSDU = try p.u16le(), maxPDU = try p.u16le()
            let phy = try p.u8(), packing = try p.u8(), framing = try p.u8()
            let bn = try p.u8(), irc = try p.u8(), pto = try p.u8(), enc = try p.u8()
            return CreateBIG(test: true, big: big, advertisingHandle: adv, bisCount: n, sduInterval: sdu, maxSDU: maxSDU, maxLatency: nil,
                             rtn: nil, phy: phy, packing: packing, framing: framing, encryption: enc, broadcastCode: try p.bytes(16),
                             isoInterval: iso, nse: nse, maxPDU: maxPDU, bn: bn, irc: irc, pto: pto)
        }
        let maxSDU = try p.u16le(), latency = try p.u16le(), rtn = try p.u8()
        let phy = try p.u8(), packing = try p.u8(), framing = try p.u8(), enc = try p.u8()
        return CreateBIG(test: false, big: big, advertisingHandle: adv, bisCount: n, sduInterval: sdu, maxSDU: maxSDU, maxLatency: latency,
                         rtn: rtn, phy: phy, packing: packing, framing: framing, encryption: enc, broadcastCode: try p.bytes(16))
    }
}

/// LE BIG Create Sync: the BIG to synchronise to over a periodic advertising sync, and the BISes wanted.
public struct BIGCreateSync: Sendable, Equatable {
    public var big: UInt8
    public var syncHandle: UInt16
    public var encryption: UInt8
    public var broadcastCode: ArraySlice<UInt8>
    public var mse: UInt8
    /// 10 ms units.
    public var timeout: UInt16
    public var bis: ArraySlice<UInt8>

    static func parse(_ p: inout ByteCursor) throws -> BIGCreateSync {
        let big = try p.u8(), sync = try p.u16le() & 0x0FFF, enc = try p.u8()
        let code = try p.bytes(16)
        let mse = try p.u8(), timeout = try p.u16le(), n = Int(try p.u8())
        return BIGCreateSync(big: big, syncHandle: sync, encryption: enc, broadcastCode: code, mse: mse, timeout: timeout, bis: try p.bytes(n))
    }
}

/// LE Setup ISO Data Path.
public struct SetupISODataPath: Sendable, Equatable {
    public var handle: UInt16
    /// 0 input (host to controller), 1 output (controller to host).
    public var direction: UInt8
    /// 0 HCI, 1–0xFE vendor-specific.
    public var pathID: UInt8
    /// Coding format, company, vendor codec id.
    public var codingFormat: UInt8
    public var company: UInt16
    public var vendorCodec: UInt16
    /// µs.
    public var controllerDelay: UInt32
    public var configuration: ArraySlice<UInt8>

    static func parse(_ p: inout ByteCursor) throws -> SetupISODataPath {
        let h = try p.u16le() & 0x0FFF, dir = try p.u8(), path = try p.u8()
        let format = try p.u8(), company = try p.u16le(), vendor = try p.u16le()
        let delay = try p.u24le(), n = Int(try p.u8())
        return SetupISODataPath(handle: h, direction: dir, pathID: path, codingFormat: format, company: company, vendorCodec: vendor,
                                controllerDelay: delay, configuration: try p.bytes(n))
    }
}

/// LE Periodic Advertising Create Sync.
public struct PeriodicCreateSync: Sendable, Equatable {
    public var options: UInt8
    public var sid: UInt8
    public var addressType: UInt8
    public var address: BDAddr
    public var skip: UInt16
    /// 10 ms units.
    public var timeout: UInt16
    public var cteType: UInt8

    static func parse(_ p: inout ByteCursor) throws -> PeriodicCreateSync {
        let options = try p.u8(), sid = try p.u8(), type = try p.u8()
        let a = try p.address()
        let skip = try p.u16le(), timeout = try p.u16le()
        return PeriodicCreateSync(options: options, sid: sid, addressType: type, address: a, skip: skip, timeout: timeout, cteType: try p.u8())
    }
}
