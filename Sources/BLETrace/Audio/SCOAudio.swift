/// HFP voice over HCI SCO/eSCO in the audio layer: one stream per SCO handle and direction, its format taken
/// from what the trace negotiated (`SCOSetups`) or from its bytes, its PCM decoded (linear, µ-law, A-law,
/// H2-framed mSBC through libsbc, H2-framed LC3-SWB through liblc3, or CVSD bits through `CVSDDecoder`), its
/// gaps found three ways: packets the controller flagged (erroneous data reporting: the packet status flag),
/// mSBC or LC3-SWB frames missing from the H2 sequence, and packets that stopped coming (underruns). Fed only
/// when the layer is in the chain, so other runs never see an SCO payload.
extension A2DPAudio {
    /// What the layer keeps per SCO stream.
    final class SCOState {
        let stream: AudioStream
        let format: SCOFormat
        var framer = MSBCFramer()
        var decoder: SBCDecoder?
        /// LC3-SWB: its framer and decoder (liblc3, made when the run decodes).
        var swbFramer = LC3SWBFramer()
        var lc3: LC3Decoder?
        /// CVSD bits: our own decoder (`CVSDDecoder`), made when the run decodes.
        var cvsd: CVSDDecoder?
        var wav: WAVWriter?
        var outputReady = false
        var started = false
        /// Microseconds: when the audio delivered so far runs out; the arrival of audio position 0; the audio
        /// the packets carried plus the silence put in gaps.
        var bufferEnd: Double = 0
        var origin: Int64 = 0
        var delivered: Double = 0
        var previousTransit: Int64?
        var previousRecord = 0
        var expectedSequence: UInt8?
        /// Since the last mSBC frame: an underrun (its silence already covers what the H2 sequence skipped),
        /// flagged bytes skipped or a flagged frame (the frames they spoiled belong to the flagged dropout).
        var gapSinceFrame = false
        var spoiledSinceFrame = false
        var previousFlagged = false
        /// The dropout of flagged packets still growing (an index into the stream's dropouts).
        var openDropout: Int?
        /// mSBC: the dropout of flagged packets not yet placed (no spoiled frame has come out yet).
        var pendingFlag: AudioDropout?
        var pcm: [Int16] = []
        init(_ s: AudioStream, _ f: SCOFormat) {
            stream = s
            format = f
        }
    }

    /// The stream of an SCO handle and direction, made at its first packet.
    func scoState(_ handle: UInt16, sent: Bool, first payload: ArraySlice<UInt8>, record: Int) -> SCOState? {
        let key = Int(handle) << 1 | (sent ? 1 : 0)
        if let s = scoStates[key] { return s }
        guard streams.count < A2DPAudio.maxStreams else { return nil }
        let negotiation = setups.byHandle[handle] ?? SCONegotiation()
        let negotiated = negotiation.format(sent: sent)
        var found = negotiated ?? .linear(rate: 8000, bits: 16, encoding: 1)
        // H2-framed mSBC is recognisable whatever the negotiation said (but for LC3-SWB, whose frames have no
        // syncword: one of them may start with mSBC's by chance).
        if found != .msbc, found != .lc3, A2DPAudio.looksLikeMSBC(payload) { found = .msbc }
        let s = AudioStream(number: streams.count + 1, source: .sco(connection: connectionOf(handle), handle: handle, sent: sent))
        var voice = SCOVoice(handle: handle, sent: sent, negotiation: negotiation, negotiated: negotiated, found: found, foundRecord: record)
        voice.frameMicros = found.h2Framed ? 7500 : Int64(payload.count) * 1_000_000 / Int64(max(1, found.bytesPerSecond))
        s.voice = voice
        streams.append(s)
        let st = SCOState(s, found)
        scoStates[key] = st
        return st
    }

    /// An H2 header with its mSBC syncword in the packet.
    static func looksLikeMSBC(_ p: ArraySlice<UInt8>) -> Bool {
        var f = MSBCFramer()
        f.buffer = Array(p.prefix(64))
        return (0..<max(0, f.buffer.count - 2)).contains { f.header(at: $0, sync: true) != nil }
    }

