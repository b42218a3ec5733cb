import Testing
@testable import BLETrace

/// LE Audio service data in adverts and periodic adverts (issue #29): the BASE, the Broadcast and Public
/// Broadcast Announcements, the ASCS announcement.
@Suite struct BroadcastAudioDataTests {
    typealias B = HCIBuilder

    static func serviceData(_ uuid: UInt16, _ data: [UInt8]) -> [UInt8] { [UInt8(data.count + 3), 0x16] + B.le16(uuid) + data }

    /// The BASE of a 48 kHz LC3 broadcast with two BISes (left, right), as Bumble's Auracast demo sends it.
    static let base: [UInt8] = B.le24(40_000) + [1] + [2] + [6, 0, 0, 0, 0] + [10, 2, 1, 8, 2, 2, 1, 3, 4, 100, 0]
        + [9, 3, 2, 4, 0, 4, 4] + Array("eng".utf8) + [1, 6, 5, 3, 1, 0, 0, 0] + [2, 6, 5, 3, 2, 0, 0, 0]

    @Test func baseSubgroupsAndBIS() throws {
        let d = ADParser.describe(ADParser.parse(Self.serviceData(0x1851, Self.base)[...]), rssi: nil)
        #expect(d.text == "BASE: presentation delay 40000 µs; LC3 48 kHz, 10 ms, 100 octets; streaming Media, language eng; BIS 1 Front Left, BIS 2 Front Right")
        guard case let .list(list) = d.fields, let first = list.first?.objectValue, let base = first["base"]?.objectValue else {
            Issue.record("\(d.fields)"); return
        }
        #expect(base["presentation_delay_us"] == .int(40_000))
        guard case let .list(groups)? = base["subgroups"], case let .list(bis)? = groups.first?.objectValue?["bis"] else { Issue.record("\(base)"); return }
        #expect(bis.count == 2 && bis.last?.objectValue?["bis_index"] == .int(2))
        // Cut short: a problem, not a crash.
        let cut = ADParser.describe(ADParser.parse(Self.serviceData(0x1851, Array(Self.base.prefix(20)))[...]), rssi: nil)
        #expect(cut.text.contains("BASE ?"))
    }

    @Test func announcements() throws {
        let broadcast = ADParser.describe(ADParser.parse(Self.serviceData(0x1852, [0xC3, 0x17, 0x5A])[...]), rssi: nil)
        #expect(broadcast.text == "Broadcast Audio Announcement, Broadcast_ID 0x5A17C3")
        let pba = ADParser.describe(ADParser.parse(Self.serviceData(0x1856, [0x05, 4, 3, 2, 4, 0])[...]), rssi: nil)
        #expect(pba.text == "Public Broadcast Announcement: encrypted, High Quality; streaming Media")
        let ascs = ADParser.describe(ADParser.parse(Self.serviceData(0x184E, [0x00, 0x06, 0x00, 0x00, 0x00, 0x00])[...]), rssi: nil)
        #expect(ascs.text == "ASCS general announcement, available contexts sink Conversational, Media, source none")
    }
}
