/// The LE isochronous and periodic advertising events (Core 5.4 Vol 4 Part E 7.7.65.13–15, 7.7.65.25–34): CIS
/// established or requested, BIG created, synchronised or lost, BIGInfo, and periodic advertising syncs and
/// reports. Typed parameters; names and text come from the renderers.
public enum ISOEvent: Sendable {
    /// 0x19 LE CIS Established [v1], 0x2A [v2].
    case cisEstablished(CISEstablished)
    /// 0x1A LE CIS Request
    case cisRequest(acl: UInt16, cis: UInt16, cig: UInt8, cisID: UInt8)
    /// 0x1B LE Create BIG Complete, 0x1D LE BIG Sync Established (`created` tells which).
    case bigEstablished(BIGEstablished)
    /// 0x1C LE Terminate BIG Complete, 0x1E LE BIG Sync Lost (`lost`).
    case bigEnded(big: UInt8, reason: UInt8, lost: Bool)
    /// 0x1F LE Request Peer SCA Complete
    case peerSCA(status: UInt8, handle: UInt16, accuracy: UInt8)
    /// 0x22 LE BIGInfo Advertising Report
    case bigInfo(BIGInfo)
    /// 0x0E LE Periodic Advertising Sync Established [v1], 0x24 [v2]
    case periodicSyncEstablished(PeriodicSync)
    /// 0x0F LE Periodic Advertising Report [v1], 0x25 [v2]
    case periodicReport(PeriodicReport)
    /// 0x10 LE Periodic Advertising Sync Lost
    case periodicSyncLost(handle: UInt16)

    var status: UInt8? {
        switch self {
        case let .cisEstablished(c): return c.status
        case let .bigEstablished(b): return b.status
        case let .peerSCA(s, _, _): return s
        case let .periodicSyncEstablished(p): return p.status
        default: return nil
        }
    }

    var handle: UInt16? {
        switch self {
        case let .cisEstablished(c): return c.handle
        case let .cisRequest(_, cis, _, _): return cis
        case let .peerSCA(_, h, _): return h
        default: return nil
        }
    }

    static func handles(_ sub: UInt8) -> Bool {
        switch sub {
        case 0x0E, 0x0F, 0x10, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x22, 0x24, 0x25, 0x2A: return true
        default: return false
        }
    }

    static func parse(_ sub: UInt8, _ p: inout ByteCursor) throws -> ISOEvent {
        switch sub {
        case 0x19, 0x2A: return .cisEstablished(try CISEstablished.parse(v2: sub == 0x2A, &p))
        case 0x1A:
            let acl = try p.u16le() & 0x0FFF, cis = try p.u16le() & 0x0FFF
            let cig = try p.u8()
            return .cisRequest(acl: acl, cis: cis, cig: cig, cisID: try p.u8())
        case 0x1B, 0x1D: return .bigEstablished(try BIGEstablished.parse(created: sub == 0x1B, &p))
        case 0x1C, 0x1E:
            let big = try p.u8()
            return .bigEnded(big: big, reason: try p.u8(), lost: sub == 0x1E)
        case 0x1F:
            let s = try p.u8(), h = try p.u16le() & 0x0FFF
            return .peerSCA(status: s, handle: h, accuracy: try p.u8())
        case 0x22: return .bigInfo(try BIGInfo.parse(&p))
        case 0x0E, 0x24: return .periodicSyncEstablished(try PeriodicSync.parse(v2: sub == 0x24, &p))
        case 0x0F, 0x25: return .periodicReport(try PeriodicReport.parse(v2: sub == 0x25, &p))
        default: return .periodicSyncLost(handle: try p.u16le() & 0x0FFF)
        }
    }
}