    /// An HCI SCO data packet (Core 5.4 Vol 4 Part E 5.4.3): handle, packet status flag, length, voice bytes.
    func sco(_ data: ArraySlice<UInt8>, direction: Direction, record: Int, at time: Timestamp) {
        var c = ByteCursor(data)
        guard let hf = try? c.u16le(), let declared = try? c.u8() else { return }
        let handle = hf & 0x0FFF, status = UInt8((hf >> 12) & 3)
        let payload = c.rest().prefix(Int(declared))
        let sent = direction == .hostToController
        guard let st = scoState(handle, sent: sent, first: payload, record: record) else { return }
        let s = st.stream
        s.arrived(record: record, at: time)
        if payload.count < Int(declared) {
            s.payloadErrors += 1
            s.error(AudioRecordProblem(record: record, kind: .scoShort(declared: Int(declared), present: payload.count)))
        }
        prepareOutput(st)
        let micros = Double(payload.count) * 1_000_000 / Double(max(1, st.format.bytesPerSecond))
        scoTiming(st, micros: micros, record: record, at: time.micros)
        if status != 0 {
            flagged(st, status: status, record: record, at: time, micros: micros)
        } else {
            st.previousFlagged = false
            if !st.format.h2Framed { st.openDropout = nil }
        }
        switch st.format {
        case .msbc:
            st.framer.push(payload, record: record, tainted: status != 0) { h2Output(st, $0) }
        case .lc3:
            st.swbFramer.push(payload, record: record, tainted: status != 0) { h2Output(st, $0) }
        case .linear, .muLaw, .aLaw:
            voicePCM(st, payload, silent: status == 2)
        case .cvsd:
            voiceCVSD(st, payload, silent: status == 2)
        default:
            // Not decoded: the time line advances by the bytes' duration.
            s.frames += 1
            s.positionSamples += Int(micros * Double(s.sampleRate) / 1_000_000)
        }
        st.previousRecord = record
    }

    /// Makes the stream's decoder, level and WAV file (once, when the run decodes).
    func prepareOutput(_ st: SCOState) {
        guard options.decode, !st.outputReady else { return }
        st.outputReady = true
        guard st.format.decoded else { return }
        if st.format == .msbc {
            if decodingUnavailable != nil { return }
            do { st.decoder = try SBCDecoder(msbc: true) } catch {
                decodingUnavailable = error as? AudioCodecError ?? .unavailable("\(error)")
                return
            }
        }
        if st.format == .lc3 {
            if lc3Unavailable != nil { return }
            do { st.lc3 = try LC3Decoder(frameMicros: LC3SWBFramer.frameMicros, sampleRate: LC3SWBFramer.sampleRate) } catch {
                lc3Unavailable = error as? AudioCodecError ?? .unavailable("\(error)")
                return
            }
        }
        if st.format == .cvsd { st.cvsd = CVSDDecoder() }
        let s = st.stream
        s.level = AudioLevel(samplesPerSecond: s.sampleRate)
        st.wav = options.output?(s, s.sampleRate, 1)
        if s.positionSamples > 0 { st.wav?.silence(frames: s.positionSamples) }
    }

    /// Arrival against the audio delivered so far: late packets, underruns (silence put in), jitter.
    func scoTiming(_ st: SCOState, micros: Double, record: Int, at now: Int64) {
        let s = st.stream
        let arrival = Double(now)
        if !st.started {
            st.started = true
            st.bufferEnd = arrival
            st.origin = now
        }
        let behind = A2DPAudio.bounded(arrival - st.bufferEnd)
        if s.frameMicros > 0, behind > 2 * s.frameMicros {
            flushFramer(st)
            s.underruns += 1
            s.dropout(AudioDropout(kind: .underrun, record: record, previousRecord: st.previousRecord, at: Timestamp(micros: now),
                                   positionMicros: positionMicros(s), durationMicros: behind))
            scoSilence(st, Int(behind * Int64(s.sampleRate) / 1_000_000))
            st.delivered += Double(behind)
            st.gapSinceFrame = true
            st.openDropout = nil
        } else if behind > 0, st.previousTransit != nil {
            s.latePackets += 1
        }
        let transit = now &- st.origin &- Int64(st.delivered)
        if let prev = st.previousTransit {
            s.jitterMicros += (Double((transit &- prev).magnitude) - s.jitterMicros) / 16
        }
        st.previousTransit = transit
        st.delivered += micros
        st.bufferEnd = max(st.bufferEnd, arrival) + micros
    }

    func positionMicros(_ s: AudioStream) -> Int64 { Int64(s.positionSamples) * 1_000_000 / Int64(max(1, s.sampleRate)) }

    /// Silence put in a gap: on the time line and in the WAV file.
    func scoSilence(_ st: SCOState, _ samples: Int) {
        guard samples > 0 else { return }
        st.stream.positionSamples += samples
        st.stream.gapSamples += samples
        st.wav?.silence(frames: samples)
    }

