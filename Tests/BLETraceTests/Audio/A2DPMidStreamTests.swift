import Testing
@testable import BLETrace

/// A2DP media on a BR/EDR channel the capture never saw opened (a log started while music played): recognised
/// after three agreeing packets, the packets held before that counted in and shown as media, the configuration
/// inferred from the frames; and nothing else (random bytes, RTP with another payload, one lucky packet, LE
/// links) ever becomes a stream.
@Suite("A2DP media recognised mid-stream")
struct A2DPMidStreamTests {
    typealias E = SBCMediaEvidenceTests

    /// A harness with the audio layer and a BR/EDR connection on handle 0x000C (or an LE one), and nothing else.
    static func setUp(onLE: Bool = false) -> (TraceHarness, A2DPAudio) {
        let h = TraceHarness()
        let audio = A2DPAudio(a2dp: h.pipeline.chain.signaling!.a2dp)
        h.pipeline.chain.a2dpAudio = audio
        h.layers.append(audio)
        if onLE {
            h.connect(0x000C, peer: 0x00_1B_66_AA_BB_CC)
        } else {
            h.feed(.event, HCIBuilder.event(0x03, [0] + le(0x000C) + HCIBuilder.addr(BDAddr(0x00_1B_66_AA_BB_CC)) + [1, 0]), .controllerToHost)
        }
        return (h, audio)
    }

    static func isMedia(_ e: TraceEvent?) -> Bool {
        if case let .signaling(s)? = e?.body, case .a2dpMedia = s.content { return true }
        return false
    }

    @Test("three agreeing packets make the channel media: every packet counted and shown, the configuration inferred")
    func recognised() throws {
        let (h, audio) = Self.setUp()
        var records: [Int] = []
        for seq: UInt16 in 100..<140 where seq != 120 {
            records.append(h.l2cap(0x000C, cid: 0x01B4, E.packet(seq), .hostToController, advance: 14_512))
        }
        h.finish()
        #expect(audio.streams.count == 1)
        let s = try #require(audio.streams.first)
        #expect(s.packets == 39 && s.frames == 195 && s.firstRecord == records[0] && s.lastRecord == records.last)
        #expect(s.negotiated == nil && s.inferred?.sampleRate == 44_100 && s.inferred?.channels == 2 && s.inferred?.bitpool == 53)
        // Recognised at the third packet; the two before it were held and are media too.
        #expect(s.inferredRecord == records[2])
        #expect(records.allSatisfy { Self.isMedia(h.event($0)) })
        #expect(h.event(records[0])?.l2cap?.psm == nil, "the PSM was never seen")
        // The loss planted at 120 is found at the packet after it.
        #expect(s.lostPackets == 1 && s.dropouts.map(\.record) == [records[20]])
        #expect(s.mismatchedFrames == 0 && s.payloadErrors == 0)
        let a2dp = try #require(h.pipeline.chain.signaling?.a2dp.streams.first)
        #expect(a2dp.codec == nil && a2dp.inferred?.bitpool == 53 && a2dp.packets == 39)
        #expect(a2dp.text.hasPrefix("SBC 44.1 kHz, joint stereo, 16 blocks, 8 subbands, loudness, bitpool 53 inferred from the media (no AVDTP configuration in the capture); 39 media packets"))
        let lines = AudioRender.lines(audio.streams, unavailable: nil)
        #expect(lines.contains("  inferred:   SBC 44.1 kHz, joint stereo, 16 blocks, 8 subbands, loudness, bitpool 53 (#\(records[2])) from the media: the capture holds no AVDTP configuration"), "\(lines)")
        let inferred = AudioRender.fields(s)["inferred"]?.objectValue
        #expect(inferred?["sampling_rate"] == .int(44_100) && inferred?["bitpool"] == .int(53) && inferred?["record"] == .int(records[2]))
    }

    @Test("media received from the peer (the sink's side) is recognised the same way")
    func received() throws {
        let (h, audio) = Self.setUp()
        for seq: UInt16 in 0..<10 { h.l2cap(0x000C, cid: 0x0042, E.packet(seq, frames: 4, header: [0x9C, 0x31, 0x20]), .controllerToHost, advance: 32_000) }
        h.finish()
        let s = try #require(audio.streams.first)
        #expect(audio.streams.count == 1 && s.packets == 10 && s.frames == 40 && s.inferred?.sampleRate == 16_000 && s.inferred?.channels == 1)
    }

    @Test("a change of configuration in the frames (a Reconfigure the capture cannot read) starts a stream that follows")
    func configurationChanges() throws {
        let (h, audio) = Self.setUp()
        for seq: UInt16 in 0..<10 { h.l2cap(0x000C, cid: 0x01B4, E.packet(seq), .hostToController, advance: 14_512) }
        // The bitpool alone may change (sources lower it on a poor link): the same stream.
        for seq: UInt16 in 10..<15 { h.l2cap(0x000C, cid: 0x01B4, E.packet(seq, header: [0x9C, 0xBD, 0x20]), .hostToController, advance: 14_512) }
        // 48 kHz.
        let change = h.l2cap(0x000C, cid: 0x01B4, E.packet(15, header: [0x9C, 0xFD, 0x35]), .hostToController, advance: 14_512)
        for seq: UInt16 in 16..<20 { h.l2cap(0x000C, cid: 0x01B4, E.packet(seq, header: [0x9C, 0xFD, 0x35]), .hostToController, advance: 13_333) }
        h.finish()
        #expect(audio.streams.count == 2)
        let (a, b) = (audio.streams[0], audio.streams[1])
        #expect(a.packets == 15 && a.mismatchedFrames == 0 && a.inferred?.sampleRate == 44_100)
        #expect(b.packets == 5 && b.follows == 1 && b.inferred?.sampleRate == 48_000 && b.inferredRecord == change && b.firstRecord == change)
    }

