/// The Bluetooth LE link-layer CRC (Core 5.4 Vol 6 Part B 3.1.1): 24 bits, polynomial
/// x²⁴ + x¹⁰ + x⁹ + x⁶ + x⁴ + x³ + x + 1, over the PDU header and payload, bits taken least significant
/// first. The register starts at CRCInit (0x555555 on the advertising channels). Unlike every other field the
/// CRC goes on air most significant bit first, so the three bytes a capture holds, read little-endian, are the
/// register bit-reversed (`wire`).
public enum LLCRC {
    /// The value the CRC bytes of a packet hold (read little-endian) for a computed register value.
    public static func wire(_ register: UInt32) -> UInt32 {
        var v = register, r: UInt32 = 0
        for _ in 0..<24 { r = r << 1 | (v & 1); v >>= 1 }
        return r
    }

    /// True when `value` (the packet's CRC bytes, little-endian) is the CRC of `pdu` for `initial`.
    public static func check(_ pdu: ArraySlice<UInt8>, initial: UInt32, value: UInt32) -> Bool {
        wire(compute(pdu, initial: initial)) == value
    }

    /// Byte-at-a-time table for the equivalent most-significant-bit-first CRC over bit-reversed bytes.
    static let table: [UInt32] = (0..<256).map { i -> UInt32 in
        var r = UInt32(i) << 16
        for _ in 0..<8 {
            r = r & 0x80_0000 != 0 ? ((r << 1) ^ 0x00_065B) & 0xFF_FFFF : (r << 1) & 0xFF_FFFF
        }
        return r
    }

    static let reversed: [UInt8] = (0..<256).map { i -> UInt8 in
        var v = UInt8(i), r: UInt8 = 0
        for _ in 0..<8 { r = r << 1 | (v & 1); v >>= 1 }
        return r
    }

    public static func compute(_ bytes: ArraySlice<UInt8>, initial: UInt32) -> UInt32 {
        var r = initial & 0xFF_FFFF
        let t = table, rev = reversed
        for b in bytes {
            let i = Int(((r >> 16) ^ UInt32(rev[Int(b)])) & 0xFF)
            r = ((r << 8) & 0xFF_FFFF) ^ t[i]
        }
        return r
    }

    public static let advertisingInit: UInt32 = 0x55_5555

    /// The CRC initial value under which `value` is the CRC of `pdu`: the CRC is linear in its initial value, so
    /// the register the PDU's bits alone leave is taken out and the LFSR run backwards over the PDU's length.
    /// One packet always yields a value; a second packet on the same access address that checks with it shows
    /// the value is the link's (noise does not agree with itself).
    public static func initial(_ pdu: ArraySlice<UInt8>, value: UInt32) -> UInt32 {
        // Forward, one zero bit: r' = (r << 1) ^ (bit 23 of r ? 0x65B : 0); 0x65B's bit 0 is set, so bit 0 of r'
        // tells whether bit 23 of r was.
        var r = (wire(value) ^ compute(pdu, initial: 0)) & 0xFF_FFFF
        for _ in 0..<(pdu.count * 8) {
            let top = r & 1
            r = ((top != 0 ? r ^ 0x00_065B : r) >> 1) | (top << 23)
        }
        return r
    }
}

/// An advertising-channel PDU (Core 5.4 Vol 6 Part B 2.3).
public struct LLAdvertisingPDU: Sendable {
    public var type: UInt8
    public var chSel: Bool
    public var txAdd: Bool
    public var rxAdd: Bool
    public var length: Int
    /// On a secondary advertising channel (AUX_* names).
    public var secondary: Bool
    /// The sniffer's secondary-channel PDU kind (see `SnifferInfo.auxType`).
    public var auxType: Int?
    public var name: String { LLAdvertisingPDU.typeName(type, secondary: secondary, auxType: auxType) }
    public var advA: BDAddr?
    public var targetA: BDAddr?
    public var scanA: BDAddr?
    public var initA: BDAddr?
    public var connect: ConnectData?
    public var extended: ExtendedHeader?
    public var advData: ArraySlice<UInt8> = []

    /// CONNECT_IND / AUX_CONNECT_REQ LLData.
    public struct ConnectData: Sendable {
        public var accessAddress: UInt32
        public var crcInit: UInt32
        public var windowSize: Int
        public var windowOffset: Int
        public var interval: Int
        public var latency: Int
        public var timeout: Int
        public var channelMap: ArraySlice<UInt8>
        public var hop: Int
        public var sca: Int

