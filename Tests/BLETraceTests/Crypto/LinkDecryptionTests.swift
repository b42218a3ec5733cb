import Testing
@testable import BLETrace

/// Builds an encrypted connection on the air (link type 256, with directions), sequence numbers kept right.
struct Air {
    var records: [Record] = []
    var sent = [0, 0]
    var aa = LL.connAA

    init() { connect(aa: LL.connAA) }

    /// A CONNECT_IND between the test devices: the PDUs that follow are on its access address.
    mutating func connect(aa: UInt32) {
        records.append(LL.record(records.count + 1, LL.phdr(LL.connectInd(aa: aa), rf: 0, flags: 0), linkType: 256))
        self.aa = aa
        sent = [0, 0]
    }

    mutating func add(_ pdu: [UInt8], central: Bool) {
        let flags = UInt16(central ? 2 : 3) << 7
        records.append(LL.record(records.count + 1, LL.phdr(LL.conn(pdu, aa: aa), rf: 10, flags: flags), linkType: 256))
    }

    /// The next header octet of a side: SN from its own count, NESN acknowledging the other side.
    mutating func header(_ llid: UInt8, central: Bool) -> UInt8 {
        let side = central ? 0 : 1
        let h = llid | UInt8(sent[1 - side] % 2) << 2 | UInt8(sent[side] % 2) << 3
        sent[side] += 1
        return h
    }

    mutating func plain(_ llid: UInt8, _ payload: [UInt8], central: Bool) {
        let h = header(llid, central: central)
        add([h, UInt8(payload.count)] + payload, central: central)
    }

    /// Encrypted with `ccm` and the side's `counter`.
    mutating func sealed(_ llid: UInt8, _ payload: [UInt8], central: Bool, _ ccm: LECCM, counter: UInt64) {
        let h = header(llid, central: central)
        let c = ccm.encrypt(payload, header: h, counter: counter, fromCentral: central)
        add([h, UInt8(c.count)] + c, central: central)
    }

    /// A PDU the sniffer missed: the sequence numbers move on, nothing is recorded.
    mutating func missed(central: Bool) { _ = header(1, central: central) }

    static func l2cap(_ cid: UInt16, _ payload: [UInt8]) -> [UInt8] { LL.le16(payload.count) + LL.le16(Int(cid)) + payload }

    func run(_ options: DecodeOptions = DecodeOptions()) -> (events: [TraceEvent], summary: Summary) {
        let sink = CollectingSink()
        let summary = Analyzer(options: options, sink: sink).run(ArrayReader(records, format: .pcap, linkType: 256), path: "test")
        return (sink.events, summary)
    }
}

@Suite struct LinkDecryptionTests {
    typealias Sample = CryptoFunctionTests
    static let readRequest = Air.l2cap(4, [0x0A, 0x03, 0x00])
    static let readResponse = Air.l2cap(4, [0x0B, 0x42, 0x43])

    static func encryptionRequest(ediv: UInt16 = 0x2474, rand: [UInt8] = LEBytes.value(LEBytes.hex("ABCDEF1234567890") ?? [])) -> [UInt8] {
        [0x03] + rand + LL.le16(Int(ediv)) + Sample.skdm + Sample.ivm
    }
    static let encryptionResponse: [UInt8] = [0x04] + Sample.skds + Sample.ivs

    /// The specification's session (Vol 6 Part C 1): its LTK, SKD and IV halves, its two LL_START_ENC_RSPs,
    /// then an ATT read each way.
    static func sampleSession(missPeripheralPDU: Bool = false) throws -> Air {
        var air = Air()
        air.plain(3, encryptionRequest(), central: true)
        air.plain(3, encryptionResponse, central: false)
        air.plain(3, [0x05], central: false)
        let ccm = try #require(SessionKey.cipher(key: Sample.ltk, skdm: Sample.skdm[...], skds: Sample.skds[...], ivm: Sample.ivm[...], ivs: Sample.ivs[...]))
        air.sealed(3, [0x06], central: true, ccm, counter: 0)
        air.sealed(3, [0x06], central: false, ccm, counter: 0)
        air.sealed(2, readRequest, central: true, ccm, counter: 1)
        if missPeripheralPDU { air.missed(central: false) }
        air.sealed(2, readResponse, central: false, ccm, counter: missPeripheralPDU ? 2 : 1)
        air.sealed(3, [0x02, 0x13], central: true, ccm, counter: 2)
        return air
    }

    func options(ltk: [UInt8]) -> DecodeOptions {
        var o = DecodeOptions()
        o.keys.anyLTK = KeyOptions.Entry(key: ltk, origin: .option)
        return o
    }

    func encryption(_ s: Summary) -> Fields? {
        guard case let .list(l)? = s.sections.first(where: { $0.name == "encryption" })?.value.objectValue?["connections"],
              case let .object(f)? = l.first else { return nil }
        return f
    }

    @Test func theSpecificationsLTKDecryptsAndDecodes() throws {
        let (events, summary) = try Self.sampleSession().run(options(ltk: Sample.ltk))
        // The sample packets are the specification's own ciphertext.
        #expect(events[4].layer("ll")?["length"] == .int(5))
        #expect(events[4].summary == "LL_START_ENC_RSP")
        #expect(events[5].summary == "LL_START_ENC_RSP")
        #expect(events[4].layer("ll")?["decrypted"] == .bool(true))
        #expect(events[6].kind == .att && events[7].kind == .att)
        #expect(events[7].layer("att")?["request"] == .int(7))
        #expect(events[7].layer("att")?["value"] == .hex([0x42, 0x43]))
        #expect(events[8].summary.hasPrefix("LL_TERMINATE_IND"))
        let f = try #require(encryption(summary))
        #expect(f["decrypted"] == .int(5))
        #expect(f["mic_failures"] == .int(0))
        #expect(f["ltk"] == .string("4c68384139f574d836bcf34e9dfb01bf"))
        #expect(f["ltk_source"] == .string("ltk_option"))
        #expect(summary.connections.first?.closedRecord == 9)
    }

