/// LE Audio in the audio layer: one stream per CIS or BIS and direction, its LC3 configuration taken from the
/// ASE the CIS carries (`AudioStreams`: the ASCS Codec Configured value) or from the BASE of the BIS's broadcast
/// (`BISConfiguration`, from `Broadcasts`), each SDU split into codec frames
/// (octets per frame × channels × blocks) decoded through liblc3, its gaps found from the ISO packet sequence
/// numbers, the SDUs the controller flagged lost, and SDUs that stopped coming (underruns). Fed only when the
/// layer is in the chain (`Chain.isoAudio`), so other runs never look at an SDU's bytes.
extension A2DPAudio {
    /// What the layer keeps per ISO stream.
    final class ISOState {
        let stream: AudioStream
        var decoders: [LC3Decoder] = []
        var wav: WAVWriter?
        var outputReady = false
        var started = false
        var expectedSequence: UInt16?
        /// Microseconds: when the audio delivered so far runs out.
        var bufferEnd: Double = 0
        var previousRecord = 0
        /// An SDU under reassembly: its first packet's header, record and time, and the bytes so far.
        var pending: (header: ISOHeader, record: Int, time: Timestamp)?
        var fragments: [UInt8] = []
        var pcm: [Int16] = []
        init(_ s: AudioStream) { stream = s }
    }

    /// An SDU longer than this is not reassembled further (the SDU length field has 12 bits).
    static let maxSDU = 4096

    /// An ISO data packet (its parsed header and the packet's bytes), from the chain's `isoAudio` hook.
    func iso(_ h: ISOHeader, _ data: ArraySlice<UInt8>, connection: Int?, direction: Direction, record: Int, at time: Timestamp) {
        let sent = direction == .hostToController
        guard let st = isoState(h.handle, connection: connection, sent: sent, record: record) else { return }
        // The packet's SDU bytes: the tail of its data load (`ISOData.parse` checked the lengths).
        let payload = data.dropFirst(4).prefix(Int(h.length)).suffix(h.dataLength)
        switch h.boundary {
        case 2:
            st.pending = nil
            sdu(st, h, payload, record: record, at: time)
        case 0:
            st.pending = (h, record, time)
            st.fragments = Array(payload.prefix(A2DPAudio.maxSDU))
        default:
            guard let p = st.pending else { return }
            st.fragments.append(contentsOf: payload.prefix(max(0, A2DPAudio.maxSDU - st.fragments.count)))
            if h.boundary == 3 {
                st.pending = nil
                sdu(st, p.header, st.fragments[...], record: p.record, at: p.time)
            }
        }
    }

    /// The stream of a CIS handle and direction, made at its first packet (a handle reused by a new CIS starts a new one).
    func isoState(_ handle: UInt16, connection: Int?, sent: Bool, record: Int) -> ISOState? {
        let key = (connection ?? 0xFFFFF) << 13 | Int(handle) << 1 | (sent ? 1 : 0)
        if let s = isoStates[key] { return s }
        guard streams.count < A2DPAudio.maxStreams else { return nil }
        let s = AudioStream(number: streams.count + 1, source: .iso(connection: connection, handle: handle, sent: sent))
        s.lc3 = lc3Stream(connection: connection, handle: handle, sent: sent)
        streams.append(s)
        let st = ISOState(s)
        isoStates[key] = st
        return st
    }

