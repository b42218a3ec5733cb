import Testing
@testable import BLETrace

@Suite("LE signaling")
struct LESignalingTests {
    static func cmd(_ code: UInt8, _ id: UInt8, _ data: [UInt8]) -> [UInt8] {
        [code, id] + le(UInt16(data.count)) + data
    }

    @Test("Connection Parameter Update request and response")
    func parameterUpdate() {
        let h = TraceHarness()
        let a = h.l2cap(0x0040, cid: 5, Self.cmd(0x12, 7, le(6) + le(12) + le(0) + le(200)), .controllerToHost)
        let b = h.l2cap(0x0040, cid: 5, Self.cmd(0x13, 7, le(1)), .hostToController)
        h.finish()
        let f = h.layer(a, "signaling")
        #expect(h.event(a)?.kind == .signaling)
        #expect(f?["name"] == .string("Connection Parameter Update Request"))
        #expect(f?["interval_min"] == .int(6) && f?["interval_max"] == .int(12) && f?["timeout"] == .int(200))
        #expect(h.event(a)?.summary == "LE Signaling Connection Parameter Update Request (id 7): interval 7.50 ms–15.00 ms, latency 0, timeout 2000 ms")
        #expect(h.layer(b, "signaling")?["result_name"] == .string("rejected"))
    }

    @Test("Command Reject, Flow Control Credit, Disconnection and unknown codes")
    func others() throws {
        let r = try LESignalingCommand.parse(Self.cmd(0x01, 3, le(2) + le(0x0041) + le(0x0040))[...])
        guard case let .commandReject(reason, data) = r.command else { Issue.record("not a reject"); return }
        #expect(reason == 2 && data.count == 4 && LESignalingNames.rejectReason(reason) == "Invalid CID in request")
        let c = try LESignalingCommand.parse(Self.cmd(0x16, 1, le(0x0040) + le(5))[...])
        guard case .flowControlCredit(0x0040, 5) = c.command else { Issue.record("not credits"); return }
        let d = try LESignalingCommand.parse(Self.cmd(0x06, 1, le(0x0040) + le(0x0041))[...])
        guard case .disconnectionRequest(0x0040, 0x0041) = d.command else { Issue.record("not a disconnection"); return }
        let u = try LESignalingCommand.parse(Self.cmd(0x7F, 1, [9])[...])
        guard case .unknown(0x7F, _) = u.command else { Issue.record("not unknown"); return }
        #expect(throws: ByteError.self) { try LESignalingCommand.parse(Self.cmd(0x12, 1, le(6))[...]) }
        let extra = try LESignalingCommand.parse((Self.cmd(0x13, 1, le(0)) + [0xFF])[...])
        #expect(extra.surplus == 1)
    }

    @Test("an LE credit-based channel is shown with its PSM and SDU length")
    func creditBasedChannel() {
        let h = TraceHarness()
        // Local asks for SPSM 0x0080 with source CID 0x0040; the peer answers with destination CID 0x0051.
        h.l2cap(0x0040, cid: 5, Self.cmd(0x14, 2, le(0x0080) + le(0x0040) + le(256) + le(64) + le(10)), .hostToController)
        let rsp = h.l2cap(0x0040, cid: 5, Self.cmd(0x15, 2, le(0x0051) + le(256) + le(64) + le(8) + le(0)), .controllerToHost)
        // Outgoing data carries the peer's CID; incoming data carries ours.
        let out = h.l2cap(0x0040, cid: 0x0051, le(3) + [1, 2, 3], .hostToController)
        let inStart = h.l2cap(0x0040, cid: 0x0040, le(5) + [9, 8], .controllerToHost)
        let inEnd = h.l2cap(0x0040, cid: 0x0040, [7, 6, 5], .controllerToHost)
        let unknown = h.l2cap(0x0040, cid: 0x0060, [1], .controllerToHost)
        h.finish()
        #expect(h.layer(rsp, "signaling")?["spsm"] == .int(0x80))
        #expect(h.layer(out, "l2cap")?["psm"] == .int(0x80))
        #expect(h.layer(out, "l2cap")?["sdu_length"] == .int(3))
        #expect(h.layer(out, "l2cap")?["sdu"] == .hex([1, 2, 3]))
        #expect(h.event(inStart)?.summary.contains("SDU start, 2 of 5 bytes") == true)
        #expect(h.layer(inEnd, "l2cap")?["sdu"] == .hex([9, 8, 7, 6, 5]))
        #expect(h.event(unknown)?.summary.contains("no channel opening seen") == true)
    }