    @Test func withoutAKeyPDUsStayEncrypted() throws {
        let (events, summary) = try Self.sampleSession().run()
        #expect(events[4].summary == "LL control (encrypted, 5 bytes)")
        #expect(events[6].summary == "LL data (encrypted, 11 bytes)")
        #expect(events[6].layer("l2cap") == nil)
        let f = try #require(encryption(summary))
        #expect(f["not_decrypted"] == .int(5))
        #expect(f["problem"] == .string("ltkNeeded"))
    }

    @Test func aWrongKeyGivesMICFailuresNotGarbage() throws {
        var wrong = Sample.ltk
        wrong[0] ^= 0x80
        let (events, summary) = try Self.sampleSession().run(options(ltk: wrong))
        for e in events[4...8] {
            #expect(e.kind == .linkLayer)
            #expect(e.layer("ll")?["mic_failure"] == .bool(true))
            #expect(e.layer("ll")?["encrypted"] == .bool(true))
            #expect(e.summary.hasSuffix("MIC check failed)"))
        }
        let f = try #require(encryption(summary))
        #expect(f["mic_failures"] == .int(5))
        #expect(f["decrypted"] == .int(0))
        #expect(f["problem"] == .string("givenKeyFails"))
    }

    @Test func aMissedPDUDoesNotLoseTheCounter() throws {
        let (events, summary) = try Self.sampleSession(missPeripheralPDU: true).run(options(ltk: Sample.ltk))
        #expect(events[7].kind == .att)
        #expect(encryption(summary)?["decrypted"] == .int(5))
    }

    @Test func anAddressedLTKAndTheKeysFile() throws {
        var o = DecodeOptions()
        try o.keys.add(ltk: "11:22:33:44:55:66=" + LEBytes.hexString(Sample.ltk))
        #expect(encryption(try Self.sampleSession().run(o).summary)?["decrypted"] == .int(5))
        // Another device's key is not tried.
        var other = DecodeOptions()
        try other.keys.add(ltk: "11:22:33:44:55:67=" + LEBytes.hexString(Sample.ltk))
        #expect(encryption(try Self.sampleSession().run(other).summary)?["decrypted"] == .int(0))
        var file = DecodeOptions()
        try KeyFile.parse(Array("\"11:22:33:44:55:66\":\n  ltk: \"\(LEBytes.hexString(Sample.ltk))\"\n".utf8), into: &file.keys)
        let f = encryption(try Self.sampleSession().run(file).summary)
        #expect(f?["decrypted"] == .int(5))
        #expect(f?["ltk_source"] == .string("keys_file"))
        var json = KeyOptions()
        try KeyFile.parse(Array("{\"11:22:33:44:55:66\": {\"ltk\": \"\(LEBytes.hexString(Sample.ltk))\", \"irk\": \"000102030405060708090a0b0c0d0e0f\"}}".utf8), into: &json)
        #expect(json.irkByAddress[BDAddr(0x11_22_33_44_55_66)]?.key.count == 16)
        #expect(throws: KeyFileError.self) { try KeyFile.parse(Array("\"11:22:33:44:55:66\":\n  ltk: 12\n".utf8), into: &json) }
        #expect(throws: KeyFileError.self) { try json.add(ltk: "nothex") }
    }

    @Test func pauseAndRestartStartsANewSession() throws {
        var air = try Self.sampleSession()
        air.records.removeLast() // no LL_TERMINATE_IND
        let ccm = try #require(SessionKey.cipher(key: Sample.ltk, skdm: Sample.skdm[...], skds: Sample.skds[...], ivm: Sample.ivm[...], ivs: Sample.ivs[...]))
        air.sealed(3, [0x0A], central: true, ccm, counter: 2)
        air.sealed(3, [0x0B], central: false, ccm, counter: 2)
        air.plain(3, [0x0B], central: true)
        // Key refresh: new SKDm, the same LTK.
        var request = Self.encryptionRequest()
        request[11] ^= 0xFF
        air.plain(3, request, central: true)
        air.plain(3, Self.encryptionResponse, central: false)
        air.plain(3, [0x05], central: false)
        let skdm2 = Array(request[11..<19])
        let ccm2 = try #require(SessionKey.cipher(key: Sample.ltk, skdm: skdm2[...], skds: Sample.skds[...], ivm: Sample.ivm[...], ivs: Sample.ivs[...]))
        air.sealed(3, [0x06], central: true, ccm2, counter: 0)
        air.sealed(3, [0x06], central: false, ccm2, counter: 0)
        air.sealed(2, Self.readRequest, central: true, ccm2, counter: 1)
        let (events, summary) = air.run(options(ltk: Sample.ltk))
        #expect(events[8].summary == "LL_PAUSE_ENC_REQ")
        #expect(events[9].summary == "LL_PAUSE_ENC_RSP")
        #expect(events[10].summary == "LL_PAUSE_ENC_RSP")
        #expect(events[11].summary.hasPrefix("LL_ENC_REQ"))
        #expect(events[14].summary == "LL_START_ENC_RSP")
        #expect(events.last?.kind == .att)
        let f = try #require(encryption(summary))
        #expect(f["sessions"] == .int(2))
        #expect(f["mic_failures"] == .int(0))
        #expect(f["decrypted"] == .int(9))
    }
}