    /// The ASE a CIS direction carries: of the ASEs on the CIS, a Sink ASE when the audio goes from the central
    /// (the unicast client) to the peripheral, a Source ASE the other way. A BIS: its index and the BASE's
    /// configuration for it.
    func lc3Stream(connection: Int?, handle: UInt16, sent: Bool) -> LC3Stream {
        var l = LC3Stream()
        guard let id = connection, let p = pipeline else { return l }
        if case let .bis(big, index, _)? = p.connections.connection(id: id)?.iso?.kind {
            l.big = big
            l.bis = UInt8(truncatingIfNeeded: index)
            guard let b = p.chain.broadcasts.flatMap({ BISConfiguration($0, handle: handle, big: big) }) else { return l }
            l.bis = b.index
            l.negotiated = b.codec.flatMap(LC3Configuration.init)
            l.negotiatedRecord = l.negotiated == nil ? nil : b.record
            return l
        }
        guard let ases = p.chain.audioStreams else { return l }
        let fromCentral = p.connections.connection(id: id)?.role == 1 ? !sent : sent
        let carried = ases.streams.filter { ases.carrier($0)?.id == id }
        guard let a = carried.last(where: { $0.sink == fromCentral }) else { return l }
        l.ase = a.ase
        l.sink = a.sink
        l.negotiated = a.codec.flatMap(LC3Configuration.init)
        l.negotiatedRecord = a.states.last { $0.state == 1 }?.record
        return l
    }

    /// One whole SDU: its sequence and timing, then its frames.
    func sdu(_ st: ISOState, _ h: ISOHeader, _ bytes: ArraySlice<UInt8>, record: Int, at time: Timestamp) {
        let s = st.stream
        s.arrived(record: record, at: time)
        prepareLC3(st)
        let sduSamples = s.lc3?.negotiated.map { $0.blocksPerSDU * $0.frameMicros * $0.sampleRate / 1_000_000 } ?? 0
        isoSequence(st, h, samples: sduSamples, record: record, at: time)
        isoTiming(st, record: record, at: time.micros)
        let status = h.status ?? 0
        if status == 1 { s.lc3?.invalidSDUs += 1 }
        if status == 2 || bytes.isEmpty {
            // Nothing to play: the SDU's time is silence.
            if status == 2 {
                s.lc3?.lostSDUs += 1
                s.dropout(AudioDropout(kind: .erroneous(status: 2, packets: 1), record: record, previousRecord: st.previousRecord,
                                       at: time, positionMicros: positionMicros(s), durationMicros: s.frameMicros))
            } else {
                s.lc3?.emptySDUs += 1
            }
            isoSilence(st, sduSamples)
        } else {
            lc3Frames(st, bytes, record: record)
        }
        st.previousRecord = record
    }

    /// Packet sequence numbers skipped before this SDU: that many SDUs lost, their time silence.
    func isoSequence(_ st: ISOState, _ h: ISOHeader, samples: Int, record: Int, at time: Timestamp) {
        guard let n = h.sequence else { return }
        defer { st.expectedSequence = n &+ 1 }
        guard let expected = st.expectedSequence, n != expected else { return }
        let s = st.stream
        let skipped = Int(n &- expected)
        // A step back or a huge jump is a restart, not a loss (as `ISOStreams` counts them).
        guard skipped < 0x8000 else {
            s.sequenceJumps += 1
            return
        }
        s.lostPackets += skipped
        let micros = Int64(skipped) * s.frameMicros
        s.dropout(AudioDropout(kind: .lost(packets: skipped), record: record, previousRecord: st.previousRecord, at: time,
                               positionMicros: positionMicros(s), durationMicros: micros))
        isoSilence(st, min(skipped * samples, Int(A2DPAudio.maxPauseMicros) / 1_000_000 * s.sampleRate))
        st.bufferEnd += Double(min(micros, A2DPAudio.maxPauseMicros))
    }

    /// Arrival against the audio delivered so far: late SDUs and underruns (silence put in).
    func isoTiming(_ st: ISOState, record: Int, at now: Int64) {
        let s = st.stream
        let arrival = Double(now)
        if !st.started {
            st.started = true
            st.bufferEnd = arrival
        }
        let behind = A2DPAudio.bounded(arrival - st.bufferEnd)
        if s.frameMicros > 0, behind > 2 * s.frameMicros {
            s.underruns += 1
            s.dropout(AudioDropout(kind: .underrun, record: record, previousRecord: st.previousRecord, at: Timestamp(micros: now),
                                   positionMicros: positionMicros(s), durationMicros: behind))
            isoSilence(st, Int(behind * Int64(s.sampleRate) / 1_000_000))
        } else if behind > 0, s.packets > 1 {
            s.latePackets += 1
        }
        st.bufferEnd = max(st.bufferEnd, arrival) + Double(s.frameMicros)
    }

