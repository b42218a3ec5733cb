/// BR/EDR signaling in the signaling layer: each command of a C-frame on CID 0x0001 is read, and the channel
/// table of the connection follows Connection (and Create Channel) Requests and Responses, Configuration and
/// Disconnection, so that every dynamic channel is named by its PSM. Basic-mode frames of an ATT channel
/// (PSM 0x001F) go to the ATT layer.
extension SignalingLayer {
    struct PendingBREDROpen {
        var psm: UInt16
        var scid: UInt16
        var direction: Direction
    }

    func decodeBREDRSignaling(_ frame: L2CAPFrame, connection: Connection, event e: inout TraceEvent) {
        var parsed: BREDRSignalingFrame
        do {
            parsed = try BREDRSignalingFrame.parse(frame.payload)
        } catch {
            let reason = (error as? ByteError)?.description ?? "\(error)"
            e.body = .signaling(SignalingBody(.bredr(BREDRSignalingFrame(commands: [], problem: reason, bytes: frame.payload))))
            return
        }
        parsed.bytes = frame.payload
        bredrCommands += parsed.commands.count
        for i in parsed.commands.indices {
            parsed.commands[i].psm = track(parsed.commands[i], connection: connection, e)
        }
        e.body = .signaling(SignalingBody(.bredr(parsed)))
    }

    /// Follows one command in the channel table; returns the PSM of the channel it is about, where known.
    func track(_ entry: BREDRSignalingEntry, connection: Connection, _ e: TraceEvent) -> UInt16? {
        let d = e.direction
        let conn = connection.id
        func channel(_ direction: Direction, _ cid: UInt16) -> Channel? {
            channels[WireKey(connection: conn, direction: direction, cid: cid)]
        }
        switch entry.command {
        case let .connectionRequest(psm, scid), let .createChannelRequest(psm, scid, _):
            if bredrOpens[conn, default: [:]].count < 256 {
                bredrOpens[conn, default: [:]][entry.identifier] = PendingBREDROpen(psm: psm, scid: scid, direction: d)
            }
            return psm
        case let .connectionResponse(dcid, scid, result, _), let .createChannelResponse(dcid, scid, result, _):
            guard let req = bredrOpens[conn]?[entry.identifier], req.scid == scid else { return nil }
            if result == 1 { return req.psm }   // pending: the final response follows
            bredrOpens[conn]?[entry.identifier] = nil
            if result == 0, dcid != 0, channels.count < SignalingLayer.maxChannels {
                // Frames to the requester carry its source CID; frames to the responder carry the destination CID.
                let ch = Channel(psm: req.psm, bearer: scid, openedRecord: e.record, mtu: 672, creditBased: false)
                if req.psm == 0x0019 {
                    ch.avdtpMedia = avdtpSignaling.contains(conn)
                    if !ch.avdtpMedia { avdtpSignaling.insert(conn) }
                }
                channels[WireKey(connection: conn, direction: SignalingLayer.opposite(req.direction), cid: scid)] = ch
                channels[WireKey(connection: conn, direction: req.direction, cid: dcid)] = ch
                connection.opened(psm: req.psm)
                if opened.count < 1000 {
                    opened.append((e.record, conn, req.psm, "\(Hex.hex(scid, width: 4))/\(Hex.hex(dcid, width: 4))"))
                }
            }
            return req.psm
        case let .creditBasedConnectionRequest(spsm, mtu, _, _, scids):
            // Enhanced credit-based channels (EATT over BR/EDR among them): K-frames, as on LE.
            if pendingOpens[conn, default: [:]].count < 256 {
                pendingOpens[conn, default: [:]][entry.identifier] = PendingOpen(spsm: spsm, scids: scids, direction: d, mtu: mtu)
            }
            return spsm
        case let .creditBasedConnectionResponse(_, _, _, _, dcids):
            guard let o = open(connection, e, identifier: entry.identifier, dcids: dcids) else { return nil }
            if o.count > 0 { connection.opened(psm: o.spsm) }
            return o.spsm
        case let .configurationRequest(dcid, flags, options):
            // The requester's frames on the channel carry `dcid`. A request without the retransmission and flow
            // control option asks for basic mode: a channel whose first request asked for enhanced retransmission,
            // was refused and asked again without it is a basic-mode channel.
            guard let ch = channel(d, dcid) else { return nil }
            var mode: UInt8? = ch.configurationContinues ? nil : 0
            for o in options {
                if case let .retransmissionAndFlowControl(m, _, _, _, _, _) = o.value { mode = m }
                if case let .mtu(m) = o.value { ch.mtu = m }
            }
            if let m = mode { ch.mode = m }
            ch.configurationContinues = flags & 1 != 0
            return ch.psm
        case let .configurationResponse(scid, _, result, options):
            // The response goes to the endpoint `scid`; its sender's frames carry that CID. Unacceptable
            // parameters with a mode: the mode the responder will accept, which the next request asks for.
            guard let ch = channel(d, scid) else { return nil }
            if result == 1 {
                for o in options { if case let .retransmissionAndFlowControl(m, _, _, _, _, _) = o.value { ch.mode = m } }
            }
            return ch.psm
        case let .disconnectionRequest(dcid, _):
            return channel(d, dcid)?.psm
        case let .disconnectionResponse(dcid, scid):
            // The response's sender owns dcid (frames to it travel the other way); the request's sender owns scid.
            let a = WireKey(connection: conn, direction: SignalingLayer.opposite(d), cid: dcid)
            let b = WireKey(connection: conn, direction: d, cid: scid)
            let closing = channels[a] ?? channels[b]
            if let ch = closing, ch.psm == 0x0019, !ch.avdtpMedia { avdtpSignaling.remove(conn) }
            let psm = closing?.psm
            channels[a] = nil
            channels[b] = nil
            return psm
        default:
            return nil
        }
    }

