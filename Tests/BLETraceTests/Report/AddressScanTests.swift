import Testing
@testable import BLETrace

@Suite struct AddressScanTests {
    @Test func findsAddressesInFreeText() {
        #expect(AddressScan.addresses(in: "Address: 80:96:98:42:54:B0") == [BDAddr(0x80_96_98_42_54_B0)])
        #expect(AddressScan.addresses(in: "  P(0):44:09:DA:5C:4F:AF and R(1):e0-0d-46-d8-0d-26") == [BDAddr(0x44_09_DA_5C_4F_AF), BDAddr(0xE0_0D_46_D8_0D_26)])
        #expect(AddressScan.addresses(in: "peer bd_addr=8096984254b0 connected") == [BDAddr(0x80_96_98_42_54_B0)])
        #expect(AddressScan.addresses(in: "MAC 8096984254B0") == [BDAddr(0x80_96_98_42_54_B0)])
    }

    @Test func leavesOtherHexAlone() {
        // Twelve hex digits with no word announcing an address, longer colon groups, longer hex runs.
        #expect(AddressScan.addresses(in: "blob:0132d987b0aabb rssi:-80").isEmpty)
        #expect(AddressScan.addresses(in: "value 8096984254b0").isEmpty)
        #expect(AddressScan.addresses(in: "address 8096984254b0ff").isEmpty)
        #expect(AddressScan.addresses(in: "eui 11:22:33:44:55:66:77:88").isEmpty)
        #expect(AddressScan.addresses(in: "time 12:30:45.123456").isEmpty)
    }

    @Test func redactorScrubsAddressesOfNotes() {
        let r = Redactor()
        var f = Fields()
        f.add("text", "  P(0):44:09:DA:5C:4F:AF")
        r.learn(fields: f)
        #expect(r.redact("Note:   P(0):44:09:DA:5C:4F:AF") == "Note:   P(0):00:00:00:00:00:01")
        // A pseudonym found in text is not learned as a new address.
        f = Fields()
        f.add("text", "now 00:00:00:00:00:01")
        r.learn(fields: f)
        #expect(r.originals.count == 1)
    }
}
