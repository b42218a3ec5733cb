import Testing
@testable import BLETrace

@Suite struct HCIDecodingTests {
    let le16 = HCIBuilder.le16
    let peer = BDAddr(0xC4_7C_8D_6A_11_22)

    @Test func commandNamesAndOpcodeParts() {
        let e = TestSupport.decode(.command, HCIBuilder.command(0x200B, [0x01, 0x60, 0x00, 0x30, 0x00, 0x00, 0x00]), direction: .hostToController)
        #expect(e.kind == .hciCommand)
        #expect(e.summary == "LE Set Scan Parameters: active, interval 60.000 ms, window 30.000 ms")
        let hci = e.layer("hci")
        #expect(hci?["opcode"] == .int(0x200B))
        #expect(hci?["ogf"] == .int(0x08))
        #expect(hci?["ocf"] == .int(0x0B))
        let vendor = TestSupport.decode(.command, HCIBuilder.command(0xFC4C, [1, 2]), direction: .hostToController)
        #expect(vendor.summary == "Vendor command 0x04C")
        #expect(vendor.layer("hci")?["parameters"]?.objectValue?["parameters"] == .hex([1, 2]))
    }

    @Test func disconnectCommandAndCompletion() {
        let cmd = TestSupport.decode(.command, HCIBuilder.command(0x0406, le16(0x0040) + [0x13]), direction: .hostToController)
        #expect(cmd.summary == "Disconnect: handle 0x0040, reason Remote User Terminated Connection")
        #expect(cmd.handle == 0x0040)
        let done = TestSupport.decode(.event, HCIBuilder.disconnectionComplete(handle: 0x40, reason: 0x08))
        #expect(done.summary == "Disconnection Complete: handle 0x0040, reason Connection Timeout")
        #expect(done.layer("hci")?["parameters"]?.objectValue?["reason"] == .int(8))
    }

    @Test func commandCompleteAndStatus() {
        let addr = TestSupport.decode(.event, HCIBuilder.commandComplete(0x1009, HCIBuilder.addr(peer)))
        #expect(addr.summary == "Command Complete: Read BD_ADDR: Success, C4:7C:8D:6A:11:22")
        let failed = TestSupport.decode(.event, HCIBuilder.commandComplete(0x200C, status: 0x0C))
        #expect(failed.summary == "Command Complete: LE Set Scan Enable: Command Disallowed")
        let status = TestSupport.decode(.event, HCIBuilder.commandStatus(0x200D))
        #expect(status.summary == "Command Status: LE Create Connection: Pending")
    }

    @Test func leConnectionCompleteV1AndEnhanced() {
        let v1 = TestSupport.decode(.event, HCIBuilder.leConnectionComplete(handle: 0x41, role: 1, peerType: 1, peer: peer, interval: 24, latency: 2, timeout: 400))
        #expect(v1.summary == "LE Connection Complete: handle 0x0041, C4:7C:8D:6A:11:22 (random static), peripheral, interval 30.00 ms, latency 2, timeout 4000 ms")
        #expect(v1.handle == 0x41)
        #expect(v1.connection == 1)
        let rpa = BDAddr(0x4A_00_00_00_00_01)
        let enhanced = HCIBuilder.leMeta(0x0A, [0x00] + le16(0x42) + [0x00, 0x02] + HCIBuilder.addr(peer) + HCIBuilder.addr(BDAddr(0))
                                         + HCIBuilder.addr(rpa) + le16(6) + le16(0) + le16(72) + [0x01])
        let e = TestSupport.decode(.event, enhanced)
        #expect(e.summary.hasPrefix("LE Enhanced Connection Complete: handle 0x0042, C4:7C:8D:6A:11:22 (public identity), central"))
        let p = e.layer("hci")?["parameters"]?.objectValue
        #expect(p?["peer_rpa"] == .string("4A:00:00:00:00:01"))
        #expect(p?["local_rpa"] == nil)
        let failed = TestSupport.decode(.event, HCIBuilder.leConnectionComplete(handle: 0, role: 0, peerType: 0, peer: peer, interval: 0, timeout: 0, status: 0x3E))
        #expect(failed.summary == "LE Connection Complete: failed: Connection Failed to be Established / Synchronization Timeout")
    }

