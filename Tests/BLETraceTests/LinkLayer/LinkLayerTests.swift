import Testing
@testable import BLETrace

/// Builds sniffer records from hand-assembled link-layer packets.
enum LL {
    static let advAA: UInt32 = 0x8E89_BED6

    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func addr(_ v: UInt64) -> [UInt8] { (0..<6).map { UInt8(v >> (8 * UInt64($0)) & 0xFF) } }

    /// Access address + PDU + CRC (computed for `crcInit` and stored as on air, or three zero bytes when nil).
    static func packet(_ aa: UInt32, _ pdu: [UInt8], crcInit: UInt32? = nil) -> [UInt8] {
        var out = le32(aa) + pdu
        if let i = crcInit {
            let c = LLCRC.wire(LLCRC.compute(pdu[...], initial: i))
            out += [UInt8(c & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c >> 16)]
        } else {
            out += [0, 0, 0]
        }
        return out
    }

    /// An advertising PDU: header (type, TxAdd, RxAdd) and payload.
    static func adv(_ type: UInt8, tx: Bool = false, rx: Bool = false, chsel: Bool = false, _ payload: [UInt8]) -> [UInt8] {
        [type | (chsel ? 0x20 : 0) | (tx ? 0x40 : 0) | (rx ? 0x80 : 0), UInt8(payload.count)] + payload
    }

    /// A data PDU header and payload.
    static func data(llid: UInt8, sn: UInt8 = 0, nesn: UInt8 = 0, md: Bool = false, _ payload: [UInt8]) -> [UInt8] {
        [llid | nesn << 2 | sn << 3 | (md ? 0x10 : 0), UInt8(payload.count)] + payload
    }

    /// nRF Sniffer (272) record bytes, header version 1, 2 or 3.
    static func nordic(_ packet: [UInt8], version: UInt8 = 3, packetID: UInt8 = 0x06, flags: UInt8, channel: UInt8 = 5,
                       rssi: UInt8 = 60, eventCounter: Int = 7, time: UInt32 = 1234, board: UInt8 = 9) -> [UInt8] {
        let event: [UInt8] = [10, flags, channel, rssi] + le16(eventCounter) + le32(time)
        let payloadLength = event.count + packet.count
        let uart: [UInt8]
        if version == 1 {
            uart = [6, UInt8(payloadLength), 1, 0x34, 0x12, packetID]
        } else {
            uart = le16(payloadLength) + [version, 0x34, 0x12, packetID]
        }
        return [board] + uart + event + packet
    }

    /// LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR record bytes.
    static func phdr(_ packet: [UInt8], rf: UInt8 = 10, signal: Int8 = -40, noise: Int8 = -90, offenses: UInt8 = 0,
                     reference: UInt32 = 0, flags: UInt16) -> [UInt8] {
        [rf, UInt8(bitPattern: signal), UInt8(bitPattern: noise), offenses] + le32(reference) + le16(Int(flags)) + packet
    }

    static func record(_ n: Int, _ bytes: [UInt8], linkType: Int, micros: Int64? = nil) -> Record {
        Record(number: n, timestamp: Timestamp(micros: micros ?? Int64(n) * 10_000), direction: .unknown, kind: .linkLayer,
               data: bytes[...], sourceType: UInt16(linkType), origin: .sniffer)
    }

    /// Runs records through the standard analyzer; returns the events and the link-layer summary section.
    static func run(_ records: [Record]) -> (events: [TraceEvent], analyzer: Analyzer, summary: Summary) {
        let sink = CollectingSink()
        let a = Analyzer(sink: sink)
        let summary = a.run(ArrayReader(records, format: .pcap, linkType: 272), path: "test")
        return (sink.events, a, summary)
    }

    static let central: UInt64 = 0xC4_7C_8D_6A_11_22
    static let peripheral: UInt64 = 0x11_22_33_44_55_66
    static let connAA: UInt32 = 0x5065_4D21
    static let crcInit: UInt32 = 0x12_3456

    /// CONNECT_IND from `central` (random) to `peripheral` (public): AA 0x50654D21, interval 24 (30 ms), latency 2,
    /// timeout 500 (5 s), channel map of 37 channels, hop 7, SCA 5.
    static func connectInd(aa: UInt32 = connAA) -> [UInt8] {
        let lldata = le32(aa) + [0x56, 0x34, 0x12] + [2] + le16(3) + le16(24) + le16(2) + le16(500)
            + [0xFF, 0xFF, 0xFF, 0xFF, 0x1F] + [7 | 5 << 5]
        return packet(advAA, adv(5, tx: true, rx: false, addr(central) + addr(peripheral) + lldata), crcInit: LLCRC.advertisingInit)
    }

    /// A data packet on the test connection with a correct CRC.
    static func conn(_ pdu: [UInt8], aa: UInt32 = connAA) -> [UInt8] { packet(aa, pdu, crcInit: crcInit) }

    /// nRF (272 v3) flags for a data PDU: CRC ok, direction.
    static func dflags(central: Bool, encrypted: Bool = false, mic: Bool = false, phy: UInt8 = 0) -> UInt8 {
        1 | (central ? 2 : 0) | (encrypted ? 4 : 0) | (mic ? 8 : 0) | phy << 4
    }
}

@Suite("Sniffer pseudo-headers")
struct SnifferHeaderTests {
    let adv = LL.packet(LL.advAA, LL.adv(2, tx: true, LL.addr(0xC0_11_22_33_44_55) + [2, 1, 6]), crcInit: LLCRC.advertisingInit)

