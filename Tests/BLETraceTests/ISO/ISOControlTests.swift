import Testing
@testable import BLETrace

/// The isochronous HCI commands and events (issue #29): typed parameters from assembled bytes, their text.
@Suite struct ISOControlTests {
    typealias B = HCIBuilder
    static let cigParams: [UInt8] = [1] + B.le24(10_000) + B.le24(7_500) + [0, 0, 0] + B.le16(20) + B.le16(30) + [1]
        + [1] + B.le16(40) + B.le16(60) + [2, 2] + [2, 3]

    func command(_ e: TraceEvent) -> ISOCommandParams? {
        if case let .hciCommand(b) = e.body, case let .iso(p) = b.params { return p }
        return nil
    }

    func event(_ e: TraceEvent) -> ISOEvent? {
        if case let .hciEvent(b) = e.body, case let .le(_, .iso(i)) = b.params { return i }
        return nil
    }

    @Test func setCIGParametersAndCreateCIS() throws {
        let e = TestSupport.decode(.command, B.command(0x2062, Self.cigParams), direction: .hostToController)
        guard case let .setCIGParameters(g)? = command(e) else { Issue.record("\(e.body)"); return }
        #expect(g.cig == 1 && g.sduInterval == EachWay(10_000, 7_500) && g.maxLatency == EachWay(20, 30) && !g.test)
        #expect(g.cis.count == 1 && g.cis[0].id == 1 && g.cis[0].maxSDU == EachWay(40, 60) && g.cis[0].rtn == EachWay(2, 3))
        #expect(e.summary == "LE Set CIG Parameters: CIG 1, SDU interval 10000/7500 µs, unframed, max latency 20/30 ms, 1 CIS: CIS 1 max SDU 40/60, PHY 2M/2M, RTN 2/3")
        let create = TestSupport.decode(.command, B.command(0x2064, [2] + B.le16(0x60) + B.le16(0x40) + B.le16(0x61) + B.le16(0x40)),
                                        direction: .hostToController)
        guard case let .createCIS(pairs)? = command(create) else { Issue.record("\(create.body)"); return }
        #expect(pairs == [CISPair(cis: 0x60, acl: 0x40), CISPair(cis: 0x61, acl: 0x40)])
        #expect(create.summary == "LE Create CIS: CIS 0x0060 on ACL 0x0040, CIS 0x0061 on ACL 0x0040")
        // The Command Complete returns the CIS handles.
        let cc = TestSupport.decode(.event, B.commandComplete(0x2062, [1, 1] + B.le16(0x60)))
        #expect(cc.summary == "Command Complete: LE Set CIG Parameters: Success, CIG 1, CIS 0x0060")
        // A short command is malformed, not a crash.
        let short = TestSupport.decode(.command, B.command(0x2062, Array(Self.cigParams.prefix(12))), direction: .hostToController)
        guard case .malformed = short.body else { Issue.record("\(short.body)"); return }
    }

    @Test func bigAndDataPathCommands() throws {
        let code = [UInt8](1...16)
        let big = TestSupport.decode(.command, B.command(0x2068, [1, 0, 2] + B.le24(10_000) + B.le16(100) + B.le16(60) + [4, 2, 0, 0, 1] + code),
                                     direction: .hostToController)
        guard case let .createBIG(g)? = command(big) else { Issue.record("\(big.body)"); return }
        #expect(g.big == 1 && g.bisCount == 2 && g.maxSDU == 100 && g.maxLatency == 60 && g.rtn == 4 && g.encryption == 1)
        #expect(Array(g.broadcastCode) == code)
        #expect(big.summary == "LE Create BIG: BIG 1 on advertising set 0, 2 BIS, SDU interval 10000 µs, max SDU 100, max latency 60 ms, RTN 4, PHY 2M, unframed, encrypted")
        let sync = TestSupport.decode(.command, B.command(0x206B, [1] + B.le16(0x10) + [0] + [UInt8](repeating: 0, count: 16) + [0] + B.le16(256) + [2, 1, 2]),
                                      direction: .hostToController)
        #expect(sync.summary == "LE BIG Create Sync: BIG 1 over sync 0x0010, BIS 1, 2, timeout 2560 ms, unencrypted")
        let path = TestSupport.decode(.command, B.command(0x206E, B.le16(0x60) + [1, 0, 6] + B.le16(0) + B.le16(0) + B.le24(0) + [0]),
                                      direction: .hostToController)
        #expect(path.summary == "LE Setup ISO Data Path: handle 0x0060, output (controller to host), over HCI, LC3, controller delay 0 µs")
        #expect(path.handle == 0x60)
        let feature = TestSupport.decode(.command, B.command(0x2074, [32, 1]), direction: .hostToController)
        #expect(feature.summary == "LE Set Host Feature: bit 32 (Connected Isochronous Stream (Host Support)) on")
        let pa = TestSupport.decode(.command, B.command(0x2044, [0, 3, 1] + B.addr(Samples.thermo) + B.le16(0) + B.le16(500) + [0]),
                                    direction: .hostToController)
        #expect(pa.summary == "LE Periodic Advertising Create Sync: \(Samples.thermo) (random), SID 3, skip 0, timeout 5000 ms")
    }