    @Test func encryptionAndKeyRefresh() {
        let v1 = TestSupport.decode(.event, HCIBuilder.event(0x08, [0x00] + le16(0x40) + [0x01]))
        #expect(v1.summary == "Encryption Change [v1]: handle 0x0040, encryption on (AES-CCM)")
        let v2 = TestSupport.decode(.event, HCIBuilder.event(0x59, [0x00] + le16(0x40) + [0x01, 16]))
        #expect(v2.summary.hasSuffix("encryption on (AES-CCM), key size 16"))
        let mic = TestSupport.decode(.event, HCIBuilder.event(0x08, [0x3D] + le16(0x40) + [0x00]))
        #expect(mic.summary.hasSuffix("failed: Connection Terminated due to MIC Failure"))
        let refresh = TestSupport.decode(.event, HCIBuilder.event(0x30, [0x00] + le16(0x40)))
        #expect(refresh.summary == "Encryption Key Refresh Complete: handle 0x0040, Success")
    }

    @Test func completedPacketsAndRemoteVersion() {
        let ncp = TestSupport.decode(.event, HCIBuilder.event(0x13, [2] + le16(0x40) + le16(3) + le16(0x41) + le16(1)))
        #expect(ncp.summary == "Number Of Completed Packets: 0x0040: 3, 0x0041: 1")
        let ver = TestSupport.decode(.event, HCIBuilder.event(0x0C, [0x00] + le16(0x40) + [0x0B] + le16(0x004C) + le16(0x1234)))
        #expect(ver.summary == "Read Remote Version Information Complete: handle 0x0040, Bluetooth 5.2, Apple, Inc., subversion 0x1234")
    }

    @Test("Number Of Completed Packets: pairs past the parameter length are malformed, bytes after the pairs ignored")
    func completedPacketsBounds() throws {
        // Two pairs announced, one present: the parameters are too short.
        #expect(throws: ByteError.self) { try HCIEventDecoder.decode(([0x13, 0x05, 0x02] + le16(0x40) + le16(3))[...]) }
        // The parameter length runs past the packet.
        #expect(throws: ByteError.self) { try HCIEventDecoder.decode(([0x13, 0x09, 0x01] + le16(0x40) + le16(3))[...]) }
        // One pair, then a byte inside the parameter length and one past it: the pair alone.
        let bytes = ([0xAA, 0x13, 0x06, 0x01] + le16(0x40) + le16(3) + [0xEE, 0xEE])[1...]
        guard case let .hci(body) = try HCIEventDecoder.decode(bytes), case let .completedPackets(list) = body.params else {
            Issue.record("not a completed packets event"); return
        }
        #expect(list.count == 1 && list.pair(0) == (0x40, 3))
    }

