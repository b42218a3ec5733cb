import Foundation
import Testing
@testable import BLETrace

/// CIS and BIS connections from the control plane, and ISO data counted per stream (issue #29).
@Suite struct ISOStreamTests {
    typealias B = HCIBuilder

    /// An HCI ISO data packet: `pb` 2 complete, 0 first fragment (with the SDU fields), 1/3 further fragments.
    static func iso(_ h: UInt16, pb: UInt8 = 2, ts: UInt32? = nil, seq: UInt16 = 0, sduLength: UInt16 = 0, status: UInt8 = 0,
                    _ data: [UInt8]) -> [UInt8] {
        var load: [UInt8] = []
        if pb == 0 || pb == 2 {
            if let ts { load += B.le32(ts) }
            load += B.le16(seq) + B.le16(sduLength | UInt16(status) << 14)
        }
        load += data
        let hf = h | UInt16(pb) << 12 | (ts != nil ? 0x4000 : 0)
        return B.le16(hf) + B.le16(UInt16(load.count)) + load
    }

    /// A unicast stream: CIG 1 with CIS 1 on ACL 0x0040, established, an output path, SDUs out (one sequence
    /// number skipped, one SDU in two fragments), one SDU in flagged lost; then the CIS disconnects.
    static func unicast() -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        s.command(0x2062, ISOControlTests.cigParams, returning: [1, 1] + B.le16(0x60))
        s.commandWithStatus(0x2064, [1] + B.le16(0x60) + B.le16(0x40))
        s.controller(.event, B.leMeta(0x19, [0] + B.le16(0x60) + B.le24(900) + B.le24(800) + B.le24(10_000) + B.le24(10_000) + [2, 2] + [2]
                                          + [1, 1] + [1, 1] + B.le16(40) + B.le16(60) + B.le16(8)))
        s.command(0x206E, B.le16(0x60) + [0, 0, 6] + B.le16(0) + B.le16(0) + B.le24(0) + [0], returning: B.le16(0x60))
        for seq: UInt16 in [0, 1, 2, 4] {
            s.advance(ms: 10)
            s.host(.iso, iso(0x60, ts: UInt32(seq) * 10_000, seq: seq, sduLength: 40, [UInt8](repeating: UInt8(seq), count: 40)))
        }
        s.advance(ms: 10)
        s.host(.iso, iso(0x60, pb: 0, ts: 50_000, seq: 5, sduLength: 40, [UInt8](repeating: 5, count: 20)))
        s.host(.iso, iso(0x60, pb: 3, [UInt8](repeating: 5, count: 20)))
        s.controller(.iso, iso(0x60, seq: 0, sduLength: 0, status: 2, []))
        s.advance(ms: 10)
        s.disconnect(handle: 0x60, reason: 0x13)
        return s
    }

    @Test func aCISIsAConnectionWithItsStreams() throws {
        let (events, summary) = try TestSupport.analyze(Self.unicast())
        let cis = try #require(summary.connections.first { $0.handle == 0x60 })
        #expect(!cis.implicit && cis.peer == Samples.thermo && cis.closedRecord != nil && cis.disconnectReason == 0x16)
        let link = try #require(cis.iso)
        #expect(link.kind == .cis(cig: 1, cis: 1, acl: 0x40))
        #expect(link.isoInterval == 8 && link.sduInterval == EachWay(10_000, 7_500) && link.maxSDU == EachWay(40, 60) && link.dataPaths == 1)
        #expect(summary.connectionCount == 2)
        // Every ISO packet belongs to the CIS connection.
        #expect(events.filter { if case .iso = $0.body { return true } else { return false } }.allSatisfy { $0.connection == cis.id })
        let text = try #require(summary.sections.first { $0.name == "iso" }).text
        #expect(text.contains { $0.hasPrefix("    #2 handle 0x0060 host → controller: 5 SDUs, 200 bytes, 1 missing in 1 sequence gap from record ")
            && $0.hasSuffix("SDU every 10.00/10.00/20.00 ms min/p50/max (time stamps) against 10.00 ms") }, "\(text)")
        #expect(text.contains { $0.hasPrefix("    #2 handle 0x0060 controller → host: 1 SDUs, 0 bytes, 1 flagged lost from record ") }, "\(text)")
        let lines = SummaryRender.text(summary)
        #expect(lines.contains { $0.contains("#2 handle 0x0060 \(Samples.thermo) (random static), local central, CIS 1 of CIG 1 on ACL 0x0040, ISO interval 10.00 ms, SDU interval 10000/7500 µs, max SDU 40/60, PHY 2M, data path input") }, "\(lines)")
    }

    @Test(.enabled(if: TestSupport.sharedCaptures != nil))
    func bumbleCapturesOpenTheirStreamsAndCountLikeTShark() throws {
        for name in ["bumble_unicast_central.btsnoop", "bumble_broadcast_sink.btsnoop", "bumble_vcs_csis_phone.btsnoop"] {
            let path = try #require(TestSupport.sharedCaptures?.appendingPathComponent(name).path)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let (events, summary) = TestSupport.analyze(try CaptureFile.open(path: path))
            #expect(!summary.connections.contains { $0.implicit }, "\(name): a connection already open")
            #expect(!events.contains { if case let .hciCommand(b) = $0.body, b.opcode >> 8 == 0x20, case .other = b.params,
                                          (0x2061...0x2075).contains(b.opcode) || (0x203E...0x2046).contains(b.opcode) { return true }; return false },
                    "\(name): an isochronous command left raw")
            if name == "bumble_unicast_central.btsnoop" {
                let cis = try #require(summary.connections.first { $0.iso != nil })
                #expect(cis.iso?.kind == .cis(cig: 1, cis: 1, acl: 0x0001) && cis.iso?.isoIntervalValid == false)
                let isoCount = events.filter { if case .iso = $0.body { return true } else { return false } }.count
                #expect(isoCount == 60)
                if TestSupport.tshark != nil {
                    let out = try TestSupport.runTShark(["-r", path, "-Y", "bthci_iso", "-T", "fields", "-e", "bthci_iso.chandle"])
                    #expect(out.split(separator: "\n").count == isoCount)
                }
            }
            if name == "bumble_broadcast_sink.btsnoop" {
                let bis = summary.connections.filter { $0.iso != nil }
                #expect(bis.count == 2 && bis.allSatisfy { $0.closedRecord != nil && $0.peer != nil })
            }
        }
    }
}

