import Testing
@testable import BLETrace

@Suite("EATT: SDU segmentation across K-frames, bearers kept apart, over LE and BR/EDR")
struct EATTTests {
    static func cmd(_ code: UInt8, _ id: UInt8, _ data: [UInt8]) -> [UInt8] { [code, id] + le(UInt16(data.count)) + data }

    /// Opens two EATT channels on LE handle 0x0040: the peer's source CIDs 0x0070/0x0071, ours 0x0040/0x0041.
    static func open(_ h: TraceHarness, handle: UInt16 = 0x0040, signaling: UInt16 = 5) {
        h.l2cap(handle, cid: signaling, cmd(0x17, 9, le(0x0027) + le(128) + le(64) + le(5) + le(0x0070) + le(0x0071)), .controllerToHost)
        h.l2cap(handle, cid: signaling, cmd(0x18, 9, le(128) + le(64) + le(5) + le(0) + le(0x0040) + le(0x0041)), .hostToController)
    }

    @Test("SDUs split over three K-frames, interleaved between two channels and both directions, decode whole")
    func interleavedSegments() throws {
        let h = TraceHarness()
        Self.open(h)
        // Channel 1 (to us: 0x0040): a Write Request to handle 0x0010 with 6 value bytes, in three K-frames.
        // Channel 2 (to us: 0x0041): a Read Request for 0x0020, in two. Our notification goes out on channel 1
        // (to the peer: 0x0070) between them.
        let w1 = h.l2cap(0x0040, cid: 0x0040, le(9) + [0x12, 0x10], .controllerToHost)
        let r1 = h.l2cap(0x0040, cid: 0x0041, le(3) + [0x0A], .controllerToHost)
        let w2 = h.l2cap(0x0040, cid: 0x0040, [0x00, 1, 2], .controllerToHost)
        let ntf = h.l2cap(0x0040, cid: 0x0070, le(4) + [0x1B, 0x30, 0x00, 0x55], .hostToController)
        let r2 = h.l2cap(0x0040, cid: 0x0041, [0x20, 0x00], .controllerToHost)
        let w3 = h.l2cap(0x0040, cid: 0x0040, [3, 4, 5, 6], .controllerToHost)
        // Answers on each bearer: the Read Response on channel 2, the Write Response on channel 1.
        let readRsp = h.l2cap(0x0040, cid: 0x0071, le(3) + [0x0B, 0xAA, 0xBB], .hostToController)
        let writeRsp = h.l2cap(0x0040, cid: 0x0070, le(1) + [0x13], .hostToController)
        h.finish()
        for partial in [w1, w2, r1] { #expect(h.event(partial)?.kind == .l2cap, "record \(partial)") }
        #expect(h.event(w1)?.summary.contains("SDU start, 2 of 9 bytes") == true)
        #expect(h.event(w2)?.summary.contains("SDU continuation, 5 of 9 bytes") == true)
        let write = try #require(h.layer(w3, "att"))
        #expect(write["opcode"] == .int(0x12) && write["handle"] == .int(0x10) && write["value"] == .hex([1, 2, 3, 4, 5, 6]))
        #expect(write["bearer"] == .int(0x0070) && write["response"] == .int(writeRsp))
        let read = try #require(h.layer(r2, "att"))
        #expect(read["opcode"] == .int(0x0A) && read["handle"] == .int(0x20) && read["bearer"] == .int(0x0071))
        #expect(read["response"] == .int(readRsp))
        #expect(h.layer(ntf, "att")?["opcode"] == .int(0x1B) && h.layer(ntf, "att")?["value"] == .hex([0x55]))
        #expect(h.layer(readRsp, "att")?["request"] == .int(r2))
    }

    @Test("bytes beyond an SDU's length are reported, and the ATT PDU is the SDU only")
    func beyondTheSDU() throws {
        let h = TraceHarness()
        Self.open(h)
        let r = h.l2cap(0x0040, cid: 0x0040, le(3) + [0x0A, 0x03, 0x00, 0xEE, 0xEE], .controllerToHost)
        h.finish()
        guard case let .att(a)? = h.event(r)?.body else { Issue.record("not ATT"); return }
        #expect(a.eattBeyond == 2)
        #expect(h.layer(r, "att")?["handle"] == .int(3))
    }

    @Test("EATT over BR/EDR: a credit-based channel opened on CID 0x0001 carries ATT as its own bearer")
    func overBREDR() throws {
        let h = TraceHarness()
        h.feed(.event, HCIBuilder.event(0x03, [0] + le(0x000C) + HCIBuilder.addr(BDAddr(0x00_1B_66_AA_BB_CC)) + [1, 0]), .controllerToHost)
        let req = h.l2cap(0x000C, cid: 1, Self.cmd(0x17, 4, le(0x0027) + le(128) + le(64) + le(5) + le(0x0070)), .controllerToHost)
        let rsp = h.l2cap(0x000C, cid: 1, Self.cmd(0x18, 4, le(128) + le(64) + le(5) + le(0) + le(0x0040)), .hostToController)
        let read1 = h.l2cap(0x000C, cid: 0x0040, le(3) + [0x0A], .controllerToHost)
        let read2 = h.l2cap(0x000C, cid: 0x0040, [0x05, 0x00], .controllerToHost)
        let answer = h.l2cap(0x000C, cid: 0x0070, le(2) + [0x0B, 0x01], .hostToController)
        h.finish()
        #expect(h.event(req)?.summary.contains("PSM 0x0027 (EATT)") == true)
        #expect(h.event(rsp)?.kind == .signaling)
        #expect(h.event(read1)?.kind == .l2cap)
        let att = try #require(h.layer(read2, "att"))
        #expect(att["handle"] == .int(5) && att["bearer"] == .int(0x0070) && att["response"] == .int(answer))
        #expect(h.event(answer)?.summary.hasPrefix("EATT ATT Read Response") == true)
        #expect(h.pipeline.connections.all.first?.profiles == [0x0027])
    }
}