    @Test func isochronousEvents() throws {
        // CIS Established v1 with an ISO interval of 0, which the spec forbids.
        let est = B.leMeta(0x19, [0] + B.le16(0x60) + B.le24(900) + B.le24(800) + B.le24(10_000) + B.le24(12_000) + [2, 1] + [3] + [1, 1]
                            + [2, 1] + B.le16(40) + B.le16(60) + B.le16(0))
        let e = TestSupport.decode(.event, est)
        guard case let .cisEstablished(c)? = event(e) else { Issue.record("\(e.body)"); return }
        #expect(c.handle == 0x60 && c.transportLatency == EachWay(10_000, 12_000) && c.flushTimeout == EachWay(2, 1) && c.isoInterval == 0)
        #expect(e.summary == "LE CIS Established: handle 0x0060, ISO interval 0 (invalid: 5 ms to 4 s), latency 10000/12000 µs, PHY 2M/1M, NSE 3, BN 1, FT 2/1, max PDU 40/60")
        let request = TestSupport.decode(.event, B.leMeta(0x1A, B.le16(0x40) + B.le16(0x60) + [1, 2]))
        #expect(request.summary == "LE CIS Request: CIS 0x0060 on ACL 0x0040, CIG 1, CIS 2")
        let bigSync = TestSupport.decode(.event, B.leMeta(0x1D, [0, 1] + B.le24(20_000) + [3, 1, 0, 1] + B.le16(100) + B.le16(8) + [2]
                                                            + B.le16(0x200) + B.le16(0x201)))
        guard case let .bigEstablished(g)? = event(bigSync) else { Issue.record("\(bigSync.body)"); return }
        #expect(!g.created && g.handles == [0x200, 0x201] && g.isoInterval == 8)
        #expect(bigSync.summary == "LE BIG Sync Established: BIG 1, 2 BIS 0x0200 0x0201, ISO interval 10.00 ms, latency 20000 µs, NSE 3, BN 1, PTO 0, IRC 1, max PDU 100")
        let lost = TestSupport.decode(.event, B.leMeta(0x1E, [1, 0x08]))
        #expect(lost.summary == "LE BIG Sync Lost: BIG 1, Connection Timeout")
        let info = TestSupport.decode(.event, B.leMeta(0x22, B.le16(0x10) + [2, 3] + B.le16(8) + [1, 0, 1] + B.le16(100) + B.le24(10_000)
                                                        + B.le16(100) + [2, 0, 1]))
        #expect(info.summary == "LE BIGInfo Advertising Report: sync 0x0010: 2 BIS, ISO interval 10.00 ms, SDU interval 10000 µs, max SDU 100, PHY 2M, unframed, encrypted")
        let pa = TestSupport.decode(.event, B.leMeta(0x0E, [0] + B.le16(0x10) + [3, 1] + B.addr(Samples.thermo) + [2] + B.le16(80) + [5]))
        #expect(pa.summary == "LE Periodic Advertising Sync Established: sync 0x0010, \(Samples.thermo) (random), SID 3, PHY 2M, interval 100.00 ms")
        let report = TestSupport.decode(.event, B.leMeta(0x0F, B.le16(0x10) + [0x7F, 0xC4, 0xFF, 0, 3, 2, 1, 6]))
        #expect(report.summary == "LE Periodic Advertising Report: sync 0x0010, RSSI -60 dBm, complete, 3 bytes: flags 0x06")
    }

