import Testing
@testable import BLETrace

/// Builders for HCI LE Meta advertising events, as a controller sends them.
enum AdvBytes {
    static func addr(_ a: UInt64) -> [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: a >> (8 * UInt64($0))) } }

    static func meta(_ sub: UInt8, _ body: [UInt8]) -> [UInt8] { [0x3E, UInt8(body.count + 1), sub] + body }

    /// One report of LE Advertising Report (0x02).
    static func legacy(type: UInt8, addrType: UInt8 = 0, addr a: UInt64, data: [UInt8], rssi: Int8) -> [UInt8] {
        [type, addrType] + addr(a) + [UInt8(data.count)] + data + [UInt8(bitPattern: rssi)]
    }

    static func legacyEvent(_ reports: [[UInt8]]) -> [UInt8] { meta(0x02, [UInt8(reports.count)] + reports.flatMap { $0 }) }

    /// One report of LE Extended Advertising Report (0x0D). `status` 0 complete, 1 more to come, 2 truncated.
    static func extended(props: UInt16 = 0x0001, status: UInt16 = 0, addrType: UInt8 = 1, addr a: UInt64, sid: UInt8,
                         tx: Int8 = 127, rssi: Int8, data: [UInt8]) -> [UInt8] {
        let type = props | status << 5
        return [UInt8(type & 0xFF), UInt8(type >> 8), addrType] + addr(a) + [0x01, 0x02, sid, UInt8(bitPattern: tx),
                UInt8(bitPattern: rssi), 0x00, 0x00, 0x00] + addr(0) + [UInt8(data.count)] + data
    }

    static func extendedEvent(_ reports: [[UInt8]]) -> [UInt8] { meta(0x0D, [UInt8(reports.count)] + reports.flatMap { $0 }) }

    static func record(_ n: Int, _ bytes: [UInt8], kind: PacketKind = .event) -> Record {
        Record(number: n, timestamp: Timestamp(micros: 1_700_000_000_000_000 + Int64(n) * 1000),
               direction: kind == .event ? .controllerToHost : .hostToController, kind: kind, data: bytes[...])
    }
}

/// Runs records through a pipeline, keeping the events and what the chain's advertising hook saw.
final class AdvHarness: EventTap {
    var events: [TraceEvent] = []
    var observed: [(AdvertisingReport, Int)] = []
    lazy var pipeline: Pipeline = {
        let p = Pipeline(emit: { [unowned self] e in self.events.append(e) })
        p.chain.taps = [self]
        return p
    }()

    func event(_ e: TraceEvent) {}
    func advertised(_ report: AdvertisingReport, record: Int, at time: Timestamp) { observed.append((report, record)) }

    func feed(_ records: [[UInt8]]) {
        for (i, bytes) in records.enumerated() { pipeline.process(AdvBytes.record(i + 1, bytes)) }
    }

    func reports(_ i: Int) -> [Fields] {
        guard case let .list(items)? = events[i].layer("adv")?["reports"] else { return [] }
        return items.compactMap { $0.objectValue }
    }
}

@Suite("Advertising events")
struct AdvertisingEventTests {
    @Test("legacy report event with two reports: one event, both reports decoded and observed")
    func legacyTwoReports() throws {
        let h = AdvHarness()
        let a = AdvBytes.legacy(type: 0x00, addr: 0x0011_2233_4455, data: ad(0x01, [0x06]) + ad(0x09, Array("Lamp".utf8)), rssi: -60)
        let b = AdvBytes.legacy(type: 0x04, addrType: 1, addr: 0xC011_2233_4455, data: ad(0x0A, [0x00]), rssi: -70)
        h.feed([AdvBytes.legacyEvent([a, b])])
        #expect(h.events.count == 1)
        let e = h.events[0]
        #expect(e.kind == .adv)
        #expect(e.malformed == nil)
        let reports = h.reports(0)
        #expect(reports.count == 2)
        #expect(reports[0]["address"] == .string("00:11:22:33:44:55"))
        #expect(reports[0]["event_type"] == .string("ADV_IND"))
        #expect(reports[0]["connectable"] == .bool(true))
        #expect(reports[0]["rssi"] == .int(-60))
        guard case let .list(ads)? = reports[0]["ad"] else { Issue.record("no ad list"); return }
        #expect(ads.count == 2)
        #expect(ads[1].objectValue?["local_name"] == .string("Lamp"))
        #expect(reports[1]["event_type"] == .string("SCAN_RSP"))
        #expect(reports[1]["scan_response"] == .bool(true))
        #expect(reports[1]["address_type"] == .string("random static"))
        #expect(e.summary.contains("name \"Lamp\""))
        #expect(h.observed.map { $0.0.address } == [BDAddr(0x0011_2233_4455), BDAddr(0xC011_2233_4455)])
        #expect(h.observed.map { $0.0.rssi } == [-60, -70])
    }

