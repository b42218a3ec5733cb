import Testing
@testable import BLETrace

/// BR/EDR HCI events from assembled bytes: typed parameters, and the text and JSON made from them.
@Suite("Classic HCI events")
struct ClassicEventTests {
    static let phone = BDAddr(0xF4_4E_FD_A7_8E_19)
    static let headset = BDAddr(0x00_1B_66_AA_BB_CC)

    static func classic(_ code: UInt8, _ params: [UInt8]) -> (ClassicEventParams?, TraceEvent) {
        let e = TestSupport.decode(.event, HCIBuilder.event(code, params))
        if case let .hciEvent(b) = e.body, case let .classic(c) = b.params { return (c, e) }
        return (nil, e)
    }

    static func cod(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }

    @Test("inquiry results in all three forms, with Class of Device and EIR through the AD decoder")
    func inquiry() throws {
        let a = HCIBuilder.addr(Self.headset)
        // Class 0x240404: Audio/Video, Wearable Headset; Audio and Rendering services.
        let (plain, pe) = Self.classic(0x02, [1] + a + [1, 0, 0] + Self.cod(0x240404) + le(0x1234))
        #expect(plain == .inquiryResult([InquiryResponse(address: Self.headset, pageScanRepetitionMode: 1, classOfDevice: 0x240404, clockOffset: 0x1234)]))
        #expect(pe.summary == "Inquiry Result: 00:1B:66:AA:BB:CC, class 0x240404 (Audio/Video: Wearable Headset; Rendering, Audio)")
        let (withRSSI, re) = Self.classic(0x22, [1] + a + [1, 0] + Self.cod(0x5A020C) + le(0) + [0xC4])
        guard case let .inquiryResult(list)? = withRSSI else { Issue.record("no result"); return }
        #expect(list[0].rssi == -60 && re.summary.contains("Phone: Smartphone") && re.summary.hasSuffix("RSSI -60 dBm"))
        // EIR: a complete local name, then zero padding.
        let eir: [UInt8] = [5, 0x09] + Array("Buds".utf8) + [UInt8](repeating: 0, count: 234)
        let (ext, ee) = Self.classic(0x2F, [1] + a + [1, 0] + Self.cod(0x240404) + le(0) + [0xD0] + eir)
        guard case let .inquiryResult(el)? = ext else { Issue.record("no extended result"); return }
        #expect(el[0].eir?.count == 6)
        #expect(ee.summary.contains("name \"Buds\""))
        guard case let .list(responses)? = ee.layer("hci")?["parameters"]?.objectValue?["responses"] else { Issue.record("no list"); return }
        #expect(responses.first?.objectValue?["major_device_class"] == .string("Audio/Video"))
        #expect(responses.first?.objectValue?["eir"] != nil)
        // A count promising more responses than the bytes hold is malformed.
        #expect(Self.classic(0x22, [2] + a + [1, 0] + Self.cod(0) + le(0) + [0xC4]).1.malformed != nil)
    }

    @Test("connection request, remote name, features, role and mode changes")
    func connections() throws {
        let a = HCIBuilder.addr(Self.phone)
        let (req, reqE) = Self.classic(0x04, a + Self.cod(0x5A020C) + [1])
        #expect(req == .connectionRequest(address: Self.phone, classOfDevice: 0x5A020C, linkType: 1))
        #expect(reqE.summary.hasSuffix(", ACL"))
        let (name, nameE) = Self.classic(0x07, [0] + a + Array("Pixel 7".utf8) + [0, 0x41])
        #expect(name == .remoteNameComplete(status: 0, address: Self.phone, name: Array("Pixel 7".utf8)[...]))
        #expect(nameE.summary == "Remote Name Request Complete: F4:4E:FD:A7:8E:19 \"Pixel 7\"")
        #expect(nameE.layer("hci")?["parameters"]?.objectValue?["name"] == .string("Pixel 7"))
        let r = Redactor()
        r.learn(nameE)
        #expect(!r.redact(nameE.summary).contains("Pixel 7") && !r.redact(nameE.summary).contains("F4:4E:FD:A7:8E:19"))
        let (ext, extE) = Self.classic(0x23, [0] + le(0x0002) + [1, 2] + [0x0F, 0, 0, 0, 0, 0, 0, 0])
        #expect(ext == .remoteFeatures(status: 0, handle: 2, page: 1, maxPage: 2, features: [0x0F, 0, 0, 0, 0, 0, 0, 0][...]))
        #expect(extE.summary.contains("page 1 of 2") && extE.handle == 2)
        let (_, roleE) = Self.classic(0x12, [0] + a + [1])
        #expect(roleE.summary == "Role Change: F4:4E:FD:A7:8E:19, now peripheral")
        let (mode, modeE) = Self.classic(0x14, [0] + le(0x0002) + [2] + le(800))
        #expect(mode == .modeChange(status: 0, handle: 2, mode: 2, interval: 800))
        #expect(modeE.summary == "Mode Change: handle 0x0002, sniff, interval 500 ms")
        let (_, failE) = Self.classic(0x06, [0x05] + le(0x0002))
        #expect(failE.summary == "Authentication Complete: handle 0x0002, failed: Authentication Failure")
    }

