/// The audio of an A2DP AAC stream (A2DP 1.4 4.5, RFC 3016 MP4A-LATM, or ADTS): its payloads taken apart into
/// access units and counted, their carried configuration checked against the negotiated one, the RTP sequence
/// and timing followed as for SBC. Not decoded: the time line advances by each access unit's samples.
extension A2DPAudio {
    /// What the layer keeps per AAC stream.
    struct AACState {
        var assembler = AACAssembler()
        /// The RTP timestamp the element after the last one taken apart should have.
        var nextTimestamp: UInt32?
        /// Whether the RTP timestamps count samples, as RFC 3016 and A2DP have them (some stacks count
        /// milliseconds): learnt from the first two whole elements in sequence, assumed until then. Without it a
        /// gap's length comes from the packets missing, each as long as the one before it.
        var sampleClock: Bool?
        var lastWhole: (sequence: UInt16, timestamp: UInt32, samples: Int)?
    }

    func aacMedia(_ connection: Int, record: Int, at time: Timestamp, _ bytes: ArraySlice<UInt8>, info: A2DPStreams.Stream?) {
        guard let rtp = RTPPacket.parse(bytes), let st = state(connection, codec: info?.codec) else { return }
        let s = st.stream
        if s.aac == nil {
            s.aac = AACStream(negotiated: info?.codec.flatMap { $0.mediaType == 0 ? A2DPAACConfiguration($0.parameters) : nil })
        }
        if s.negotiated == nil, let c = info?.codec {
            s.negotiated = c
            s.negotiatedRecord = info?.configuredRecord
        }
        s.arrived(record: record, at: time)
        var dropped = false
        let outcomes = st.aac.assembler.push(rtp, record: record, dropped: &dropped)
        s.aac?.framing = st.aac.assembler.framing
        if dropped { s.aac?.incomplete += 1 }
        var fragmented = false, samples = 0, lostSamples = 0
        var units: [(AACPayload, Int)] = []
        for o in outcomes {
            switch o {
            case .fragment:
                fragmented = true
            case let .malformed(problem, first):
                s.payloadErrors += 1
                s.error(AudioRecordProblem(record: first, kind: .aac(problem)))
            case let .payload(p, first, ts, fragments):
                if fragments > 1 {
                    fragmented = true
                    s.aac?.reassembled += 1
                }
                if s.aac?.found == nil, let c = p.configuration {
                    s.aac?.found = c
                    s.aac?.foundRecord = first
                }
                let n = p.frames * (s.aac?.samplesPerFrame ?? 1024)
                if fragments == 1 {
                    if st.aac.sampleClock == nil, let w = st.aac.lastWhole, w.sequence &+ 1 == rtp.sequence, w.samples > 0 {
                        st.aac.sampleClock = ts &- w.timestamp == UInt32(truncatingIfNeeded: w.samples)
                    }
                    st.aac.lastWhole = (rtp.sequence, ts, n)
                }
                // Elements missing since the last one taken apart, from the RTP timestamps (at most a pause;
                // not across a restart, which starts a new time line).
                if st.aac.sampleClock != false, let expected = st.aac.nextTimestamp, st.expectedSequence != nil, (info?.starts ?? 0) == st.starts {
                    let ahead = Int(Int32(bitPattern: ts &- expected))
                    if ahead > 0 { lostSamples += min(ahead, Int(A2DPAudio.maxPauseMicros / 1_000_000) * max(1, s.sampleRate)) }
                }
                st.aac.nextTimestamp = ts &+ UInt32(truncatingIfNeeded: n)
                samples += n
                units.append((p, first))
            }
        }
        if fragmented { s.fragmentPackets += 1 }
        st.bufferEnd += Double(lostSamples) * 1_000_000 / Double(max(1, s.sampleRate))
        // The sequence gap's length comes from the timestamps (`lostSamples`), as for fragmented SBC; on a
        // millisecond clock from the packets missing.
        timing(st, sequence: rtp.sequence, timestamp: rtp.timestamp, samples: samples, fragmented: st.aac.sampleClock != false, record: record,
               at: time.micros, starts: info?.starts ?? 0)
        if lostSamples > 0 { fragmentLoss(st, lostSamples) }
        if !units.isEmpty { st.lastFrameRecord = record }
        for (p, first) in units { aacFrames(s, p, record: first) }
        st.previousRecord = record
    }

    /// An element's access units on the time line, and its carried configuration against the negotiated one.
    func aacFrames(_ s: AudioStream, _ p: AACPayload, record: Int) {
        s.frames += p.frames
        s.positionSamples += p.frames * (s.aac?.samplesPerFrame ?? 1024)
        guard let c = p.configuration, let n = s.negotiated, n.mediaType == 0, c.matches(configuration: n.parameters) == false else { return }
        s.mismatchedFrames += p.frames
        if s.aac?.firstMismatch == nil { s.aac?.firstMismatch = c }
        if s.mismatchRecords.count < AudioStream.maxRecords, s.mismatchRecords.last != record { s.mismatchRecords.append(record) }
    }
}
