/// Which way a data channel PDU travelled between the two devices of a connection.
public enum LLDirection: UInt8, Sendable {
    case centralToPeripheral
    case peripheralToCentral

    public var jsonName: String {
        self == .centralToPeripheral ? "central_to_peripheral" : "peripheral_to_central"
    }

    public var opposite: LLDirection { self == .centralToPeripheral ? .peripheralToCentral : .centralToPeripheral }

    /// The sniffer timeline treats the central as the "host": what it sends is shown like host → controller,
    /// so that ATT client/server logic reads a central-side client correctly.
    public var timelineDirection: Direction { self == .centralToPeripheral ? .hostToController : .controllerToHost }
}

/// What the capture says about a packet's CRC.
public enum CRCStatus: UInt8, Sendable {
    case good, bad, unchecked

    public var jsonName: String {
        switch self {
        case .good: return "good"
        case .bad: return "bad"
        case .unchecked: return "unchecked"
        }
    }
}

/// The sniffer's pseudo-header: radio and capture facts about one over-the-air packet.
public struct SnifferInfo: Sendable {
    public var linkType: Int
    /// BLE channel index 0–39 (37–39 primary advertising), when known.
    public var channel: Int?
    public var rssi: Int?
    public var noise: Int?
    /// CRC as judged by the sniffer (`unchecked` when it did not say).
    public var crc: CRCStatus = .unchecked
    /// Direction from the pseudo-header, when it gives one.
    public var direction: LLDirection?
    /// The pseudo-header says the packet is (or was) encrypted.
    public var encrypted: Bool?
    /// The sniffer decrypted the payload (a good MIC on an encrypted packet, or 256's decrypted flag).
    public var decrypted = false
    /// The pseudo-header says the packet is on the advertising physical channel (272 v3 packet ID, 256 PDU type).
    public var advertisingHint: Bool?
    /// Nordic: the secondary-channel PDU kind for PDU type 7 (0 AUX_ADV_IND, 1 AUX_CHAIN_IND, 2 AUX_SYNC_IND,
    /// 3 AUX_SCAN_RSP); 256: 1 when the PDU is an auxiliary advertising one.
    public var auxType: Int?
    /// 0 LE 1M, 1 LE 2M, 2 LE Coded.
    public var phy: Int?
    /// LE Coded PHY: the coding indicator sent after the access address (0 S=8, 1 S=2), where the sniffer
    /// captured it (nRF Sniffer); nil on the uncoded PHYs.
    public var codingIndicator: UInt8?
    /// The sniffer's own clock for the packet in µs (Ubertooth's), preferred to the capture's timestamps
    /// when inferring which side sent a packet.
    public var radioMicros: Int64?
    /// The pseudo-header's fields as read, for the `sniffer` JSON object.
    public var header = SnifferPseudoHeader.none

    public init(linkType: Int) { self.linkType = linkType }

    /// The decoded pseudo-header as a field tree (tests and tools; renderers write `header` directly).
    public var fields: Fields { FieldsBuilder.object { header.writeFields(into: &$0) } }
}

/// The fields of a sniffer's pseudo-header, as read: the `sniffer` JSON object is written from them.
public enum SnifferPseudoHeader: Sendable {
    /// Link type 251: no pseudo-header.
    case none
    /// LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR.
    case phdr(rf: UInt8, signal: Int8, noise: Int8, offenses: UInt8, reference: UInt32, flags: UInt16)
    /// LINKTYPE_NORDIC_BLE (`headerLength` only in version 1; `advertising` as the packet was judged).
    case nordic(NordicHeader)
    /// LINKTYPE_PPI with DLT 147 and Ubertooth's BTLE field.
    case ppi(PPIBTLEField)
}

