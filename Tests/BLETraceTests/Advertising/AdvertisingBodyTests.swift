import Testing
@testable import BLETrace

/// The typed `adv` body: reports read from the event's bytes, AD structures parsed from each report's data.
@Suite struct AdvertisingBodyTests {
    let a = BDAddr(0xC4_7C_8D_6A_11_22)

    func body(_ e: TraceEvent) -> AdvertisingBody? {
        if case let .adv(b) = e.body { return b }
        return nil
    }

    @Test func leAdvertisingReportYieldsAddressAndADStructures() throws {
        let data = HCIBuilder.ad(0x01, [0x06]) + HCIBuilder.ad(0x09, Array("Thermo".utf8))
        let e = TestSupport.decode(.event, HCIBuilder.advertisingReport(type: 0, addressType: 0, address: a, data: data, rssi: -60))
        #expect(e.kind == .adv)
        let b = try #require(body(e))
        #expect(b.subevent == 0x02)
        let reports = Array(b.reports)
        #expect(reports.count == 1)
        let r = try #require(reports.first)
        #expect(r.address == a)
        #expect(r.addressType == .public)
        #expect(r.rssi == -60)
        #expect(r.connectable && r.scannable && !r.scanResponse)
        #expect(r.type == .legacy(0))
        let ads = Array(ADSequence(r.data))
        #expect(ads.map { $0.type } == [0x01, 0x09])
        #expect(Array(ads[1].data) == Array("Thermo".utf8))
        #expect(b.malformedReason == nil)
        #expect(e.summary == "LE Advertising Report: ADV_IND C4:7C:8D:6A:11:22 (public) RSSI -60 dBm: flags 0x06, name \"Thermo\"")
    }

    @Test func extendedReportTypeAndMalformedData() throws {
        let e = TestSupport.decode(.event, HCIBuilder.extendedAdvertisingReport(eventType: 0x0003, addressType: 1, address: a, sid: 2,
                                                                                 txPower: 4, rssi: -70, data: [0x05, 0x09, 0x41]))
        let b = try #require(body(e))
        let r = try #require(Array(b.reports).first)
        #expect(r.type == .extended(3))
        #expect(r.type.name == "extended connectable, scannable")
        #expect(r.sid == 2 && r.txPower == 4)
        #expect(b.malformedReason?.hasPrefix("advertising data from C4:7C:8D:6A:11:22: AD structure length 5") == true)
    }

    @Test func reportsAreNotStoredButReadFromTheRecord() throws {
        let two = [2] + [0x00, 0x00] + HCIBuilder.addr(a) + [0] + [0xC4] + [0x04, 0x01] + HCIBuilder.addr(BDAddr(0x11)) + [0] + [0xB0]
        let e = TestSupport.decode(.event, HCIBuilder.leMeta(0x02, two))
        let b = try #require(body(e))
        guard case let .hci(sub, bytes) = b.source else { Issue.record("not an HCI source"); return }
        #expect(sub == 0x02 && bytes.count == two.count)
        #expect(b.reassembly == nil)
        #expect(b.reports.map { $0.address } == [a, BDAddr(0x11)])
        #expect(b.reports.map { $0.rssi } == [-60, -80])
    }
}