    @Test("nRF Sniffer header versions 1, 2 and 3", arguments: [UInt8(1), 2, 3])
    func nordicVersions(version: UInt8) throws {
        let data = LL.conn(LL.data(llid: 1, sn: 1, nesn: 0, []))
        let bytes = LL.nordic(data, version: version, flags: LL.dflags(central: true, phy: 1), channel: 21, rssi: 63,
                              eventCounter: 0x0102, time: 0xA0B0C0D0)
        let (s, rest) = try SnifferHeader.parse(linkType: 272, bytes[...])
        #expect(Array(rest) == data)
        #expect(s.channel == 21)
        #expect(s.rssi == -63)
        #expect(s.crc == .good)
        #expect(s.direction == .centralToPeripheral)
        #expect(s.encrypted == false)
        #expect(s.phy == 1)
        #expect(s.fields["header_version"] == .int(Int(version)))
        #expect(s.fields["board"] == .int(9))
        #expect(s.fields["packet_counter"] == .int(0x1234))
        #expect(s.fields["event_counter"] == .int(0x0102))
        #expect(s.fields["phy"] == .string("LE 2M"))
        // Version 3 carries a firmware timestamp; earlier versions the time since the previous packet.
        #expect(s.fields[version == 3 ? "timestamp_us" : "delta_time_us"] == .int(0xA0B0C0D0))
        #expect(s.fields[version == 3 ? "delta_time_us" : "timestamp_us"] == nil)
        if version == 1 { #expect(s.fields["header_length"] == .int(6)) }
    }

    @Test("nRF flags: bad CRC, peripheral direction, encryption and MIC; advertising aux type")
    func nordicFlags() throws {
        let data = LL.conn(LL.data(llid: 2, [1, 2]))
        let (s, _) = try SnifferHeader.parse(linkType: 272, LL.nordic(data, flags: 0x04 | 0x08)[...])
        #expect(s.crc == .bad)
        #expect(s.direction == .peripheralToCentral)
        #expect(s.encrypted == true)
        #expect(s.decrypted)
        #expect(s.fields["mic_ok"] == .bool(true))
        let (a, _) = try SnifferHeader.parse(linkType: 272, LL.nordic(adv, packetID: 0x02, flags: 0x01 | 0x06, channel: 8)[...])
        #expect(a.advertisingHint == true)
        #expect(a.auxType == 3)
        #expect(a.direction == nil)
        let (p, _) = try SnifferHeader.parse(linkType: 272, LL.nordic(adv, packetID: 0x02, flags: 0x01 | 0x06, channel: 37)[...])
        #expect(p.auxType == nil) // primary channel: no aux type
    }

    @Test("nRF on the LE Coded PHY: the coding indicator after the access address is read and skipped", arguments: [UInt8(0), 1])
    func nordicCoded(ci: UInt8) throws {
        let data = LL.conn(LL.data(llid: 2, sn: 1, nesn: 0, [5, 0, 4, 0, 0x0A, 0x03, 0x00]))
        // As the nRF Sniffer writes it: access address, coding indicator, then header, payload and CRC.
        let coded = Array(data.prefix(4)) + [ci] + Array(data.dropFirst(4))
        let (s, rest) = try SnifferHeader.parse(linkType: 272, LL.nordic(coded, flags: LL.dflags(central: true, phy: 2))[...])
        #expect(Array(rest) == data)
        #expect(s.phy == 2)
        #expect(s.codingIndicator == ci)
        #expect(s.fields["phy"] == .string("LE Coded"))
        #expect(s.fields["coding"] == .string(ci == 0 ? "S=8" : "S=2"))
        // The uncoded PHYs have no indicator: the packet is passed on whole.
        let (u, same) = try SnifferHeader.parse(linkType: 272, LL.nordic(data, flags: LL.dflags(central: true, phy: 0))[...])
        #expect(Array(same) == data)
        #expect(u.codingIndicator == nil && u.fields["coding"] == nil)
        // A coded packet too short for its indicator is passed on as it is (the decoder then calls it malformed).
        let short: [UInt8] = [0xD6, 0xBE, 0x89, 0x8E]
        let (_, r) = try SnifferHeader.parse(linkType: 272, LL.nordic(short, flags: LL.dflags(central: true, phy: 2))[...])
        #expect(Array(r) == short)
    }

    @Test("nRF: unknown header version and short headers are errors, not traps")
    func nordicBad() {
        var bytes = LL.nordic(adv, flags: 1)
        bytes[3] = 9
        #expect(throws: ByteError.self) { try SnifferHeader.parse(linkType: 272, bytes[...]) }
        let full = LL.nordic(adv, flags: 1)
        for n in 0..<17 {
            #expect(throws: ByteError.self) { try SnifferHeader.parse(linkType: 272, full.prefix(n)) }
        }
    }

    @Test("LE_LL_WITH_PHDR: RF channel, powers, offenses, reference AA, flags")
    func phdr() throws {
        // dewhitened, signal+noise valid, decrypted, ref AA valid, offenses valid, PDU type 3, CRC checked+valid,
        // MIC checked+valid, PHY coded.
        let flags: UInt16 = 0x0001 | 0x0002 | 0x0004 | 0x0008 | 0x0010 | 0x0020 | 3 << 7 | 0x0400 | 0x0800 | 0x1000 | 0x2000 | 2 << 14
        let data = LL.conn(LL.data(llid: 1, []))
        let (s, rest) = try SnifferHeader.parse(linkType: 256, LL.phdr(data, rf: 13, signal: -41, noise: -95, offenses: 2,
                                                                        reference: 0x1122_3344, flags: flags)[...])
        #expect(Array(rest) == data)
        #expect(s.channel == 11) // RF 13 (2428 MHz) is data channel 11
        #expect(s.rssi == -41)
        #expect(s.noise == -95)
        #expect(s.direction == .peripheralToCentral)
        #expect(s.crc == .good)
        #expect(s.decrypted)
        #expect(s.phy == 2)
        #expect(s.fields["rf_channel"] == .int(13))
        #expect(s.fields["aa_offenses"] == .int(2))
        #expect(s.fields["reference_access_address"] == .int(0x1122_3344))
        #expect(s.fields["mic_valid"] == .bool(true))
        #expect(s.fields["pdu_type_name"] == .string("data, peripheral to central"))
        // Nothing valid: no RSSI, CRC unchecked, no direction.
        let (u, _) = try SnifferHeader.parse(linkType: 256, LL.phdr(data, rf: 0, flags: 0x0001)[...])
        #expect(u.rssi == nil && u.noise == nil)
        #expect(u.crc == .unchecked)
        #expect(u.direction == nil)
        #expect(u.channel == 37)
        #expect(SnifferHeader.channelIndex(rf: 12) == 38)
        #expect(SnifferHeader.channelIndex(rf: 39) == 39)
        #expect(SnifferHeader.channelIndex(rf: 1) == 0)
        #expect(SnifferHeader.channelIndex(rf: 38) == 36)
        // CRC checked and not valid.
        let (b, _) = try SnifferHeader.parse(linkType: 256, LL.phdr(data, flags: 0x0400)[...])
        #expect(b.crc == .bad)
        #expect(throws: ByteError.self) { try SnifferHeader.parse(linkType: 256, LL.phdr(data, flags: 0).prefix(9)) }
    }

    @Test("LE_LL (251) has no pseudo-header")
    func bare() throws {
        let (s, rest) = try SnifferHeader.parse(linkType: 251, adv[...])
        #expect(Array(rest) == adv)
        #expect(s.crc == .unchecked && s.channel == nil && s.fields.isEmpty)
    }
}

@Suite("Link-layer CRC")
struct LLCRCTests {
    @Test("CRC-24 matches packets a sniffer marked good (advertising and data channel)")
    func vectors() {
        // SCAN_REQ captured by an nRF Sniffer that judged its CRC (bytes 80 63 6c) good.
        let adv: [UInt8] = Hex.parse("c30cb354448f2858ee1868b00b77")!
        #expect(LLCRC.check(adv[...], initial: LLCRC.advertisingInit, value: 0x6C_6380))
        // Exchange MTU Request on a connection whose CONNECT_IND gave CRCInit 0xE0D898; CRC bytes 1b a9 ab.
        let data: [UInt8] = Hex.parse("020703000400020f02")!
        #expect(LLCRC.compute(data[...], initial: 0xE0_D898) == 0xD8_95D5)
        #expect(LLCRC.wire(0xD8_95D5) == 0xAB_A91B)
        #expect(LLCRC.check(data[...], initial: 0xE0_D898, value: 0xAB_A91B))
        var damaged = data
        damaged[4] ^= 0x10
        #expect(!LLCRC.check(damaged[...], initial: 0xE0_D898, value: 0xAB_A91B))
        #expect(!LLCRC.check(data[...], initial: 0xE0_D899, value: 0xAB_A91B))
    }

