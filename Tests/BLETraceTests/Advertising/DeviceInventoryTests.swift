import Testing
@testable import BLETrace

@Suite("Device inventory")
struct DeviceInventoryTests {
    /// A pipeline with only the inventory attached.
    static func run(_ records: [Record]) -> (DeviceInventory, Pipeline) {
        let inv = DeviceInventory()
        let p = Pipeline(chain: Chain(inventory: inv), emit: { _ in })
        for r in records { p.process(r) }
        return (inv, p)
    }

    static let ibeacon: [UInt8] = [0x4C, 0x00, 0x02, 0x15] + [UInt8](0x10...0x1F) + [0x00, 0x07, 0x01, 0x00, 0xC3]

    @Test("advert and scan response of one device merge; RSSI min/mean/max; first/last seen")
    func merge() throws {
        let addr: UInt64 = 0xC012_3456_789A
        let advert = AdvBytes.legacy(type: 0x00, addrType: 1, addr: addr,
                                     data: ad(0x01, [0x06]) + ad(0x03, [0x0F, 0x18]) + ad(0xFF, Self.ibeacon), rssi: -70)
        let scanRsp = AdvBytes.legacy(type: 0x04, addrType: 1, addr: addr,
                                      data: ad(0x09, Array("Sensor".utf8)) + ad(0x0A, [0xFC]) + ad(0x19, [0x41, 0x03]), rssi: -60)
        let again = AdvBytes.legacy(type: 0x00, addrType: 1, addr: addr, data: ad(0x08, Array("Sen".utf8)), rssi: -65)
        let (inv, _) = Self.run([AdvBytes.record(1, AdvBytes.legacyEvent([advert])),
                                 AdvBytes.record(2, AdvBytes.legacyEvent([scanRsp])),
                                 AdvBytes.record(5, AdvBytes.legacyEvent([again]))])
        let all = inv.devices
        #expect(all.count == 1)
        let d = try #require(all.first)
        #expect(d.address == BDAddr(addr))
        #expect(d.addressType == .randomStatic)
        #expect(d.reports == 3)
        #expect(d.scanResponses == 1)
        #expect(d.rssiMin == -70)
        #expect(d.rssiMax == -60)
        #expect(d.rssiMean == -65)
        #expect(d.firstRecord == 1)
        #expect(d.lastRecord == 5)
        #expect(d.firstSeen == Timestamp(micros: 1_700_000_000_001_000))
        #expect(d.names == ["Sensor", "Sen"])
        #expect(d.services == [BLEUUID(UInt16(0x180F))])
        #expect(d.txPowers == [-4])
        #expect(d.appearance == 0x0341)
        #expect(d.companies == [0x004C])
        #expect(d.connectable)
        #expect(!d.connected)
        guard case let .ibeacon(b)? = d.beacons.first else { Issue.record("no iBeacon"); return }
        #expect(b.major == 7)
        #expect(b.minor == 256)
        #expect(b.measuredPower == -61)
        #expect(b.uuid.canonical == "10111213-1415-1617-1819-1A1B1C1D1E1F")

        let f = DeviceInventory.fields(d)
        #expect(f["rssi"] == .object(["min": .int(-70), "mean": .double(-65), "max": .int(-60)]))
        #expect(f["names"] == .list([.string("Sensor"), .string("Sen")]))
        #expect(f["manufacturers"] == .list([.object(["company": .int(0x004C), "name": .string("Apple, Inc.")])]))
        #expect(f["beacons"].flatMap { if case let .list(l) = $0 { return l.first?.objectValue?["type"] } else { return nil } } == .string("ibeacon"))
    }