/// The stream view (issue #29): each ASE from configuration to release, joined to its CIS and its data.
@Suite struct AudioStreamViewTests {
    @Test(.enabled(if: TestSupport.sharedCaptures != nil))
    func theUnicastCapturesStreams() throws {
        let path = try #require(TestSupport.sharedCaptures?.appendingPathComponent("bumble_unicast_central.btsnoop").path)
        guard FileManager.default.fileExists(atPath: path) else { return }
        let (_, summary) = TestSupport.analyze(try CaptureFile.open(path: path))
        let section = try #require(summary.sections.first { $0.name == "audio_streams" })
        #expect(section.text.contains { $0.hasPrefix("    #1 Sink ASE 1: LC3 48 kHz, 10 ms, 100 octets × 1, Front Left; CIS 1 of CIG 1 (#2, handle 0x0002); Idle (138) → Codec Configured (168) → QoS Configured (176) → Enabling (182) → Streaming (193)")
            && $0.hasSuffix("streamed from record 193 to 264 (0.801364 s); its CIS carried 60 SDUs out, 0 in") }, "\(section.text)")
        guard case let .list(list)? = section.value.objectValue?["streams"], let sink = list.first?.objectValue else { Issue.record("no streams"); return }
        #expect(sink["direction"] == .string("sink") && sink["cis_connection"] == .int(2) && sink["sdus_out"] == .int(60))
        #expect(sink["codec"]?.objectValue?["sampling_frequency_hz"] == .int(48_000))
    }
}

extension AudioStreamViewTests {
    /// From ASE facts alone: the states in order (repeats folded), the codec kept from Codec Configured, the
    /// CIG/CIS from QoS Configured, and the streaming span.
    @Test func statesCodecAndStreamingSpan() throws {
        let layer = AudioStreams(iso: nil)
        var codec = AudioCodecSettings(codecID: AudioCodecID(codingFormat: 6, companyID: 0, vendorCodecID: 0), configuration: CodecConfiguration([][...]))
        codec.samplingFrequencyHz = 24_000
        codec.frameDurationMicros = 7_500
        func fact(_ state: UInt8) -> ASEFact {
            var f = ASEFact(aseID: 3, direction: .source, state: state)
            if state == 1 { f.codec = codec }
            if state >= 2 { f.cigID = 1; f.cisID = 2 }
            return f
        }
        for (record, state) in [(10, 1), (11, 1), (20, 2), (30, 3), (40, 4), (90, 5), (95, 2)] {
            layer.add(fact(UInt8(state)), ValueContext(uuid: BLEUUID(UInt16(0x2BC5)), opcode: 0x1B, fromClient: false, record: record,
                                                       time: Timestamp(micros: Int64(record) * 100_000), connection: 1))
        }
        let s = try #require(layer.streams.first)
        #expect(layer.streams.count == 1 && !s.sink && s.ase == 3 && s.cig == 1 && s.cis == 2 && s.codec?.samplingFrequencyHz == 24_000)
        #expect(s.states.map(\.state) == [1, 2, 3, 4, 5, 2] && s.streaming?.record == 40 && s.stopped?.record == 90)
        let text = AudioStreamRow.text([AudioStreamRow(stream: s, cis: nil, cisHandle: nil, iso: [])])
        #expect(text.last == "    #1 Source ASE 3: LC3 24 kHz, 7.5 ms; CIS 2 of CIG 1 (not established in the capture); Codec Configured (10) → QoS Configured (20) → Enabling (30) → Streaming (40) → Disabling (90) → QoS Configured (95); streamed from record 40 to 90 (5.000000 s)")
    }
}

extension ISOStreamTests {
    @Test func markdownRowsOfACIS() throws {
        let lines = try MarkdownBudgetTests.render(Self.unicast())
        #expect(lines.contains("| Isochronous | CIS 1 of CIG 1 on ACL 0x0040, ISO interval 10.00 ms, SDU interval 10000/7500 µs, max SDU 40/60, PHY 2M, data path input |"), "\(lines.filter { $0.hasPrefix("| ") })")
        #expect(lines.contains("| ISO data host → controller | 5 SDUs, 200 bytes, 1 missing |"))
        #expect(lines.contains("| ISO data controller → host | 1 SDUs, 0 bytes, 1 flagged lost |"))
    }
}