    @Test("the CRCInit a packet's CRC implies is recovered, for any PDU", arguments: [UInt32(0xE0_D898), 0x55_5555, 0x00_0001, 0xFF_FFFF])
    func initialRecovered(initial: UInt32) {
        for pdu: [UInt8] in [Hex.parse("020703000400020f02")!, [0x01, 0x00], Array(repeating: 0xA5, count: 40)] {
            let value = LLCRC.wire(LLCRC.compute(pdu[...], initial: initial))
            #expect(LLCRC.initial(pdu[...], value: value) == initial)
        }
    }

    /// LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR packets whose CRC the sniffer did not check (a HackRF's: flags 0x0001,
    /// dewhitened only) on an access address no CONNECT_IND announced.
    static func unchecked(_ n: Int, _ aa: UInt32, _ pdu: [UInt8], crcInit: UInt32) -> Record {
        LL.record(n, LL.phdr(LL.packet(aa, pdu, crcInit: crcInit), flags: 0x0001), linkType: 256)
    }

    @Test("noise makes no link: an unchecked packet on a new access address becomes one only when a second, different packet checks with its CRCInit")
    func uncheckedPacketsMakeNoPhantomLinks() {
        let empty = LL.data(llid: 1, sn: 0, nesn: 0, [])
        let other = LL.data(llid: 1, sn: 1, nesn: 1, [])
        // Noise: every packet on its own access address, and a copy of one packet: no link.
        let noise = LL.run([Self.unchecked(1, 0x1122_3344, empty, crcInit: 0x12_3456), Self.unchecked(2, 0x5566_7788, other, crcInit: 0x65_4321),
                            Self.unchecked(3, 0x1122_3344, empty, crcInit: 0x12_3456)])
        #expect(noise.summary.connections.isEmpty)
        #expect(noise.events.allSatisfy { $0.connection == nil })
        // A real link: two different packets that agree on the CRCInit; the second is decoded on the link.
        let real = LL.run([Self.unchecked(1, 0x1122_3344, empty, crcInit: 0x12_3456), Self.unchecked(2, 0x1122_3344, other, crcInit: 0x12_3456)])
        #expect(real.summary.connections.count == 1)
        #expect(real.events[1].connection == 1)
        #expect(real.events[1].layer("ll")?["crc"] == .string("good"))
        // Disagreeing CRCInits on one access address (noise that hit it twice): still no link.
        let clash = LL.run([Self.unchecked(1, 0x1122_3344, empty, crcInit: 0x12_3456), Self.unchecked(2, 0x1122_3344, other, crcInit: 0x00_0777)])
        #expect(clash.summary.connections.isEmpty)
        // Advertising packets received with a bit error in the access address (0x8E89BE96 for 0x8E89BED6) agree
        // on the advertising CRCInit: no link (the HackRF capture's phantom connections).
        let damaged = LL.run([Self.unchecked(1, 0x8E89_BE96, empty, crcInit: LLCRC.advertisingInit),
                              Self.unchecked(2, 0x8E89_BE96, other, crcInit: LLCRC.advertisingInit)])
        #expect(damaged.summary.connections.isEmpty)
    }

    @Test("a packet whose computed CRC is wrong is flagged, counted and kept from higher layers")
    func badComputed() {
        var good = LL.packet(LL.advAA, LL.adv(2, LL.addr(0x00_11_22_33_44_55) + [2, 1, 6]), crcInit: LLCRC.advertisingInit)
        let ev1 = LL.run([LL.record(1, good, linkType: 251)]).events
        #expect(ev1[0].kind == .adv)
        #expect(ev1[0].layer("ll")?["crc"] == .string("good"))
        good[good.count - 1] ^= 0x01
        let (events, _, summary) = LL.run([LL.record(1, good, linkType: 251)])
        #expect(events[0].kind == .linkLayer)
        #expect(events[0].layer("ll")?["crc"] == .string("bad"))
        #expect(events[0].layer("adv") == nil)
        #expect(events[0].summary.contains("bad CRC"))
        let section = summary.sections.first { $0.name == "link_layer" }
        #expect(section?.value.objectValue?["crc_bad"] == .int(1))
        #expect(section?.value.objectValue?["crc_bad_records"] == .list([.int(1)]))
    }
}

@Suite("Link-layer PDUs")
struct LLPDUTests {
    func one(_ bytes: [UInt8], linkType: Int = 251) -> TraceEvent {
        LL.run([LL.record(1, bytes, linkType: linkType)]).events[0]
    }

    func advPacket(_ pdu: [UInt8]) -> [UInt8] { LL.packet(LL.advAA, pdu, crcInit: LLCRC.advertisingInit) }

    @Test("ADV_IND, ADV_NONCONN_IND, ADV_SCAN_IND and SCAN_RSP go through AD decoding", arguments: [
        (UInt8(0), "ADV_IND", true, true, false), (2, "ADV_NONCONN_IND", false, false, false),
        (6, "ADV_SCAN_IND", false, true, false), (4, "SCAN_RSP", false, false, true),
    ])
    func advertisingData(type: UInt8, name: String, connectable: Bool, scannable: Bool, scanResponse: Bool) {
        let ad: [UInt8] = [2, 0x01, 0x06, 5, 0x09] + Array("kHID".utf8)
        let e = one(LL.nordic(advPacket(LL.adv(type, tx: true, LL.addr(0xD0_11_22_33_44_55) + ad)), packetID: 0x02,
                              flags: 0x01, channel: 38, rssi: 70), linkType: 272)
        #expect(e.kind == .adv)
        #expect(e.layer("ll")?["pdu"] == .string(name))
        #expect(e.layer("ll")?["adv_address"] == .string("D0:11:22:33:44:55"))
        #expect(e.layer("ll")?["adv_address_type"] == .string("random static"))
        #expect(e.layer("sniffer")?["channel"] == .int(38))
        guard case let .list(reports)? = e.layer("adv")?["reports"], let r = reports.first?.objectValue else {
            Issue.record("no adv report"); return
        }
        #expect(r["event_type"] == .string(name))
        #expect(r["rssi"] == .int(-70))
        #expect(r["connectable"] == .bool(connectable))
        #expect(r["scannable"] == .bool(scannable))
        #expect(r["scan_response"] == .bool(scanResponse))
        #expect(e.summary.hasPrefix("LL \(name) D0:11:22:33:44:55 (random static) RSSI -70 dBm"))
        #expect(e.summary.contains("kHID"))
    }

    @Test("link-layer adverts reach the device inventory")
    func inventory() {
        let ad: [UInt8] = [5, 0x09] + Array("Lamp".utf8)
        let recs = [LL.record(1, advPacket(LL.adv(0, LL.addr(0x00_A0_B0_C0_D0_E0) + ad)), linkType: 251),
                    LL.record(2, advPacket(LL.adv(4, LL.addr(0x00_A0_B0_C0_D0_E0) + [2, 0x0A, 0xF8])), linkType: 251)]
        let (_, _, summary) = LL.run(recs)
        let devices = summary.sections.first { $0.name == "devices" }?.value.objectValue
        #expect(devices?["count"] == .int(1))
        guard case let .list(list)? = devices?["devices"], let d = list.first?.objectValue else { Issue.record("no devices"); return }
        #expect(d["address"] == .string("00:A0:B0:C0:D0:E0"))
        #expect(d["reports"] == .int(2))
        #expect(d["scan_responses"] == .int(1))
        #expect(d["names"] == .list([.string("Lamp")]))
    }