    @Test("AVDTP configuration seen later on the connection: the media under it is a stream of its own, negotiated")
    func signalingLater() throws {
        let (h, audio) = Self.setUp()
        for seq: UInt16 in 0..<6 { h.l2cap(0x000C, cid: 0x01B4, E.packet(seq), .hostToController, advance: 14_512) }
        // The source closes and sets the stream up again, all of it in the capture.
        let set = A2DPAudioLayerTests.openStream(h, mediaLocal: 0x0043, mediaRemote: 0x01B5)
        for seq: UInt16 in 0..<6 { h.l2cap(0x000C, cid: 0x01B5, E.packet(seq, ssrc: 2), .hostToController, advance: 14_512) }
        h.finish()
        #expect(audio.streams.count == 2)
        let (a, b) = (audio.streams[0], audio.streams[1])
        #expect(a.inferred != nil && a.negotiated == nil && a.packets == 6)
        #expect(b.inferred == nil && b.negotiatedRecord == set && b.follows == 1 && b.packets == 6 && b.mismatchedFrames == 0)
    }

    @Test("random payloads, RTP with another payload, a lucky packet or two, broken sequences and LE links make no stream")
    func nothingElse() throws {
        var rng = SeededGenerator(seed: 40)
        func random(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
        let (h, audio) = Self.setUp()
        // Random bytes on twelve dynamic channels, some starting like RTP.
        for i in 0..<600 {
            var p = random(40 + i % 700)
            if i % 3 == 0 { p[0] = 0x80; p[1] = 0x60 }
            h.l2cap(0x000C, cid: UInt16(0x0040 + i % 12), p, i % 2 == 0 ? .hostToController : .controllerToHost, advance: 5_000)
        }
        // RTP in sequence whose payload is not SBC (AAC-like bytes) on 0x0060.
        for seq: UInt16 in 0..<20 {
            h.l2cap(0x000C, cid: 0x0060, E.rtp(seq, UInt32(seq) * 1024) + [0x47, 0xFC, 0, 0, 0xB0, 0x90, 0x80, 0x03, 0] + random(300), .hostToController)
        }
        // One perfect packet alone on 0x0061, then two on 0x0062.
        let lucky = h.l2cap(0x000C, cid: 0x0061, E.packet(1), .hostToController)
        h.l2cap(0x000C, cid: 0x0062, E.packet(1), .hostToController)
        h.l2cap(0x000C, cid: 0x0062, E.packet(2), .hostToController)
        h.l2cap(0x000C, cid: 0x0062, random(200), .hostToController)
        // Good packets that do not agree: sequence skipping, SSRC changing, bitpool changing, timestamp still.
        for seq: UInt16 in stride(from: 0, to: 20, by: 2) { h.l2cap(0x000C, cid: 0x0063, E.packet(seq), .hostToController) }
        for seq: UInt16 in 0..<10 { h.l2cap(0x000C, cid: 0x0064, E.packet(seq, ssrc: UInt32(seq % 2)), .hostToController) }
        for seq: UInt16 in 0..<10 {
            h.l2cap(0x000C, cid: 0x0065, E.packet(seq, header: seq % 2 == 0 ? E.joint : [0x9C, 0xBD, 0x30]), .hostToController)
        }
        for seq: UInt16 in 0..<10 {
            h.l2cap(0x000C, cid: 0x0066, E.rtp(seq, 0) + [5] + (0..<5).flatMap { _ in E.frame(E.joint) }, .hostToController)
        }
        h.finish()
        #expect(audio.streams.isEmpty && h.pipeline.chain.signaling?.a2dp.streams.isEmpty == true)
        #expect(!h.events.contains { Self.isMedia($0) })
        #expect(h.event(lucky)?.kind == .l2cap && h.events.count == h.record)

        // The same media on an LE link: not A2DP.
        let (le, leAudio) = Self.setUp(onLE: true)
        for seq: UInt16 in 0..<10 { le.l2cap(0x000C, cid: 0x0042, E.packet(seq), .hostToController) }
        le.finish()
        #expect(leAudio.streams.isEmpty && !le.events.contains { Self.isMedia($0) })
    }

    @Test("a candidate that goes quiet lets its held events go; at most eight candidates are followed")
    func bounded() throws {
        let (h, audio) = Self.setUp()
        let first = h.l2cap(0x000C, cid: 0x0070, E.packet(1), .hostToController)
        // The event is held while the channel is a candidate…
        #expect(h.event(first) == nil)
        for i in 0..<(A2DPMediaCandidates.staleRecords + 2) { h.l2cap(0x000C, cid: 0x0071, [UInt8(i & 0xFF), 1, 2], .hostToController) }
        // …and let go, unchanged, when it has been quiet too long.
        #expect(h.event(first)?.kind == .l2cap)
        // Twenty channels with one good packet each: eight followed at most, every event out by the end.
        for c in 0..<20 { h.l2cap(0x000C, cid: UInt16(0x0080 + c), E.packet(1), .hostToController) }
        #expect(h.pipeline.chain.signaling!.mediaCandidates.candidates.count == A2DPMediaCandidates.maxCandidates)
        // The channel that was replaced first can still become media from scratch.
        for seq: UInt16 in 2..<5 { h.l2cap(0x000C, cid: 0x0080, E.packet(seq), .hostToController) }
        h.finish()
        #expect(audio.streams.count == 1 && audio.streams.first?.packets == 3)
        #expect(h.events.count == h.record && h.events.map(\.record) == Array(1...h.record))
    }
}
