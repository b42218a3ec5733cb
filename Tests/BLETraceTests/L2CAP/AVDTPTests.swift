import Testing
@testable import BLETrace

@Suite("AVDTP signaling and the A2DP stream")
struct AVDTPTests {
    static func cmd(_ code: UInt8, _ id: UInt8, _ data: [UInt8]) -> [UInt8] { [code, id] + le(UInt16(data.count)) + data }

    /// SBC 44.1 kHz joint stereo, 16 blocks, 8 subbands, loudness, bitpool 2–53 (as the pfalcon speaker log sets it).
    static let sbc: [UInt8] = [0x07, 0x06, 0x00, 0x00, 0x21, 0x15, 0x02, 0x35]

    @Test("signals parse from assembled bytes: discover, capabilities, configuration, start, rejects, fragments")
    func signals() throws {
        let discover = try AVDTPSignal.parse([0x02, 0x01, 0x04, 0x08, 0x0C, 0x00][...])
        #expect(discover.messageType == .accept && discover.signal == 1)
        #expect(discover.content == .endpoints([AVDTPEndpoint(seid: 1, inUse: false, mediaType: 0, sink: true),
                                                AVDTPEndpoint(seid: 3, inUse: false, mediaType: 0, sink: false)]))
        let set = try AVDTPSignal.parse(([0x20, 0x03, 0x04, 0x04, 0x01, 0x00] + Self.sbc)[...])
        guard case let .capabilities(acp, int, caps) = set.content else { Issue.record("no capabilities"); return }
        #expect(acp == 1 && int == 1 && caps.map(\.category) == [1, 7])
        let codec = try #require(caps[1].codec)
        #expect(codec.codecType == 0 && A2DPNames.configuration(codec) == "44.1 kHz, joint stereo, 16 blocks, 8 subbands, loudness, bitpool 2–53")
        #expect(try AVDTPSignal.parse([0x40, 0x07, 0x04][...]).content == .seids([1]))
        // Set Configuration rejected for its media codec category: Unsupported Configuration.
        let rej = try AVDTPSignal.parse([0x23, 0x03, 0x07, 0x29][...])
        #expect(rej.messageType == .reject && rej.content == .error(category: 7, code: 0x29))
        #expect(try AVDTPSignal.parse([0x5C][...]).content == .fragment)
        #expect(throws: ByteError.self) { try AVDTPSignal.parse([0x20, 0x03, 0x04][...]) }
        // Vendor codecs by vendor and codec ID; AAC with its bitrate.
        let aptx = A2DPCodec(mediaType: 0, codecType: 0xFF, parameters: [0x4F, 0, 0, 0, 0x01, 0x00, 0x22][...])
        #expect(A2DPNames.codecName(aptx) == "aptX")
        let aac = A2DPCodec(mediaType: 0, codecType: 2, parameters: [0x80, 0x01, 0x84, 0x83, 0xE8, 0x00][...])
        #expect(A2DPNames.configuration(aac) == "MPEG-2 AAC LC, 44.1/48 kHz, 2 channel(s), VBR, 256 kbit/s")
    }

    @Test("the first AVDTP channel carries signaling, the next the media; the stream's codec, packets, bitrate and gaps")
    func stream() throws {
        let h = TraceHarness()
        h.feed(.event, HCIBuilder.event(0x03, [0] + le(0x000C) + HCIBuilder.addr(BDAddr(0x00_1B_66_AA_BB_CC)) + [1, 0]), .controllerToHost)
        // Signaling channel: local CID 0x0041, peer 0x01B3; media channel: local 0x0042, peer 0x01B4.
        h.l2cap(0x000C, cid: 1, Self.cmd(0x02, 7, le(0x0019) + le(0x0041)), .hostToController)
        h.l2cap(0x000C, cid: 1, Self.cmd(0x03, 7, le(0x01B3) + le(0x0041) + le(0) + le(0)), .controllerToHost)
        let set = h.l2cap(0x000C, cid: 0x01B3, [0x20, 0x03, 0x04, 0x04] + Self.sbc, .hostToController)
        h.l2cap(0x000C, cid: 0x0041, [0x22, 0x03], .controllerToHost)
        h.l2cap(0x000C, cid: 1, Self.cmd(0x02, 9, le(0x0019) + le(0x0042)), .hostToController)
        h.l2cap(0x000C, cid: 1, Self.cmd(0x03, 9, le(0x01B4) + le(0x0042) + le(0) + le(0)), .controllerToHost)
        h.l2cap(0x000C, cid: 0x01B3, [0x40, 0x07, 0x04], .hostToController)
        h.l2cap(0x000C, cid: 0x0041, [0x42, 0x07], .controllerToHost)
        // Ten media packets of 600 bytes, 20 ms apart, then one after a 300 ms silence.
        func media(_ seq: UInt16) -> [UInt8] {
            [0x80, 0x60] + [UInt8(seq >> 8), UInt8(seq & 0xFF)] + [0, 0, 0, 0] + [0, 0, 0, 1] + [0x05] + [UInt8](repeating: 0x9C, count: 587)
        }
        var last = 0
        for i in 0..<10 { last = h.l2cap(0x000C, cid: 0x01B4, media(UInt16(i)), .hostToController, advance: 20_000) }
        let late = h.l2cap(0x000C, cid: 0x01B4, media(10), .hostToController, advance: 300_000)
        h.finish()
        #expect(h.event(set)?.kind == .l2cap && h.layer(set, "avdtp")?["signal_name"] == .string("Set Configuration"))
        #expect(h.event(last)?.summary == "A2DP media: RTP sequence 9, timestamp 0, 5 frames, 600 bytes")
        #expect(h.layer(late, "a2dp_media")?["sequence"] == .int(10))
        let s = try #require(h.pipeline.connections.all.first.flatMap { c in
            (h.layers.compactMap { $0 as? A2DPStreams }.first)?.streams.first { $0.connection == c.id }
        })
        #expect(s.codec?.codecType == 0 && s.packets == 11 && s.bytes == 6600)
        #expect(s.duration == 480_000 && s.bitrate == 6600 * 8 * 1_000_000 / 480_000)
        #expect(s.gaps == 1 && s.longestGap == 300_000)
        let section = try #require(h.layers.compactMap { $0 as? A2DPStreams }.first?.summary())
        #expect(section.text.contains { $0.contains("SBC 44.1 kHz") && $0.contains("11 media packets, 6600 bytes") && $0.contains("1 gap (longest 300 ms)") })
    }
}