    @Test("EATT: an enhanced credit-based channel on PSM 0x0027 carries ATT as its own bearer")
    func eatt() {
        let h = TraceHarness()
        // Peer opens two channels (source CIDs 0x0070, 0x0071); local accepts with 0x0040, 0x0041.
        h.l2cap(0x0040, cid: 5, Self.cmd(0x17, 9, le(0x0027) + le(128) + le(64) + le(5) + le(0x0070) + le(0x0071)), .controllerToHost)
        h.l2cap(0x0040, cid: 5, Self.cmd(0x18, 9, le(128) + le(64) + le(5) + le(0) + le(0x0040) + le(0x0041)), .hostToController)
        // The peer, as client, reads handle 0x0003 over the first channel (to us: CID 0x0040) in two K-frames.
        let req1 = h.l2cap(0x0040, cid: 0x0040, le(3) + [0x0A, 0x03], .controllerToHost)
        let req2 = h.l2cap(0x0040, cid: 0x0040, [0x00], .controllerToHost)
        let rsp = h.l2cap(0x0040, cid: 0x0070, le(2) + [0x0B, 0x64], .hostToController)
        // A Read Response on the plain bearer answers nothing: bearers are separate.
        let plain = h.att([0x0B, 0x01], .hostToController)
        h.finish()
        #expect(h.event(req1)?.kind == .l2cap)
        let req = h.layer(req2, "att")
        #expect(h.event(req2)?.kind == .att)
        #expect(req?["opcode"] == .int(0x0A) && req?["handle"] == .int(3) && req?["bearer"] == .int(0x0070))
        #expect(req?["response"] == .int(rsp))
        #expect(h.layer(rsp, "att")?["request"] == .int(req2))
        #expect(h.layer(rsp, "att")?["value"] == .hex([0x64]))
        #expect(h.event(rsp)?.summary.hasPrefix("EATT ATT Read Response") == true)
        #expect(h.layer(plain, "att")?["unexpected"] != nil)
    }

    @Test("a disconnection closes the channel")
    func disconnection() {
        let h = TraceHarness()
        h.l2cap(0x0040, cid: 5, Self.cmd(0x14, 2, le(0x0080) + le(0x0040) + le(256) + le(64) + le(10)), .hostToController)
        h.l2cap(0x0040, cid: 5, Self.cmd(0x15, 2, le(0x0051) + le(256) + le(64) + le(8) + le(0)), .controllerToHost)
        h.l2cap(0x0040, cid: 5, Self.cmd(0x06, 3, le(0x0051) + le(0x0040)), .hostToController)
        let d = h.l2cap(0x0040, cid: 5, Self.cmd(0x07, 3, le(0x0051) + le(0x0040)), .controllerToHost)
        let after = h.l2cap(0x0040, cid: 0x0051, le(1) + [1], .hostToController)
        h.finish()
        #expect(h.layer(d, "signaling")?["psm"] == .int(0x80))
        #expect(h.layer(after, "l2cap")?["psm"] == nil)
    }

    static func body(_ e: TraceEvent?) -> SignalingBody? {
        guard case let .signaling(b)? = e?.body else { return nil }
        return b
    }