    @Test("ADV_DIRECT_IND and SCAN_REQ name both addresses")
    func directAndScanRequest() {
        let d = one(advPacket(LL.adv(1, tx: false, rx: true, LL.addr(0x00_11_11_11_11_11) + LL.addr(0xC0_22_22_22_22_22))))
        #expect(d.layer("ll")?["pdu"] == .string("ADV_DIRECT_IND"))
        #expect(d.layer("ll")?["target_address"] == .string("C0:22:22:22:22:22"))
        #expect(d.layer("ll")?["target_address_type"] == .string("random static"))
        let s = one(advPacket(LL.adv(3, tx: true, rx: false, LL.addr(0x40_33_33_33_33_33) + LL.addr(0x00_44_44_44_44_44))))
        #expect(s.kind == .linkLayer)
        #expect(s.layer("ll")?["pdu"] == .string("SCAN_REQ"))
        #expect(s.layer("ll")?["scan_address"] == .string("40:33:33:33:33:33"))
        #expect(s.layer("ll")?["scan_address_type"] == .string("resolvable private"))
        #expect(s.layer("ll")?["adv_address"] == .string("00:44:44:44:44:44"))
        #expect(s.summary == "LL SCAN_REQ 40:33:33:33:33:33 (resolvable private) → 00:44:44:44:44:44 (public)")
    }

    @Test("CONNECT_IND: LLData fields, summary, and a connection with the advertiser as peer")
    func connectInd() {
        let (events, analyzer, summary) = LL.run([LL.record(1, LL.connectInd(), linkType: 251)])
        let e = events[0]
        #expect(e.layer("ll")?["pdu"] == .string("CONNECT_IND"))
        #expect(e.layer("ll")?["init_address"] == .string("C4:7C:8D:6A:11:22"))
        #expect(e.layer("ll")?["adv_address"] == .string("11:22:33:44:55:66"))
        let d = e.layer("ll")?["ll_data"]?.objectValue
        #expect(d?["access_address"] == .int(0x5065_4D21))
        #expect(d?["crc_init"] == .int(0x12_3456))
        #expect(d?["window_size"] == .int(2))
        #expect(d?["window_offset"] == .int(3))
        #expect(d?["interval"] == .int(24))
        #expect(d?["latency"] == .int(2))
        #expect(d?["timeout"] == .int(500))
        #expect(d?["channel_map"] == .hex([0xFF, 0xFF, 0xFF, 0xFF, 0x1F]))
        #expect(d?["used_channels"] == .int(37))
        #expect(d?["hop"] == .int(7))
        #expect(d?["sca"] == .int(5))
        #expect(d?["sca_ppm"] == .string("31–50 ppm"))
        #expect(e.summary == "LL CONNECT_IND C4:7C:8D:6A:11:22 (random static) → 11:22:33:44:55:66 (public), AA 0x50654D21, interval 30.00 ms, latency 2, timeout 5000 ms, 37 channels, hop 7, SCA 31–50 ppm")
        #expect(e.connection == 1)
        let c = analyzer.pipeline.connections.all.first
        #expect(c?.peer == BDAddr(LL.peripheral))
        #expect(c?.role == 0)
        #expect(c?.interval == 24)
        #expect(c?.implicit == false)
        let ll = summary.sections.first { $0.name == "link_layer" }?.value.objectValue
        guard case let .list(links)? = ll?["connections"], let l = links.first?.objectValue else { Issue.record("no links"); return }
        #expect(l["central"] == .string("C4:7C:8D:6A:11:22"))
        #expect(l["peripheral"] == .string("11:22:33:44:55:66"))
        #expect(l["connect_record"] == .int(1))
    }

    @Test("a CONNECT_IND cut short is malformed, not a crash")
    func shortConnect() {
        var p = LL.connectInd()
        p.removeLast(8)
        let e = one(p)
        #expect(e.malformed != nil)
    }

    @Test("ADV_EXT_IND with ADI and AuxPtr; AUX_ADV_IND and AUX_CHAIN_IND data reassembled for the AD decoder")
    func extended() {
        // ADV_EXT_IND: ext header flags ADI | AuxPtr; ADI DID 0x123 SID 5; AuxPtr channel 9, 300 µs units, offset 100, 2M.
        let adi = LL.le16(0x123 | 5 << 12)
        let auxPtr: [UInt8] = [9 | 0x80] + LL.le16(100 | 1 << 13)
        let ext = [UInt8(1 + 2 + 3) | 0 << 6, 0x08 | 0x10] + adi + auxPtr
        let e = one(LL.nordic(advPacket(LL.adv(7, ext)), packetID: 0x02, flags: 0x01, channel: 37), linkType: 272)
        #expect(e.layer("ll")?["pdu"] == .string("ADV_EXT_IND"))
        let x = e.layer("ll")?["extended_header"]?.objectValue
        #expect(x?["adi"] == .object(["did": .int(0x123), "sid": .int(5)]))
        let p = x?["aux_ptr"]?.objectValue
        #expect(p?["channel"] == .int(9))
        #expect(p?["offset_us"] == .int(30_000))
        #expect(p?["phy"] == .string("LE 2M"))
        #expect(e.summary.contains("SID 5 DID 291"))

        // AUX_ADV_IND (aux type 0) with AdvA, ADI, AuxPtr and the first half of a name; AUX_CHAIN_IND (aux type 1)
        // with ADI only and the rest.
        let advA = LL.addr(0xC1_02_03_04_05_06)
        let first = [UInt8(1 + 6 + 2 + 3) | 1 << 6, 0x01 | 0x08 | 0x10] + advA + adi + auxPtr + [10, 0x09] + Array("Long".utf8)
        let second = [UInt8(1 + 2), 0x08] + adi + Array("Name!".utf8)
        let recs = [
            LL.record(1, LL.nordic(advPacket(LL.adv(7, tx: true, first)), packetID: 0x02, flags: 0x01 | 0 << 1, channel: 9), linkType: 272),
            LL.record(2, LL.nordic(advPacket(LL.adv(7, second)), packetID: 0x02, flags: 0x01 | 1 << 1, channel: 20), linkType: 272),
        ]
        let (events, _, summary) = LL.run(recs)
        #expect(events[0].layer("ll")?["pdu"] == .string("AUX_ADV_IND"))
        #expect(events[0].layer("ll")?["adv_mode_name"] == .string("connectable"))
        #expect(events[1].layer("ll")?["pdu"] == .string("AUX_CHAIN_IND"))
        #expect(events[1].summary.contains("\"LongName!\""))
        let devices = summary.sections.first { $0.name == "devices" }?.value.objectValue
        guard case let .list(list)? = devices?["devices"], let d = list.first?.objectValue else { Issue.record("no devices"); return }
        #expect(d["address"] == .string("C1:02:03:04:05:06"))
        #expect(d["names"] == .list([.string("LongName!")]))
    }
}

@Suite("LL control PDUs")
struct LLControlTests {
    func decode(_ bytes: [UInt8]) throws -> LLControl.Decoded { try LLControl.decode(bytes[...]) }

