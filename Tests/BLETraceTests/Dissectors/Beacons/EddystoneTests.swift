import Testing
@testable import BLETrace

@Suite("Eddystone")
struct EddystoneTests {
    @Test("UID frame: namespace, instance, tx power at 0 m; RFU bytes optional")
    func uid() throws {
        let ns: [UInt8] = [0x8B, 0x0C, 0xA7, 0x50, 0xE7, 0xA7, 0x4E, 0x14, 0xBD, 0x99]
        let inst: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06]
        let frame: [UInt8] = [0x00, 0xEE] + ns + inst
        let b = try #require(Eddystone.dissect(serviceUUID: 0xFEAA, data: frame[...], rssi: -59).beacon)
        #expect(b.frame == .uid(namespace: ns, instance: inst))
        #expect(b.txPower == -18)
        // Power at 1 m = -18 - 41 = -59 dBm, equal to the RSSI: 1 m.
        #expect(b.distanceEstimate == 1.0)
        #expect(b.fields["namespace"] == .hex(ns))
        #expect(b.fields["frame"] == .string("UID"))
        let withRFU = try #require(Eddystone.dissect(serviceUUID: 0xFEAA, data: (frame + [0, 0])[...]).beacon)
        #expect(withRFU.frame == b.frame)
        if case .nearMiss = Eddystone.dissect(serviceUUID: 0xFEAA, data: frame.dropLast()) {} else {
            Issue.record("a 17-byte UID frame should be a near miss")
        }
    }

    @Test("URL frame expands scheme and suffix codes")
    func url() throws {
        // https://www. + "example" + ".com/" + "x"
        let frame: [UInt8] = [0x10, 0xF4, 0x01] + Array("example".utf8) + [0x00] + Array("x".utf8)
        let b = try #require(Eddystone.dissect(serviceUUID: 0xFEAA, data: frame[...]).beacon)
        #expect(b.frame == .url("https://www.example.com/x"))
        #expect(b.txPower == -12)
        #expect(b.text.hasPrefix("Eddystone-URL https://www.example.com/x, tx power -12 dBm at 0 m"))
        // Scheme 4 does not exist; byte 0x15 is reserved.
        #expect(Eddystone.dissect(serviceUUID: 0xFEAA, data: [0x10, 0x00, 0x04, 0x61][...]).beacon == nil)
        #expect(Eddystone.dissect(serviceUUID: 0xFEAA, data: [0x10, 0x00, 0x02, 0x15][...]).beacon == nil)
    }

    @Test("TLM frame: big-endian battery, 8.8 temperature, counters")
    func tlm() throws {
        let frame: [UInt8] = [0x20, 0x00, 0x0B, 0xB8, 0xFE, 0x80, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x58]
        let b = try #require(Eddystone.dissect(serviceUUID: 0xFEAA, data: frame[...]).beacon)
        #expect(b.frame == .tlm(batteryMillivolts: 3000, temperature256: -384, advertisingCount: 256, uptimeTenths: 600))
        #expect(b.fields["temperature_c"] == .double(-1.5))
        #expect(b.fields["uptime_s"] == .double(60))
        #expect(b.text == "Eddystone-TLM battery 3000 mV, temperature -1.50 °C, 256 adverts, up 60.0 s")
        // 0x8000 temperature and 0 battery mean "not supported".
        let unsupported: [UInt8] = [0x20, 0x00, 0x00, 0x00, 0x80, 0x00, 0, 0, 0, 1, 0, 0, 0, 1]
        let u = try #require(Eddystone.dissect(serviceUUID: 0xFEAA, data: unsupported[...]).beacon)
        #expect(u.frame == .tlm(batteryMillivolts: nil, temperature256: nil, advertisingCount: 1, uptimeTenths: 1))
        let enc: [UInt8] = [0x20, 0x01] + [UInt8](repeating: 0xAB, count: 12) + [0x12, 0x34, 0x56, 0x78]
        let e = try #require(Eddystone.dissect(serviceUUID: 0xFEAA, data: enc[...]).beacon)
        #expect(e.frame == .encryptedTLM(etlm: [UInt8](repeating: 0xAB, count: 12), salt: 0x1234, mic: 0x5678))
    }

    @Test("EID frame and unknown frames")
    func eid() throws {
        let frame: [UInt8] = [0x30, 0x00, 1, 2, 3, 4, 5, 6, 7, 8]
        let b = try #require(Eddystone.dissect(serviceUUID: 0xFEAA, data: frame[...]).beacon)
        #expect(b.frame == .eid([1, 2, 3, 4, 5, 6, 7, 8]))
        if case .nearMiss = Eddystone.dissect(serviceUUID: 0xFEAA, data: [0x50, 0x00][...]) {} else {
            Issue.record("unknown frame type should be a near miss")
        }
        #expect(Eddystone.dissect(serviceUUID: 0x180F, data: frame[...]) == .none)
    }

    @Test("decoded from 16-bit service data")
    func fromAD() throws {
        let payload: [UInt8] = [0x03, 0x03, 0xAA, 0xFE, 0x0B, 0x16, 0xAA, 0xFE, 0x10, 0xF4, 0x03] + Array("a.bc".utf8) + [0x07]
        let ads = ADParser.parse(payload)
        #expect(ads.count == 2)
        let f = ADDecode.fields(ads[1])
        #expect(f["uuid"] == .string("FEAA"))
        let e = try #require(f["eddystone"]?.objectValue)
        #expect(e["url"] == .string("https://a.bc.com"))
    }
}