/// LE CIS Established: the CIS's timing as the controller set it up.
public struct CISEstablished: Sendable, Equatable {
    public var status: UInt8
    public var handle: UInt16
    /// µs.
    public var cigSyncDelay: UInt32
    public var cisSyncDelay: UInt32
    public var transportLatency: EachWay<UInt32>
    public var phy: EachWay<UInt8>
    public var nse: UInt8
    public var bn: EachWay<UInt8>
    public var flushTimeout: EachWay<UInt8>
    public var maxPDU: EachWay<UInt16>
    /// 1.25 ms units; 0 is forbidden (4–3200).
    public var isoInterval: UInt16
    /// v2 only: sub-interval (µs), max SDU, SDU interval (µs), framing.
    public var subInterval: UInt32?
    public var maxSDU: EachWay<UInt16>?
    public var sduInterval: EachWay<UInt32>?
    public var framing: UInt8?

    static func parse(v2: Bool, _ p: inout ByteCursor) throws -> CISEstablished {
        let s = try p.u8(), h = try p.u16le() & 0x0FFF
        let cig = try p.u24le(), cis = try p.u24le()
        let lat = EachWay(try p.u24le(), try p.u24le())
        let phy = EachWay(try p.u8(), try p.u8())
        let nse = try p.u8()
        let bn = EachWay(try p.u8(), try p.u8()), ft = EachWay(try p.u8(), try p.u8())
        let pdu = EachWay(try p.u16le(), try p.u16le())
        var e = CISEstablished(status: s, handle: h, cigSyncDelay: cig, cisSyncDelay: cis, transportLatency: lat, phy: phy, nse: nse, bn: bn,
                               flushTimeout: ft, maxPDU: pdu, isoInterval: try p.u16le())
        if v2 {
            e.subInterval = try p.u24le()
            e.maxSDU = EachWay(try p.u16le(), try p.u16le())
            e.sduInterval = EachWay(try p.u24le(), try p.u24le())
            e.framing = try p.u8()
        }
        return e
    }
}

/// LE Create BIG Complete or LE BIG Sync Established: the BIG's timing and its BIS handles.
public struct BIGEstablished: Sendable, Equatable {
    public var created: Bool
    public var status: UInt8
    public var big: UInt8
    /// µs (Create BIG Complete only).
    public var syncDelay: UInt32?
    public var transportLatency: UInt32
    /// Create BIG Complete only.
    public var phy: UInt8?
    public var nse: UInt8
    public var bn: UInt8
    public var pto: UInt8
    public var irc: UInt8
    public var maxPDU: UInt16
    /// 1.25 ms units.
    public var isoInterval: UInt16
    public var handles: [UInt16]

    static func parse(created: Bool, _ p: inout ByteCursor) throws -> BIGEstablished {
        let s = try p.u8(), big = try p.u8()
        var delay: UInt32?, phy: UInt8?
        if created { delay = try p.u24le() }
        let latency = try p.u24le()
        if created { phy = try p.u8() }
        let nse = try p.u8(), bn = try p.u8(), pto = try p.u8(), irc = try p.u8()
        let pdu = try p.u16le(), iso = try p.u16le(), n = Int(try p.u8())
        var handles: [UInt16] = []
        for _ in 0..<n { handles.append(try p.u16le() & 0x0FFF) }
        return BIGEstablished(created: created, status: s, big: big, syncDelay: delay, transportLatency: latency, phy: phy, nse: nse, bn: bn,
                              pto: pto, irc: irc, maxPDU: pdu, isoInterval: iso, handles: handles)
    }
}

/// LE BIGInfo Advertising Report: a periodic advertising train announces a BIG.
public struct BIGInfo: Sendable, Equatable {
    public var syncHandle: UInt16
    public var bisCount: UInt8
    public var nse: UInt8
    public var isoInterval: UInt16
    public var bn: UInt8
    public var pto: UInt8
    public var irc: UInt8
    public var maxPDU: UInt16
    public var sduInterval: UInt32
    public var maxSDU: UInt16
    public var phy: UInt8
    public var framing: UInt8
    public var encryption: UInt8

    static func parse(_ p: inout ByteCursor) throws -> BIGInfo {
        let h = try p.u16le() & 0x0FFF, n = try p.u8(), nse = try p.u8(), iso = try p.u16le()
        let bn = try p.u8(), pto = try p.u8(), irc = try p.u8(), pdu = try p.u16le()
        let sdu = try p.u24le(), maxSDU = try p.u16le()
        let phy = try p.u8(), framing = try p.u8()
        return BIGInfo(syncHandle: h, bisCount: n, nse: nse, isoInterval: iso, bn: bn, pto: pto, irc: irc, maxPDU: pdu, sduInterval: sdu,
                       maxSDU: maxSDU, phy: phy, framing: framing, encryption: try p.u8())
    }
}