    @Test("connection update, channel map, terminate, reject")
    func procedures() throws {
        let u = try decode([0x00, 2] + LL.le16(5) + LL.le16(40) + LL.le16(1) + LL.le16(300) + LL.le16(77))
        #expect(u.name == "LL_CONNECTION_UPDATE_IND")
        #expect(u.fields["interval"] == .int(40) && u.fields["instant"] == .int(77) && u.fields["window_offset"] == .int(5))
        #expect(u.detail == "interval 50.00 ms, latency 1, timeout 3000 ms, instant 77")
        #expect(u.effect == .update(interval: 40, latency: 1, timeout: 300, instant: 77, windowOffset: 5))
        let m = try decode([0x01, 0xFF, 0x00, 0x00, 0x00, 0x01] + LL.le16(9))
        #expect(m.fields["used_channels"] == .int(9) && m.fields["instant"] == .int(9))
        let t = try decode([0x02, 0x13])
        #expect(t.name == "LL_TERMINATE_IND")
        #expect(t.detail == "Remote User Terminated Connection")
        #expect(t.effect == .terminate(reason: 0x13))
        let r = try decode([0x0D, 0x06])
        #expect(r.name == "LL_REJECT_IND" && r.fields["error_name"] == .string("PIN or Key Missing"))
        let x = try decode([0x11, 0x03, 0x1A])
        #expect(x.fields["reject_name"] == .string("LL_ENC_REQ"))
        #expect(x.detail.hasPrefix("LL_ENC_REQ: "))
        let k = try decode([0x07, 0x25])
        #expect(k.fields["unknown_type_name"] == .string("LL_POWER_CHANGE_IND"))
    }

    @Test("encryption procedure PDUs")
    func encryption() throws {
        let req = try decode([0x03] + Array(1...8) + LL.le16(0xBEEF) + Array(repeating: 0xAA, count: 8) + [1, 2, 3, 4])
        #expect(req.fields["ediv"] == .int(0xBEEF))
        #expect(req.fields["rand"] == .hex(Array(1...8)))
        #expect(req.fields["iv_c"] == .hex([1, 2, 3, 4]))
        #expect(req.effect == .encryptionRequest)
        let rsp = try decode([0x04] + Array(repeating: 0xBB, count: 8) + [5, 6, 7, 8])
        #expect(rsp.fields["iv_p"] == .hex([5, 6, 7, 8]) && rsp.effect == .encryptionResponse)
        #expect(try decode([0x05]).effect == .startEncryption)
        #expect(try decode([0x06]).name == "LL_START_ENC_RSP")
        #expect(try decode([0x0A]).name == "LL_PAUSE_ENC_REQ")
        #expect(try decode([0x0B]).name == "LL_PAUSE_ENC_RSP")
        #expect(throws: ByteError.self) { try decode([0x03, 1, 2, 3]) }
    }

    @Test("features, version, length, PHY, min used channels, ping")
    func exchanges() throws {
        let f = try decode([0x08, 0x01 | 0x20, 0x01, 0, 0, 0, 0, 0, 0])
        #expect(f.fields["feature_names"] == .list([.string("LE Encryption"), .string("LE Data Packet Length Extension"), .string("LE 2M PHY")]))
        #expect(try decode([0x09] + Array(repeating: 0, count: 8)).detail == "no features")
        let v = try decode([0x0C, 9] + LL.le16(0x0059) + LL.le16(0x1234))
        #expect(v.detail == "Bluetooth 5.0, Nordic Semiconductor ASA, subversion 0x1234")
        let l = try decode([0x14] + LL.le16(251) + LL.le16(2120) + LL.le16(27) + LL.le16(328))
        #expect(l.fields["max_rx_octets"] == .int(251) && l.fields["max_tx_time"] == .int(328))
        let p = try decode([0x16, 0x03, 0x02])
        #expect(p.detail == "TX LE 1M/LE 2M, RX LE 2M")
        let pu = try decode([0x18, 0x02, 0x00] + LL.le16(16))
        #expect(pu.detail == "central→peripheral LE 2M, peripheral→central unchanged, instant 16")
        let mu = try decode([0x19, 0x01, 2])
        #expect(mu.fields["min_used_channels"] == .int(2))
        #expect(try decode([0x12]).name == "LL_PING_REQ")
        #expect(try decode([0x13]).name == "LL_PING_RSP")
        let cp = try decode([0x0F] + LL.le16(6) + LL.le16(12) + LL.le16(0) + LL.le16(400) + [1] + LL.le16(3) + Array(repeating: 0xFF, count: 12))
        #expect(cp.fields["interval_max"] == .int(12) && cp.fields["reference_event_count"] == .int(3))
        #expect(try decode([0x12, 0x00]).fields["surplus_bytes"] == .int(1))
    }
}

@Suite("Link-layer connections")
struct LLConnectionTests {
    /// CONNECT_IND, then data PDUs on the connection (272 v3 with directions).
    func session(_ pdus: [(central: Bool, pdu: [UInt8])], encryptedFlag: [Int: (Bool, Bool)] = [:]) -> ([TraceEvent], Analyzer, Summary) {
        var recs = [LL.record(1, LL.nordic(LL.connectInd(), packetID: 0x02, flags: 1, channel: 37), linkType: 272)]
        for (i, p) in pdus.enumerated() {
            let enc = encryptedFlag[i + 2]
            recs.append(LL.record(i + 2, LL.nordic(LL.conn(p.pdu), flags: LL.dflags(central: p.central, encrypted: enc?.0 ?? false, mic: enc?.1 ?? false)),
                                  linkType: 272))
        }
        return LL.run(recs)
    }

    static let readRequest: [UInt8] = LL.le16(3) + LL.le16(4) + [0x0A, 0x03, 0x00]
    static let readResponse: [UInt8] = LL.le16(3) + LL.le16(4) + [0x0B, 0x42, 0x43]

    @Test("ATT over LL data: request from the central, response from the peripheral, linked")
    func att() {
        let (events, _, _) = session([(true, LL.data(llid: 2, sn: 0, nesn: 0, Self.readRequest)),
                                      (false, LL.data(llid: 2, sn: 0, nesn: 1, Self.readResponse))])
        let req = events[1], rsp = events[2]
        #expect(req.kind == .att && rsp.kind == .att)
        #expect(req.direction == .hostToController && rsp.direction == .controllerToHost)
        #expect(req.layer("att")?["response"] == .int(3))
        #expect(rsp.layer("att")?["request"] == .int(2))
        #expect(rsp.layer("att")?["value"] == .hex([0x42, 0x43]))
        #expect(req.layers.map(\.0) == ["sniffer", "ll", "l2cap", "att"])
        #expect(req.layer("ll")?["direction"] == .string("central_to_peripheral"))
        #expect(req.connection == 1 && rsp.connection == 1)
        #expect(req.handle == rsp.handle)
    }

