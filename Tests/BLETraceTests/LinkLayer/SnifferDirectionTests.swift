import Testing
@testable import BLETrace

/// A sniffer's capture has no local host: JSON directions name the link's sides, adverts have none, and the
/// summary does not call the central "local".
@Suite struct SnifferDirectionTests {
    static func sniffed() -> (events: [TraceEvent], summary: Summary) {
        let att: [UInt8] = LL.le16(3) + LL.le16(4) + [0x02] + LL.le16(185)      // Exchange MTU Request
        let rsp: [UInt8] = LL.le16(3) + LL.le16(4) + [0x03] + LL.le16(185)      // Exchange MTU Response
        let adv = LL.packet(LL.advAA, LL.adv(0, tx: true, LL.addr(LL.peripheral) + [2, 1, 6]), crcInit: LLCRC.advertisingInit)
        let (events, _, summary) = LL.run([
            LL.record(1, adv, linkType: 251),
            LL.record(2, LL.connectInd(), linkType: 251),
            LL.record(3, LL.nordic(LL.conn(LL.data(llid: 2, att)), flags: LL.dflags(central: true)), linkType: 272),
            LL.record(4, LL.nordic(LL.conn(LL.data(llid: 2, sn: 0, nesn: 1, rsp)), flags: LL.dflags(central: false)), linkType: 272),
        ])
        return (events, summary)
    }

    @Test func jsonDirectionsNameTheLinksSides() {
        let (events, _) = SnifferDirectionTests.sniffed()
        #expect(events.map { EventJSON.direction($0) } == ["none", "none", "central_to_peripheral", "peripheral_to_central"])
        #expect(EventJSON.fields(events[2])["direction"] == .string("central_to_peripheral"))
        // An HCI capture keeps host and controller.
        let hci = TestSupport.decode(.command, [0x03, 0x0C, 0x00], direction: .hostToController)
        #expect(EventJSON.direction(hci) == "host_to_controller")
    }

    @Test func summaryHasNoLocalCentral() throws {
        let (_, summary) = SnifferDirectionTests.sniffed()
        let line = try #require(SummaryRender.text(summary).first { $0.hasPrefix("    #1 ") })
        #expect(!line.contains("local central"))
        #expect(line.contains("peer is the peripheral (sniffed)"))
        let f = SummaryRender.connectionFields(summary.connections[0], sniffed: SummaryRender.sniffed(summary))
        #expect(f["role"] == nil && f["peer_role"] == .string("peripheral") && f["sniffed"] == .bool(true))
    }
}

/// No local host: a response is matched to the request the other side has pending even when the sniffer gave
/// both packets the same direction (the false "unanswered request" of whad's ble_pairing capture).
@Suite struct SnifferTransactionTests {
    @Test func responseOnTheSameSideAsItsRequestIsMatched() throws {
        let req: [UInt8] = LL.le16(3) + LL.le16(4) + [0x02] + LL.le16(185)       // Exchange MTU Request
        let rsp: [UInt8] = LL.le16(3) + LL.le16(4) + [0x03] + LL.le16(65)        // Exchange MTU Response
        let (events, _, summary) = LL.run([
            LL.record(1, LL.connectInd(), linkType: 251),
            // Both labelled peripheral → central by the sniffer.
            LL.record(2, LL.nordic(LL.conn(LL.data(llid: 2, req)), flags: LL.dflags(central: false)), linkType: 272),
            LL.record(3, LL.nordic(LL.conn(LL.data(llid: 2, sn: 1, nesn: 1, rsp)), flags: LL.dflags(central: false)), linkType: 272),
        ])
        let response = try #require(events.first { $0.record == 3 })
        guard case let .att(a) = response.body else { Issue.record("not ATT: \(response.summary)"); return }
        #expect(a.request?.record == 2)
        let findings = summary.sections.first { $0.name == "findings" }?.value.objectValue
        #expect(findings?["count"] == .int(0), "\(String(describing: findings))")
    }
}