public struct NordicHeader: Sendable {
    public var board: UInt8
    public var version: UInt8
    public var headerLength: UInt8?
    public var payloadLength: Int
    public var counter: UInt16
    public var packetID: UInt8
    public var flags: UInt8
    public var channel: UInt8
    public var rssi: Int
    public var eventCounter: UInt16
    public var time: UInt32
    public var advertising: Bool
    /// LE Coded PHY: the coding indicator byte's value (its low 2 bits) that followed the access address.
    public var codingIndicator: UInt8? = nil
}

/// Parses the pseudo-headers of pcap link types 251 (none), 256 (BLUETOOTH_LE_LL_WITH_PHDR) and 272
/// (NORDIC_BLE, nRF Sniffer header versions 1–3). Returns the facts and the link-layer packet that follows:
/// access address, PDU header, payload and (usually) the 3-byte CRC.
public enum SnifferHeader {
    public static let advertisingAccessAddress: UInt32 = 0x8E89_BED6

    public static func parse(linkType: Int, _ data: ArraySlice<UInt8>) throws -> (SnifferInfo, ArraySlice<UInt8>) {
        switch linkType {
        case LinkType.bluetoothLELLWithPHDR: return try parse256(data)
        case LinkType.nordicBLE: return try parse272(data)
        case LinkType.ppi: return try PPIHeader.parse(data)
        default: return (SnifferInfo(linkType: linkType), data)
        }
    }

    /// RF channel number (0 = 2402 MHz … 39 = 2480 MHz) to BLE channel index.
    public static func channelIndex(rf: Int) -> Int {
        switch rf {
        case 0: return 37
        case 12: return 38
        case 39: return 39
        case 1...11: return rf - 1
        case 13...38: return rf - 2
        default: return rf
        }
    }

    public static func phyName(_ p: Int) -> String {
        switch p {
        case 0: return "LE 1M"
        case 1: return "LE 2M"
        case 2: return "LE Coded"
        default: return "PHY \(p)"
        }
    }

    /// LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR: RF channel, signal power, noise power, access-address offenses,
    /// reference access address (4), flags (2), all little-endian.
    static func parse256(_ data: ArraySlice<UInt8>) throws -> (SnifferInfo, ArraySlice<UInt8>) {
        var c = ByteCursor(data)
        let rf = Int(try c.u8())
        let signal = Int(try c.i8())
        let noise = Int(try c.i8())
        let offenses = Int(try c.u8())
        let reference = try c.u32le()
        let flags = try c.u16le()
        var s = SnifferInfo(linkType: LinkType.bluetoothLELLWithPHDR)
        s.channel = channelIndex(rf: rf)
        s.header = .phdr(rf: UInt8(truncatingIfNeeded: rf), signal: Int8(truncatingIfNeeded: signal), noise: Int8(truncatingIfNeeded: noise),
                         offenses: UInt8(truncatingIfNeeded: offenses), reference: reference, flags: flags)
        if flags & 0x0002 != 0 { s.rssi = signal }
        if flags & 0x0004 != 0 { s.noise = noise }
        let pduType = Int((flags >> 7) & 0x7)
        switch pduType {
        case 1: s.advertisingHint = true; s.auxType = 1
        case 2: s.advertisingHint = false; s.direction = .centralToPeripheral
        case 3: s.advertisingHint = false; s.direction = .peripheralToCentral
        default: break
        }
        let crcChecked = flags & 0x0400 != 0, crcValid = flags & 0x0800 != 0
        if crcChecked { s.crc = crcValid ? .good : .bad }
        let micChecked = flags & 0x1000 != 0
        s.decrypted = flags & 0x0008 != 0
        if s.decrypted || micChecked { s.encrypted = true }
        s.phy = Int(flags >> 14)
        return (s, c.rest())
    }

    static func pduTypeName256(_ t: Int) -> String {
        switch t {
        case 0: return "advertising or data (direction unspecified)"
        case 1: return "auxiliary advertising"
        case 2: return "data, central to peripheral"
        case 3: return "data, peripheral to central"
        case 4: return "connected isochronous"
        case 5: return "broadcast isochronous"
        default: return "reserved \(t)"
        }
    }

