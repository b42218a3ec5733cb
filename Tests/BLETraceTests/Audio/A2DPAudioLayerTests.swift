import Testing
@testable import BLETrace

/// The audio layer on streams assembled in the test (frames with real headers, no codec needed): sequence
/// gaps, underruns and configuration mismatches found where they were put, and nothing on a clean stream.
@Suite("A2DP audio: sequence, timing and configuration")
struct A2DPAudioLayerTests {
    static func cmd(_ code: UInt8, _ id: UInt8, _ data: [UInt8]) -> [UInt8] { [code, id] + le(UInt16(data.count)) + data }

    /// A harness with the audio layer, a connection, AVDTP signaling (Set Configuration: SBC 44.1 kHz joint
    /// stereo, 16 blocks, 8 subbands, loudness, bitpool 2–53), a media channel and Start.
    static func setUp() -> (TraceHarness, A2DPAudio, setConfiguration: Int) {
        let h = TraceHarness()
        let audio = A2DPAudio(a2dp: h.pipeline.chain.signaling!.a2dp)
        h.pipeline.chain.a2dpAudio = audio
        h.layers.append(audio)
        h.feed(.event, HCIBuilder.event(0x03, [0] + le(0x000C) + HCIBuilder.addr(BDAddr(0x00_1B_66_AA_BB_CC)) + [1, 0]), .controllerToHost)
        let set = openStream(h, mediaLocal: 0x0042, mediaRemote: 0x01B4)
        return (h, audio, set)
    }

    /// On handle 0x000C: the AVDTP signaling channel (0x0041 / 0x01B3), Set Configuration as `setUp` describes
    /// it, the media channel (`mediaLocal` / `mediaRemote`) and Start. Returns the Set Configuration's record.
    @discardableResult
    static func openStream(_ h: TraceHarness, mediaLocal: UInt16, mediaRemote: UInt16) -> Int {
        h.l2cap(0x000C, cid: 1, cmd(0x02, 7, le(0x0019) + le(0x0041)), .hostToController)
        h.l2cap(0x000C, cid: 1, cmd(0x03, 7, le(0x01B3) + le(0x0041) + le(0) + le(0)), .controllerToHost)
        let set = h.l2cap(0x000C, cid: 0x01B3, [0x20, 0x03, 0x04, 0x04, 0x07, 0x06, 0x00, 0x00, 0x21, 0x15, 0x02, 0x35], .hostToController)
        h.l2cap(0x000C, cid: 0x0041, [0x22, 0x03], .controllerToHost)
        h.l2cap(0x000C, cid: 1, cmd(0x02, 9, le(0x0019) + le(mediaLocal)), .hostToController)
        h.l2cap(0x000C, cid: 1, cmd(0x03, 9, le(mediaRemote) + le(mediaLocal) + le(0) + le(0)), .controllerToHost)
        h.l2cap(0x000C, cid: 0x01B3, [0x40, 0x07, 0x04], .hostToController)
        h.l2cap(0x000C, cid: 0x0041, [0x42, 0x07], .controllerToHost)
        return set
    }

    /// Five frames per packet (640 samples, 14,512 µs at 44.1 kHz); `bitpool` of the first frame.
    static func packet(_ seq: UInt16, firstBitpool: UInt8 = 53) -> [UInt8] {
        let f = SBCParsingTests.frame(SBCParsingTests.jointHeader)
        let first = SBCParsingTests.frame([0x9C, 0xBD, firstBitpool, 0])
        return SBCParsingTests.rtp(seq, UInt32(seq) * 640) + [0x05] + first + f + f + f + f
    }

    /// Sends packets `range` every 14,512 µs (the audio they carry), skipping `lose`, delaying from `stall` on.
    static func stream(_ h: TraceHarness, _ range: Range<UInt16>, lose: Set<UInt16> = [], stall: (UInt16, Int64)? = nil,
                       stray: UInt16? = nil) -> [UInt16: Int] {
        var records: [UInt16: Int] = [:]
        var pending: Int64 = 14_512
        for seq in range {
            if let s = stall, s.0 == seq { pending += s.1 }
            if lose.contains(seq) { pending += 14_512; continue }
            records[seq] = h.l2cap(0x000C, cid: 0x01B4, packet(seq, firstBitpool: seq == stray ? 60 : 53), .hostToController, advance: pending)
            pending = 14_512
        }
        return records
    }

    /// A capture's clock jumping by centuries between two packets: no trap, and the silence put in is one
    /// pause at most, not the jump.
    @Test func clockJumpFillsAtMostAPause() throws {
        let (h, audio, _) = Self.setUp()
        _ = Self.stream(h, 0..<3)
        h.l2cap(0x000C, cid: 0x01B4, Self.packet(3), .hostToController, advance: Int64.max / 4)
        h.l2cap(0x000C, cid: 0x01B4, Self.packet(5), .hostToController, advance: 14_512)
        h.finish()
        let s = try #require(audio.streams.first)
        #expect(s.packets == 5 && s.lostPackets == 1)
        #expect(s.gapSamples <= 2 * 44_100 * 600 + 640)
    }