    @Test("Secure Simple Pairing: IO capabilities, numeric comparison, passkey, link key and its type")
    func pairing() throws {
        let a = HCIBuilder.addr(Self.phone)
        let (io, ioE) = Self.classic(0x32, a + [1, 0, 5])
        #expect(io == .ioCapabilityResponse(address: Self.phone, ioCapability: 1, oobPresent: 0, authenticationRequirements: 5))
        #expect(ioE.summary == "IO Capability Response: F4:4E:FD:A7:8E:19, DisplayYesNo, no OOB data, MITM required, general bonding")
        let (_, confirmE) = Self.classic(0x33, a + le32(4321))
        #expect(confirmE.summary.hasSuffix("value 004321"))
        let (_, passE) = Self.classic(0x3B, a + le32(999_999))
        #expect(passE.summary.hasSuffix("passkey 999999"))
        let key = (0..<16).map { UInt8($0) }
        let (note, noteE) = Self.classic(0x18, a + key + [8])
        #expect(note == .linkKeyNotification(address: Self.phone, key: key[...], keyType: 8))
        #expect(noteE.summary.contains("Authenticated Combination Key (P-256), key 000102030405060708090a0b0c0d0e0f"))
        #expect(noteE.layer("hci")?["parameters"]?.objectValue?["link_key"] == .hex(key))
        // --redact replaces the key wherever it shows.
        let r = Redactor()
        r.learn(noteE)
        #expect(!r.redact(noteE.summary).contains("000102030405060708090a0b0c0d0e0f"))
        #expect(r.redact(noteE.summary).contains("00000000000000000000000000000001"))
        #expect(r.redact(bytes: key) != key)
        let (_, doneE) = Self.classic(0x36, [0] + a)
        #expect(doneE.summary == "Simple Pairing Complete: F4:4E:FD:A7:8E:19, success")
        #expect(Self.classic(0x17, a).0 == .linkKeyRequest(address: Self.phone))
        #expect(Self.classic(0x31, a).0 == .ioCapabilityRequest(address: Self.phone))
        #expect(Self.classic(0x34, a).0 == .userPasskeyRequest(address: Self.phone))
        #expect(Self.classic(0x16, a).0 == .pinCodeRequest(address: Self.phone))
    }

    @Test("synchronous (eSCO) links and sniff subrating")
    func synchronous() throws {
        let a = HCIBuilder.addr(Self.headset)
        let (sco, scoE) = Self.classic(0x2C, [0] + le(0x0006) + a + [2, 12, 2] + le(60) + le(60) + [3])
        #expect(sco == .synchronousConnectionComplete(status: 0, handle: 6, address: Self.headset, linkType: 2, interval: 12,
                                                      window: 2, rxLength: 60, txLength: 60, airMode: 3))
        #expect(scoE.summary == "Synchronous Connection Complete: 00:1B:66:AA:BB:CC, handle 0x0006, eSCO, air mode transparent")
        #expect(scoE.layer("hci")?["parameters"]?.objectValue?["air_mode_name"] == .string("transparent"))
        let (_, subE) = Self.classic(0x2E, [0] + le(0x0002) + le(800) + le(800) + le(0) + le(0))
        #expect(subE.summary.contains("max latency TX 500 ms, RX 500 ms"))
        #expect(Self.classic(0x2D, [0] + le(0x0006) + [12, 2] + le(60) + le(60)).0
            == .synchronousConnectionChanged(status: 0, handle: 6, interval: 12, window: 2, rxLength: 60, txLength: 60))
    }
}

private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }

/// BR/EDR HCI commands from assembled bytes.
@Suite("Classic HCI commands")
struct ClassicCommandTests {
    static let peer = BDAddr(0x00_1B_66_AA_BB_CC)

    static func classic(_ opcode: UInt16, _ params: [UInt8]) -> (ClassicCommandParams?, TraceEvent) {
        let e = TestSupport.decode(.command, le(opcode) + [UInt8(params.count)] + params, direction: .hostToController)
        if case let .hciCommand(b) = e.body, case let .classic(c) = b.params { return (c, e) }
        return (nil, e)
    }