/// LE Periodic Advertising Sync Established.
public struct PeriodicSync: Sendable, Equatable {
    public var status: UInt8
    public var handle: UInt16
    public var sid: UInt8
    public var addressType: UInt8
    public var address: BDAddr
    public var phy: UInt8
    /// 1.25 ms units.
    public var interval: UInt16
    public var clockAccuracy: UInt8

    static func parse(v2: Bool, _ p: inout ByteCursor) throws -> PeriodicSync {
        let s = try p.u8(), h = try p.u16le() & 0x0FFF, sid = try p.u8(), type = try p.u8()
        let a = try p.address()
        let phy = try p.u8(), interval = try p.u16le()
        let sync = PeriodicSync(status: s, handle: h, sid: sid, addressType: type, address: a, phy: phy, interval: interval,
                                clockAccuracy: try p.u8())
        if v2 { _ = try p.bytes(Swift.min(p.remaining, 4)) }
        return sync
    }
}

/// LE Periodic Advertising Report: one fragment of a periodic advertisement's data.
public struct PeriodicReport: Sendable, Equatable {
    public var syncHandle: UInt16
    public var txPower: Int8
    public var rssi: Int8
    public var cteType: UInt8
    /// v2: the periodic event counter and subevent.
    public var eventCounter: UInt16?
    public var subevent: UInt8?
    /// 0 complete, 1 incomplete (more to come), 2 truncated.
    public var dataStatus: UInt8
    public var data: ArraySlice<UInt8>

    static func parse(v2: Bool, _ p: inout ByteCursor) throws -> PeriodicReport {
        let h = try p.u16le() & 0x0FFF, tx = try p.i8(), rssi = try p.i8(), cte = try p.u8()
        var counter: UInt16?, sub: UInt8?
        if v2 { counter = try p.u16le(); sub = try p.u8() }
        let status = try p.u8(), n = Int(try p.u8())
        return PeriodicReport(syncHandle: h, txPower: tx, rssi: rssi, cteType: cte, eventCounter: counter, subevent: sub, dataStatus: status,
                              data: try p.bytes(n))
    }
}

/// Command Complete return parameters of the isochronous commands (after the status).
public enum ISOReturn: Sendable, Equatable {
    /// LE Set CIG Parameters (and Test): the CIS handles, in the order of the command's CISes.
    case cig(cig: UInt8, handles: [UInt16])
    /// LE Setup / Remove ISO Data Path, LE Reject CIS Request, LE ISO Test End and others: the handle.
    case handle(UInt16)
    /// LE Remove CIG.
    case cigRemoved(UInt8)
    /// LE BIG Terminate Sync.
    case bigSyncTerminated(UInt8)
    /// LE Read ISO TX Sync: sequence number, time stamp (µs) and time offset (µs) of the last SDU sent.
    case txSync(handle: UInt16, sequence: UInt16, timestamp: UInt32, offset: UInt32)

    static func parse(_ opcode: UInt16, _ r: inout ByteCursor) throws -> ISOReturn? {
        switch opcode {
        case 0x2062, 0x2063:
            let cig = try r.u8(), n = Int(try r.u8())
            var handles: [UInt16] = []
            for _ in 0..<n { handles.append(try r.u16le() & 0x0FFF) }
            return .cig(cig: cig, handles: handles)
        case 0x206E, 0x206F, 0x2067, 0x2073, 0x2072, 0x2075: return .handle(try r.u16le() & 0x0FFF)
        case 0x2065: return .cigRemoved(try r.u8())
        case 0x206C: return .bigSyncTerminated(try r.u8())
        case 0x2061:
            let h = try r.u16le() & 0x0FFF, seq = try r.u16le(), ts = try r.u32le()
            return .txSync(handle: h, sequence: seq, timestamp: ts, offset: try r.u24le())
        default: return nil
        }
    }
}
