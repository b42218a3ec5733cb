/// Channels never seen opened whose frames look like A2DP SBC media: a capture that starts while music plays
/// holds no L2CAP Connection Request for the media channel and no AVDTP Set Configuration. A BR/EDR dynamic
/// channel (one direction of it: a CID as frames travel one way) becomes a media channel only after `needed`
/// frames in a row each pass `SBCMediaEvidence` and agree with each other: consecutive RTP sequence numbers,
/// one SSRC, one payload type, RTP timestamps moving forward, the same SBC configuration and bitpool. A
/// single lucky frame, or frames that disagree, never make a stream.
///
/// The frames before the one that decides are held (at most `needed - 1` a channel, their bytes copied) so
/// that, once the channel is called media, they are counted into the stream and their events become A2DP
/// media like the rest; a channel that fails lets its held events go unchanged. At most `maxCandidates`
/// channels are followed at a time (a new one replaces the one quiet longest), and one quiet for
/// `staleRecords` records is dropped.
struct A2DPMediaCandidates {
    /// Frames that must agree: three (one frame could be chance; two in sequence from one SSRC almost never
    /// are, a third leaves no doubt at the cost of two frames held).
    static let needed = 3
    static let maxCandidates = 8
    static let staleRecords = 2000

    /// A frame held while its channel is a candidate.
    struct Packet {
        var record: Int
        var time: Timestamp
        var bytes: [UInt8]
    }

    struct Candidate {
        var key: SignalingLayer.WireKey
        var last: SBCMediaEvidence
        var packets: [Packet]
        var lastRecord: Int
    }

    enum Outcome {
        /// Not media, or nothing to decide yet; `hold`: the frame is held as a candidate's.
        case none, hold
        /// The channel is media: the frames held before this one, and the configuration they carried.
        case media(earlier: [Packet], header: SBCFrameHeader)
    }

    private(set) var candidates: [Candidate] = []

    /// One frame on a channel never seen opened: what it decides; `released` gets the records of held frames
    /// whose channel is no longer a candidate.
    mutating func take(_ payload: ArraySlice<UInt8>, key: SignalingLayer.WireKey, record: Int, at time: Timestamp,
                       released: inout [Int]) -> Outcome {
        if !candidates.isEmpty { expire(before: record, released: &released) }
        let index = candidates.firstIndex { $0.key == key }
        guard let ev = SBCMediaEvidence.check(payload) else {
            if let i = index { drop(i, &released) }
            return .none
        }
        // Copied only when held (the frame that decides is decoded where it is).
        var packet: Packet { Packet(record: record, time: time, bytes: Array(payload)) }
        if let i = index, A2DPMediaCandidates.agree(candidates[i].last, ev) {
            if candidates[i].packets.count + 1 >= A2DPMediaCandidates.needed {
                let c = candidates.remove(at: i)
                return .media(earlier: c.packets, header: ev.header)
            }
            candidates[i].packets.append(packet)
            candidates[i].last = ev
            candidates[i].lastRecord = record
            return .hold
        }
        if let i = index { drop(i, &released) }
        if candidates.count >= A2DPMediaCandidates.maxCandidates,
           let quiet = candidates.indices.min(by: { candidates[$0].lastRecord < candidates[$1].lastRecord }) {
            drop(quiet, &released)
        }
        candidates.append(Candidate(key: key, last: ev, packets: [packet], lastRecord: record))
        return .hold
    }

    /// Whether `next` follows `last` on one stream.
    static func agree(_ last: SBCMediaEvidence, _ next: SBCMediaEvidence) -> Bool {
        let advance = next.timestamp &- last.timestamp
        return next.sequence == last.sequence &+ 1 && next.ssrc == last.ssrc && next.payloadType == last.payloadType
            && advance > 0 && advance < 0x8000_0000
            && SBCMediaEvidence.sameConfiguration(last.header, next.header) && last.header.bitpool == next.header.bitpool
    }

    private mutating func drop(_ i: Int, _ released: inout [Int]) {
        released += candidates[i].packets.map(\.record)
        candidates.remove(at: i)
    }

    private mutating func expire(before record: Int, released: inout [Int]) {
        var i = 0
        while i < candidates.count {
            if record - candidates[i].lastRecord > A2DPMediaCandidates.staleRecords { drop(i, &released) } else { i += 1 }
        }
    }
}

extension SignalingLayer {
    /// A frame on a BR/EDR dynamic channel whose opening the capture does not hold: followed as a possible
    /// A2DP media channel (`A2DPMediaCandidates`). The event stays the unknown channel's payload unless the
    /// channel is recognised, when it and the frames held before it become A2DP media.
    func unopened(_ frame: L2CAPFrame, key: WireKey, connection: Connection, event e: inout TraceEvent, _ p: Pipeline) {
        var released: [Int] = []
        let outcome = mediaCandidates.take(frame.payload, key: key, record: e.record, at: e.timestamp, released: &released)
        for r in released { p.release(r) }
        switch outcome {
        case .none:
            return
        case .hold:
            p.hold(e.record)
        case let .media(earlier, header):
            guard channels.count < SignalingLayer.maxChannels else {
                for packet in earlier { p.release(packet.record) }
                return
            }
            let ch = Channel(psm: 0x0019, bearer: frame.cid, openedRecord: e.record, mtu: 672, creditBased: false)
            ch.avdtpMedia = true
            ch.inferred = true
            channels[key] = ch
            let conn = connection.id
            // A2DP runs on BR/EDR only: a handle no Connection Complete opened is BR/EDR.
            if !connection.transportKnown { p.connections.bredrOnly(connection.handle) }
            // With no AVDTP configuration on the connection, the configuration is what the frames carry.
            if a2dp.byConnection[conn]?.codec == nil { a2dp.inferred(conn, header, record: e.record) }
            for packet in earlier {
                if let m = A2DPMediaPacket.parse(packet.bytes[...]) {
                    mediaPacket(packet.bytes[...], connection: conn, record: packet.record, at: packet.time, p)
                    p.update(packet.record) { $0.body = .signaling(SignalingBody(.a2dpMedia(m))) }
                }
                p.release(packet.record)
            }
            decodeBasic(frame, ch, connection: connection, event: &e, p)
        }
    }

    /// A media packet on a channel recognised from its media: a change of SBC configuration (a Reconfigure on
    /// a signaling channel the capture cannot read) is inferred anew from a packet that passes the same checks,
    /// while the connection has no AVDTP configuration.
    func followInferred(_ payload: ArraySlice<UInt8>, connection: Int, record: Int) {
        guard let s = a2dp.byConnection[connection], s.codec == nil, let old = s.inferred,
              let rtp = RTPPacket.parse(payload), let h = try? SBCFrameHeader.parse(rtp.body.dropFirst()), !h.msbc,
              !SBCMediaEvidence.sameConfiguration(old, h), let ev = SBCMediaEvidence.check(payload) else { return }
        a2dp.inferred(connection, ev.header, record: record)
    }

    /// A media packet to the A2DP summary and the audio layer.
    func mediaPacket(_ payload: ArraySlice<UInt8>, connection: Int, record: Int, at time: Timestamp, _ p: Pipeline) {
        a2dp.media(connection, payload: payload, record: record, at: time)
        p.chain.a2dpMedia(connection, record: record, at: time, payload)
    }
}