        public var usedChannels: Int { channelMap.enumerated().reduce(0) { $0 + ($1.offset == 4 ? ($1.element & 0x1F) : $1.element).nonzeroBitCount } }
    }

    /// The extended header of the Common Extended Advertising Payload Format (Vol 6 Part B 2.3.4).
    public struct ExtendedHeader: Sendable {
        public var advMode: Int
        public var flags: UInt8
        public var advA: BDAddr?
        public var targetA: BDAddr?
        public var cteInfo: UInt8?
        public var did: Int?
        public var sid: Int?
        public var auxPtr: AuxPtr?
        public var syncInfo: ArraySlice<UInt8>?
        public var txPower: Int?
        public var acad: ArraySlice<UInt8> = []
    }

    public struct AuxPtr: Sendable, Equatable {
        public var channel: Int
        /// 0: 51–500 ppm, 1: 0–50 ppm.
        public var clockAccuracy: Int
        /// Offset units: 30 or 300 µs.
        public var offsetUnits: Int
        public var offset: Int
        public var phy: Int
        public var offsetMicros: Int { offset * offsetUnits }
    }

    static func sca(_ v: Int) -> String {
        ["251–500 ppm", "151–250 ppm", "101–150 ppm", "76–100 ppm", "51–75 ppm", "31–50 ppm", "21–30 ppm", "0–20 ppm"][v & 7]
    }

    public static func typeName(_ type: UInt8, secondary: Bool, auxType: Int?) -> String {
        switch type {
        case 0: return "ADV_IND"
        case 1: return "ADV_DIRECT_IND"
        case 2: return "ADV_NONCONN_IND"
        case 3: return secondary ? "AUX_SCAN_REQ" : "SCAN_REQ"
        case 4: return "SCAN_RSP"
        case 5: return secondary ? "AUX_CONNECT_REQ" : "CONNECT_IND"
        case 6: return "ADV_SCAN_IND"
        case 7:
            guard secondary else { return "ADV_EXT_IND" }
            switch auxType {
            case 1: return "AUX_CHAIN_IND"
            case 2: return "AUX_SYNC_IND"
            case 3: return "AUX_SCAN_RSP"
            case 0: return "AUX_ADV_IND"
            default: return "AUX_ADV_IND"
            }
        case 8: return "AUX_CONNECT_RSP"
        default: return "reserved PDU type \(type)"
        }
    }

    /// Parses header and payload (`pdu` starts at the 2-byte header and holds exactly header + payload).
    /// `secondary` is true on the secondary advertising channels (index 0–36).
    public static func parse(_ pdu: ArraySlice<UInt8>, secondary: Bool, auxType: Int?) throws -> LLAdvertisingPDU {
        var c = ByteCursor(pdu)
        let h0 = try c.u8()
        let length = Int(try c.u8())
        let type = h0 & 0x0F
        var p = LLAdvertisingPDU(type: type, chSel: h0 & 0x20 != 0, txAdd: h0 & 0x40 != 0, rxAdd: h0 & 0x80 != 0,
                                 length: length, secondary: secondary, auxType: auxType)
        var b = ByteCursor(try c.bytes(length))
        switch type {
        case 0, 2, 4, 6:
            p.advA = try b.address()
            p.advData = b.rest()
        case 1:
            p.advA = try b.address()
            p.targetA = try b.address()
        case 3:
            p.scanA = try b.address()
            p.advA = try b.address()
        case 5:
            p.initA = try b.address()
            p.advA = try b.address()
            let aa = try b.u32le(), crc = try b.u24le(), win = try b.u8(), off = try b.u16le()
            let interval = try b.u16le(), latency = try b.u16le(), timeout = try b.u16le()
            let map = try b.bytes(5)
            let hs = try b.u8()
            p.connect = ConnectData(accessAddress: aa, crcInit: crc, windowSize: Int(win), windowOffset: Int(off),
                                    interval: Int(interval), latency: Int(latency), timeout: Int(timeout),
                                    channelMap: map, hop: Int(hs & 0x1F), sca: Int(hs >> 5))
        case 7, 8:
            let x = try parseExtended(&b)
            p.extended = x
            p.advA = x.advA
            p.targetA = x.targetA
            p.advData = b.rest()
            // AUX_CHAIN_IND carries neither AdvA nor a connectable or scannable mode (Vol 6 Part B 2.3.4.8): a
            // secondary-channel PDU with them is the AUX_ADV_IND an ADV_EXT_IND's AuxPtr leads to, whatever a
            // sniffer's header guessed (link type 256 marks every auxiliary PDU alike).
            if type == 7 && secondary && auxType == 1 && (x.advA != nil || x.advMode != 0) { p.auxType = 0 }
        default:
            p.advData = b.rest()
        }
        return p
    }