    @Test("commands are typed bodies: the parsed command, the channels a response opened, the PSM a disconnection closed")
    func typedBodies() {
        let h = TraceHarness()
        let req = h.l2cap(0x0040, cid: 5, Self.cmd(0x14, 2, le(0x0025) + le(0x0040) + le(256) + le(64) + le(10)), .hostToController)
        let rsp = h.l2cap(0x0040, cid: 5, Self.cmd(0x15, 2, le(0x0051) + le(256) + le(64) + le(8) + le(0)), .controllerToHost)
        let start = h.l2cap(0x0040, cid: 0x0040, le(5) + [9, 8], .controllerToHost)
        let end = h.l2cap(0x0040, cid: 0x0040, [7, 6, 5, 4], .controllerToHost)
        let short = h.l2cap(0x0040, cid: 0x0051, [1], .hostToController)
        let disc = h.l2cap(0x0040, cid: 5, Self.cmd(0x07, 3, le(0x0051) + le(0x0040)), .controllerToHost)
        let extra = h.l2cap(0x0040, cid: 5, Self.cmd(0x13, 4, le(0)) + [0xFF], .controllerToHost)
        let bad = h.l2cap(0x0040, cid: 5, Self.cmd(0x12, 1, le(6)), .controllerToHost)
        h.finish()

        guard case let .command(c)? = Self.body(h.event(req))?.content,
              case .leCreditBasedConnectionRequest(spsm: 0x0025, scid: 0x0040, mtu: 256, mps: 64, credits: 10) = c.command else {
            Issue.record("request"); return
        }
        #expect(c.code == 0x14 && c.identifier == 2 && c.surplus == 0)
        #expect(h.layer(req, "signaling")?["spsm_name"] == .string("OTS"))
        let r = Self.body(h.event(rsp))
        #expect(r?.opened == OpenedChannels(spsm: 0x0025, count: 1))
        guard case .leCreditBasedConnectionResponse(dcid: 0x0051, mtu: 256, mps: 64, credits: 8, result: 0)? = r?.command else {
            Issue.record("response"); return
        }
        #expect(h.event(rsp)?.summary.hasSuffix("[1 channel open, PSM 0x0025]") == true)

        // K-frames on the channel: kind l2cap, typed by where they are in their SDU.
        let s = Self.body(h.event(start))
        #expect(s?.kind == .l2cap && h.event(start)?.kind == .l2cap)
        guard case let .kFrame(k)? = s?.content, case .start(have: 2, expected: 5) = k.part else { Issue.record("start"); return }
        #expect(k.cid == 0x0040 && k.psm == 0x0025 && k.length == 4)
        #expect(h.event(start)?.summary == "L2CAP PSM 0x0025 (OTS) CID 0x0040: SDU start, 2 of 5 bytes, 4 bytes in this frame")
        guard case let .kFrame(e)? = Self.body(h.event(end))?.content, case let .sdu(sdu, beyond) = e.part else { Issue.record("end"); return }
        #expect(Array(sdu) == [9, 8, 7, 6, 5] && beyond == 1)
        #expect(h.event(end)?.summary == "L2CAP PSM 0x0025 (OTS) CID 0x0040: SDU of 5 bytes: 09 08 07 06 05 [1 bytes beyond the SDU length]")
        guard case let .kFrame(m)? = Self.body(h.event(short))?.content, case .malformed = m.part else { Issue.record("short"); return }
        #expect(h.event(short)?.malformed == "K-frame shorter than its SDU length field")
        #expect(h.event(short)?.summary == "L2CAP PSM 0x0025 (OTS) CID 0x0051: malformed K-frame")

        #expect(Self.body(h.event(disc))?.closedPSM == 0x0025)
        #expect(h.event(disc)?.summary == "LE Signaling Disconnection Response (id 3): destination CID 0x0051, source CID 0x0040, PSM 0x0025 (OTS)")
        guard case let .command(x)? = Self.body(h.event(extra))?.content, case .connectionParameterUpdateResponse(result: 0) = x.command else {
            Issue.record("extra"); return
        }
        #expect(x.surplus == 1)
        #expect(h.event(extra)?.summary == "LE Signaling Connection Parameter Update Response (id 4): accepted [1 bytes after the command]")
        guard case let .malformed(reason, data)? = Self.body(h.event(bad))?.content else { Issue.record("bad"); return }
        #expect(Array(data) == Self.cmd(0x12, 1, le(6)))
        #expect(h.event(bad)?.malformed == reason)
        #expect(h.event(bad)?.summary == "Malformed LE signaling Connection Parameter Update Request: \(reason)")
        #expect(h.layer(bad, "signaling")?["code"] == .int(0x12))
    }
}
