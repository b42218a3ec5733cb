/// RFCOMM (PSM 0x0003) and SDP (PSM 0x0001) frames, summarized rather than dissected to the last bit: what a
/// user needs to see which service a phone looked for and what a headset's serial channel carried (AT
/// commands of HFP, for one). Values only; names and text are made by `ClassicProfileRender`.
public struct RFCOMMFrame: Sendable, Equatable {
    public var dlci: UInt8
    public var commandResponse: Bool
    /// The control field without the poll/final bit: 0x2F SABM, 0x63 UA, 0x0F DM, 0x43 DISC, 0xEF UIH.
    public var frameType: UInt8
    public var pollFinal: Bool
    /// Credits granted by a UIH frame with the poll/final bit set (credit-based flow control).
    public var credits: UInt8?
    public var information: ArraySlice<UInt8>
    /// A multiplexer control command on DLCI 0: its type (PN 0x20, MSC 0x38, RPN 0x24, RLS 0x14, Test 0x08,
    /// FCon 0x28, FCoff 0x18, NSC 0x04), whether it is a command, and its value bytes.
    public var control: (type: UInt8, command: Bool, value: ArraySlice<UInt8>)?

    public static func == (a: RFCOMMFrame, b: RFCOMMFrame) -> Bool {
        a.dlci == b.dlci && a.commandResponse == b.commandResponse && a.frameType == b.frameType && a.pollFinal == b.pollFinal
            && a.credits == b.credits && a.information == b.information && a.control?.type == b.control?.type
            && a.control?.command == b.control?.command && a.control?.value == b.control?.value
    }

    public static func parse(_ bytes: ArraySlice<UInt8>) throws -> RFCOMMFrame {
        var c = ByteCursor(bytes)
        let address = try c.u8(), control = try c.u8()
        let l0 = try c.u8()
        var length = Int(l0 >> 1)
        if l0 & 1 == 0 { length |= Int(try c.u8()) << 7 }
        let type = control & ~0x10, pf = control & 0x10 != 0
        var credits: UInt8? = nil
        if type == 0xEF && pf && address >> 2 != 0 { credits = try c.u8() }
        let info = try c.bytes(length)
        _ = try c.u8()   // FCS
        var f = RFCOMMFrame(dlci: address >> 2, commandResponse: address & 2 != 0, frameType: type, pollFinal: pf, credits: credits,
                            information: info, control: nil)
        if f.dlci == 0, type == 0xEF, !info.isEmpty {
            var m = ByteCursor(info)
            let t = try m.u8(), l = try m.u8()
            var n = Int(l >> 1)
            if l & 1 == 0 { n |= Int(try m.u8()) << 7 }
            f.control = (t >> 2, t & 2 != 0, try m.bytes(n))
        }
        return f
    }
}

/// An SDP PDU (Core 5.4 Vol 3 Part B 4): its ID and transaction, the service classes a search asks for, and
/// the sizes an answer carries.
public struct SDPPDU: Sendable, Equatable {
    /// 1 Error Response, 2/3 Service Search Request/Response, 4/5 Service Attribute Request/Response, 6/7
    /// Service Search Attribute Request/Response.
    public var id: UInt8
    public var transaction: UInt16
    /// Search requests: the 16- and 32-bit UUIDs of the search pattern.
    public var uuids: [UInt32] = []
    /// Search requests: 128-bit UUIDs in the pattern.
    public var longUUIDs = 0
    /// Service Search Response: the number of matching records.
    public var records: UInt16?
    /// Attribute responses: the byte count of the attribute lists in this PDU.
    public var attributeBytes: UInt16?
    /// Error Response: the error code.
    public var error: UInt16?

    public static func parse(_ bytes: ArraySlice<UInt8>) throws -> SDPPDU {
        var c = ByteCursor(bytes)
        let id = try c.u8(), tid = try c.u16be(), len = Int(try c.u16be())
        var p = ByteCursor(try c.bytes(len))
        var pdu = SDPPDU(id: id, transaction: tid)
        switch id {
        case 0x01: pdu.error = try p.u16be()
        case 0x02, 0x06: try pdu.readPattern(&p)
        case 0x03:
            _ = try p.u16be()
            pdu.records = try p.u16be()
        case 0x05, 0x07: pdu.attributeBytes = try p.u16be()
        default: break
        }
        return pdu
    }

    /// The search pattern: a data element sequence of UUIDs.
    mutating func readPattern(_ p: inout ByteCursor) throws {
        let h = try p.u8()
        guard h >> 3 == 6 else { throw p.invalid("search pattern is not a sequence") }
        let n: Int
        switch h & 7 {
        case 5: n = Int(try p.u8())
        case 6: n = Int(try p.u16be())
        case 7: n = Int(try p.u32be())
        default: throw p.invalid("search pattern size index \(h & 7)")
        }
        var s = ByteCursor(try p.bytes(n))
        while !s.isAtEnd {
            let e = try s.u8()
            guard e >> 3 == 3 else { throw s.invalid("search pattern element is not a UUID") }
            switch e & 7 {
            case 1: uuids.append(UInt32(try s.u16be()))
            case 2: uuids.append(try s.u32be())
            case 4: _ = try s.bytes(16); longUUIDs += 1
            default: throw s.invalid("UUID size index \(e & 7)")
            }
        }
    }
}