    /// LINKTYPE_NORDIC_BLE: board ID, then the nRF Sniffer UART header (version 1: header length, payload
    /// length, version, packet counter, packet ID; version 2 and 3: 16-bit payload length, version, packet
    /// counter, packet ID), then the event packet header (its length, flags, channel, RSSI, event counter,
    /// and a 32-bit time: the delta from the previous packet's end in versions 1–2, a firmware timestamp in 3).
    static func parse272(_ data: ArraySlice<UInt8>) throws -> (SnifferInfo, ArraySlice<UInt8>) {
        var c = ByteCursor(data)
        let board = try c.u8()
        var ahead = c
        try ahead.skip(2)
        let version = try ahead.u8() // third byte of the UART header in every version
        let payloadLength: Int
        var headerLength: UInt8? = nil
        switch version {
        case 1:
            headerLength = try c.u8()
            payloadLength = Int(try c.u8())
        case 2, 3:
            payloadLength = Int(try c.u16le())
        default:
            throw ByteError.invalid(offset: 3, reason: "nRF Sniffer header version \(version) (bletrace reads versions 1–3)")
        }
        _ = try c.u8() // version, read above
        let counter = try c.u16le()
        let packetID = try c.u8()
        let eventHeaderLength = Int(try c.u8())
        guard eventHeaderLength >= 10 else {
            throw ByteError.invalid(offset: c.offset - 1, reason: "nRF Sniffer packet header length \(eventHeaderLength) (at least 10)")
        }
        let flags = try c.u8()
        let channelByte = try c.u8()
        let channel = Int(channelByte)
        let rssi = -Int(try c.u8())
        let eventCounter = try c.u16le()
        let time = try c.u32le()
        try c.skip(eventHeaderLength - 10)
        var packet = c.rest()
        // On the LE Coded PHY the nRF Sniffer keeps the coding indicator (one byte, S=8 or S=2) between the
        // access address and the PDU header (Core 5.4 Vol 6 Part B 2.2); the PDU starts after it.
        var codingIndicator: UInt8? = nil
        if (flags >> 4) & 0x7 == 2, packet.count >= 5 {
            var rest = ByteCursor(packet)
            let aa = try rest.bytes(4)
            codingIndicator = try rest.u8() & 0x03
            var joined = [UInt8]()
            joined.reserveCapacity(packet.count - 1)
            joined += aa
            joined += rest.rest()
            packet = joined[...]
        }
        var s = SnifferInfo(linkType: LinkType.nordicBLE)
        s.codingIndicator = codingIndicator
        s.channel = channel
        s.rssi = rssi
        // Before version 3 one packet ID (0x06) carries both kinds; the access address tells them apart. Some
        // tools that write this link type leave the packet ID 0, so only version 3's IDs 0x02/0x06 are believed.
        let advertising: Bool
        if version >= 3 && (packetID == 0x02 || packetID == 0x06) {
            advertising = packetID == 0x02
        } else {
            var p = ByteCursor(packet)
            advertising = (try? p.u32le()) == advertisingAccessAddress
        }
        s.advertisingHint = advertising
        s.crc = flags & 0x01 != 0 ? .good : .bad
        s.phy = Int((flags >> 4) & 0x7)
        if advertising {
            if channel < 37 { s.auxType = Int((flags >> 1) & 0x3) }
        } else {
            s.direction = flags & 0x02 != 0 ? .centralToPeripheral : .peripheralToCentral
            let encrypted = flags & 0x04 != 0
            s.encrypted = encrypted
            if encrypted { s.decrypted = flags & 0x08 != 0 }
        }
        s.header = .nordic(NordicHeader(board: board, version: version, headerLength: headerLength, payloadLength: payloadLength,
                                        counter: counter, packetID: packetID, flags: flags, channel: channelByte, rssi: rssi,
                                        eventCounter: eventCounter, time: time, advertising: advertising,
                                        codingIndicator: codingIndicator))
        return (s, packet)
    }
}