    @Test func leMetaSubevents() {
        let upd = TestSupport.decode(.event, HCIBuilder.leMeta(0x03, [0x00] + le16(0x40) + le16(6) + le16(0) + le16(300)))
        #expect(upd.summary == "LE Connection Update Complete: handle 0x0040, interval 7.50 ms, latency 0, timeout 3000 ms")
        let dl = TestSupport.decode(.event, HCIBuilder.leMeta(0x07, le16(0x40) + le16(251) + le16(2120) + le16(251) + le16(2120)))
        #expect(dl.summary == "LE Data Length Change: handle 0x0040, tx 251 octets/2120 µs, rx 251 octets/2120 µs")
        let phy = TestSupport.decode(.event, HCIBuilder.leMeta(0x0C, [0x00] + le16(0x40) + [0x02, 0x02]))
        #expect(phy.summary == "LE PHY Update Complete: handle 0x0040, tx LE 2M, rx LE 2M")
        let ltk = TestSupport.decode(.event, HCIBuilder.leMeta(0x05, le16(0x40) + [UInt8](repeating: 0, count: 8) + le16(0xBEEF)))
        #expect(ltk.summary == "LE Long Term Key Request: handle 0x0040, EDIV 0xBEEF")
        let feat = TestSupport.decode(.event, HCIBuilder.leMeta(0x04, [0x00] + le16(0x40) + [0xFF, 0x01, 0, 0, 0, 0, 0, 0]))
        #expect(feat.summary == "LE Read Remote Features Complete: handle 0x0040, Success, features ff01000000000000 (LE Encryption, Connection Parameters Request Procedure, Extended Reject Indication, Peripheral-initiated Features Exchange, LE Ping, LE Data Packet Length Extension, LL Privacy, Extended Scanner Filter Policies, LE 2M PHY)")
        let csa = TestSupport.decode(.event, HCIBuilder.leMeta(0x14, le16(0x40) + [0x01]))
        #expect(csa.summary == "LE Channel Selection Algorithm: handle 0x0040, algorithm #2")
    }

    @Test func severalAdvertisingReportsInOneEvent() {
        let a = BDAddr(0x11_22_33_44_55_66), b = BDAddr(0xC1_22_33_44_55_77)
        let report1: [UInt8] = [0x00, 0x00] + HCIBuilder.addr(a) + [3, 2, 0x01, 0x06] + [UInt8(bitPattern: -40)]
        let report2: [UInt8] = [0x04, 0x01] + HCIBuilder.addr(b) + [0] + [UInt8(bitPattern: -90)]
        let e = TestSupport.decode(.event, HCIBuilder.leMeta(0x02, [2] + report1 + report2))
        #expect(e.kind == .adv)
        guard case let .list(reports)? = e.layer("adv")?["reports"] else { Issue.record("no reports"); return }
        #expect(reports.count == 2)
        #expect(reports[0].objectValue?["address"] == .string("11:22:33:44:55:66"))
        #expect(reports[0].objectValue?["rssi"] == .int(-40))
        #expect(reports[1].objectValue?["event_type"] == .string("SCAN_RSP"))
        #expect(reports[1].objectValue?["address_type"] == .string("random static"))
    }

    @Test func extendedAdvertisingReport() {
        let a = BDAddr(0xF2_11_22_33_44_55)
        let e = TestSupport.decode(.event, HCIBuilder.extendedAdvertisingReport(eventType: 0x0013, addressType: 1, address: a, sid: 2, txPower: 4, rssi: -70, data: HCIBuilder.ad(0x09, Array("X".utf8))))
        #expect(e.summary == "LE Extended Advertising Report: ADV_IND F2:11:22:33:44:55 (random static) RSSI -70 dBm: name \"X\"")
        let r = e.layer("adv")?["reports"]
        guard case let .list(items)? = r else { Issue.record("no reports"); return }
        #expect(items.first?.objectValue?["tx_power"] == .int(4))
        #expect(items.first?.objectValue?["sid"] == .int(2))
    }

    @Test func advertisingAndScanCommands() {
        let data = HCIBuilder.ad(0x01, [0x06]) + HCIBuilder.ad(0x09, Array("Thermo".utf8))
        let set = TestSupport.decode(.command, HCIBuilder.command(0x2008, [UInt8(data.count)] + data + [UInt8](repeating: 0, count: 31 - data.count)), direction: .hostToController)
        #expect(set.summary == "LE Set Advertising Data: flags 0x06, name \"Thermo\"")
        let create = TestSupport.decode(.command, HCIBuilder.command(0x200D, le16(0x60) + le16(0x30) + [0, 1] + HCIBuilder.addr(peer) + [0] + le16(24) + le16(40) + le16(0) + le16(400) + le16(0) + le16(0)), direction: .hostToController)
        #expect(create.summary == "LE Create Connection: C4:7C:8D:6A:11:22 (random static), interval 30.00 ms–50.00 ms, latency 0, timeout 4000 ms")
        let enc = TestSupport.decode(.command, HCIBuilder.command(0x2019, le16(0x40) + [UInt8](repeating: 0, count: 8) + le16(0x1234) + [UInt8](repeating: 0xAB, count: 16)), direction: .hostToController)
        #expect(enc.summary == "LE Enable Encryption: handle 0x0040, EDIV 0x1234")
        #expect(enc.handle == 0x40)
    }

