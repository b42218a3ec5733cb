import Testing
@testable import BLETrace

/// RSSI 127 is "not available": no RSSI, not 127 dBm.
@Suite struct RSSIUnavailableTests {
    @Test func inquiryResultWithRSSI127HasNone() throws {
        let a = HCIBuilder.addr(BDAddr(0x00_1B_66_AA_BB_CC))
        let (body, e) = ClassicEventTests.classic(0x22, [1] + a + [1, 0] + ClassicEventTests.cod(0x5A020C) + [0, 0] + [0x7F])
        guard case let .inquiryResult(list)? = body else { Issue.record("no result"); return }
        #expect(list[0].rssi == nil)
        #expect(!e.summary.contains("dBm"))
    }

    @Test func advertisingReportWithRSSI127HasNone() throws {
        let report = HCIBuilder.advertisingReport(type: 0, addressType: 1, address: BDAddr(0xC0_00_00_00_00_01), data: [0x02, 0x01, 0x06], rssi: 127)
        let e = TestSupport.decode(.event, report)
        #expect(!e.summary.contains("dBm"))
    }
}
