import Testing
@testable import BLETrace

@Suite("AltBeacon")
struct AltBeaconTests {
    static let id: [UInt8] = [0x2F, 0x23, 0x44, 0x54, 0xCF, 0x6D, 0x4A, 0x0F, 0xAD, 0xF2, 0xF4, 0x91, 0x1B, 0xA9, 0xFF, 0xA6,
                              0x00, 0x01, 0x00, 0x02]

    @Test("beacon code BE AC, 20-byte ID, reference RSSI, reserved byte")
    func decode() throws {
        let data: [UInt8] = [0xBE, 0xAC] + Self.id + [0xC5, 0x7F]
        let b = try #require(AltBeacon.dissect(company: 0x0118, data: data[...], rssi: -59).beacon)
        #expect(b.id == Self.id)
        #expect(b.uuid?.canonical == "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6")
        #expect(b.major == 1)
        #expect(b.minor == 2)
        #expect(b.referenceRSSI == -59)
        #expect(b.reserved == 0x7F)
        #expect(b.distanceEstimate == 1.0)
        #expect(b.fields["company"] == .int(0x0118))
        #expect(b.fields["reference_rssi"] == .int(-59))
    }

    @Test("wrong length is a near miss; other data is not AltBeacon")
    func nearMiss() {
        let short: [UInt8] = [0xBE, 0xAC] + Self.id
        if case .nearMiss = AltBeacon.dissect(company: 0x0118, data: short[...]) {} else {
            Issue.record("expected near miss")
        }
        #expect(AltBeacon.dissect(company: 0x0118, data: [0xAC, 0xBE, 0x00][...]) == .none)
    }

    @Test("decoded from manufacturer data")
    func fromAD() throws {
        let payload: [UInt8] = [0x1B, 0xFF, 0x18, 0x01, 0xBE, 0xAC] + Self.id + [0xC5, 0x00]
        let f = ADDecode.fields(ADParser.parse(payload)[0])
        let a = try #require(f["altbeacon"]?.objectValue)
        #expect(a["major"] == .int(1))
        #expect(a["minor"] == .int(2))
        #expect(a["uuid"] == .string("2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6"))
    }
}