    @Test("extended data split over reports is reassembled per address and SID")
    func extendedReassembly() throws {
        let h = AdvHarness()
        let full = ad(0x01, [0x06]) + ad(0x09, Array("Reassembled name".utf8)) + ad(0xFF, [0x59, 0x00, 1, 2, 3])
        let part1 = Array(full[0..<7]), part2 = Array(full[7..<15]), part3 = Array(full[15...])
        let other = AdvBytes.extended(addr: 0xC0AA_BBCC_DDEE, sid: 2, rssi: -50, data: ad(0x0A, [0x04]))
        h.feed([
            AdvBytes.extendedEvent([AdvBytes.extended(status: 1, addr: 0xC011_2233_4455, sid: 1, rssi: -40, data: part1)]),
            AdvBytes.extendedEvent([other]),
            AdvBytes.extendedEvent([AdvBytes.extended(status: 1, addr: 0xC011_2233_4455, sid: 1, rssi: -41, data: part2)]),
            AdvBytes.extendedEvent([AdvBytes.extended(status: 0, addr: 0xC011_2233_4455, sid: 1, rssi: -42, data: part3)]),
        ])
        #expect(h.events.count == 4)
        #expect(h.events.allSatisfy { $0.malformed == nil })
        // Partial reports say so and carry no AD list.
        let p1 = h.reports(0)[0]
        #expect(p1["data_status"] == .string("incomplete, more data to come"))
        #expect(p1["ad"] == nil)
        #expect(p1["reassembly"]?.objectValue?["have"] == .int(7))
        #expect(h.events[0].summary.contains("more to come"))
        #expect(h.reports(2)[0]["reassembly"]?.objectValue?["have"] == .int(15))
        #expect(h.reports(2)[0]["reassembly"]?.objectValue?["fragments"] == .int(2))
        // The other advertiser is untouched.
        #expect(h.reports(1)[0]["reassembled"] == nil)
        // The completing report decodes the whole data.
        let done = h.reports(3)[0]
        #expect(done["reassembled"]?.objectValue?["fragments"] == .int(3))
        #expect(done["reassembled"]?.objectValue?["first_record"] == .int(1))
        #expect(done["reassembled_data"] == .hex(full))
        guard case let .list(ads)? = done["ad"] else { Issue.record("no ad list"); return }
        #expect(ads.compactMap { $0.objectValue?["name"]?.stringValue } ==
                ["Flags", "Complete Local Name", "Manufacturer Specific Data"])
        #expect(ads[1].objectValue?["local_name"] == .string("Reassembled name"))
        // Observers see the other advertiser and the completed data, not the fragments.
        #expect(h.observed.count == 2)
        #expect(h.observed[0].1 == 2)
        #expect(h.observed[1].1 == 4)
        #expect(Array(h.observed[1].0.data) == full)
        #expect(h.pipeline.finish().isEmpty)
    }

    @Test("data that never completes is reported at the end")
    func unfinishedReassembly() {
        let h = AdvHarness()
        h.feed([AdvBytes.extendedEvent([AdvBytes.extended(status: 1, addr: 0xC011_2233_4455, sid: 3, rssi: -40, data: [0x02, 0x01])])])
        #expect(h.observed.isEmpty)
        let w = h.pipeline.finish()
        #expect(w.count == 1)
        #expect(w.first?.contains("SID 3") == true)
        #expect(w.first?.contains("record 1") == true)
    }

    @Test("truncated extended data is decoded as far as it goes and not called malformed")
    func truncated() {
        let h = AdvHarness()
        let data = ad(0x01, [0x06]) + [0x09, 0x09, 0x41]
        h.feed([AdvBytes.extendedEvent([AdvBytes.extended(status: 2, addr: 0xC011_2233_4455, sid: 0, rssi: -40, data: data)])])
        #expect(h.events[0].malformed == nil)
        #expect(h.reports(0)[0]["data_status"] == .string("incomplete, truncated"))
        #expect(h.observed.count == 1)
    }

    @Test("an AD structure running past the report marks the event malformed")
    func malformedAD() {
        let h = AdvHarness()
        let r = AdvBytes.legacy(type: 0x03, addr: 0x0011_2233_4455, data: ad(0x01, [0x06]) + [0x05, 0xFF, 0x4C], rssi: -60)
        h.feed([AdvBytes.legacyEvent([r])])
        #expect(h.events[0].malformed?.contains("runs past the payload") == true)
        #expect(h.pipeline.stats.malformed == 1)
        guard case let .list(ads)? = h.reports(0)[0]["ad"] else { Issue.record("no ad list"); return }
        #expect(ads.count == 2)
        #expect(ads[1].objectValue?["data"] == .hex([0x05, 0xFF, 0x4C]))
    }

    @Test("directed advertising report")
    func directed() {
        let h = AdvHarness()
        let body: [UInt8] = [0x01, 0x01, 0x01] + AdvBytes.addr(0x4011_2233_4455) + [0x00] + AdvBytes.addr(0x00AA_BBCC_DDEE) + [0xC4]
        h.feed([AdvBytes.meta(0x0B, body)])
        let r = h.reports(0)
        #expect(r.count == 1)
        #expect(r[0]["event_type"] == .string("ADV_DIRECT_IND"))
        #expect(r[0]["address_type"] == .string("resolvable private"))
        #expect(r[0]["direct_address"] == .string("00:AA:BB:CC:DD:EE"))
        #expect(r[0]["rssi"] == .int(-60))
        #expect(h.observed.count == 1)
        #expect(h.observed[0].0.connectable)
    }
}
