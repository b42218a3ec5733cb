import Testing
@testable import BLETrace

@Suite("BR/EDR signaling")
struct BREDRSignalingTests {
    static func cmd(_ code: UInt8, _ id: UInt8, _ data: [UInt8]) -> [UInt8] {
        [code, id] + le(UInt16(data.count)) + data
    }

    static func one(_ bytes: [UInt8]) throws -> BREDRSignalingCommand {
        let f = try BREDRSignalingFrame.parse(bytes[...])
        #expect(f.commands.count == 1 && f.problem == nil)
        return try #require(f.commands.first).command
    }

    @Test("every command parses from assembled bytes")
    func commands() throws {
        #expect(try Self.one(Self.cmd(0x01, 1, le(1) + le(48))) == .commandReject(reason: 1, data: le(48)[...]))
        #expect(try Self.one(Self.cmd(0x02, 4, le(0x0001) + le(0x0040))) == .connectionRequest(psm: 1, scid: 0x0040))
        #expect(try Self.one(Self.cmd(0x03, 4, le(0x01B2) + le(0x0040) + le(0) + le(0)))
            == .connectionResponse(dcid: 0x01B2, scid: 0x0040, result: 0, status: 0))
        #expect(try Self.one(Self.cmd(0x06, 6, le(0x01B2) + le(0x0040))) == .disconnectionRequest(dcid: 0x01B2, scid: 0x0040))
        #expect(try Self.one(Self.cmd(0x07, 6, le(0x01B2) + le(0x0040))) == .disconnectionResponse(dcid: 0x01B2, scid: 0x0040))
        #expect(try Self.one(Self.cmd(0x08, 2, [1, 2, 3])) == .echoRequest(data: [1, 2, 3][...]))
        #expect(try Self.one(Self.cmd(0x09, 2, [])) == .echoResponse(data: []))
        #expect(try Self.one(Self.cmd(0x0A, 2, le(2))) == .informationRequest(infoType: 2))
        #expect(try Self.one(Self.cmd(0x0B, 2, le(2) + le(0) + [0xB8, 0x02, 0, 0]))
            == .informationResponse(infoType: 2, result: 0, data: [0xB8, 0x02, 0, 0][...]))
        #expect(try Self.one(Self.cmd(0x0C, 8, le(0x0019) + le(0x0041) + [1])) == .createChannelRequest(psm: 0x19, scid: 0x41, controllerID: 1))
        #expect(try Self.one(Self.cmd(0x0D, 8, le(0x0050) + le(0x0041) + le(1) + le(2)))
            == .createChannelResponse(dcid: 0x50, scid: 0x41, result: 1, status: 2))
        #expect(try Self.one(Self.cmd(0x0E, 9, le(0x0041) + [2])) == .moveChannelRequest(icid: 0x41, controllerID: 2))
        #expect(try Self.one(Self.cmd(0x0F, 9, le(0x0041) + le(3))) == .moveChannelResponse(icid: 0x41, result: 3))
        #expect(try Self.one(Self.cmd(0x10, 9, le(0x0041) + le(0))) == .moveChannelConfirmationRequest(icid: 0x41, result: 0))
        #expect(try Self.one(Self.cmd(0x11, 9, le(0x0041))) == .moveChannelConfirmationResponse(icid: 0x41))
        #expect(try Self.one(Self.cmd(0x16, 3, le(0x0041) + le(4))) == .flowControlCredit(cid: 0x41, credits: 4))
        #expect(try Self.one(Self.cmd(0x17, 3, le(0x0027) + le(64) + le(64) + le(5) + le(0x0041)))
            == .creditBasedConnectionRequest(spsm: 0x27, mtu: 64, mps: 64, credits: 5, scids: [0x41]))
        #expect(try Self.one(Self.cmd(0x7E, 3, [9])) == .unknown(code: 0x7E, data: [9][...]))
        // A command cut short throws when it is the first; a later one ends the frame with a problem.
        #expect(throws: ByteError.self) { try BREDRSignalingFrame.parse(Self.cmd(0x02, 1, le(1))[...]) }
        let two = try BREDRSignalingFrame.parse((Self.cmd(0x0A, 1, le(2)) + Self.cmd(0x02, 2, le(1)))[...])
        #expect(two.commands.count == 1 && two.problem?.hasPrefix("command 2:") == true)
    }

    @Test("configuration options: MTU, flush timeout, QoS, retransmission mode, FCS, extended flow spec and window")
    func configuration() throws {
        let options: [UInt8] = [0x01, 2] + le(672) + [0x02, 2] + le(0xFFFF)
            + [0x03, 22, 0, 1] + le32(0) + le32(0) + le32(0) + le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF)
            + [0x04, 9, 3, 10, 4] + le(2000) + le(12000) + le(1010)
            + [0x05, 1, 0] + [0x06, 16, 1, 1] + le(1010) + le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF)
            + [0x07, 2] + le(64) + [0x88, 1, 7]
        guard case let .configurationRequest(dcid, flags, o) = try Self.one(Self.cmd(0x04, 5, le(0x0040) + le(1) + options)) else {
            Issue.record("not a configuration request"); return
        }
        #expect(dcid == 0x40 && flags == 1 && o.count == 8)
        #expect(o[0].value == .mtu(672) && o[1].value == .flushTimeout(0xFFFF))
        #expect(o[2].value == .qos(flags: 0, serviceType: 1, tokenRate: 0, tokenBucketSize: 0, peakBandwidth: 0, latency: 0xFFFF_FFFF,
                                   delayVariation: 0xFFFF_FFFF))
        #expect(o[3].value == .retransmissionAndFlowControl(mode: 3, txWindow: 10, maxTransmit: 4, retransmissionTimeout: 2000,
                                                           monitorTimeout: 12000, mps: 1010))
        #expect(o[4].value == .fcs(0) && o[6].value == .extendedWindowSize(64))
        #expect(o[5].value == .extendedFlowSpec(identifier: 1, serviceType: 1, maxSDUSize: 1010, sduInterArrivalTime: 0xFFFF_FFFF,
                                                accessLatency: 0xFFFF_FFFF, flushTimeout: 0xFFFF_FFFF))
        // An unknown option with the hint bit is kept with its bytes.
        #expect(o[7].type == 8 && o[7].hint && o[7].value == .other([7][...]))
        guard case let .configurationResponse(scid, _, result, ro) = try Self.one(Self.cmd(0x05, 5, le(0x0041) + le(0) + le(1) + [0x01, 2] + le(48))) else {
            Issue.record("not a configuration response"); return
        }
        #expect(scid == 0x41 && result == 1 && ro == [ConfigurationOption(type: 1, hint: false, value: .mtu(48))])
        // An option running past the command is an error.
        #expect(throws: ByteError.self) { try BREDRSignalingFrame.parse(Self.cmd(0x04, 5, le(0x0040) + le(0) + [0x01, 4, 0])[...]) }
    }

    @Test("a channel opened on CID 0x0001 is named by its PSM; one C-frame may hold several commands")
    func channelTable() {
        let h = TraceHarness()
        // Local asks the peer for SDP with source CID 0x0040; the peer answers pending, then with CID 0x01B2.
        let req = h.l2cap(0x0002, cid: 1, Self.cmd(0x02, 4, le(0x0001) + le(0x0040)), .hostToController)
        let pending = h.l2cap(0x0002, cid: 1, Self.cmd(0x03, 4, le(0) + le(0x0040) + le(1) + le(1)), .controllerToHost)
        let ok = h.l2cap(0x0002, cid: 1, Self.cmd(0x03, 4, le(0x01B2) + le(0x0040) + le(0) + le(0)), .controllerToHost)
        // Both configuration requests in one frame, each about its sender's view of the channel.
        let both = h.l2cap(0x0002, cid: 1, Self.cmd(0x04, 5, le(0x01B2) + le(0) + [0x01, 2] + le(672))
                           + Self.cmd(0x05, 7, le(0x01B2) + le(0) + le(0)), .hostToController)
        let out = h.l2cap(0x0002, cid: 0x01B2, [0x06, 0x00, 0x01], .hostToController)
        let back = h.l2cap(0x0002, cid: 0x0040, [0x07, 0x00, 0x01], .controllerToHost)
        let wrongWay = h.l2cap(0x0002, cid: 0x0040, [0x01], .hostToController)
        let close = h.l2cap(0x0002, cid: 1, Self.cmd(0x06, 6, le(0x01B2) + le(0x0040)), .hostToController)
        let closed = h.l2cap(0x0002, cid: 1, Self.cmd(0x07, 6, le(0x01B2) + le(0x0040)), .controllerToHost)
        let after = h.l2cap(0x0002, cid: 0x01B2, [0x06], .hostToController)
        h.finish()
        #expect(h.event(req)?.kind == .signaling)
        #expect(h.event(req)?.summary == "BR/EDR Signaling Connection Request (id 4): PSM 0x0001 (SDP), source CID 0x0040")
        #expect(h.event(pending)?.summary.contains("Connection pending, source CID 0x0040 (Authentication pending)") == true)
        #expect(h.event(ok)?.summary == "BR/EDR Signaling Connection Response (id 4): Connection successful, destination CID 0x01B2, source CID 0x0040 [PSM 0x0001 (SDP)]")
        let cmds = h.layer(both, "bredr_signaling")?["commands"]
        guard case let .list(list)? = cmds, list.count == 2 else { Issue.record("two commands"); return }
        #expect(list[0].objectValue?["name"] == .string("Configuration Request") && list[0].objectValue?["channel_psm"] == .int(1))
        #expect(list[1].objectValue?["result_name"] == .string("Success"))
        #expect(h.event(both)?.summary.contains("; Configuration Response (id 7): Success") == true)
        #expect(h.layer(out, "l2cap")?["psm"] == .int(1) && h.layer(out, "l2cap")?["psm_name"] == .string("SDP"))
        #expect(h.event(out)?.summary.hasPrefix("L2CAP PSM 0x0001 (SDP) CID 0x01B2, 3 bytes") == true)
        #expect(h.layer(back, "l2cap")?["psm"] == .int(1))
        // CID 0x0040 is the local end: frames the local host sends never carry it.
        #expect(h.event(wrongWay)?.summary.contains("no channel opening seen") == true)
        #expect(h.event(close)?.summary.hasSuffix("[PSM 0x0001 (SDP)]") == true)
        #expect(h.event(closed)?.summary.hasSuffix("[PSM 0x0001 (SDP)]") == true)
        #expect(h.event(after)?.summary.contains("no channel opening seen") == true)
    }

    @Test("ATT over BR/EDR (PSM 0x001F) goes through the ATT layer as its own bearer")
    func attOverBREDR() {
        let h = TraceHarness()
        // The peer opens ATT to us; we answer with CID 0x0045.
        h.l2cap(0x0003, cid: 1, Self.cmd(0x02, 1, le(0x001F) + le(0x004E)), .controllerToHost)
        h.l2cap(0x0003, cid: 1, Self.cmd(0x03, 1, le(0x0045) + le(0x004E) + le(0) + le(0)), .hostToController)
        let req = h.l2cap(0x0003, cid: 0x0045, [0x0A, 0x03, 0x00], .controllerToHost)
        let rsp = h.l2cap(0x0003, cid: 0x004E, [0x0B, 0x64], .hostToController)
        h.finish()
        #expect(h.event(req)?.kind == .att && h.event(rsp)?.kind == .att)
        #expect(h.layer(req, "att")?["bearer"] == .int(0x004E) && h.layer(req, "att")?["response"] == .int(rsp))
        #expect(h.layer(rsp, "l2cap")?["psm_name"] == .string("ATT"))
    }

    @Test("a BR/EDR connection carries the peer's remote name and the profiles of the channels opened on it")
    func connectionNameAndProfiles() {
        let h = TraceHarness()
        let peer = BDAddr(0x00_1B_66_AA_BB_CC)
        // The name is asked before the connection opens; then ACL Connection Complete on handle 0x000B.
        h.feed(.event, HCIBuilder.event(0x07, [0] + HCIBuilder.addr(peer) + Array("Buds".utf8) + [0]), .controllerToHost)
        h.feed(.event, HCIBuilder.event(0x03, [0] + le(0x000B) + HCIBuilder.addr(peer) + [1, 0]), .controllerToHost)
        for (id, psm, scid, dcid) in [(UInt8(1), UInt16(0x0019), UInt16(0x0040), UInt16(0x0050)), (2, 0x0019, 0x0041, 0x0051),
                                      (3, 0x0017, 0x0042, 0x0052)] {
            h.l2cap(0x000B, cid: 1, Self.cmd(0x02, id, le(psm) + le(scid)), .hostToController)
            h.l2cap(0x000B, cid: 1, Self.cmd(0x03, id, le(dcid) + le(scid) + le(0) + le(0)), .controllerToHost)
        }
        h.finish()
        let c = h.pipeline.connections.all.first
        #expect(c?.le == false && c?.name == "Buds" && c?.profiles == [0x0019, 0x0017])
        let f = c.map { SummaryRender.connectionFields($0) }
        #expect(f?["name"] == .string("Buds") && f?["transport"] == .string("br_edr"))
        #expect(f?["profiles"] == .list([.object(["psm": .int(0x19), "name": .string("AVDTP")]),
                                         .object(["psm": .int(0x17), "name": .string("AVCTP")])]))
    }

    @Test("SMP over BR/EDR (CID 0x0007) is decoded by the SMP layer")
    func smpOverBREDR() {
        let h = TraceHarness()
        // Pairing Request for cross-transport key derivation: IO capability and OOB ignored, keys to distribute.
        let r = h.l2cap(0x0002, cid: 7, [0x01, 0x03, 0x00, 0x01, 0x10, 0x07, 0x07], .hostToController)
        h.finish()
        #expect(h.event(r)?.kind == .smp && h.layer(r, "l2cap")?["cid"] == .int(7))
        #expect(h.layer(r, "smp")?["name"] == .string("Pairing Request"))
    }

    @Test("Information responses: extended features and fixed channels named; a malformed frame says why")
    func information() throws {
        let h = TraceHarness()
        let features = h.l2cap(0x0002, cid: 1, Self.cmd(0x0B, 2, le(2) + le(0) + [0xB8, 0x03, 0, 0]), .controllerToHost)
        let fixed = h.l2cap(0x0002, cid: 1, Self.cmd(0x0B, 3, le(3) + le(0) + [0x86, 0, 0, 0, 0, 0, 0, 0]), .controllerToHost)
        let refused = h.l2cap(0x0002, cid: 1, Self.cmd(0x0B, 4, le(1) + le(1)), .controllerToHost)
        let bad = h.l2cap(0x0002, cid: 1, [0x02, 0x01, 0x04], .controllerToHost)
        h.finish()
        #expect(h.event(features)?.summary == "BR/EDR Signaling Information Response (id 2): Extended features supported: "
            + "Enhanced Retransmission Mode, Streaming Mode, FCS Option, Fixed Channels, Extended Window Size, "
            + "Unicast Connectionless Data Reception")
        #expect(h.event(fixed)?.summary.hasSuffix("BR/EDR signaling (CID 0x0001), connectionless (CID 0x0002), BR/EDR SMP (CID 0x0007)") == true)
        #expect(h.layer(fixed, "bredr_signaling")?["commands"] != nil)
        #expect(h.event(refused)?.summary.hasSuffix("Connectionless MTU, not supported") == true)
        #expect(h.event(bad)?.malformed != nil)
        #expect(h.event(bad)?.summary.hasPrefix("Malformed BR/EDR signaling Connection Request:") == true)
    }
}

private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