    static func parseExtended(_ b: inout ByteCursor) throws -> ExtendedHeader {
        let first = try b.u8()
        let headerLength = Int(first & 0x3F)
        var x = ExtendedHeader(advMode: Int(first >> 6), flags: 0)
        guard headerLength > 0 else { return x }
        var h = ByteCursor(try b.bytes(headerLength))
        let flags = try h.u8()
        x.flags = flags
        if flags & 0x01 != 0 { x.advA = try h.address() }
        if flags & 0x02 != 0 { x.targetA = try h.address() }
        if flags & 0x04 != 0 { x.cteInfo = try h.u8() }
        if flags & 0x08 != 0 {
            let adi = try h.u16le()
            x.did = Int(adi & 0x0FFF)
            x.sid = Int(adi >> 12)
        }
        if flags & 0x10 != 0 {
            let b0 = try h.u8(), v = try h.u16le()
            x.auxPtr = AuxPtr(channel: Int(b0 & 0x3F), clockAccuracy: Int((b0 >> 6) & 1), offsetUnits: b0 & 0x80 != 0 ? 300 : 30,
                              offset: Int(v & 0x1FFF), phy: Int(v >> 13))
        }
        if flags & 0x20 != 0 { x.syncInfo = try h.bytes(18) }
        if flags & 0x40 != 0 { x.txPower = Int(try h.i8()) }
        x.acad = h.rest()
        return x
    }

    public var advType: AddressType { txAdd ? AddressType.randomKind(advA ?? BDAddr(0)) : .public }

    /// JSON fields (after `access_address`), as a field tree (tests and tools; renderers use `writeFields`).
    public func fields() -> Fields { FieldsBuilder.object { writeFields(into: &$0) } }
}

/// The 2-byte header of a data channel PDU (Core 5.4 Vol 6 Part B 2.4).
public struct LLDataHeader: Sendable, Equatable {
    public var llid: UInt8
    public var nesn: UInt8
    public var sn: UInt8
    public var md: Bool
    public var cp: Bool
    public var length: Int

    public init(_ b0: UInt8, _ b1: UInt8) {
        llid = b0 & 0x03
        nesn = (b0 >> 2) & 1
        sn = (b0 >> 3) & 1
        md = b0 & 0x10 != 0
        cp = b0 & 0x20 != 0
        length = Int(b1)
    }

    public var llidName: String {
        switch llid {
        case 1: return "continuation or empty"
        case 2: return "start"
        case 3: return "control"
        default: return "reserved"
        }
    }
}

/// One over-the-air packet split into its parts: access address, PDU (header + payload) and CRC.
public struct LLPacket: Sendable {
    public var accessAddress: UInt32
    /// Header and payload, exactly as long as the header's length says.
    public var pdu: ArraySlice<UInt8>
    /// The CRC the packet carries (nil when the capture left it out).
    public var crc: UInt32?
    /// Bytes after the CRC (some sniffers append their own).
    public var trailing: Int

    public var isAdvertising: Bool { accessAddress == SnifferHeader.advertisingAccessAddress }

    /// Splits a packet. A data PDU with CP set carries one CTEInfo byte that the length does not count.
    public static func split(_ bytes: ArraySlice<UInt8>) throws -> LLPacket {
        var c = ByteCursor(bytes)
        let aa = try c.u32le()
        let start = c.offset
        let h0 = try c.u8()
        let length = Int(try c.u8())
        let extra = aa != SnifferHeader.advertisingAccessAddress && h0 & 0x20 != 0 ? 1 : 0
        try c.skip(length + extra)
        let pdu = bytes.dropFirst(start).prefix(2 + extra + length)
        var crc: UInt32? = nil
        if c.remaining >= 3 { crc = try c.u24le() }
        return LLPacket(accessAddress: aa, pdu: pdu, crc: crc, trailing: c.remaining)
    }
}