@Suite("RFCOMM and SDP on BR/EDR channels")
struct ClassicProfileTests {
    static func cmd(_ code: UInt8, _ id: UInt8, _ data: [UInt8]) -> [UInt8] { [code, id] + le(UInt16(data.count)) + data }

    @Test("RFCOMM frames: SABM, multiplexer PN and MSC, UIH with credits and AT commands")
    func rfcomm() throws {
        let sabm = try RFCOMMFrame.parse([0x03, 0x3F, 0x01, 0x1C][...])
        #expect(sabm.dlci == 0 && sabm.frameType == 0x2F && sabm.pollFinal)
        // PN command for DLCI 4, frame size 990 (0x03DE).
        let pn = try RFCOMMFrame.parse([0x03, 0xEF, 0x15, 0x83, 0x11, 0x04, 0xF0, 0x00, 0x00, 0xDE, 0x03, 0x00, 0x07, 0x70][...])
        #expect(pn.control?.type == 0x20 && pn.control?.command == true && pn.control?.value.count == 8)
        let h = TraceHarness()
        h.feed(.event, HCIBuilder.event(0x03, [0] + le(0x000B) + HCIBuilder.addr(BDAddr(0x00_1B_66_AA_BB_CC)) + [1, 0]), .controllerToHost)
        h.l2cap(0x000B, cid: 1, Self.cmd(0x02, 1, le(0x0003) + le(0x0047)), .hostToController)
        h.l2cap(0x000B, cid: 1, Self.cmd(0x03, 1, le(0x01B9) + le(0x0047) + le(0) + le(0)), .controllerToHost)
        let pnE = h.l2cap(0x000B, cid: 0x01B9, [0x03, 0xEF, 0x15, 0x83, 0x11, 0x04, 0xF0, 0x00, 0x00, 0xDE, 0x03, 0x00, 0x07, 0x70], .hostToController)
        // UIH on DLCI 4 with 3 credits and "AT+BRSF=959\r".
        let at = Array("AT+BRSF=959\r".utf8)
        let atE = h.l2cap(0x000B, cid: 0x01B9, [0x13, 0xFF, UInt8(at.count << 1 | 1), 3] + at + [0x00], .hostToController)
        h.finish()
        #expect(h.event(pnE)?.summary == "RFCOMM UIH DLCI 0: PN command, DLCI 4, frame size 990")
        #expect(h.event(atE)?.summary == "RFCOMM UIH DLCI 4 (channel 2), 3 credits: \"AT+BRSF=959\\r\"")
        #expect(h.layer(atE, "rfcomm")?["server_channel"] == .int(2) && h.layer(atE, "rfcomm")?["data"] == .hex(at))
        #expect(h.layer(atE, "l2cap")?["psm_name"] == .string("RFCOMM"))
    }