    /// Silence of `samples` per channel on the time line and in the WAV file.
    func isoSilence(_ st: ISOState, _ samples: Int) {
        guard samples > 0 else { return }
        st.stream.positionSamples += samples
        st.stream.gapSamples += samples
        st.wav?.silence(frames: samples)
    }

    /// Makes the stream's decoders (one per channel), level and WAV file, once, when the run decodes and the
    /// configuration is known.
    func prepareLC3(_ st: ISOState) {
        guard options.decode, !st.outputReady else { return }
        st.outputReady = true
        guard let c = st.stream.lc3?.negotiated, lc3Unavailable == nil else { return }
        do {
            st.decoders = try (0..<c.channels).map { _ in try LC3Decoder(frameMicros: c.frameMicros, sampleRate: c.sampleRate) }
        } catch {
            lc3Unavailable = error as? AudioCodecError ?? .unavailable("\(error)")
            return
        }
        let s = st.stream
        s.level = AudioLevel(samplesPerSecond: c.sampleRate * c.channels)
        st.wav = options.output?(s, c.sampleRate, c.channels)
        if s.positionSamples > 0 { st.wav?.silence(frames: s.positionSamples) }
    }

    /// An SDU's frames: block by block, each channel's frame decoded and the channels interleaved. A frame the
    /// SDU is too short for is concealed and counted as a decode error.
    func lc3Frames(_ st: ISOState, _ bytes: ArraySlice<UInt8>, record: Int) {
        let s = st.stream
        if s.lc3?.foundLength == nil {
            s.lc3?.foundLength = bytes.count
            s.lc3?.foundRecord = record
        }
        guard let c = s.lc3?.negotiated else {
            // No configuration: the SDU is counted, its frames unknown.
            s.frames += 1
            return
        }
        if bytes.count != c.sduLength {
            s.lc3?.mismatchedSDUs += 1
            if s.lc3?.firstMismatchLength == nil { s.lc3?.firstMismatchLength = bytes.count }
            if let n = s.lc3?.mismatchRecords.count, n < AudioStream.maxRecords { s.lc3?.mismatchRecords.append(record) }
        }
        let samples = c.frameMicros * c.sampleRate / 1_000_000
        for block in 0..<c.blocksPerSDU {
            s.frames += c.channels
            s.positionSamples += samples
            guard st.decoders.count == c.channels else { continue }
            // One buffer for the stream, zeroed for each block (no allocation per frame).
            if st.pcm.count == samples * c.channels {
                st.pcm.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            } else {
                st.pcm = [Int16](repeating: 0, count: samples * c.channels)
            }
            var ok = true
            for (ch, decoder) in st.decoders.enumerated() {
                let start = bytes.startIndex + (block * c.channels + ch) * c.octetsPerFrame
                let frame: ArraySlice<UInt8>? = start + c.octetsPerFrame <= bytes.endIndex ? bytes[start..<(start + c.octetsPerFrame)] : nil
                let decoded = decoder.decode(frame) { pcm in
                    for (i, v) in pcm.prefix(samples).enumerated() { st.pcm[i * c.channels + ch] = v }
                }
                if frame != nil, decoded {
                    s.decodedFrames += 1
                } else {
                    ok = false
                    s.decodeErrors += 1
                    s.error(AudioRecordProblem(record: record, kind: .decode(frame: block * c.channels + ch)))
                }
            }
            guard ok else {
                st.wav?.silence(frames: samples)
                continue
            }
            st.pcm.withUnsafeBufferPointer { p in
                s.level?.add(p)
                st.wav?.write(p)
            }
        }
    }

    /// Closes the ISO streams' WAV files: their streams with the others'.
    func finishISO() -> [(AudioStream, WAVWriter?)] {
        isoStates.values.map { st in
            defer {
                st.wav = nil
                st.decoders = []
            }
            return (st.stream, st.wav)
        }
    }
}
