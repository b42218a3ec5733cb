/// Sniffer captures: the CISes a link sets up (LL_CIS_REQ then LL_CIS_IND name the stream and its access
/// address), and the PDUs on those access addresses shown as the stream's ISO data (Core 5.4 Vol 6 Part B
/// 2.6: LLID 0 and 1 unframed, 2 framed; NESN, SN, CIE (close isochronous event), NPI (null PDU)).
extension LinkLayerDecoder {
    func cisSetup(_ d: LLControlPDU, _ l: Link) {
        switch d.parameters {
        case let .cisRequest(r):
            l.pendingCIS = (r.cig, r.cis)
        case let .cisIndication(i):
            guard cisStreams[i.accessAddress] != nil || cisStreams.count < LinkLayerDecoder.maxCIS else { return }
            cisStreams[i.accessAddress] = (l.pendingCIS?.cig, l.pendingCIS?.cis, l.handle)
        default:
            break
        }
    }

    func decodeCIS(_ packet: LLPacket, _ info: SnifferInfo, _ sniffer: SnifferInfo?, _ stream: (cig: UInt8?, cis: UInt8?, acl: UInt16?),
                   _ e: inout TraceEvent) {
        var c = ByteCursor(packet.pdu)
        let facts = PacketFacts(accessAddress: packet.accessAddress, advertising: false, crc: info.crc, crcValue: packet.crc, trailing: packet.trailing)
        guard let b0 = try? c.u8(), let n = try? c.u8() else { return } // `split` guarantees the header
        let payload = c.rest()
        let pdu = CISPDU(cig: stream.cig, cis: stream.cis, llid: b0 & 0x03, nesn: (b0 >> 2) & 1, sn: (b0 >> 3) & 1, cie: b0 & 0x10 != 0,
                         npi: b0 & 0x40 != 0, length: Int(n), payload: payload)
        if let d = info.direction { e.direction = d.timelineDirection }
        e.body = .linkLayer(LinkLayerBody(radio: LinkLayerFacts(sniffer: sniffer, packet: facts), .cisPDU(pdu)))
    }
}

/// A PDU on a CIS's access address.
public struct CISPDU: Sendable, Equatable {
    public var cig: UInt8?
    public var cis: UInt8?
    /// 0 unframed (end or continuation of an SDU), 1 unframed (start or a whole SDU), 2 framed, 3 reserved.
    public var llid: UInt8
    public var nesn: UInt8
    public var sn: UInt8
    /// Close Isochronous Event; Null PDU Indicator.
    public var cie: Bool
    public var npi: Bool
    public var length: Int
    public var payload: ArraySlice<UInt8>

    func writeText(into b: inout TextBytes) {
        b.append(string: "CIS")
        if let s = cis { b.append(string: " \(s)") }
        if let g = cig { b.append(string: " of CIG \(g)") }
        if npi {
            b.append(string: ": null PDU")
        } else {
            b.append(string: ": ISO data PDU (" + (llid == 2 ? "framed" : llid == 3 ? "reserved LLID" : llid == 1 ? "unframed, SDU start" : "unframed, SDU end or continuation") + "), \(length) bytes")
        }
        b.append(string: " (SN \(sn), NESN \(nesn)" + (cie ? ", closes the event" : "") + ")")
    }

    func writeFields<S: FieldSink>(into s: inout S) {
        if let g = cig { s.field("cig_id", g) }
        if let i = cis { s.field("cis_id", i) }
        s.field("llid", llid)
        s.field("nesn", nesn)
        s.field("sn", sn)
        s.field("cie", cie)
        s.field("npi", npi)
        s.field("length", length)
        s.field("payload", hex: payload)
    }
}