    /// A frame of a BR/EDR channel opened by a Connection Request: ATT in basic mode goes to the ATT layer;
    /// anything else is shown as the channel's payload, named by its PSM.
    func decodeBasic(_ frame: L2CAPFrame, _ ch: Channel, connection: Connection, event e: inout TraceEvent, _ p: Pipeline) {
        if ch.psm == 0x001F, ch.mode == 0, let att {
            att.decodeATT(frame.payload, connection: connection, bearer: ch.bearer, event: &e, p)
            return
        }
        if ch.psm == 0x0019, ch.mode == 0 {
            if ch.avdtpMedia, let m = A2DPMediaPacket.parse(frame.payload) {
                if ch.inferred { followInferred(frame.payload, connection: connection.id, record: e.record) }
                mediaPacket(frame.payload, connection: connection.id, record: e.record, at: e.timestamp, p)
                e.body = .signaling(SignalingBody(.a2dpMedia(m)))
                return
            }
            if !ch.avdtpMedia, let s = try? AVDTPSignal.parse(frame.payload) {
                followAVDTP(s, connection: connection.id, record: e.record)
                e.body = .signaling(SignalingBody(.avdtp(s)))
                return
            }
        }
        if ch.mode == 0, ch.psm == 0x0003, let f = try? RFCOMMFrame.parse(frame.payload) {
            p.chain.rfcomm(f, connection: connection.id, record: e.record)
            e.body = .signaling(SignalingBody(.rfcomm(f)))
            return
        }
        if ch.mode == 0, ch.psm == 0x0017 || ch.psm == 0x001B,
           let f = try? AVCTPFrame.parse(frame.payload, browsing: ch.psm == 0x001B) {
            e.body = .signaling(SignalingBody(.avctp(f)))
            return
        }
        if ch.mode == 0, ch.psm == 0x0011 || ch.psm == 0x0013,
           let m = try? HIDMessage.parse(frame.payload, interrupt: ch.psm == 0x0013) {
            hid.take(m, connection: connection.id, at: e.timestamp)
            e.body = .signaling(SignalingBody(.hid(m)))
            return
        }
        if ch.mode == 0, ch.psm == 0x0001, let p = try? SDPPDU.parse(frame.payload) {
            e.body = .signaling(SignalingBody(.sdp(p)))
            return
        }
        e.body = .l2cap(L2CAPPayload(payload: frame.payload, noOpening: ch.inferred))
    }

    /// What AVDTP signaling tells the A2DP stream: the codec a Set Configuration or Reconfigure chose (unless
    /// the peer rejected it), and whether the stream is started.
    func followAVDTP(_ s: AVDTPSignal, connection: Int, record: Int) {
        switch (s.signal, s.messageType, s.content) {
        case let (0x03?, .command, .capabilities(_, _, caps)), let (0x05?, .command, .capabilities(_, _, caps)):
            if let codec = caps.lazy.compactMap({ $0.codec }).first { a2dp.configured(connection, codec, record: record) }
        case (0x03?, .reject, _), (0x05?, .reject, _):
            a2dp.rejected(connection)
        case (0x07?, .accept, _):
            a2dp.streaming(connection, true)
        case (0x08?, .accept, _), (0x09?, .accept, _), (0x0A?, .accept, _):
            a2dp.streaming(connection, false)
        default:
            break
        }
    }
}