    @Test func truncatedParametersAreMalformedNotFatal() {
        // LE Connection Complete cut after the handle.
        let e = TestSupport.decode(.event, [0x3E, 0x13, 0x01, 0x00, 0x40, 0x00])
        #expect(e.malformed != nil)
        #expect(e.summary.hasPrefix("Malformed HCI event"))
        // Parameter length claims more than the packet holds.
        let c = TestSupport.decode(.command, [0x03, 0x0C, 0x05, 0x01])
        #expect(c.malformed == "truncated at byte 3: needed 5 bytes, 1 left")
        // Empty packets.
        #expect(TestSupport.decode(.event, []).malformed != nil)
        #expect(TestSupport.decode(.acl, [0x40]).malformed != nil)
    }

    @Test func vendorPacketsAndACLHeader() {
        let cmd = TestSupport.decode(.command, HCIBuilder.command(0xFC4C, [1]), direction: .hostToController)
        #expect(cmd.kind == .vendor)
        let evt = TestSupport.decode(.event, HCIBuilder.event(0xFF, [0xAA, 0xBB]))
        #expect(evt.kind == .vendor)
        #expect(evt.layer("hci")?["parameters"]?.objectValue?["data"] == .hex([0xAA, 0xBB]))
        // ATT on a handle no event opened: plausible L2CAP, so decoded (a dynamic channel's bytes alone would not be).
        let acl = TestSupport.decode(.acl, HCIBuilder.acl(handle: 0x0041, HCIBuilder.l2cap(cid: 0x0004, [0x0A, 0x03, 0x00])))
        let header = acl.layer("acl")
        #expect(header?["handle"] == .int(0x41))
        #expect(header?["packet_boundary"] == .int(2))
        #expect(header?["broadcast"] == .int(0))
        #expect(header?["length"] == .int(7))
        #expect(acl.layer("l2cap")?["cid"] == .int(0x04))
    }

    @Test func addressTypes() {
        #expect(AddressType(hci: 1, address: BDAddr(0xC0_00_00_00_00_00)) == .randomStatic)
        #expect(AddressType(hci: 1, address: BDAddr(0x40_00_00_00_00_00)) == .resolvablePrivate)
        #expect(AddressType(hci: 1, address: BDAddr(0x00_00_00_00_00_01)) == .nonResolvablePrivate)
        #expect(AddressType(hci: 0, address: BDAddr(0xC0_00_00_00_00_00)) == .public)
    }

    @Test("each address type's static name is its name; an unknown type has none")
    func addressTypeStaticNames() {
        let all: [AddressType] = [.public, .randomStatic, .resolvablePrivate, .nonResolvablePrivate, .randomReserved,
                                  .publicIdentity, .randomIdentity, .anonymous]
        #expect(all.map(\.name) == ["public", "random static", "resolvable private", "non-resolvable private",
                                     "random (reserved subtype)", "public identity", "random static identity", "anonymous"])
        for t in all + [.unknown(7)] {
            var b = TextBytes()
            t.write(into: &b)
            #expect(b.string == t.name)
        }
        #expect(AddressType.unknown(7).staticName == nil && AddressType.unknown(7).name == "type 0x07")
        var j = JSONBytes()
        j.beginObject()
        j.field("address_type", static: "random static")
        j.endObject()
        #expect(j.bytes == Array(#"{"address_type":"random static"}"#.utf8))
    }
}