    @Test("devices are per address and address type")
    func perAddressType() {
        let a = AdvBytes.legacy(type: 0x03, addrType: 0, addr: 0x0011_2233_4455, data: [], rssi: -50)
        let b = AdvBytes.legacy(type: 0x03, addrType: 1, addr: 0x4011_2233_4455, data: [], rssi: -50)
        let c = AdvBytes.legacy(type: 0x03, addrType: 1, addr: 0x0011_2233_4455, data: [], rssi: -50)
        let (inv, _) = Self.run([AdvBytes.record(1, AdvBytes.legacyEvent([a, b, c]))])
        let types = inv.devices.map { $0.addressType.name }
        #expect(types == ["public", "resolvable private", "non-resolvable private"])
        #expect(inv.devices.allSatisfy { !$0.connectable })
    }

    @Test("solicited services and ANCS")
    func solicitation() {
        let ancs: [UInt8] = [0xD0, 0x00, 0x2D, 0x12, 0x1E, 0x4B, 0x0F, 0xA4, 0x99, 0x4E, 0xCE, 0xB5, 0x31, 0xF4, 0x05, 0x79]
        let r = AdvBytes.legacy(type: 0x00, addr: 0x0011_2233_4455, data: ad(0x15, ancs) + ad(0x14, [0x12, 0x18]), rssi: -50)
        let (inv, _) = Self.run([AdvBytes.record(1, AdvBytes.legacyEvent([r]))])
        let d = inv.devices[0]
        #expect(d.wantsANCS)
        #expect(d.solicited.map(\.description) == ["7905F431-B5CE-4E99-A40F-4B1E122D00D0", "1812"])
        #expect(d.services.isEmpty)
        #expect(DeviceInventory.text(d).joined().contains("wants ANCS"))
    }

    @Test("a connection to an advertiser marks it connected; a peer never seen advertising is listed too")
    func connections() throws {
        let addr: UInt64 = 0xC012_3456_789A
        let advert = AdvBytes.legacy(type: 0x00, addrType: 1, addr: addr, data: ad(0x01, [0x06]), rssi: -40)
        // LE Connection Complete: status 0, handle 0x0040, role central, peer type random, peer, interval 24, latency 0, timeout 72, SCA 0.
        func connComplete(_ handle: UInt8, _ peer: UInt64) -> [UInt8] {
            AdvBytes.meta(0x01, [0x00, handle, 0x00, 0x00, 0x01] + AdvBytes.addr(peer) + [24, 0, 0, 0, 72, 0, 0])
        }
        let (inv, _) = Self.run([AdvBytes.record(1, AdvBytes.legacyEvent([advert])),
                                 AdvBytes.record(2, connComplete(0x40, addr)),
                                 AdvBytes.record(3, connComplete(0x41, 0xD000_0000_0001))])
        let all = inv.devices
        #expect(all.count == 2)
        #expect(all[0].connected)
        #expect(all[0].connections == [1])
        #expect(all[1].address == BDAddr(0xD000_0000_0001))
        #expect(all[1].reports == 0)
        #expect(all[1].connections == [2])
        let section = try #require(inv.summary())
        #expect(section.name == "devices")
        #expect(section.value.objectValue?["count"] == .int(2))
        #expect(section.value.objectValue?["connected"] == .int(2))
        // A peer connected to was connectable, seen advertising or not (issue #27: "0 connectable, 1 connected").
        #expect(section.text.first == "  Devices:     2 (2 connectable, 2 connected)")
        #expect(section.text.contains { $0.contains("never seen advertising") })
    }

    @Test("Eddystone frames: identities kept distinct, telemetry keeps the latest")
    func eddystone() {
        let uid: [UInt8] = [0xAA, 0xFE, 0x00, 0xEE] + [UInt8](repeating: 1, count: 10) + [UInt8](repeating: 2, count: 6)
        func tlm(_ count: UInt8) -> [UInt8] { [0xAA, 0xFE, 0x20, 0x00, 0x0B, 0xB8, 0x10, 0x00, 0, 0, 0, count, 0, 0, 0, 1] }
        let r1 = AdvBytes.legacy(type: 0x03, addr: 0x0011_2233_4455, data: ad(0x16, uid) + ad(0x16, tlm(1)), rssi: -50)
        let r2 = AdvBytes.legacy(type: 0x03, addr: 0x0011_2233_4455, data: ad(0x16, uid) + ad(0x16, tlm(2)), rssi: -50)
        let (inv, _) = Self.run([AdvBytes.record(1, AdvBytes.legacyEvent([r1])), AdvBytes.record(2, AdvBytes.legacyEvent([r2]))])
        let d = inv.devices[0]
        #expect(d.beacons.count == 1)
        guard case let .tlm(_, _, count, _)? = d.telemetry?.frame else { Issue.record("no telemetry"); return }
        #expect(count == 2)
    }