    /// A packet the controller flagged: counted by status, and a dropout (consecutive flagged packets make one).
    /// PCM: the packet's own time. mSBC: the frames its bytes spoiled, so the dropout is placed when the first
    /// of them comes out of the framer (`openFlagged`) and grows with each.
    func flagged(_ st: SCOState, status: UInt8, record: Int, at time: Timestamp, micros: Double) {
        let s = st.stream
        switch status {
        case 1: s.voice?.possiblyInvalid += 1
        case 2: s.voice?.noData += 1
        default: s.voice?.partiallyLost += 1
        }
        defer { st.previousFlagged = true }
        if st.previousFlagged, var p = st.pendingFlag, case let .erroneous(first, n) = p.kind {
            p.kind = .erroneous(status: first, packets: n + 1)
            st.pendingFlag = p
            return
        }
        let duration = st.format.h2Framed ? 0 : Int64(micros)
        if st.previousFlagged, let i = st.openDropout, i < s.dropouts.count, case let .erroneous(first, n) = s.dropouts[i].kind {
            s.dropouts[i].kind = .erroneous(status: first, packets: n + 1)
            s.dropouts[i].durationMicros += duration
            return
        }
        let d = AudioDropout(kind: .erroneous(status: status, packets: 1), record: record, previousRecord: st.previousRecord,
                             at: time, positionMicros: positionMicros(s), durationMicros: duration, filled: st.format.h2Framed || status == 2)
        if st.format.h2Framed {
            st.pendingFlag = d
        } else {
            open(st, d)
        }
    }

    func open(_ st: SCOState, _ d: AudioDropout) {
        let s = st.stream
        s.dropout(d)
        st.openDropout = s.dropouts.count == s.dropoutCount ? s.dropouts.count - 1 : nil
    }

    /// The pending flagged-packet dropout of an mSBC stream, placed where the stream is now.
    func openFlagged(_ st: SCOState) {
        guard var d = st.pendingFlag else { return }
        st.pendingFlag = nil
        d.positionMicros = positionMicros(st.stream)
        open(st, d)
    }

    /// Linear, µ-law or A-law samples: decoded into the level and the WAV file (a "no data" packet is silence).
    func voicePCM(_ st: SCOState, _ payload: ArraySlice<UInt8>, silent: Bool) {
        let s = st.stream
        st.pcm.removeAll(keepingCapacity: true)
        VoicePCM.decode(payload, st.format, into: &st.pcm)
        s.frames += 1
        if silent {
            scoSilence(st, st.pcm.count)
            return
        }
        s.positionSamples += st.pcm.count
        guard options.decode else { return }
        st.pcm.withUnsafeBufferPointer { p in
            s.level?.add(p)
            st.wav?.write(p)
        }
        s.decodedFrames += 1
    }

    /// CVSD bits (one byte is eight steps at 64 kHz, one sample at 8 kHz): decoded into the level and the WAV file
    /// when the run decodes, else only counted on the time line. A "no data" packet is silence, and its zeros do
    /// not reach the decoder (they would read as a run down to full scale).
    func voiceCVSD(_ st: SCOState, _ payload: ArraySlice<UInt8>, silent: Bool) {
        let s = st.stream
        s.frames += 1
        if silent {
            scoSilence(st, payload.count)
            return
        }
        s.positionSamples += payload.count
        guard st.cvsd != nil else { return }
        st.pcm.removeAll(keepingCapacity: true)
        st.cvsd?.decode(payload, into: &st.pcm)
        st.pcm.withUnsafeBufferPointer { p in
            s.level?.add(p)
            st.wav?.write(p)
        }
        s.decodedFrames += 1
    }

    /// Frames still in an H2 framer come out (a gap, the link's end, the capture's end).
    func flushFramer(_ st: SCOState) {
        switch st.format {
        case .msbc: st.framer.flush { h2Output(st, $0) }
        case .lc3: st.swbFramer.flush { h2Output(st, $0) }
        default: break
        }
    }

    /// What the mSBC or LC3-SWB framer handed out.
    func h2Output(_ st: SCOState, _ o: MSBCFramer.Output) {
        let s = st.stream
        switch o {
        case let .skipped(n, record, tainted):
            // Bytes before the first frame, after a gap or in flagged packets are expected; others are not.
            if tainted {
                openFlagged(st)
                st.spoiledSinceFrame = true
            } else if !st.gapSinceFrame, !st.spoiledSinceFrame, s.frames > 0 {
                s.payloadErrors += 1
                s.error(AudioRecordProblem(record: record, kind: .msbcSkipped(bytes: n)))
            }
        case let .frame(f):
            h2Frame(st, f)
        }
    }