    @Test("L2CAP reassembled from LLID start and continuation")
    func reassembly() {
        let frame = LL.le16(7) + LL.le16(4) + [0x12, 0x10, 0x00, 1, 2, 3, 4] // ATT Write Request, 11 bytes
        let (events, _, _) = session([(true, LL.data(llid: 2, sn: 0, Array(frame.prefix(6)))),
                                      (false, LL.data(llid: 1, sn: 0, nesn: 1, [])),
                                      (true, LL.data(llid: 1, sn: 1, nesn: 1, Array(frame.dropFirst(6))))])
        #expect(events[1].kind == .linkLayer)
        #expect(events[1].layer("ll")?["fragment"] == .string("start"))
        #expect(events[1].layer("ll")?["have"] == .int(2))
        #expect(events[1].layer("ll")?["expected"] == .int(7))
        #expect(events[2].summary == "LL empty PDU (SN 0, NESN 1)")
        #expect(events[3].kind == .att)
        #expect(events[3].layer("att")?["value"] == .hex([1, 2, 3, 4]))
        #expect(events[3].layer("l2cap")?["fragments"] == .int(2))
        #expect(events[3].layer("l2cap")?["first_record"] == .int(2))
        // A continuation with no start is reported, not decoded.
        let (orphan, _, _) = session([(true, LL.data(llid: 1, sn: 0, [1, 2, 3]))])
        #expect(orphan[1].layer("warning") != nil)
        #expect(orphan[1].kind == .linkLayer)
    }

    @Test("a retransmission (same SN, same bytes, not acknowledged) is marked and not decoded twice")
    func retransmission() {
        let req = LL.data(llid: 2, sn: 0, nesn: 0, Self.readRequest)
        let (events, _, summary) = session([(true, req), (false, LL.data(llid: 1, sn: 0, nesn: 0, [])), (true, req),
                                            (false, LL.data(llid: 2, sn: 0, nesn: 1, Self.readResponse))])
        #expect(events[1].kind == .att)
        #expect(events[3].kind == .linkLayer)
        #expect(events[3].layer("ll")?["retransmission"] == .bool(true))
        #expect(events[3].layer("ll")?["retransmission_of"] == .int(2))
        #expect(events[3].summary == "LL retransmission of record 2 (SN 0, 7 bytes)")
        #expect(events.filter { $0.kind == .att }.count == 2)
        #expect(events[4].layer("att")?["request"] == .int(2))
        #expect(summary.sections.first { $0.name == "link_layer" }?.value.objectValue?["retransmissions"] == .int(1))
        // Acknowledged, then the same bytes with the next SN: a new PDU, decoded.
        let (again, _, _) = session([(true, req), (false, LL.data(llid: 1, sn: 0, nesn: 1, [])),
                                     (true, LL.data(llid: 2, sn: 1, nesn: 1, Self.readRequest))])
        #expect(again[3].kind == .att)
        // Acknowledged, but the central's NESN did not move: it missed the acknowledgement and sends the request
        // again at the next connection event (records are 10 ms apart, the interval is 30 ms).
        let (unheard, _, unheardSummary) = session([(true, req), (false, LL.data(llid: 1, sn: 0, nesn: 1, [])), (true, req),
                                                    (false, LL.data(llid: 2, sn: 1, nesn: 1, Self.readResponse))])
        #expect(unheard[3].layer("ll")?["retransmission_of"] == .int(2))
        #expect(unheard.filter { $0.kind == .att }.count == 2)
        #expect(unheard[4].layer("att")?["request"] == .int(2))
        #expect(unheardSummary.sections.first { $0.name == "findings" }?.value.objectValue?["count"] == .int(0))
        // The same after whole connection events the sniffer missed (the sequence numbers came round again):
        // a new PDU, decoded.
        var recs = [LL.record(1, LL.nordic(LL.connectInd(), packetID: 0x02, flags: 1, channel: 37), linkType: 272)]
        for (i, p) in [(true, req), (false, LL.data(llid: 1, sn: 0, nesn: 1, [])), (true, req)].enumerated() {
            recs.append(LL.record(i + 2, LL.nordic(LL.conn(p.1), flags: LL.dflags(central: p.0)), linkType: 272, micros: Int64(i) * 90_000 + 20_000))
        }
        let (missed, _, _) = LL.run(recs)
        #expect(missed[3].layer("ll")?["retransmission"] == nil)
        #expect(missed[3].kind == .att)
        // Timestamps at the ends of the range (a hostile file): no overflow, not a retransmission.
        var extreme = [LL.record(1, LL.nordic(LL.connectInd(), packetID: 0x02, flags: 1, channel: 37), linkType: 272)]
        for (i, p) in [(true, req), (false, LL.data(llid: 1, sn: 0, nesn: 1, [])), (true, req)].enumerated() {
            extreme.append(LL.record(i + 2, LL.nordic(LL.conn(p.1), flags: LL.dflags(central: p.0)), linkType: 272, micros: i == 0 ? .min : .max))
        }
        #expect(LL.run(extreme).events[3].kind == .att)
        // Acknowledged, and the peripheral's NESN then came back: the central sent a newer PDU the sniffer missed,
        // so the same values next time are new.
        let (superseded, _, _) = session([(true, req), (false, LL.data(llid: 1, sn: 0, nesn: 1, [])),
                                          (false, LL.data(llid: 1, sn: 1, nesn: 0, [])), (true, req)])
        #expect(superseded[4].kind == .att)
    }

    @Test("after LL_START_ENC_REQ payloads are encrypted: marked, never decoded")
    func encryptionStateMachine() {
        let encReq = LL.data(llid: 3, sn: 0, [0x03] + Array(repeating: 1, count: 22))
        let encRsp = LL.data(llid: 3, sn: 0, nesn: 1, [0x04] + Array(repeating: 2, count: 12))
        let start = LL.data(llid: 3, sn: 1, nesn: 1, [0x05])
        let cipher = LL.data(llid: 2, sn: 1, nesn: 0, [0x9F, 0x33, 0x01, 0x77, 0x12, 0x55, 0x80, 0x01, 0x02])
        // 251: no pseudo-header; the state machine decides.
        var recs = [LL.record(1, LL.connectInd(), linkType: 251)]
        for (i, p) in [encReq, encRsp, start, cipher].enumerated() { recs.append(LL.record(i + 2, LL.conn(p), linkType: 251, micros: Int64(i + 2) * 10_000)) }
        let (events, analyzer, summary) = LL.run(recs)
        #expect(events[2].summary == "LL_ENC_RSP")
        #expect(events[3].summary == "LL_START_ENC_REQ")
        #expect(events[4].layer("ll")?["encrypted"] == .bool(true))
        #expect(events[4].summary == "LL data (encrypted, 9 bytes)")
        #expect(events[4].layer("l2cap") == nil)
        #expect(analyzer.pipeline.connections.all.first?.encrypted == true)
        let s = summary.sections.first { $0.name == "link_layer" }?.value.objectValue
        #expect(s?["encrypted"] == .int(1))
        // A capture written already decrypted shows a 1-byte LL_START_ENC_RSP: what follows is plaintext.
        let plainStart = LL.data(llid: 3, sn: 1, nesn: 1, [0x06])
        let att = LL.data(llid: 2, sn: 0, nesn: 0, Self.readRequest)
        recs = [LL.record(1, LL.connectInd(), linkType: 251)]
        for (i, p) in [encReq, encRsp, start, plainStart, att].enumerated() { recs.append(LL.record(i + 2, LL.conn(p), linkType: 251, micros: Int64(i + 2) * 10_000)) }
        let (plain, _, _) = LL.run(recs)
        #expect(plain[4].summary == "LL_START_ENC_RSP")
        #expect(plain[5].kind == .att)
    }