    @Test("per-device lists are capped and say so")
    func caps() {
        var data: [UInt8] = []
        // 5 × 13 = 65 distinct UUIDs, one more than a device keeps.
        for i in 0..<5 { data += ad(0x03, (0..<13).flatMap { j -> [UInt8] in [UInt8(i * 13 + j), 0x20] }) }
        let r = AdvBytes.legacy(type: 0x03, addr: 0x0011_2233_4455, data: data, rssi: -50)
        let (inv, _) = Self.run([AdvBytes.record(1, AdvBytes.legacyEvent([r]))])
        let d = inv.devices[0]
        #expect(d.services.count == DeviceInventory.maxUUIDs)
        #expect(d.capped)
        #expect(DeviceInventory.fields(d)["capped"] == .bool(true))
    }

    @Test("the number of devices is capped and overflow counted")
    func deviceCap() {
        let inv = DeviceInventory()
        let t = Timestamp(micros: 0)
        for i in 0..<(DeviceInventory.maxDevices + 3) {
            let r = AdvertisingReport(type: .legacy(3), connectable: false, scannable: false, scanResponse: false,
                                      address: BDAddr(UInt64(i)), addressType: .public, rssi: -50, txPower: nil, data: [])
            inv.observe(r, record: i + 1, at: t)
        }
        // A device already listed still counts.
        inv.observe(AdvertisingReport(type: .legacy(3), connectable: false, scannable: false, scanResponse: false,
                                      address: BDAddr(0), addressType: .public, rssi: -40, txPower: nil, data: []), record: 0, at: t)
        #expect(inv.devices.count == DeviceInventory.maxDevices)
        #expect(inv.overflowReports == 3)
        #expect(inv.devices[0].reports == 2)
        #expect(inv.summary()?.value.objectValue?["overflow_reports"] == .int(3))
    }

    @Test("the analyzer's standard chain includes the inventory")
    func standard() {
        #expect(Chain.standard().inventory != nil)
        #expect(Analyzer(sink: nil).layers.contains { $0 is DeviceInventory })
    }
    @Test("many devices seen in turn are each counted once per report, past the memo of recent keys")
    func manyDevicesInTurn() throws {
        // 600 addresses, each as a public and as a random static address: more keys than the memo has slots, so
        // slots are shared and replaced; every report must still reach its own device.
        var records: [Record] = []
        var n = 0
        for round in 0..<3 {
            for i in 0..<600 {
                let addr = 0xC000_0000_0000 | UInt64(i) &* 0x0001_0001_0003
                for addrType: UInt8 in [0, 1] {
                    n += 1
                    let report = AdvBytes.legacy(type: 0x00, addrType: addrType, addr: addr, data: ad(0x01, [0x06]),
                                                 rssi: Int8(-40 - round))
                    records.append(AdvBytes.record(n, AdvBytes.legacyEvent([report])))
                }
            }
        }
        let (inv, _) = Self.run(records)
        let all = inv.devices
        #expect(all.count == 1200)
        #expect(all.allSatisfy { $0.reports == 3 })
        #expect(Set(all.map { "\($0.address)/\($0.addressType)" }).count == 1200)
        let first = try #require(all.first)
        #expect(first.rssiMin == -42)
        #expect(first.rssiMax == -40)
    }
}

