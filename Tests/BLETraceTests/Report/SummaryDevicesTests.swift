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
        layer.add(.string(key: "device_name", value: ""), device: DeviceKey(address: BDAddr(0xC0_00_00_00_00_01)))
        #expect(layer.summary()?.text == [])
        layer.add(.string(key: "model_number", value: "X1"), device: DeviceKey(address: BDAddr(0xC0_00_00_00_00_02)))
        #expect(layer.summary()?.text == ["  Identity:", "    C0:00:00:00:00:02: X1"])
    }

    /// The text summary counts the cards that say something without describing them: the check agrees with the
    /// description on every mix of empty, missing and present strings, appearance, PnP ID and System ID.
    @Test func cardThatSaysSomethingIsOneWithParts() {
        let strings: [[(String, String)]] = [[], [("device_name", "")], [("device_name", "Band")], [("serial_number", "")],
                                             [("firmware_revision", "1.2")], [("device_name", ""), ("model_number", "X1")],
                                             [("unlisted_key", "value")]]
        var checked = 0
        for s in strings {
            for mask in 0..<8 {
                var c = IdentityLayer.Card(device: "C0:00:00:00:00:01")
                c.strings = s
                if mask & 1 != 0 { c.appearance = 0x00C1 }
                if mask & 2 != 0 { c.pnp = PnPID(vendorIDSource: 1, vendorID: 0x004C, productID: 1, productVersion: 0x0100) }
                if mask & 4 != 0 { c.systemID = SystemID(manufacturerIdentifier: 1, oui: 0x001122) }
                #expect(IdentityLayer.saysSomething(c) == !IdentityLayer.facts(c).parts.isEmpty, "\(s) \(mask)")
                checked += 1
            }
        }
        #expect(checked == 56)
        // The cards with nothing to say are the first ones: no strings, or only empty or unlisted ones.
        #expect(!IdentityLayer.saysSomething(IdentityLayer.Card(device: "x", strings: [("device_name", ""), ("unlisted_key", "v")])))
    }
}