    @Test("nRF Sniffer encrypted flag: bad MIC means ciphertext; a good MIC means the sniffer decrypted it")
    func encryptionFlags() {
        let pdu = LL.data(llid: 2, sn: 0, Self.readRequest)
        let (bad, _, _) = session([(true, pdu)], encryptedFlag: [2: (true, false)])
        #expect(bad[1].layer("ll")?["encrypted"] == .bool(true))
        #expect(bad[1].kind == .linkLayer)
        let (good, _, _) = session([(true, pdu)], encryptedFlag: [2: (true, true)])
        #expect(good[1].kind == .att)
    }

    @Test("a data PDU with a bad CRC is flagged and kept from L2CAP")
    func badCRCData() {
        var recs = [LL.record(1, LL.nordic(LL.connectInd(), packetID: 0x02, flags: 1, channel: 37), linkType: 272)]
        recs.append(LL.record(2, LL.nordic(LL.conn(LL.data(llid: 2, Self.readRequest)), flags: 0x02), linkType: 272))
        let (events, _, summary) = LL.run(recs)
        #expect(events[1].layer("ll")?["crc"] == .string("bad"))
        #expect(events[1].layer("l2cap") == nil)
        #expect(events[1].kind == .linkLayer)
        #expect(summary.sections.first { $0.name == "link_layer" }?.value.objectValue?["crc_bad"] == .int(1))
        // 251 with CRCInit known from CONNECT_IND: the CRC is computed.
        var broken = LL.conn(LL.data(llid: 2, Self.readRequest))
        broken[6] ^= 0xFF
        let (computed, _, _) = LL.run([LL.record(1, LL.connectInd(), linkType: 251), LL.record(2, broken, linkType: 251)])
        #expect(computed[1].layer("ll")?["crc"] == .string("bad"))
        #expect(computed[1].layer("att") == nil)
    }

    @Test("LL_TERMINATE_IND closes the connection with its reason; LL_CONNECTION_UPDATE_IND updates it at its instant")
    func terminate() {
        let update = LL.data(llid: 3, sn: 0, [0x00, 1] + LL.le16(0) + LL.le16(80) + LL.le16(0) + LL.le16(600) + LL.le16(50))
        let (events, analyzer, summary) = session([(true, update), (true, LL.data(llid: 3, sn: 1, nesn: 0, [0x02, 0x13]))])
        #expect(events[2].summary == "LL_TERMINATE_IND: Remote User Terminated Connection")
        let c = analyzer.pipeline.connections.all.first
        let opening = c?.opening?.interval
        #expect(opening != nil && c?.interval == opening) // the instant (event 50) never came: still the old interval
        #expect(c?.closedRecord == 3)
        #expect(c?.disconnectReason == 0x13)
        // The nRF Sniffer's event counter reaches the instant at record 3: the update holds from there.
        func at(_ n: Int, _ pdu: [UInt8], event: Int) -> Record {
            LL.record(n, LL.nordic(LL.conn(pdu), flags: LL.dflags(central: true), eventCounter: event), linkType: 272)
        }
        let empty = LL.data(llid: 1, sn: 1, nesn: 0, [])
        let connect = LL.record(1, LL.nordic(LL.connectInd(), packetID: 0x02, flags: 1, channel: 37), linkType: 272)
        let applied = LL.run([connect, at(2, update, event: 10), at(3, empty, event: 50)])
        let u = applied.analyzer.pipeline.connections.all.first
        #expect(u?.interval == 80 && u?.timeout == 600 && u?.updates.first?.record == 3)
        // Impossible values (interval 0) and an instant already past change nothing.
        let zero = LL.data(llid: 3, sn: 0, [0x00, 1] + LL.le16(0) + LL.le16(0) + LL.le16(0) + LL.le16(600) + LL.le16(50))
        let late = LL.data(llid: 3, sn: 0, [0x00, 1] + LL.le16(0) + LL.le16(80) + LL.le16(0) + LL.le16(600) + LL.le16(5))
        // …and are flagged on the PDU, in text and JSON.
        for (bad, why) in [(zero, "impossible_values"), (late, "instant_passed")] {
            let r = LL.run([connect, at(2, bad, event: 10), at(3, empty, event: 60)])
            #expect(r.analyzer.pipeline.connections.all.first?.updates.isEmpty == true)
            let control = r.events[1].layer("ll")?["control"]?.objectValue
            #expect(control?["not_applied"] == .string(why), "\(String(describing: control))")
            #expect(r.events[1].summary.hasSuffix(why == "instant_passed"
                ? "(not applied: its instant is not ahead of this event)" : "(not applied: impossible values)"))
        }
        #expect(applied.events[1].layer("ll")?["control"]?.objectValue?["not_applied"] == nil)
        // A channel map update with one channel, or an instant already past, is not applied either.
        let oneChannel = LL.data(llid: 3, sn: 0, [0x01, 0x01, 0x00, 0x00, 0x00, 0x00] + LL.le16(20))
        let pastMap = LL.data(llid: 3, sn: 0, [0x01, 0xFF, 0x00, 0x00, 0x00, 0x00] + LL.le16(5))
        let goodMap = LL.data(llid: 3, sn: 0, [0x01, 0xFF, 0x00, 0x00, 0x00, 0x00] + LL.le16(20))
        for (map, why) in [(oneChannel, "impossible_values"), (pastMap, "instant_passed"), (goodMap, nil)] {
            let r = LL.run([connect, at(2, map, event: 10)])
            #expect(r.events[1].layer("ll")?["control"]?.objectValue?["not_applied"] == why.map { .string($0) })
        }
        let s = summary.sections.first { $0.name == "link_layer" }
        #expect(s?.text.contains { $0.contains("terminated at record 3 (Remote User Terminated Connection)") } == true)
    }

    @Test("256 without a direction: inferred from channel and timing")
    func inferredDirection() {
        // Same channel, 300 µs apart: the answer; next channel, 30 ms later: the central again.
        let flags: UInt16 = 0x0001
        func rec(_ n: Int, _ pdu: [UInt8], rf: UInt8, at: Int64) -> Record {
            LL.record(n, LL.phdr(LL.conn(pdu), rf: rf, flags: flags), linkType: 256, micros: at)
        }
        let recs = [LL.record(1, LL.phdr(LL.connectInd(), rf: 0, flags: flags), linkType: 256, micros: 0),
                    rec(2, LL.data(llid: 2, sn: 0, Self.readRequest), rf: 5, at: 10_000),
                    rec(3, LL.data(llid: 1, sn: 0, nesn: 1, []), rf: 5, at: 10_300),
                    rec(4, LL.data(llid: 1, sn: 1, nesn: 1, []), rf: 5, at: 10_530),
                    rec(5, LL.data(llid: 2, sn: 1, nesn: 0, Self.readResponse), rf: 9, at: 40_000)]
        let (events, _, _) = LL.run(recs)
        #expect(events[1].layer("ll")?["direction"] == .string("central_to_peripheral"))
        #expect(events[1].layer("ll")?["direction_inferred"] == .bool(true))
        #expect(events[2].layer("ll")?["direction"] == .string("peripheral_to_central"))
        #expect(events[3].layer("ll")?["direction"] == .string("central_to_peripheral"))
        #expect(events[4].layer("ll")?["direction"] == .string("central_to_peripheral"))
        #expect(events[1].layer("ll")?["crc"] == .string("good")) // computed from the CONNECT_IND's CRCInit
    }

    @Test("damaged data packets never trap", arguments: 0..<12)
    func truncated(n: Int) {
        let full = LL.nordic(LL.conn(LL.data(llid: 3, [0x0C, 9, 0x59, 0])), flags: LL.dflags(central: true))
        let cut = Array(full.prefix(17 + n))
        let e = LL.run([LL.record(1, cut, linkType: 272)]).events[0]
        #expect(e.kind == .linkLayer)
        #expect(e.malformed != nil || e.layer("ll") != nil)
    }
}