    @Test("inquiry, connection, name and pairing replies; the link key is learned by --redact")
    func commands() throws {
        let a = HCIBuilder.addr(Self.peer)
        let (inq, inqE) = Self.classic(0x0401, [0x33, 0x8B, 0x9E, 8, 0])
        #expect(inq == .inquiry(lap: 0x9E8B33, length: 8, responses: 0))
        #expect(inqE.summary == "Inquiry: GIAC, 10.24 s")
        let (cc, ccE) = Self.classic(0x0405, a + le(0xCC18) + [1, 0] + le(0) + [1])
        #expect(cc == .createConnection(address: Self.peer, packetType: 0xCC18, allowRoleSwitch: 1))
        #expect(ccE.summary == "Create Connection: 00:1B:66:AA:BB:CC, role switch allowed")
        #expect(Self.classic(0x0419, a + [1, 0] + le(0)).0 == .remoteNameRequest(address: Self.peer, pageScanRepetitionMode: 1, clockOffset: 0))
        let (io, ioE) = Self.classic(0x042B, a + [3, 0, 4])
        #expect(io == .ioCapabilityReply(address: Self.peer, ioCapability: 3, oobPresent: 0, authenticationRequirements: 4))
        #expect(ioE.summary.hasSuffix("NoInputNoOutput, no OOB data, MITM not required, general bonding"))
        #expect(Self.classic(0x042C, a).0 == .addressOnly(Self.peer))
        let key = [UInt8](repeating: 0x5A, count: 16)
        let (reply, replyE) = Self.classic(0x040B, a + key)
        #expect(reply == .linkKeyReply(address: Self.peer, key: key[...]))
        let r = Redactor()
        r.learn(replyE)
        #expect(!r.redact(replyE.summary).contains(Hex.string(key)) && !r.redact(replyE.summary).contains("00:1B:66:AA:BB:CC"))
        let (sniff, sniffE) = Self.classic(0x0803, le(0x0002) + le(800) + le(400) + le(4) + le(1))
        #expect(sniff == .sniffMode(handle: 2, maxInterval: 800, minInterval: 400, attempt: 4, timeout: 1))
        #expect(sniffE.summary == "Sniff Mode: handle 0x0002, interval 250 ms–500 ms" && sniffE.handle == 2)
        let (_, codE) = Self.classic(0x0C24, [0x04, 0x04, 0x24])
        #expect(codE.summary.hasSuffix("0x240404 (Audio/Video: Wearable Headset; Rendering, Audio)"))
        #expect(Self.classic(0x0C1A, [3]).1.summary == "Write Scan Enable: inquiry and page scan")
        let (sync, _) = Self.classic(0x0429, a + le32c(8000) + le32c(8000) + le(0x000D) + le(0x0060) + [2] + le(0x0380))
        #expect(sync == .synchronousConnection(handle: nil, address: Self.peer, txBandwidth: 8000, rxBandwidth: 8000, maxLatency: 13,
                                               voiceSetting: 0x60, retransmissionEffort: 2, packetType: 0x0380))
        // Authentication Requested names its handle.
        #expect(TestSupport.decode(.command, le(0x0411) + [2] + le(0x0002), direction: .hostToController).handle == 2)
        // A command cut short is malformed.
        #expect(Self.classic(0x0405, a).1.malformed != nil)
    }
}

private func le32c(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }

@Suite("BR/EDR devices in the inventory")
struct ClassicInventoryTests {
    @Test("inquiry results add a BR/EDR device with its class, RSSI and EIR name; a BR/EDR connection adds its remote name")
    func inventory() throws {
        let h = TraceHarness()
        let inv = try #require(h.pipeline.chain.inventory)
        let buds = BDAddr(0x00_1B_66_AA_BB_CC), car = BDAddr(0x00_22_33_44_55_66)
        let eir: [UInt8] = [5, 0x09] + Array("Buds".utf8) + [3, 0x03, 0x0B, 0x11] + [0, 0, 0]
        h.feed(.event, HCIBuilder.event(0x2F, [1] + HCIBuilder.addr(buds) + [1, 0, 0x04, 0x04, 0x24] + le(0) + [0xC4] + eir), .controllerToHost)
        h.feed(.event, HCIBuilder.event(0x22, [1] + HCIBuilder.addr(buds) + [1, 0, 0x04, 0x04, 0x24] + le(0) + [0xC0]), .controllerToHost)
        // A car kit never seen in an inquiry: connected, then named.
        h.feed(.event, HCIBuilder.event(0x03, [0] + le(0x000B) + HCIBuilder.addr(car) + [1, 0]), .controllerToHost)
        h.feed(.event, HCIBuilder.event(0x07, [0] + HCIBuilder.addr(car) + Array("My Car".utf8) + [0]), .controllerToHost)
        h.finish()
        let devices = inv.devices
        let b = try #require(devices.first { $0.address == buds })
        #expect(b.bredr && b.inquiryResponses == 2 && b.classOfDevice == 0x240404 && b.names == ["Buds"])
        #expect(b.rssiMin == -64 && b.rssiMax == -60 && b.services == [BLEUUID(UInt16(0x110B))] && b.reports == 0)
        let c = try #require(devices.first { $0.address == car })
        #expect(c.bredr && c.connected && c.names == ["My Car"])
        let text = DeviceInventory.text(b).joined(separator: "\n")
        #expect(text.contains("BR/EDR 0x240404 (Audio/Video: Wearable Headset; Rendering, Audio), 2 inquiry responses"))
        #expect(text.contains("name \"Buds\""))
        let f = DeviceInventory.fields(b)
        #expect(f["bredr"] == .bool(true) && f["major_device_class"] == .string("Audio/Video"))
    }
}
