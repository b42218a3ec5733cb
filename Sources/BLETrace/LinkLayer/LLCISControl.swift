/// The LL control PDUs that set up a CIS (Core 5.4 Vol 6 Part B 2.4.2.29–2.4.2.31): the central's request with
/// the stream's parameters, the peripheral's response with its offset window, and the central's indication
/// with the CIS access address and timing.
public struct LLCISRequest: Sendable, Equatable {
    public var cig: UInt8
    public var cis: UInt8
    /// PHY bit fields each way.
    public var phy: EachWay<UInt8>
    public var framed: Bool
    public var maxSDU: EachWay<UInt16>
    /// µs.
    public var sduInterval: EachWay<UInt32>
    public var maxPDU: EachWay<UInt16>
    public var nse: UInt8
    /// µs.
    public var subInterval: UInt32
    public var bn: EachWay<UInt8>
    public var flushTimeout: EachWay<UInt8>
    /// 1.25 ms units.
    public var isoInterval: UInt16
    /// µs.
    public var offsetMin: UInt32
    public var offsetMax: UInt32
    public var eventCount: UInt16

    static func parse(_ c: inout ByteCursor) throws -> LLCISRequest {
        let cig = try c.u8(), cis = try c.u8()
        let phy = EachWay(try c.u8(), try c.u8())
        let sduC = try c.u16le(), sduP = try c.u16le()
        let intC = try c.u24le(), intP = try c.u24le()
        let pdu = EachWay(try c.u16le(), try c.u16le())
        let nse = try c.u8(), sub = try c.u24le(), bn = try c.u8()
        let ft = EachWay(try c.u8(), try c.u8())
        let iso = try c.u16le(), lo = try c.u24le(), hi = try c.u24le()
        return LLCISRequest(cig: cig, cis: cis, phy: phy, framed: sduC & 0x8000 != 0, maxSDU: EachWay(sduC & 0x0FFF, sduP & 0x0FFF),
                            sduInterval: EachWay(intC & 0xFFFFF, intP & 0xFFFFF), maxPDU: pdu, nse: nse, subInterval: sub,
                            bn: EachWay(bn & 0x0F, bn >> 4), flushTimeout: ft, isoInterval: iso, offsetMin: lo, offsetMax: hi,
                            eventCount: try c.u16le())
    }
}

/// LL_CIS_IND.
public struct LLCISIndication: Sendable, Equatable {
    public var accessAddress: UInt32
    /// µs.
    public var offset: UInt32
    public var cigSyncDelay: UInt32
    public var cisSyncDelay: UInt32
    public var eventCount: UInt16

    static func parse(_ c: inout ByteCursor) throws -> LLCISIndication {
        let aa = try c.u32le(), offset = try c.u24le(), cig = try c.u24le(), cis = try c.u24le()
        return LLCISIndication(accessAddress: aa, offset: offset, cigSyncDelay: cig, cisSyncDelay: cis, eventCount: try c.u16le())
    }
}

extension LLCISRequest {
    func writeDetail(into b: inout TextBytes) {
        b.append(string: "CIG \(cig) CIS \(cis), PHY \(ISONames.phyBits(phy.cToP))/\(ISONames.phyBits(phy.pToC)), ")
        b.append(string: (framed ? "framed" : "unframed") + ", max SDU \(ISONames.eachWay(maxSDU)), SDU interval \(ISONames.eachWay(sduInterval)) µs")
        b.append(string: ", ISO interval " + ISONames.isoInterval(isoInterval) + ", NSE \(nse), BN \(ISONames.eachWay(bn)), FT \(ISONames.eachWay(flushTimeout))")
        b.append(string: ", max PDU \(ISONames.eachWay(maxPDU)), offset \(offsetMin)–\(offsetMax) µs at event \(eventCount)")
    }

    func writeFields<S: FieldSink>(into s: inout S) {
        s.field("cig_id", cig)
        s.field("cis_id", cis)
        ISONames.eachWayFields("phy", phy, into: &s)
        s.field("framed", framed)
        ISONames.eachWayFields("max_sdu", maxSDU, into: &s)
        ISONames.eachWayFields("sdu_interval", sduInterval, into: &s)
        ISONames.eachWayFields("max_pdu", maxPDU, into: &s)
        s.field("nse", nse)
        s.field("sub_interval", Int(subInterval))
        ISONames.eachWayFields("bn", bn, into: &s)
        ISONames.eachWayFields("ft", flushTimeout, into: &s)
        s.field("iso_interval", isoInterval)
        s.field("cis_offset_min", Int(offsetMin))
        s.field("cis_offset_max", Int(offsetMax))
        s.field("conn_event_count", eventCount)
    }
}

extension LLCISIndication {
    func writeDetail(into b: inout TextBytes) {
        b.append(string: "AA \(Hex.hex(accessAddress, width: 8)), offset \(offset) µs, CIG sync delay \(cigSyncDelay) µs, CIS sync delay \(cisSyncDelay) µs, at event \(eventCount)")
    }

    func writeFields<S: FieldSink>(into s: inout S) {
        s.field("access_address", Int(accessAddress))
        s.field("cis_offset", Int(offset))
        s.field("cig_sync_delay", Int(cigSyncDelay))
        s.field("cis_sync_delay", Int(cisSyncDelay))
        s.field("conn_event_count", eventCount)
    }
}
