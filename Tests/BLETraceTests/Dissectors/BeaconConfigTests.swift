import Testing
@testable import BLETrace

@Suite("Beacon configuration service and Apple Media Service")
struct BeaconConfigTests {
    @Test("beacon UUID, major/minor, power code and interval; a short interval is risky")
    func beaconConfig() throws {
        let uuid: [UInt8] = [0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0]
        let u = try #require(dissect(BeaconConfigDissector.beaconUUID, uuid, fromClient: true))
        #expect(u.fields["beacon_uuid"] == .string("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        #expect(dissect(BeaconConfigDissector.beaconUUID, [1, 2])?.problem == "2 bytes, expected 16")

        let mm = try #require(dissect(BeaconConfigDissector.majorMinor, le(1) + le(0x0203)))
        #expect(mm.fields["major"] == .int(1) && mm.fields["minor"] == .int(0x0203) && mm.text == "major 1 minor 515")

        let p = try #require(dissect(BeaconConfigDissector.powerInterval, le(2) + le(160), fromClient: true))
        #expect(p.fields["tx_power_dbm"] == .int(0) && p.fields["interval_ms"] == .double(100) && p.fields["risky_interval"] == .bool(false))
        #expect(p.text == "transmit power 0 dB, interval 100.000 ms" && p.problem == nil)
        #expect(dissect(BeaconConfigDissector.powerInterval, le(1) + le(1600))?.fields["tx_power_dbm"] == .int(-6))
        let risky = try #require(dissect(BeaconConfigDissector.powerInterval, le(0) + le(80)))
        #expect(risky.fields["tx_power_dbm"] == .int(-23) && risky.fields["risky_interval"] == .bool(true))
        #expect(risky.text == "transmit power -23 dB, interval 50.000 ms (risky: below 100 ms)")
        #expect(dissect(BeaconConfigDissector.powerInterval, le(7) + le(1600))?.problem == "transmit power code 7 is not 0, 1 or 2")
        // The typed values: the numbers as read.
        #expect(risky.value as? BeaconConfigDissector.Value == .powerInterval(powerCode: 0, interval: 80))
        #expect(mm.value as? BeaconConfigDissector.Value == .majorMinor(major: 1, minor: 0x0203))
    }

    @Test("AMS remote command, entity update and entity attribute, named")
    func appleMedia() throws {
        #expect(dissect(AppleMediaDissector.remoteCommand, [0x02], fromClient: true)?.text == "command Toggle Play/Pause")
        #expect(dissect(AppleMediaDissector.remoteCommand, [0x00, 0x01, 0x03], opcode: 0x1B)?.text == "supported: Play, Pause, Next Track")
        #expect(dissect(AppleMediaDissector.entityUpdate, [0x02, 0x00, 0x02], fromClient: true)?.text == "subscribe to Track: Artist, Title")
        let upd = try #require(dissect(AppleMediaDissector.entityUpdate, [0x02, 0x02, 0x01] + Array("Blue".utf8), opcode: 0x1B))
        #expect(upd.text == "Track Title \"Blue\" (truncated)" && upd.fields["truncated"] == .bool(true))
        #expect(dissect(AppleMediaDissector.entityAttribute, [0x00, 0x00], fromClient: true)?.text == "select Player Name")
        #expect(dissect(AppleMediaDissector.entityUpdate, [0x02], opcode: 0x1B)?.problem != nil)
        // The typed values hold the bytes as sent; a value that is not UTF-8 is flagged and shown empty.
        #expect(upd.value as? AppleMediaDissector.Value == .update(entity: 2, attribute: 2, flags: 1, value: Array("Blue".utf8)[...]))
        let bad = try #require(dissect(AppleMediaDissector.entityAttribute, [0xC3, 0x28], opcode: 0x0B))
        #expect(bad.problem == "value is not valid UTF-8" && bad.text == "\"\"" && bad.fields["value"] == .string(""))
        #expect(dissect(AppleMediaDissector.remoteCommand, [0x00, 0x01], opcode: 0x1B)?.fields["supported_commands"]
            == .list([.string("Play"), .string("Pause")]))
        #expect(dissect(AppleMediaDissector.remoteCommand, [0x00, 0x01], fromClient: true)?.problem == "2 bytes, expected 1")
        #expect(AppleMediaDissector.service.name == "Apple Media Service")
        #expect(AppleMediaDissector.entityAttribute.name == "AMS Entity Attribute")
    }
}
