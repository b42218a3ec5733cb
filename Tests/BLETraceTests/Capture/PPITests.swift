import Foundation
import Testing
@testable import BLETrace

/// PPI (pcap link type 192) as Ubertooth writes it: DLT 147 with the BTLE field, then an LE link-layer packet.
@Suite struct PPITests {
    /// A pcap file of link type 192 holding `packets`.
    static func pcap(_ packets: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0] + [UInt8](repeating: 0, count: 8) + LL.le32(0xFFFF) + LL.le32(192)
        for (i, p) in packets.enumerated() {
            out += LL.le32(UInt32(1_360_000_000 + i)) + LL.le32(0) + LL.le32(UInt32(p.count)) + LL.le32(UInt32(p.count))
            out += p
        }
        return out
    }

    /// PPI header with DLT `dlt` and the given fields (type, data).
    static func ppi(dlt: UInt32 = 147, _ fields: [(UInt16, [UInt8])]) -> [UInt8] {
        var body: [UInt8] = []
        for (t, d) in fields { body += LL.le16(Int(t)) + LL.le16(d.count) + d }
        return [0, 0] + LL.le16(8 + body.count) + LL.le32(dlt) + body
    }

    /// Ubertooth's BTLE field: version 0, frequency, clock, RSSI max/min/avg/count.
    static func btle(mhz: Int, clock: UInt32, rssi: Int8) -> (UInt16, [UInt8]) {
        (30006, [0] + LL.le16(mhz) + [0] + LL.le32(clock) + [UInt8(bitPattern: -20), UInt8(bitPattern: -60), UInt8(bitPattern: rssi), 40])
    }

    @Test func ubertoothPacketsDecodeAsLinkLayer() throws {
        let adv = LL.packet(LL.advAA, LL.adv(0, tx: false, LL.addr(0x78_C5_E5_6E_DD_E8) + [2, 1, 6]), crcInit: LLCRC.advertisingInit)
        let bytes = Self.pcap([Self.ppi([Self.btle(mhz: 2402, clock: 1000, rssi: -45)]) + adv,
                               Self.ppi([Self.btle(mhz: 2426, clock: 2000, rssi: -50)]) + adv])
        let path = TestSupport.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (events, summary) = TestSupport.analyze(try CaptureFile.open(path: path))
        #expect(summary.error == nil)
        #expect(events.count == 2)
        #expect(events.allSatisfy { $0.kind == .adv })
        #expect(events[0].layer("sniffer")?["channel"] == .int(37))
        #expect(events[1].layer("sniffer")?["channel"] == .int(38))
        #expect(events[0].layer("sniffer")?["rssi_avg"] == .int(-45))
        #expect(events[0].layer("sniffer")?["frequency_mhz"] == .int(2402))
        #expect(events[0].layer("ll")?["crc"] == .string("good"))
    }

    @Test func btleFieldFacts() throws {
        let (info, rest) = try PPIHeader.parse((Self.ppi([(2, [1, 2, 3]), Self.btle(mhz: 2480, clock: 12_345_670, rssi: -33)]) + [9, 9])[...])
        #expect(info.channel == 39)
        #expect(info.rssi == -33)
        #expect(info.radioMicros == 1_234_567)
        #expect(Array(rest) == [9, 9])
        // A frequency off the 2 MHz grid has no channel index.
        let (odd, _) = try PPIHeader.parse(Self.ppi([Self.btle(mhz: 2403, clock: 0, rssi: 0)])[...])
        #expect(odd.channel == nil)
    }

    @Test func otherPPIContentIsAClearError() throws {
        let wifi = Self.pcap([Self.ppi(dlt: 105, [(2, [0, 0, 0, 0])]) + [1, 2, 3]])
        let path = TestSupport.temporaryFile(wifi)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: CaptureError.unsupportedPPI(format: "pcap", dlt: 105, fields: [2])) { try CaptureFile.open(path: path) }
        let text = CaptureError.unsupportedPPI(format: "pcap", dlt: 105, fields: [2]).description
        #expect(text.contains("DLT 105 (IEEE 802.11)") && text.contains("field types 2"))
        // DLT 147 without the BTLE field is refused too.
        let bare = Self.pcap([Self.ppi([]) + [1, 2, 3]])
        let p2 = TestSupport.temporaryFile(bare)
        defer { try? FileManager.default.removeItem(atPath: p2) }
        #expect(throws: CaptureError.unsupportedPPI(format: "pcap", dlt: 147, fields: [])) { try CaptureFile.open(path: p2) }
        // A later packet whose header is cut short is a malformed event, not a crash.
        let cut = Self.pcap([Self.ppi([Self.btle(mhz: 2402, clock: 0, rssi: 0)]) + [1, 2, 3, 4, 5, 6, 7, 8, 9], [0, 0, 40, 0]])
        let p3 = TestSupport.temporaryFile(cut)
        defer { try? FileManager.default.removeItem(atPath: p3) }
        let (events, _) = TestSupport.analyze(try CaptureFile.open(path: p3))
        #expect(events.count == 2)
        #expect(events[1].malformed != nil)
    }
}

/// A PPI file cut inside its first packet is damaged like any other pcap: the error names the record and the
/// offset, and nothing is claimed read (issue #27: it used to read as an empty capture).
@Suite struct PPITruncationTests {
    @Test func cutInsideTheFirstPacket() throws {
        let adv = LL.packet(LL.advAA, LL.adv(0, tx: false, LL.addr(0x78_C5_E5_6E_DD_E8) + [2, 1, 6]), crcInit: LLCRC.advertisingInit)
        let whole = PPITests.pcap([PPITests.ppi([PPITests.btle(mhz: 2402, clock: 1000, rssi: -45)]) + adv])
        for cut in 25..<whole.count {
            let path = TestSupport.temporaryFile(Array(whole.prefix(cut)))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (events, summary) = TestSupport.analyze(try CaptureFile.open(path: path))
            #expect(events.isEmpty)
            guard case let .truncated(record, offset, _)? = summary.error else {
                Issue.record("cut at \(cut): \(String(describing: summary.error))")
                continue
            }
            #expect(record == 1 && offset == 24)
        }
        // The header alone is an empty capture, and the whole file reads.
        let header = TestSupport.temporaryFile(Array(whole.prefix(24)))
        defer { try? FileManager.default.removeItem(atPath: header) }
        #expect(TestSupport.analyze(try CaptureFile.open(path: header)).1.error == nil)
    }
}