    @Test("SDP: a search names the service classes it asks for; responses give their sizes and errors")
    func sdp() throws {
        // Service Search Attribute Request for Audio Sink (0x110B), all attributes.
        let req = try SDPPDU.parse([0x06, 0x00, 0x01, 0x00, 0x0F, 0x35, 0x03, 0x19, 0x11, 0x0B, 0x03, 0xF0, 0x35, 0x05, 0x0A, 0x00, 0x00, 0xFF, 0xFF, 0x00][...])
        #expect(req.id == 6 && req.transaction == 1 && req.uuids == [0x110B])
        let err = try SDPPDU.parse([0x01, 0x00, 0x02, 0x00, 0x02, 0x00, 0x02][...])
        #expect(err.error == 2)
        #expect(throws: ByteError.self) { try SDPPDU.parse([0x06, 0x00, 0x01, 0x00, 0x03, 0x19, 0x11, 0x0B][...]) }
        let h = TraceHarness()
        h.feed(.event, HCIBuilder.event(0x03, [0] + le(0x000B) + HCIBuilder.addr(BDAddr(0x00_1B_66_AA_BB_CC)) + [1, 0]), .controllerToHost)
        h.l2cap(0x000B, cid: 1, Self.cmd(0x02, 1, le(0x0001) + le(0x0040)), .hostToController)
        h.l2cap(0x000B, cid: 1, Self.cmd(0x03, 1, le(0x01B2) + le(0x0040) + le(0) + le(0)), .controllerToHost)
        let r = h.l2cap(0x000B, cid: 0x01B2, [0x06, 0x00, 0x01, 0x00, 0x0F, 0x35, 0x03, 0x19, 0x11, 0x0B, 0x03, 0xF0, 0x35, 0x05, 0x0A, 0x00, 0x00, 0xFF, 0xFF, 0x00], .hostToController)
        let a = h.l2cap(0x000B, cid: 0x0040, [0x07, 0x00, 0x01, 0x00, 0x03, 0x00, 0x00, 0x00], .controllerToHost)
        h.finish()
        #expect(h.event(r)?.summary == "SDP Service Search Attribute Request (transaction 1): Audio Sink")
        #expect(h.layer(r, "sdp")?["service_search_pattern"] == .list([.object(["uuid": .string("110B"), "name": .string("Audio Sink")])]))
        #expect(h.event(a)?.summary == "SDP Service Search Attribute Response (transaction 1): 0 bytes of attributes")
    }
}

@Suite("AVCTP and AVRCP")
struct AVCTPTests {
    @Test("pass-through keys, AVRCP PDUs with their events and volume, and unit info")
    func avrcp() throws {
        // Pass through Play pressed (control), then released.
        let play = try AVCTPFrame.parse([0x10, 0x11, 0x0E, 0x00, 0x48, 0x7C, 0x44, 0x00][...], browsing: false)
        #expect(play.pid == 0x110E && play.avc?.passThrough?.operation == 0x44 && play.avc?.passThrough?.released == false)
        var b = TextBytes()
        play.writeText(into: &b)
        #expect(b.string == "AVRCP pass through control: Play pressed (label 1)")
        // Register Notification for Volume Changed, answered interim with volume 0x5A.
        let reg = try AVCTPFrame.parse([0x02, 0x11, 0x0E, 0x0F, 0x48, 0x00, 0x00, 0x19, 0x58, 0x31, 0x00, 0x00, 0x02, 0x0D, 0x5A][...], browsing: false)
        #expect(reg.response && reg.avc?.avrcp?.pdu == 0x31)
        b.removeAll()
        reg.writeText(into: &b)
        #expect(b.string == "AVRCP Register Notification interim: Volume Changed, volume 90/127 (label 0)")
        // Browsing channel messages are not AV/C.
        #expect(try AVCTPFrame.parse([0x10, 0x11, 0x0E, 0x71, 0x00, 0x00][...], browsing: true).avc == nil)
        #expect(throws: ByteError.self) { try AVCTPFrame.parse([0x10, 0x11][...], browsing: false) }
    }
}
