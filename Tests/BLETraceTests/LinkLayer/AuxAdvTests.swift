import Testing
@testable import BLETrace

/// AUX_ADV_IND against AUX_CHAIN_IND on a secondary channel, when the sniffer's header says "auxiliary, chain".
@Suite struct AuxAdvTests {
    /// A type-7 PDU: header, then the extended header (mode, flags, fields) and data.
    static func pdu(mode: UInt8, advA: Bool) -> [UInt8] {
        let adi: [UInt8] = [0x23, 0x51]
        let fields = (advA ? [0x06, 0x05, 0x04, 0x03, 0x02, 0xC1] : []) + adi
        let flags: UInt8 = (advA ? 0x01 : 0) | 0x08
        let ext = [UInt8(1 + fields.count) | mode << 6, flags] + fields + [0x03, 0x09, 0x41, 0x42]
        return [0x07 | (advA ? 0x40 : 0), UInt8(ext.count)] + ext
    }

    @Test func advAAndConnectableModeMakeAUX_ADV_IND() throws {
        let conn = try LLAdvertisingPDU.parse(AuxAdvTests.pdu(mode: 1, advA: true)[...], secondary: true, auxType: 1)
        #expect(conn.name == "AUX_ADV_IND")
        #expect(conn.advA == BDAddr(0xC1_02_03_04_05_06))
        let withAddress = try LLAdvertisingPDU.parse(AuxAdvTests.pdu(mode: 0, advA: true)[...], secondary: true, auxType: 1)
        #expect(withAddress.name == "AUX_ADV_IND")
        // Neither: a chain PDU stays one.
        let chain = try LLAdvertisingPDU.parse(AuxAdvTests.pdu(mode: 0, advA: false)[...], secondary: true, auxType: 1)
        #expect(chain.name == "AUX_CHAIN_IND")
        // On a primary channel it is ADV_EXT_IND whatever it holds.
        #expect(try LLAdvertisingPDU.parse(AuxAdvTests.pdu(mode: 1, advA: true)[...], secondary: false, auxType: nil).name == "ADV_EXT_IND")
    }
}