    @Test("a clean stream: frames counted, no gap, no underrun, no mismatch, the configuration found as negotiated")
    func clean() throws {
        let (h, audio, set) = Self.setUp()
        _ = Self.stream(h, 0..<100)
        h.finish()
        let s = try #require(audio.streams.first)
        #expect(audio.streams.count == 1 && s.connection == 1 && s.packets == 100 && s.frames == 500)
        #expect(s.negotiatedRecord == set && s.found?.bitpool == 53 && s.found?.sampleRate == 44_100)
        #expect(s.lostPackets == 0 && s.underruns == 0 && s.dropoutCount == 0 && s.mismatchedFrames == 0 && s.payloadErrors == 0)
        #expect(s.positionSamples == 64_000 && s.gapSamples == 0)
        // Arrivals follow the audio to the microsecond (14,512 against 14,512.47 µs): no jitter to speak of.
        #expect(s.jitterMicros < 5)
        #expect(s.level == nil && s.decodedFrames == 0)
    }

    @Test("planted losses and a stall are found at their packets and positions, and nowhere else")
    func planted() throws {
        let (h, audio, _) = Self.setUp()
        let records = Self.stream(h, 0..<200, lose: [40, 41, 120], stall: (160, 60_000), stray: 90)
        h.finish()
        let s = try #require(audio.streams.first)
        #expect(s.lostPackets == 3 && s.underruns == 1 && s.dropoutCount == 3)
        let d = s.dropouts
        #expect(d.map(\.kind) == [.lost(packets: 2), .lost(packets: 1), .underrun])
        #expect(d.map(\.record) == [records[42], records[121], records[160]].compactMap { $0 })
        #expect(d.map(\.previousRecord) == [records[39], records[119], records[159]].compactMap { $0 })
        // Positions on the audio time line: packet 40 starts at 40 × 640 samples.
        #expect(d[0].positionMicros == Int64(40 * 640) * 1_000_000 / 44_100 && d[0].durationMicros == Int64(1280) * 1_000_000 / 44_100)
        #expect(d[1].positionMicros == Int64(120 * 640) * 1_000_000 / 44_100)
        // The stall: 60 ms late against the audio delivered (within a microsecond of rounding per packet).
        #expect(abs(d[2].durationMicros - 60_000) < 200)
        #expect(s.mismatchedFrames == 1 && s.mismatchRecords == [records[90]].compactMap { $0 } && s.mismatch?.bitpool == 60)
        // Three lost packets' audio and the stall as silence on the time line.
        #expect(abs(s.gapSamples - (3 * 640 + 2646)) <= 10)
        // The diagnosis: the losses; a 60 ms underrun is counted above but not diagnosed (a sink's buffer hides it).
        let engine = DiagnosisEngine()
        engine.context.pipeline = h.pipeline
        engine.see(h.pipeline.chain)
        AudioStreamRule().finish(engine.context)
        let dropout = try #require(engine.context.ordered.first { $0.id == .audioDropout })
        #expect(dropout.facts.audio == .dropouts(stream: 1, lostPackets: 3, underruns: 0, firstAtMicros: d[0].positionMicros,
                                                 longestMicros: d[0].durationMicros, totalMicros: d[0].durationMicros + d[1].durationMicros))
        #expect(dropout.evidence == [d[0].record, d[0].previousRecord, d[1].record, d[1].previousRecord])
    }

    @Test("a Suspend and a new Start are a pause, not an underrun; a sequence restart is a jump, not a loss")
    func pause() throws {
        let (h, audio, _) = Self.setUp()
        _ = Self.stream(h, 0..<20)
        h.l2cap(0x000C, cid: 0x01B3, [0x50, 0x09, 0x04], .hostToController)
        h.l2cap(0x000C, cid: 0x0041, [0x52, 0x09], .controllerToHost)
        h.l2cap(0x000C, cid: 0x01B3, [0x60, 0x07, 0x04], .hostToController, advance: 2_000_000)
        h.l2cap(0x000C, cid: 0x0041, [0x62, 0x07], .controllerToHost)
        _ = Self.stream(h, 20..<40)
        _ = Self.stream(h, 5000..<5010)
        h.finish()
        let s = try #require(audio.streams.first)
        #expect(s.underruns == 0 && s.lostPackets == 0 && s.dropoutCount == 0 && s.sequenceJumps == 1 && s.packets == 50)
        // The pause is on the time line (about 2 s), not counted as a gap.
        #expect(s.gapSamples > 44_100 * 2 - 2000 && s.gapSamples < 44_100 * 2 + 2000)
    }

    @Test("damaged payloads are counted with their records; the audio diagnoses name stream, records and sizes")
    func damaged() throws {
        let (h, audio, _) = Self.setUp()
        let records = Self.stream(h, 0..<10, lose: [5])
        var bad = Self.packet(10)
        bad[13] = 0x00   // the first frame's syncword
        let badRecord = h.l2cap(0x000C, cid: 0x01B4, bad, .hostToController, advance: 14_512)
        h.finish()
        let s = try #require(audio.streams.first)
        #expect(s.payloadErrors == 1 && s.errorRecords == [AudioRecordProblem(record: badRecord, kind: .payload(.badSyncword(offset: 13)))])
        let engine = DiagnosisEngine()
        engine.context.pipeline = h.pipeline
        engine.see(h.pipeline.chain)
        AudioStreamRule().finish(engine.context)
        // Errors first, then warnings.
        let ids = engine.context.ordered.map(\.id)
        #expect(ids == [.audioDecodeError, .audioDropout])
        let dropout = try #require(engine.context.ordered.last)
        #expect(dropout.severity == .warning && dropout.evidence.first == records[6] && dropout.connections == [1])
        #expect(DiagnosisText.title(dropout).contains("1 packet lost"))
        #expect(engine.context.ordered.first?.severity == .error && engine.context.ordered.first?.evidence == [badRecord])
    }
}
