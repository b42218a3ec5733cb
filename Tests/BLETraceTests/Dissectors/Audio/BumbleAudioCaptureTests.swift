import Foundation
import Testing
@testable import BLETrace

/// The shared captures Google's Bumble LE Audio stack made: each test skips when its capture is absent.
@Suite("LE Audio: Bumble captures")
struct BumbleAudioCaptureTests {
    static let unicast = "bumble_unicast_central.btsnoop"
    static let broadcast = "bumble_broadcast_sink.btsnoop"
    static let phone = "bumble_vcs_csis_phone.btsnoop"

    static func has(_ name: String) -> Bool {
        guard let dir = TestSupport.sharedCaptures else { return false }
        return FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path)
    }

    /// The decoded ATT values of a capture, by record.
    static func decoded(_ name: String) throws -> [Int: Dissection] {
        let path = try #require(TestSupport.sharedCaptures).appendingPathComponent(name).path
        let sink = CollectingSink()
        _ = Analyzer(sink: sink).run(try CaptureFile.open(path: path), path: path)
        var out: [Int: Dissection] = [:]
        for e in sink.events {
            if case let .att(a) = e.body, let d = a.decodedValue { out[e.record] = d }
        }
        return out
    }

    @Test(.enabled(if: has(unicast)))
    func unicastSetup() throws {
        let d = try Self.decoded(Self.unicast)
        // No LE Audio value in the capture has a problem.
        let audio = d.values.filter { ["pacs", "ascs"].contains($0.dissector) }
        #expect(audio.count >= 15 && audio.allSatisfy { $0.problem == nil })
        // Sink PAC (record 120): one LC3 record with 16, 24 and 48 kHz.
        let pac = try #require(d[120]?.value as? PACSDissector.PAC)
        #expect(pac.sink && pac.records.count == 1 && pac.records[0].codecID.name == "LC3")
        #expect(pac.records[0].capabilities.samplingFrequenciesHz == [16000, 24000, 48000])
        #expect(d[132]?.text == "sink Conversational, Media; source Conversational")
        // Config Codec (record 162, written in 3 fragments): ASE 1 LC3 48 kHz and ASE 2 LC3 16 kHz.
        let op = try #require(d[162])
        guard case let .operation(opcode, count, ases)? = op.value as? ASEControlPointValue else { Issue.record("no operation"); return }
        #expect(opcode == 1 && count == 2 && ases.map(\.aseID) == [1, 2])
        guard case let .configCodec(_, _, codec, conf) = ases[0].parameters else { Issue.record("no Config Codec"); return }
        #expect(codec.codingFormat == 6 && conf.samplingFrequencyHz == 48000 && conf.frameDurationMicros == 10000 && conf.octetsPerFrame == 100)
        // Its notified response (record 167) and the Sink ASE's new state (record 168).
        #expect(d[167]?.fact == .aseControlResponse(ASEControlResponse(opcode: 1, count: 2, entries: [
            .init(aseID: 1, responseCode: 0, reason: 0), .init(aseID: 2, responseCode: 0, reason: 0)])))
        guard case let .ase(sink)? = d[168]?.fact else { Issue.record("no ASE fact at 168"); return }
        #expect(sink.aseID == 1 && sink.direction == .sink && sink.state == 1)
        #expect(sink.codec?.samplingFrequencyHz == 48000 && sink.codec?.channelAllocation == 1 && sink.codec?.frameBlocksPerSDU == 1)
        guard case let .ase(source)? = d[169]?.fact else { Issue.record("no ASE fact at 169"); return }
        #expect(source.direction == .source && source.codec?.samplingFrequencyHz == 16000 && source.codec?.octetsPerFrame == 40)
        // QoS Configured and Enabling carry the CIG and CIS.
        guard case let .ase(qos)? = d[176]?.fact else { Issue.record("no ASE fact at 176"); return }
        #expect(qos.state == 2 && qos.cigID == 1 && qos.cisID == 1 && qos.sduIntervalMicros == 10000 && qos.maxSDU == 100)
        #expect(d[182]?.text == "Sink ASE 1 Enabling: CIG 1 CIS 1, streaming Conversational")
    }

    @Test(.enabled(if: has(broadcast)))
    func broadcastAssistant() throws {
        let d = try Self.decoded(Self.broadcast)
        let bass = d.values.filter { $0.dissector == "bass" }
        #expect(bass.count >= 8 && bass.allSatisfy { $0.problem == nil })
        #expect(d[128]?.text == "no source")
        let add = try #require(d[133])
        #expect(add.fields["operation"] == .string("Add Source") && add.fields["broadcast_id"] == .int(0x5A17C3))
        #expect(add.fields["address"] == .string("F0:00:00:00:00:11"))
        let state = try #require(d[159]?.value as? BASSDissector.ReceiveState)
        #expect(state.sourceID == 1 && state.source.broadcastID == 0x5A17C3 && state.paSyncState == 2 && state.bigEncryption == 0)
        #expect(d[188]?.text == "Remove Source 1" && d[190]?.text == "no source")
    }

    @Test(.enabled(if: has(phone)))
    func volumeAndCoordinatedSet() throws {
        let d = try Self.decoded(Self.phone)
        let audio = d.values.filter { ["volume_control", "csis"].contains($0.dissector) }
        #expect(audio.count >= 10 && audio.allSatisfy { $0.problem == nil })
        let sirk = try #require(d[139]?.value as? CSISDissector.SIRK)
        #expect(sirk.type == 0 && Hex.string(sirk.key) == "df167433b66cd1df52d1402238043966")
        #expect(d[142]?.text == "set of 2" && d[145]?.text == "rank 1" && d[148]?.text == "unlocked")
        #expect(d[298]?.text == "Set Absolute Volume 160")
        guard case let .volumeState(volume, _, _)? = d[301]?.value as? VolumeControlDissector.Value else {
            Issue.record("no Volume State at 301"); return
        }
        #expect(volume == 160)
    }

    /// `--redact` hides the SIRK in every output format.
    @Test(.enabled(if: has(phone)))
    func sirkIsRedacted() throws {
        let path = try #require(TestSupport.sharedCaptures).appendingPathComponent(Self.phone).path
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let sirk = "df167433b66cd1df52d1402238043966"
        for format in RedactorTests.Format.allCases {
            let text = try RedactorTests.redactedOutput(bytes, format: format)
            #expect(!text.lowercased().contains(sirk) && !text.lowercased().contains("df 16 74 33"), "\(format)")
        }
    }
}