    /// One mSBC or LC3-SWB frame: its place in the H2 sequence, then its samples.
    func h2Frame(_ st: SCOState, _ f: MSBCFramer.Frame) {
        let s = st.stream
        let swb = st.format == .lc3
        let samples = swb ? LC3SWBFramer.samplesPerFrame : SBCFrameHeader.msbcFrame.samplesPerFrame
        if s.found == nil, !swb {
            s.found = SBCFrameHeader.msbcFrame
            s.foundRecord = f.record
        }
        if let expected = st.expectedSequence, f.sequence != expected {
            let missing = Int((f.sequence &- expected) & 3)
            if st.gapSinceFrame {
                // The underrun's silence already stands for them.
            } else if st.spoiledSinceFrame {
                scoSilence(st, missing * samples)
                grow(st, Int64(missing) * s.frameMicros)
            } else {
                s.lostPackets += missing
                s.dropout(AudioDropout(kind: .missingFrames(missing), record: f.record, previousRecord: st.previousRecord,
                                       at: s.last ?? Timestamp(micros: 0), positionMicros: positionMicros(s),
                                       durationMicros: Int64(missing) * s.frameMicros))
                scoSilence(st, missing * samples)
                st.bufferEnd += Double(missing) * Double(s.frameMicros)
                st.delivered += Double(missing) * Double(s.frameMicros)
            }
        }
        st.expectedSequence = (f.sequence &+ 1) & 3
        st.gapSinceFrame = false
        s.frames += 1
        if f.tainted {
            // Bytes the controller did not vouch for: the frame is lost, its time silence.
            scoSilence(st, samples)
            grow(st, s.frameMicros)
            st.spoiledSinceFrame = true
            return
        }
        // Flagged bytes still in the framer belong to frames after this one.
        if !f.flaggedAhead { openFlagged(st) }
        st.spoiledSinceFrame = false
        st.openDropout = nil
        if let p = f.problem {
            s.decodeErrors += 1
            s.error(AudioRecordProblem(record: f.record, kind: swb ? .lc3SWB(p) : .msbc(p)))
            s.positionSamples += samples
            st.wav?.silence(frames: samples)
            return
        }
        s.positionSamples += samples
        let ok: Bool
        if let decoder = st.decoder {
            ok = decoder.decode(f.bytes[...]) { pcm in
                s.level?.add(pcm)
                st.wav?.write(pcm)
            }
        } else if let lc3 = st.lc3 {
            // A refused frame's concealment is not played: its time is silence, as an mSBC frame's.
            ok = lc3.decode(f.bytes[...]) { _ in }
            if ok {
                lc3.output.withUnsafeBufferPointer { pcm in
                    s.level?.add(pcm)
                    st.wav?.write(pcm)
                }
            }
        } else {
            return
        }
        if ok {
            s.decodedFrames += 1
        } else {
            s.decodeErrors += 1
            s.error(AudioRecordProblem(record: f.record, kind: .decode(frame: 0)))
            st.wav?.silence(frames: samples)
        }
    }

    /// Lengthens the open dropout of flagged packets.
    func grow(_ st: SCOState, _ micros: Int64) {
        let s = st.stream
        openFlagged(st)
        guard let i = st.openDropout, i < s.dropouts.count else { return }
        s.dropouts[i].durationMicros += micros
    }

    /// After the last record: frames still in the framers.
    func finishSCO() {
        for st in scoStates.values {
            flushFramer(st)
            openFlagged(st)
        }
    }

    /// The connection an SCO handle belongs to (its Synchronous Connection Complete opened one).
    func connectionOf(_ handle: UInt16) -> Int? { pipeline?.connections.latest(handle)?.id }

    /// Fed by the chain's `hciCommand` hook: synchronous link setup commands.
    func hciCommand(_ body: HCICommandBody, record: Int) {
        let connections = pipeline?.connections
        setups.command(body, record: record) { h in connections?.existing(h)?.peer }
    }

    /// Fed by the chain's `hciEvent` hook: a synchronous link established, or a link closed. A handle's streams
    /// end with its link, so a handle used again starts new streams (not a pause of the old ones).
    func hciEvent(_ body: HCIEventBody, record: Int) {
        switch body.params {
        case let .classic(.synchronousConnectionComplete(0, h, a, link, _, _, _, _, air)):
            retire(h)
            setups.completed(handle: h, peer: a, linkType: link, airMode: air, record: record)
        case let .disconnectionComplete(0, h, _):
            retire(h)
        default:
            break
        }
    }

    /// Ends the streams of an SCO handle: frames still in the framer come out; the stream stays listed and its
    /// WAV file is closed with the others at the end.
    func retire(_ handle: UInt16) {
        for key in [Int(handle) << 1, Int(handle) << 1 | 1] {
            guard let st = scoStates.removeValue(forKey: key) else { continue }
            flushFramer(st)
            openFlagged(st)
            retiredSCO.append(st)
        }
    }

    /// Fed by the chain's `rfcomm` hook: HFP's codec negotiation.
    func rfcomm(_ f: RFCOMMFrame, connection: Int, record: Int) {
        setups.rfcomm(f, peer: pipeline?.connections.connection(id: connection)?.peer, record: record)
    }
}
