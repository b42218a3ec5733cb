import Foundation
import Testing
@testable import BLETrace

private typealias B = HCIBuilder

/// The summary's broadcast section (issue #37): a broadcast in one place, as unicast has its Audio section.
@Suite struct BroadcastsTests {
    static func section(_ summary: Summary) -> (FieldValue?, [String]) {
        let s = summary.sections.first { $0.name == "broadcasts" }
        return (s?.value, s?.text ?? [])
    }

    /// A sink: periodic sync to a random static advertiser announcing a Broadcast_ID and name, its BASE, a BIG
    /// synchronised over it with two BISes, then lost.
    @Test func aSynchronisedBroadcastIsOneEntry() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        let source = BDAddr(0xF0_00_00_00_00_11)
        // Extended advertising report: Broadcast_ID 0x123456 and Broadcast Name "Demo".
        let ad: [UInt8] = [6, 0x16, 0x52, 0x18, 0x56, 0x34, 0x12, 5, 0x30] + Array("Demo".utf8)
        s.controller(.event, B.leMeta(0x0D, [1] + B.le16(0x0000) + [1] + B.addr(source) + [1, 1, 0x00, 0x7F, 0xC4]
            + B.le16(0x0000) + [0x00] + [UInt8](repeating: 0, count: 6) + [UInt8(ad.count)] + ad))
        s.commandWithStatus(0x2044, [0, 0, 1] + B.addr(source) + B.le16(0) + B.le16(500) + [0])
        s.controller(.event, B.leMeta(0x0E, [0] + B.le16(0x10) + [0, 1] + B.addr(source) + [2] + B.le16(80) + [5]))
        // A periodic report carrying the BASE: delay 40000 µs, one subgroup of LC3 with two BISes.
        let base: [UInt8] = B.le24(40_000) + [1, 2, 0x06, 0, 0, 0, 0, 0, 0] + [1, 3, 0x01, 0x00, 0x00] + [2, 3, 0x01, 0x00, 0x00]
        let service: [UInt8] = [UInt8(base.count + 3), 0x16, 0x51, 0x18] + base
        s.controller(.event, B.leMeta(0x0F, B.le16(0x10) + [0x7F, 0xC4, 0xFF, 0] + [UInt8(service.count)] + service))
        s.commandWithStatus(0x206B, [2] + B.le16(0x10) + [0] + [UInt8](repeating: 0, count: 16) + [0] + B.le16(100) + [2, 1, 2])
        s.controller(.event, B.leMeta(0x1D, [0, 2] + B.le24(20_000) + [3, 1, 0, 1] + B.le16(100) + B.le16(8) + [2] + B.le16(0x200) + B.le16(0x201)))
        s.advance(ms: 500)
        s.controller(.event, B.leMeta(0x1E, [2, 0x3E]))
        let (_, summary) = try TestSupport.analyze(s)
        let (value, text) = Self.section(summary)
        guard case let .list(all)? = value?.objectValue?["broadcasts"] else { Issue.record("no broadcasts list"); return }
        let b = try #require(all.first?.objectValue)
        #expect(b["role"] == .string("sink") && b["advertiser_address_type"] == .string("random static"))
        #expect(b["broadcast_id"] == .int(0x123456) && b["broadcast_name"] == .string("Demo"))
        #expect(b["sync_record"] != .null && b["base"] != .null && b["big_id"] == .int(2))
        #expect(b["requested_bis"] == FieldValue.list([.int(1), .int(2)]) && b["end_lost"] == .bool(true) && b["end_reason"] == .int(0x3E))
        if case let .list(bis)? = b["bis"] { #expect(bis.count == 2) } else { Issue.record("no bis list") }
        #expect(text.first == "  Broadcast:   1 broadcast (advertiser, periodic sync, BASE, BIG and BISes)")
        #expect(text.contains { $0.hasPrefix("    F0:00:00:00:00:11 (random static) \"Demo\", Broadcast_ID 0x123456, SID 0: periodic sync at record ") })
        #expect(text.contains { $0.hasPrefix("      BASE (record ") && $0.contains("presentation delay 40000 µs") })
        #expect(text.contains { $0.hasPrefix("      BIG 2 synchronised at record ") && $0.contains("BIS 0x0200 (#1), BIS 0x0201 (#2)")
            && $0.contains("unencrypted; no ISO data; lost at record ") })
        // The BISes' peer is the advertiser, with its address type.
        #expect(summary.connections.filter { $0.iso != nil }.allSatisfy { $0.peer == source && $0.peerType == .randomStatic })
    }

    /// No broadcast, no section.
    @Test func aUnicastCaptureHasNoBroadcastSection() throws {
        let (_, summary) = try TestSupport.analyze(Samples.gattSession())
        #expect(Self.section(summary).0 == nil)
    }

    /// Bumble's broadcast sink: the Auracast source, its BASE, the BIG synchronised and ended by the host, and
    /// the scan delegator's receive states as the assistant saw them.
    @Test func bumbleBroadcastSink() throws {
        guard let dir = TestSupport.sharedCaptures else { return }
        let path = dir.appendingPathComponent("bumble_broadcast_sink.btsnoop").path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let summary = TestSupport.analyze(try CaptureFile.open(path: path), path: path).1
        let text = Self.section(summary).1
        #expect(text.first == "  Broadcast:   1 broadcast (advertiser, periodic sync, BASE, BIG and BISes); 1 BASS source")
        #expect(text.contains { $0.contains("F0:00:00:00:00:11 (random static) \"Bumble Auracast Demo\", Broadcast_ID 0x5A17C3") })
        #expect(text.contains { $0.hasPrefix("      BIG 0 synchronised at record 164") && $0.hasSuffix("ended at record 181: Connection Terminated By Local Host") })
        #expect(text.contains { $0.hasPrefix("    BASS on #1: source 1 ") && $0.hasSuffix("Not synchronized to PA (185)") })
        // One incident, one diagnosis: the refused data paths are iso_path_missing's alone.
        #expect(summary.diagnoses.map(\.id) == [.isoPathMissing])
    }
}