@Suite("Typed link-layer bodies")
struct LLTypedBodyTests {
    static func body(_ e: TraceEvent) -> LinkLayerBody? {
        guard case let .linkLayer(b) = e.body else { return nil }
        return b
    }

    @Test("the pseudo-header is kept as read; its fields are made from it")
    func pseudoHeader() throws {
        let data = LL.packet(LL.connAA, LL.data(llid: 1, []))
        let (s, _) = try SnifferHeader.parse(linkType: 272, LL.nordic(data, flags: LL.dflags(central: true, phy: 1), channel: 12)[...])
        guard case let .nordic(h) = s.header else { Issue.record("nordic"); return }
        #expect(h.board == 9 && h.version == 3 && h.headerLength == nil && h.counter == 0x1234 && h.channel == 12)
        #expect(h.rssi == -60 && h.eventCounter == 7 && h.time == 1234 && !h.advertising)
        #expect(s.fields["direction"] == .string("central_to_peripheral") && s.fields["phy"] == .string("LE 2M"))
        let (p, _) = try SnifferHeader.parse(linkType: 256, LL.phdr(data, rf: 13, signal: -41, flags: 0x0002 | 0x0400 | 0x0800)[...])
        guard case .phdr(rf: 13, signal: -41, noise: -90, offenses: 0, reference: 0, flags: 0x0C02) = p.header else { Issue.record("phdr"); return }
        #expect(p.crc == .good && p.rssi == -41)
    }

    @Test("data channel PDUs: empty, control, fragments, retransmission, each a typed body with the packet's facts")
    func dataPDUs() {
        let f = LL.dflags(central: true), p = LL.dflags(central: false)
        let ver: [UInt8] = [0x0C, 0x0C] + LL.le16(0x0059) + LL.le16(0x1234)
        let (events, _, _) = LL.run([
            LL.record(1, LL.nordic(LL.connectInd(), packetID: 0x02, flags: 0x01, channel: 37), linkType: 272),
            LL.record(2, LL.nordic(LL.conn(LL.data(llid: 1, [])), flags: f), linkType: 272),
            LL.record(3, LL.nordic(LL.conn(LL.data(llid: 3, sn: 1, ver)), flags: p), linkType: 272),
            LL.record(4, LL.nordic(LL.conn(LL.data(llid: 2, sn: 1, nesn: 1, LL.le16(7) + LL.le16(4) + [0x0A])), flags: f), linkType: 272),
            LL.record(5, LL.nordic(LL.conn(LL.data(llid: 2, sn: 1, nesn: 1, LL.le16(7) + LL.le16(4) + [0x0A])), flags: f), linkType: 272),
            LL.record(6, LL.nordic(LL.conn(LL.data(llid: 3, sn: 0, nesn: 0, [0x0C, 0x0C])), flags: p), linkType: 272),
        ])
        #expect(events.count == 6)
        // CONNECT_IND: shown as itself; the advertising PDU is in the facts.
        let c = Self.body(events[0])
        guard case .advertising? = c?.content, let pdu = c?.radio.advertising else { Issue.record("connect"); return }
        #expect(pdu.type == 5 && pdu.name == "CONNECT_IND" && pdu.connect?.accessAddress == LL.connAA && pdu.connect?.interval == 24)
        #expect(pdu.connect.map { Array($0.channelMap) } == [0xFF, 0xFF, 0xFF, 0xFF, 0x1F])
        #expect(c?.radio.packet == PacketFacts(accessAddress: LL.advAA, advertising: true, crc: .good, crcValue: c?.radio.packet?.crcValue, trailing: 0))

        let empty = Self.body(events[1])
        guard case .empty? = empty?.content else { Issue.record("empty"); return }
        #expect(empty?.radio.data == DataPDUFacts(header: LLDataHeader(0x01, 0), direction: .centralToPeripheral, inferred: false))
        #expect(events[1].summary == "LL empty PDU (SN 0, NESN 0)")

        guard case let .control(v)? = Self.body(events[2])?.content,
              case .version(version: 0x0C, company: 0x0059, subversion: 0x1234) = v.parameters else { Issue.record("version"); return }
        #expect(v.opcode == 0x0C && v.surplus == 0 && v.effect == nil)
        #expect(events[2].summary.hasPrefix("LL_VERSION_IND: Bluetooth 5.3, "))
        #expect(events[2].layer("ll")?["control"]?.objectValue?["subversion"] == .int(0x1234))

        guard case .fragment(start: true, have: 1, expected: 7)? = Self.body(events[3])?.content else { Issue.record("fragment"); return }
        #expect(events[3].layer("ll")?["fragment"] == .string("start"))
        guard case .retransmission(of: 4)? = Self.body(events[4])?.content else { Issue.record("retransmission"); return }
        #expect(events[4].summary == "LL retransmission of record 4 (SN 1, 5 bytes)")

        // A control PDU cut short: a malformed body, with the packet's facts in front of it.
        guard case let .malformed(m) = events[5].body else { Issue.record("malformed"); return }
        #expect(m.layer == "LL control PDU" && m.kind == .linkLayer)
        #expect(events[5].radio?.data?.header.llid == 3)
        #expect(events[5].layers.map(\.0) == ["sniffer", "ll", "raw"])
    }

    @Test("a frame's sniffer facts travel with it as radio, rendered before its own layers")
    func radio() {
        let f = LL.dflags(central: true)
        let (events, _, _) = LL.run([
            LL.record(1, LL.nordic(LL.connectInd(), packetID: 0x02, flags: 0x01, channel: 37), linkType: 272),
            LL.record(2, LL.nordic(LL.conn(LL.data(llid: 2, LL.le16(2) + LL.le16(6) + [0x0B, 0x0D])), flags: f), linkType: 272),
            LL.record(3, LL.nordic(LL.packet(LL.advAA, LL.adv(2, LL.addr(0xC0_11_22_33_44_55) + [2, 1, 6]), crcInit: LLCRC.advertisingInit),
                                   packetID: 0x02, flags: 0x01, channel: 38), linkType: 272),
        ])
        guard case let .smp(s) = events[1].body, case .securityRequest(authReq: 0x0D)? = s.pdu else { Issue.record("smp"); return }
        #expect(events[1].radio?.data?.direction == .centralToPeripheral)
        #expect(events[1].radio?.packet?.accessAddress == LL.connAA)
        #expect(events[1].layers.map(\.0) == ["sniffer", "ll", "l2cap", "smp"])
        #expect(events[2].kind == .adv)
        #expect(events[2].radio?.advertising?.name == "ADV_NONCONN_IND")
        #expect(events[2].layers.map(\.0) == ["sniffer", "ll", "adv"])
        #expect(events[2].summary.hasPrefix("LL ADV_NONCONN_IND C0:11:22:33:44:55"))
    }
}
