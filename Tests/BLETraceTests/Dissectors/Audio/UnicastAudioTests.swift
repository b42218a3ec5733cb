import Testing
@testable import BLETrace

/// 24-bit little-endian.
func le24(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
func leU32(_ v: UInt32) -> [UInt8] { le24(v) + [UInt8(v >> 24)] }

/// An LTV: length (type included), type, value.
func ltv(_ type: UInt8, _ value: [UInt8]) -> [UInt8] { [UInt8(value.count + 1), type] + value }

/// LC3 48 kHz, 10 ms, Front Left, 100 octets, 1 block per SDU.
let lc3Config: [UInt8] = ltv(0x01, [0x08]) + ltv(0x02, [0x01]) + ltv(0x03, leU32(1)) + ltv(0x04, le(100)) + ltv(0x05, [1])
let lc3ID: [UInt8] = [0x06, 0, 0, 0, 0]

@Suite("LE Audio: codec LTVs, PACS and ASCS")
struct UnicastAudioTests {
    @Test("Codec configuration LTVs: every sampling frequency, frame duration, allocation, unknown and malformed LTVs")
    func configuration() throws {
        let hz = [8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000, 88200, 96000, 176400, 192000, 384000]
        for (i, f) in hz.enumerated() {
            #expect(CodecConfiguration(ltv(0x01, [UInt8(i + 1)])[...]).samplingFrequencyHz == f)
        }
        #expect(CodecConfiguration(ltv(0x01, [0x0E])[...]).samplingFrequencyHz == nil)
        #expect(AudioNames.kHz(11025) == "11.025 kHz" && AudioNames.kHz(44100) == "44.1 kHz" && AudioNames.kHz(384000) == "384 kHz")
        let c = CodecConfiguration(lc3Config[...])
        #expect(c.problem == nil && c.frameDurationMicros == 10000 && c.channelAllocation == 1 && c.octetsPerFrame == 100)
        #expect(c.frameBlocksPerSDU == 1 && c.text == "48 kHz, 10 ms, Front Left, 100 octets, 1 block(s)/SDU")
        #expect(CodecConfiguration(ltv(0x02, [0x00])[...]).frameDurationMicros == 7500)
        #expect(AudioNames.locationNames(0x0C00_0003) == ["Front Left", "Front Right", "Left Surround", "Right Surround"])
        #expect(AudioNames.locationNames(0) == ["Mono Audio"])
        // An unknown type keeps its type and bytes; a known type of the wrong length too, with a problem.
        let odd = CodecConfiguration((ltv(0x7F, [0xAA, 0xBB]) + ltv(0x01, [0x08, 0x00]))[...])
        #expect(odd.items == [.other(type: 0x7F, value: [0xAA, 0xBB]), .other(type: 0x01, value: [0x08, 0x00])])
        #expect(odd.problem == "configuration type 1 LTV: 2 bytes, expected 1" && odd.samplingFrequencyHz == nil)
        // An LTV that runs past the end, and one of length 0.
        let cut = CodecConfiguration(([0x02, 0x01, 0x08] + [0x05, 0x03, 0x01])[...])
        #expect(cut.items == [.samplingFrequency(8)] && cut.problem?.contains("runs past the end") == true)
        #expect(CodecConfiguration([0x00, 0x01][...]).problem?.contains("length 0") == true)
    }

    @Test("Capabilities and metadata LTVs; the codec ID names LC3 and vendor codecs")
    func capabilitiesAndMetadata() throws {
        let caps = CodecCapabilities((ltv(0x01, le(0x0084)) + ltv(0x02, [0x12]) + ltv(0x03, [0x03]) + ltv(0x04, le(40) + le(120))
            + ltv(0x05, [2]))[...])
        #expect(caps.problem == nil && caps.samplingFrequenciesHz == [16000, 48000])
        #expect(caps.items.contains(.octetsPerFrame(min: 40, max: 120)) && caps.items.contains(.maxFramesPerSDU(2)))
        #expect(caps.text == "16, 48 kHz; 10 ms; 1, 2 channel(s); 40–120 octets; 2 frame(s)/SDU")
        let f = FieldsBuilder.object { caps.write(into: &$0) }
        #expect(f["supported_frame_durations"] == .list([.string("10 ms"), .string("7.5 ms preferred")]))
        #expect(f["supported_audio_channel_counts"] == .list([.int(1), .int(2)]))
        let meta = AudioMetadata((ltv(0x01, le(0x0006)) + ltv(0x02, le(0x0200)) + ltv(0x03, Array("News".utf8))
            + ltv(0x04, Array("eng".utf8)) + ltv(0x05, [1, 2]) + ltv(0x06, [0x07]) + ltv(0x40, [9]))[...])
        #expect(meta.problem == nil && meta.streamingContexts == 0x0200)
        #expect(meta.items == [.preferredContexts(6), .streamingContexts(0x0200), .programInfo("News"), .language("eng"),
                               .ccidList([1, 2]), .parentalRating(7), .other(type: 0x40, value: [9])])
        let mf = FieldsBuilder.object { meta.write(into: &$0) }
        #expect(mf["preferred_audio_contexts"] == .list([.string("Conversational"), .string("Media")]))
        #expect(mf["streaming_audio_contexts"] == .list([.string("Ringtone")]))
        #expect(AudioNames.contextNames(0x0FFF).last == "Emergency alarm" && AudioNames.contextNames(0x0FFF).count == 12)
        #expect(AudioMetadata(ltv(0x02, [0x04])[...]).problem == "Streaming_Audio_Contexts LTV: 1 byte, expected 2")
        var c = ByteCursor([0xFF, 0x5D, 0x00, 0x01, 0x00])
        #expect(try AudioCodecID.read(&c).name == "Vendor Specific 0x005D/0x0001")
        #expect(AudioNames.codingFormat(0x06) == "LC3" && AudioNames.codingFormat(0x03) == "Transparent")
    }

    @Test("PACS: Sink PAC records, audio locations, available and supported contexts; short values")
    func pacs() throws {
        let caps = ltv(0x01, le(0x0084)) + ltv(0x02, [0x02]) + ltv(0x03, [0x01]) + ltv(0x04, le(40) + le(120)) + ltv(0x05, [1])
        let meta = ltv(0x01, le(0x0006))
        let pac = [1] + lc3ID + [UInt8(caps.count)] + caps + [UInt8(meta.count)] + meta
        let d = try #require(dissect(sig(0x2BC9), pac))
        #expect(d.dissector == "pacs" && d.problem == nil)
        #expect(d.text == "LC3 16, 48 kHz; 10 ms; 1 channel(s); 40–120 octets; 1 frame(s)/SDU; preferred Conversational, Media")
        let value = try #require(d.value as? PACSDissector.PAC)
        #expect(value.sink && value.records.count == 1 && value.records[0].codecID.codingFormat == 6)
        guard case let .list(records)? = d.fields["pac_records"], case let .object(r)? = records.first else {
            Issue.record("no pac_records"); return
        }
        #expect(r["codec"] == .string("LC3"))
        #expect(r["codec_specific_capabilities"]?.objectValue?["supported_sampling_frequencies_hz"] == .list([.int(16000), .int(48000)]))
        // A record cut inside its capabilities; a count promising more records than there are.
        #expect(dissect(sig(0x2BCB), Array(pac.prefix(9)))?.problem?.contains("truncated") == true)
        #expect(dissect(sig(0x2BCB), [2] + Array(pac.dropFirst()))?.problem?.contains("truncated") == true)
        #expect(dissect(sig(0x2BCA), leU32(3))?.fields["audio_location_names"] == .list([.string("Front Left"), .string("Front Right")]))
        #expect(dissect(sig(0x2BCC), [1, 0])?.problem == "2 bytes, expected 4")
        let ctx = try #require(dissect(sig(0x2BCD), le(0x0006) + le(0x0002)))
        #expect(ctx.text == "sink Conversational, Media; source Conversational")
        #expect(ctx.fields["available_sink_contexts"] == .int(6))
        #expect(dissect(sig(0x2BCE), le(0x0004) + le(0))?.fields["supported_source_context_names"] == .list([]))
        #expect(dissect(sig(0x2BCE), [])?.problem == "0 bytes, expected 4")
    }

    @Test("ASE values: Codec Configured, QoS Configured, Streaming, Idle; their facts; short and reserved")
    func ase() throws {
        let cc = [1, 1, 0, 0x02, 5] + le(20) + le24(20000) + le24(40000) + le24(0) + le24(0) + lc3ID + [UInt8(lc3Config.count)] + lc3Config
        let d = try #require(dissect(sig(0x2BC4), cc, opcode: 0x1B))
        #expect(d.dissector == "ascs" && d.problem == nil)
        #expect(d.text == "Sink ASE 1 Codec Configured: LC3 48 kHz, 10 ms, Front Left, 100 octets, 1 block(s)/SDU")
        #expect(d.fields["ase_state_name"] == .string("Codec Configured") && d.fields["preferred_phy"] == .list([.string("LE 2M")]))
        #expect(d.fields["presentation_delay_max_us"] == .int(40000) && d.fields["max_transport_latency_ms"] == .int(20))
        #expect(d.fields["codec_specific_configuration"]?.objectValue?["sampling_frequency_hz"] == .int(48000))
        var codec = AudioCodecSettings(codecID: AudioCodecID(codingFormat: 6, companyID: 0, vendorCodecID: 0),
                                       configuration: CodecConfiguration([][...]))
        codec.samplingFrequencyHz = 48000
        codec.frameDurationMicros = 10000
        codec.octetsPerFrame = 100
        codec.frameBlocksPerSDU = 1
        codec.channelAllocation = 1
        var expected = ASEFact(aseID: 1, direction: .sink, state: 1)
        expected.codec = codec
        #expect(d.fact == .ase(expected))

        let qos = [2, 2, 1, 2] + le24(10000) + [0, 0x02] + le(40) + [5] + le(20) + le24(40000)
        let q = try #require(dissect(sig(0x2BC5), qos, opcode: 0x1B))
        #expect(q.problem == nil && q.fields["sdu_interval_us"] == .int(10000) && q.fields["framing_name"] == .string("unframed"))
        guard case let .ase(qf)? = q.fact else { Issue.record("no ASE fact"); return }
        #expect(qf.direction == .source && qf.state == 2 && qf.cigID == 1 && qf.cisID == 2 && qf.maxSDU == 40 && qf.codec == nil)
        #expect(qf.sduIntervalMicros == 10000 && qf.presentationDelayMicros == 40000)

        let streaming = try #require(dissect(sig(0x2BC4), [1, 4, 1, 2, 4] + ltv(0x02, le(0x0004)), opcode: 0x1B))
        #expect(streaming.text == "Sink ASE 1 Streaming: CIG 1 CIS 2, streaming Media")
        guard case let .ase(sf)? = streaming.fact else { Issue.record("no ASE fact"); return }
        #expect(sf.cigID == 1 && sf.cisID == 2 && sf.streamingContexts == 4)
        #expect(dissect(sig(0x2BC4), [3, 0])?.text == "Sink ASE 3 Idle")

        // Cut inside the Codec Configured parameters: the ASE and state are kept, with a problem and no fact.
        let cut = try #require(dissect(sig(0x2BC4), Array(cc.prefix(12))))
        #expect(cut.problem?.contains("truncated") == true && cut.text == "Sink ASE 1 Codec Configured" && cut.fact == nil)
        #expect(dissect(sig(0x2BC4), [])?.problem == "empty value")
        #expect(dissect(sig(0x2BC4), [1])?.problem?.contains("truncated") == true)
        #expect(dissect(sig(0x2BC4), [1, 9])?.problem == "ASE state 9 is reserved")
        #expect(dissect(sig(0x2BC4), [1, 0, 0xEE])?.problem == "1 unexpected byte after the value")
    }

    @Test("ASE Control Point: written operations and the notified response with reason names")
    func controlPoint() throws {
        let op = [0x01, 0x01, 0x01, 0x02, 0x02] + lc3ID + [UInt8(lc3Config.count)] + lc3Config
        let w = try #require(dissect(sig(0x2BC6), op, fromClient: true))
        #expect(w.problem == nil && w.fact == nil)
        #expect(w.text == "Config Codec ASE 1: LC3 48 kHz, 10 ms, Front Left, 100 octets, 1 block(s)/SDU")
        guard case let .list(ases)? = w.fields["ases"], case let .object(a)? = ases.first else { Issue.record("no ases"); return }
        #expect(a["target_latency_name"] == .string("Balanced Latency and Reliability") && a["target_phy_name"] == .string("LE 2M"))
        let qos = [0x02, 0x01, 0x01, 1, 1] + le24(10000) + [0, 2] + le(100) + [5] + le(20) + le24(40000)
        #expect(dissect(sig(0x2BC6), qos, fromClient: true)?.text
            == "Config QoS ASE 1: CIG 1 CIS 1, SDU interval 10000 µs, max SDU 100, RTN 5, latency 20 ms, delay 40000 µs")
        #expect(dissect(sig(0x2BC6), [0x03, 0x01, 0x01] + [4] + ltv(0x02, le(2)), fromClient: true)?.text == "Enable ASE 1: streaming Conversational")
        #expect(dissect(sig(0x2BC6), [0x08, 0x02, 0x01, 0x02], fromClient: true)?.text == "Release ASE 1; ASE 2")
        #expect(dissect(sig(0x2BC6), [0x01, 0x02] + Array(op.dropFirst(2)), fromClient: true)?.problem?.contains("truncated") == true)
        #expect(dissect(sig(0x2BC6), [0x0B, 0x00], fromClient: true)?.problem == "opcode 11 is reserved")

        let r = try #require(dissect(sig(0x2BC6), [0x01, 0x02, 0x01, 0x00, 0x00, 0x02, 0x08, 0x02], opcode: 0x1B))
        #expect(r.problem == nil && r.text == "Config Codec response: ASE 1 Success, ASE 2 Rejected Configuration Parameter Value (Codec_Specific_Configuration)")
        #expect(r.fact == .aseControlResponse(ASEControlResponse(opcode: 1, count: 2, entries: [
            .init(aseID: 1, responseCode: 0, reason: 0), .init(aseID: 2, responseCode: 8, reason: 2)])))
        // Metadata responses name the metadata type; 0xFF ASEs is one entry (unsupported opcode).
        #expect(dissect(sig(0x2BC6), [0x07, 0x01, 0x01, 0x0B, 0x02], opcode: 0x1B)?.text
            == "Update Metadata response: ASE 1 Rejected Metadata (Streaming_Audio_Contexts)")
        let bad = try #require(dissect(sig(0x2BC6), [0x09, 0xFF, 0x00, 0x01, 0x00], opcode: 0x1B))
        #expect(bad.problem == nil && bad.fields["responses"] == .list([.object(["ase_id": .int(0), "response_code": .int(1),
            "response": .string("Unsupported Opcode"), "reason": .int(0)])]))
        #expect(dissect(sig(0x2BC6), [0x01, 0x02, 0x01, 0x00], opcode: 0x1B)?.problem?.contains("truncated") == true)
        #expect(AudioNames.responseCode(0x0E) == "Unspecified Error" && AudioNames.responseCode(0x0F) == "reserved (0x0F)")
    }
}
