import Foundation
import Testing
@testable import BLETrace

/// The text summary's device list and connection lines: connected devices first, peers named, no empty
/// identity lines.
@Suite struct SummaryDevicesTests {
    /// 60 advertisers, then a connection to the last one, which advertises a name.
    static func crowd() -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        s.startScan()
        for i in 1...60 {
            let name: [UInt8] = i == 60 ? [0x07, 0x09] + Array("Target".utf8) : []
            s.advert(addressType: 1, address: BDAddr(0xC0_00_00_00_10_00 + UInt64(i)), data: [0x02, 0x01, 0x06] + name, rssi: -60)
            s.advance(ms: 5)
        }
        s.stopScan()
        Samples.gattSession(s, handle: 0x0040, peer: BDAddr(0xC0_00_00_00_10_3C))
        return s
    }

    @Test func connectedDeviceLeadsACutListAndNamesItsConnection() throws {
        let (_, summary) = try TestSupport.analyze(SummaryDevicesTests.crowd())
        let lines = SummaryRender.text(summary)
        let start = try #require(lines.firstIndex { $0.hasPrefix("  Devices:") })
        #expect(lines[start + 1].hasPrefix("    C0:00:00:00:10:3C (random static)"))
        #expect(lines.contains { $0.hasPrefix("    … and 10 more") })
        let conn = try #require(lines.first { $0.hasPrefix("    #1 handle 0x0040") })
        #expect(conn.hasPrefix("    #1 handle 0x0040 C0:00:00:00:10:3C (random static) \"Target\", local central"))
    }

    @Test func markdownDeviceTableLeadsWithConnectedDevices() throws {
        let lines = try MarkdownBudgetTests.render(SummaryDevicesTests.crowd())
        let start = try #require(lines.firstIndex(of: "## Devices"))
        #expect(lines[start + 4].hasPrefix("| `C0:00:00:00:10:3C` | random static | Target |"))
    }

    @Test func identityCardWithAnEmptyNamePrintsNothing() throws {
        let layer = IdentityLayer()
        layer.add(.string(key: "device_name", value: ""), device: "C0:00:00:00:00:01")
        #expect(layer.summary()?.text == [])
        layer.add(.string(key: "model_number", value: "X1"), device: "C0:00:00:00:00:02")
        #expect(layer.summary()?.text == ["  Identity:", "    C0:00:00:00:00:02: X1"])
    }
}
