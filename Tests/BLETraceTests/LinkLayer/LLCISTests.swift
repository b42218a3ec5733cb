import Testing
@testable import BLETrace

/// The LL control PDUs of CIS setup (issue #29).
@Suite struct LLCISTests {
    typealias B = HCIBuilder

    @Test func cisRequestResponseAndIndication() throws {
        let req: [UInt8] = [0x1F, 1, 2, 2, 2] + B.le16(0x8000 | 40) + B.le16(60) + B.le24(10_000) + B.le24(7_500) + B.le16(44) + B.le16(64)
            + [3] + B.le24(2_500) + [0x21] + [1, 2] + B.le16(8) + B.le24(500) + B.le24(1_500) + B.le16(77)
        let pdu = try LLControl.decode(req[...])
        guard case let .cisRequest(r) = pdu.parameters else { Issue.record("\(pdu.parameters)"); return }
        #expect(r.cig == 1 && r.cis == 2 && r.framed && r.maxSDU == EachWay(40, 60) && r.sduInterval == EachWay(10_000, 7_500))
        #expect(r.bn == EachWay(1, 2) && r.flushTimeout == EachWay(1, 2) && r.isoInterval == 8 && r.eventCount == 77 && pdu.surplus == 0)
        #expect(pdu.name == "LL_CIS_REQ")
        #expect(pdu.detail == "CIG 1 CIS 2, PHY 2M/2M, framed, max SDU 40/60, SDU interval 10000/7500 µs, ISO interval 10.00 ms, NSE 3, BN 1/2, FT 1/2, max PDU 44/64, offset 500–1500 µs at event 77")
        let rsp = try LLControl.decode(([0x20] + B.le24(600) + B.le24(1_400) + B.le16(78))[...])
        #expect(rsp.detail == "offset 600–1400 µs at event 78")
        let ind = try LLControl.decode(([0x21] + B.le32(0xA1B2_C3D4) + B.le24(900) + B.le24(3_000) + B.le24(2_000) + B.le16(80))[...])
        guard case let .cisIndication(i) = ind.parameters else { Issue.record("\(ind.parameters)"); return }
        #expect(i.accessAddress == 0xA1B2_C3D4 && i.cigSyncDelay == 3_000)
        #expect(ind.detail == "AA 0xA1B2C3D4, offset 900 µs, CIG sync delay 3000 µs, CIS sync delay 2000 µs, at event 80")
        // Cut short: an error, not a crash.
        #expect(throws: ByteError.self) { _ = try LLControl.decode(req.prefix(20)) }
    }
}

extension LLCISTests {
    /// A link sets up CIS 2 of CIG 1 (LL_CIS_REQ, LL_CIS_RSP, LL_CIS_IND with access address 0xA1B2C3D4); the
    /// PDUs on that access address are the stream's ISO data, not another link.
    @Test func pdusOnTheCISAccessAddressAreISOData() throws {
        var records = SniffedLinkTests.connect()
        var n = 1
        let req: [UInt8] = [0xFF, 0x1F, 1, 2, 2, 2] + B.le16(40) + B.le16(40) + B.le24(10_000) + B.le24(10_000) + B.le16(40) + B.le16(40)
            + [2] + B.le24(2_500) + [0x11] + [1, 1] + B.le16(8) + B.le24(500) + B.le24(1_500) + B.le16(20)
        let rsp: [UInt8] = [0xFF, 0x20] + B.le24(600) + B.le24(1_400) + B.le16(20)
        let ind: [UInt8] = [0xFF, 0x21] + B.le32(0xA1B2_C3D4) + B.le24(900) + B.le24(3_000) + B.le24(2_000) + B.le16(22)
        for k in 0..<4 {
            let (c, p): ([UInt8]?, [UInt8]?) = k == 1 ? (req, rsp) : k == 2 ? (ind, nil) : (nil, nil)
            records += SniffedLinkTests.event(k, at: SniffedLinkTests.t0 + 10_000 + Int64(k) * 30_000, channel: k, central: c, peripheral: p, n: &n)
        }
        let cisPDUs: [(UInt8, [UInt8])] = [(0x01, [UInt8](repeating: 7, count: 4)), (0x01 | 0x40 | 0x10, [])]
        for (i, header) in cisPDUs.enumerated() {
            n += 1
            let pdu = [header.0, UInt8(header.1.count)] + header.1
            records.append(LL.record(n, LL.nordic(LL.packet(0xA1B2_C3D4, pdu, crcInit: LL.crcInit), flags: LL.dflags(central: true), channel: 9),
                                     linkType: 272, micros: SniffedLinkTests.t0 + 200_000 + Int64(i) * 10_000))
        }
        let run = LL.run(records)
        let cis = run.events.compactMap { e -> CISPDU? in
            if case let .linkLayer(l) = e.body, case let .cisPDU(p) = l.content { return p }
            return nil
        }
        #expect(cis.count == 2 && cis.allSatisfy { $0.cig == 1 && $0.cis == 2 })
        #expect(cis.first?.length == 4 && cis.first?.npi == false && cis.last?.npi == true && cis.last?.cie == true)
        #expect(run.events.suffix(2).map(\.summary) == ["CIS 2 of CIG 1: ISO data PDU (unframed, SDU start), 4 bytes (SN 0, NESN 0)",
                                                       "CIS 2 of CIG 1: null PDU (SN 0, NESN 0, closes the event)"])
        let ll = try #require(run.analyzer.pipeline.linkLayerIfUsed)
        #expect(ll.linkOrder.count == 1)
    }
}
