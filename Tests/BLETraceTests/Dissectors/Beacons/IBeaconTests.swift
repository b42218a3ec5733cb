import Testing
@testable import BLETrace

@Suite("iBeacon")
struct IBeaconTests {
    /// 02 15, UUID E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 as sent (big-endian), major 0x0102, minor 0xA0B0, power -59.
    static let payload: [UInt8] = [0x02, 0x15,
                                   0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0,
                                   0x01, 0x02, 0xA0, 0xB0, 0xC5]

    @Test("fields are read big-endian, UUID in canonical upper-case order")
    func byteOrder() throws {
        let b = try #require(IBeacon.dissect(company: 0x004C, data: Self.payload[...]).beacon)
        #expect(b.uuid.canonical == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        #expect(b.major == 0x0102)   // 258, not 513 (the byte-reversed reading)
        #expect(b.minor == 0xA0B0)   // 41136, not 45216
        #expect(b.measuredPower == -59)
        let f = b.fields
        #expect(f["uuid"] == .string("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        #expect(f["major"] == .int(258))
        #expect(f["minor"] == .int(41136))
        #expect(f["measured_power"] == .int(-59))
        #expect(f["distance_estimate_m"] == nil)
        #expect(b.text == "iBeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 major 258 minor 41136, measured power -59 dBm")
    }

    @Test("distance estimate follows the log-distance model and is labelled an estimate")
    func distance() throws {
        // RSSI equal to measured power: 1 m. 20 dB weaker with n = 2: 10 m.
        let atOne = try #require(IBeacon.dissect(company: 0x004C, data: Self.payload[...], rssi: -59).beacon)
        #expect(atOne.distanceEstimate == 1.0)
        let far = try #require(IBeacon.dissect(company: 0x004C, data: Self.payload[...], rssi: -79).beacon)
        #expect(abs((far.distanceEstimate ?? 0) - 10.0) < 1e-9)
        #expect(far.fields["distance_estimate_m"] == .double(10.0))
        #expect(far.text.hasSuffix(", ~10.00 m (estimate)"))
        // RSSI 127 means "not available".
        #expect(BeaconDistance.estimate(powerAt1m: -59, rssi: 127) == nil)
    }

    @Test("wrong length after 02 15 is a near miss, not a beacon")
    func nearMiss() {
        let short = IBeacon.dissect(company: 0x004C, data: Self.payload.dropLast())
        guard case let .nearMiss(why) = short else { Issue.record("expected near miss, got \(short)"); return }
        #expect(why.contains("20 bytes"))
        let long = IBeacon.dissect(company: 0x004C, data: (Self.payload + [0x00])[...])
        #expect(long.beacon == nil)
        if case .nearMiss = long {} else { Issue.record("expected near miss for 22 bytes") }
    }

    @Test("other companies and other Apple types are not iBeacons")
    func notBeacon() {
        #expect(IBeacon.dissect(company: 0x0059, data: Self.payload[...]) == .none)
        var other = Self.payload
        other[0] = 0x10 // Apple "Nearby" type
        #expect(IBeacon.dissect(company: 0x004C, data: other[...]) == .none)
        #expect(IBeacon.dissect(company: 0x004C, data: [0x02][...]) == .none)
        #expect(IBeacon.dissect(company: 0x004C, data: [][...]) == .none)
    }

    @Test("decoded from manufacturer data inside an advertising payload")
    func fromAD() throws {
        let payload: [UInt8] = [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00] + Self.payload
        let ads = ADParser.parse(payload)
        #expect(ads.count == 2)
        let f = ADDecode.fields(ads[1], rssi: -65)
        #expect(f["company"] == .int(0x004C))
        #expect(f["company_name"] == .string("Apple, Inc."))
        let ib = try #require(f["ibeacon"]?.objectValue)
        #expect(ib["uuid"] == .string("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        #expect(ib["major"] == .int(258))
        #expect(ib["minor"] == .int(41136))
        #expect(ib["measured_power"] == .int(-59))
        #expect(ib["distance_estimate_m"] == .double(2.0))
        // The near miss is flagged on the structure.
        let bad: [UInt8] = [0x19, 0xFF, 0x4C, 0x00] + Self.payload.dropLast()
        let g = ADDecode.fields(ADParser.parse(bad)[0])
        #expect(g["ibeacon"] == nil)
        #expect(g["ibeacon_near_miss"]?.stringValue?.contains("not 21") == true)
    }
}