    @Test func testVariantsAndTheRemainingEvents() throws {
        // LE Set CIG Parameters Test: flush timeouts, ISO interval, and per CIS NSE, PDUs and burst numbers.
        let cigTest = [1] + B.le24(10_000) + B.le24(10_000) + [2, 3] + B.le16(8) + [0, 0, 0] + [1] + [1, 4] + B.le16(40) + B.le16(40)
            + B.le16(44) + B.le16(44) + [2, 2] + [1, 1]
        let t = TestSupport.decode(.command, B.command(0x2063, cigTest), direction: .hostToController)
        guard case let .setCIGParameters(g)? = command(t) else { Issue.record("\(t.body)"); return }
        #expect(g.test && g.flushTimeout == EachWay(2, 3) && g.isoInterval == 8 && g.cis.first?.nse == 4 && g.cis.first?.maxPDU == EachWay(44, 44))
        #expect(t.summary == "LE Set CIG Parameters Test: CIG 1, SDU interval 10000 µs, unframed, ISO interval 10.00 ms, 1 CIS: CIS 1 max SDU 40, PHY 2M/2M")
        // LE Create BIG Test.
        let bigTest = [2, 0, 1] + B.le24(10_000) + B.le16(8) + [2] + B.le16(100) + B.le16(100) + [2, 0, 0, 1, 2, 0, 0] + [UInt8](repeating: 0, count: 16)
        let bt = TestSupport.decode(.command, B.command(0x2069, bigTest), direction: .hostToController)
        guard case let .createBIG(b)? = command(bt) else { Issue.record("\(bt.body)"); return }
        #expect(b.test && b.isoInterval == 8 && b.nse == 2 && b.maxPDU == 100 && b.irc == 2 && b.maxLatency == nil)
        // LE Create BIG Complete, LE Terminate BIG Complete.
        let created = TestSupport.decode(.event, B.leMeta(0x1B, [0, 2] + B.le24(5_000) + B.le24(20_000) + [2, 2, 1, 0, 2] + B.le16(100) + B.le16(8)
                                                            + [1] + B.le16(0x300)))
        guard case let .bigEstablished(c)? = event(created) else { Issue.record("\(created.body)"); return }
        #expect(c.created && c.syncDelay == 5_000 && c.phy == 2 && c.handles == [0x300])
        #expect(created.summary == "LE Create BIG Complete: BIG 2, 1 BIS 0x0300, ISO interval 10.00 ms, latency 20000 µs, PHY 2M, NSE 2, BN 1, PTO 0, IRC 2, max PDU 100")
        let ended = TestSupport.decode(.event, B.leMeta(0x1C, [2, 0x16]))
        #expect(ended.summary == "LE Terminate BIG Complete: BIG 2, Connection Terminated By Local Host")
        // LE CIS Established [v2]: the SDU fields the host asked for.
        let v2 = B.leMeta(0x2A, [0] + B.le16(0x60) + B.le24(900) + B.le24(800) + B.le24(10_000) + B.le24(10_000) + [2, 2] + [2] + [1, 1] + [1, 1]
                          + B.le16(40) + B.le16(40) + B.le16(8) + B.le24(2_500) + B.le16(40) + B.le16(30) + B.le24(10_000) + B.le24(7_500) + [0])
        guard case let .cisEstablished(e)? = event(TestSupport.decode(.event, v2)) else { Issue.record("v2"); return }
        #expect(e.subInterval == 2_500 && e.maxSDU == EachWay(40, 30) && e.sduInterval == EachWay(10_000, 7_500) && e.framing == 0)
        // LE Read ISO TX Sync's return.
        let sync = TestSupport.decode(.event, B.commandComplete(0x2061, B.le16(0x60) + B.le16(7) + B.le32(123_456) + B.le24(250)))
        #expect(sync.summary == "Command Complete: LE Read ISO TX Sync: Success, handle 0x0060, sequence 7, time stamp 123456 µs, offset 250 µs")
    }
}
