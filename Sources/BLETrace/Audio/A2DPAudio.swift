/// The audio of each A2DP stream: every media packet taken apart into SBC frames, checked against the
/// configuration AVDTP negotiated (the one in force at the packet: when a Reconfigure, or a Close and a new Set
/// Configuration, changes it, the media that follows is a new stream with its own rate, checks and WAV file),
/// its RTP sequence and its timing followed; with `decode`, every frame
/// decoded through libsbc for the signal's level and, where asked, into a WAV file whose gaps are filled with
/// silence. HFP voice over HCI SCO/eSCO joins the same list of streams (`SCOAudio.swift`). An analysis layer
/// added only when audio is asked for (`bletrace audio`): other runs do not carry it and pay nothing for it.
public final class A2DPAudio: AnalysisLayer {
    public struct Options {
        /// Decode frames to PCM (the level, decode errors, WAV output).
        public var decode = false
        /// Where a stream's PCM goes: asked once per stream, at its first frame, with its rate and channels.
        public var output: ((AudioStream, _ sampleRate: Int, _ channels: Int) -> WAVWriter?)?
        public init(decode: Bool = false, output: ((AudioStream, Int, Int) -> WAVWriter?)? = nil) {
            self.decode = decode
            self.output = output
        }
    }

    let a2dp: A2DPStreams
    let options: Options
    public internal(set) var streams: [AudioStream] = []
    var states: [Int: State] = [:]
    /// A2DP streams whose configuration changed: their connection's media went on in a new stream.
    var reconfigured: [State] = []
    /// SCO streams by handle and direction; what the trace negotiated for synchronous links.
    var scoStates: [Int: SCOState] = [:]
    /// SCO streams whose link closed (at most `maxStreams`: every stream is one).
    var retiredSCO: [SCOState] = []
    var setups = SCOSetups()
    /// LC3 streams by CIS connection, handle and direction (`LC3Audio.swift`).
    var isoStates: [Int: ISOState] = [:]
    weak var pipeline: Pipeline?
    var finished = false
    /// Why decoding was asked for and not possible (libsbc missing), if it was not.
    public internal(set) var decodingUnavailable: AudioCodecError?
    /// Why LC3 decoding was not possible (liblc3 missing or refusing the configuration), if it was not.
    public internal(set) var lc3Unavailable: AudioCodecError?
    static let maxStreams = 64
    /// A pause between a Suspend and the next Start is kept on a WAV's time line up to this long.
    static let maxPauseMicros: Int64 = 600_000_000

    /// A time difference in µs within ±`maxPauseMicros`: a capture's clock may jump anywhere, and a gap filled
    /// with silence is never longer than a pause.
    static func bounded(_ micros: Double) -> Int64 {
        guard micros.isFinite else { return 0 }
        return Int64(max(-Double(maxPauseMicros), min(Double(maxPauseMicros), micros)))
    }

    /// What the layer keeps per stream while packets come.
    final class State {
        let stream: AudioStream
        var decoder: SBCDecoder?
        var wav: WAVWriter?
        var wavFormat: (rate: Int, channels: Int)?
        var expectedSequence: UInt16?
        var previousTimestamp: UInt32 = 0
        var previousSamples = 0
        var previousRecord = 0
        /// Microseconds: when the audio delivered so far runs out (fractional: 44.1 kHz frames are not whole
        /// microseconds); the arrival time of audio position 0.
        var bufferEnd: Double = 0
        var origin: Int64 = 0
        var previousTransit: Int64?
        var starts = -1
        /// An SBC frame being put together from fragmented packets; the RTP timestamp the frame after the last
        /// one put together should have (frames lost in between are silence).
        var fragments = SBCFragments()
        var nextFrameTimestamp: UInt32?
        var lastFrameRecord = 0
        /// An AAC stream's framing, element under way and next timestamp (`A2DPAACAudio.swift`).
        var aac = AACState()
        init(_ s: AudioStream) { stream = s }
    }

    public init(a2dp: A2DPStreams, options: Options = Options()) {
        self.a2dp = a2dp
        self.options = options
    }

    /// Fed by the chain's `a2dpMedia`, `sco`, `isoAudio`, `hciCommand`, `hciEvent` and `rfcomm` hooks (`Analyzer.addAudio`).
    public func attach(to pipeline: Pipeline) { self.pipeline = pipeline }

    /// The stream of a connection's media under `codec`, the configuration in force: a configuration unlike the
    /// one the stream's media began under ends that stream, and the media goes on in a new one that follows it
    /// (when no more streams may be made, the old one goes on, its frames checked against its own). A stream
    /// whose configuration was inferred from its media (`inferred`: the one in force, with no AVDTP
    /// configuration) ends the same way when its frames change configuration, or when AVDTP configures the
    /// connection after all.
    func state(_ connection: Int, codec: A2DPCodec?, inferred: SBCFrameHeader? = nil) -> State? {
        var follows: AudioStream?
        if let st = states[connection] {
            let changed: Bool
            if let old = st.stream.inferred {
                changed = codec != nil || inferred.map { !SBCMediaEvidence.sameConfiguration(old, $0) } ?? false
            } else if let c = codec, let old = st.stream.negotiated {
                changed = old != c
            } else {
                changed = false
            }
            guard changed, streams.count < A2DPAudio.maxStreams else { return st }
            st.decoder = nil
            reconfigured.append(st)
            follows = st.stream
        }
        guard streams.count < A2DPAudio.maxStreams else { return nil }
        let s = AudioStream(number: streams.count + 1, source: .a2dp(connection: connection))
        s.follows = follows?.number
        streams.append(s)
        let st = State(s)
        states[connection] = st
        return st
    }

    func media(_ connection: Int, record: Int, at time: Timestamp, _ bytes: ArraySlice<UInt8>) {
        let info = a2dp.byConnection[connection]
        if let codec = info?.codec, codec.codecType == 2 {
            aacMedia(connection, record: record, at: time, bytes, info: info)
            return
        }
        // SBC and AAC only, for now: other codecs' packets are left to the A2DP summary.
        if let codec = info?.codec, codec.codecType != 0 { return }
        let inferred = info?.codec == nil ? info?.inferred : nil
        guard var p = A2DPMediaPayload.parseSBC(bytes), let st = state(connection, codec: info?.codec, inferred: inferred) else { return }
        let s = st.stream
        if s.negotiated == nil, let c = info?.codec {
            s.negotiated = c
            s.negotiatedRecord = info?.configuredRecord
        } else if s.negotiated == nil, s.inferred == nil, let h = inferred {
            s.inferred = h
            s.inferredRecord = info?.inferredRecord
        }
        s.arrived(record: record, at: time)
        var lostSamples = 0
        if p.fragmented {
            s.fragmentPackets += 1
            switch st.fragments.push(p, record: record) {
            case let .frame(h, frame, _, ts)?:
                p.frames.append((h, frame))
                // Frames missing since the last one put together, by their RTP timestamps (at most a pause; not
                // across a restart, which starts a new time line).
                if let expected = st.nextFrameTimestamp, st.expectedSequence != nil, (info?.starts ?? 0) == st.starts {
                    let ahead = Int(Int32(bitPattern: ts &- expected))
                    if ahead > 0 { lostSamples = min(ahead, Int(A2DPAudio.maxPauseMicros / 1_000_000) * max(1, h.sampleRate)) }
                }
                st.nextFrameTimestamp = ts &+ UInt32(h.samplesPerFrame)
            case let .malformed(problem)?:
                p.problem = problem
            case nil:
                break
            }
        }
        if let problem = p.problem {
            s.payloadErrors += 1
            s.error(AudioRecordProblem(record: record, kind: .payload(problem)))
        }
        if s.found == nil, let h = p.frames.first?.header {
            s.found = h
            s.foundRecord = record
        }
        // The lost frames' time is audio the sink had to cover: not an underrun of its own.
        st.bufferEnd += Double(lostSamples) * 1_000_000 / Double(max(1, s.sampleRate))
        timing(st, sequence: p.sequence, timestamp: p.timestamp, samples: p.frames.reduce(0) { $0 + $1.header.samplesPerFrame },
               fragmented: p.fragmented, record: record, at: time.micros, starts: info?.starts ?? 0)
        if lostSamples > 0 { fragmentLoss(st, lostSamples) }
        if !p.frames.isEmpty { st.lastFrameRecord = record }
        for (i, f) in p.frames.enumerated() { frame(st, f.header, f.bytes, index: i, record: record) }
        st.previousRecord = record
    }

    /// Sequence, gaps and arrival: silence put where audio is missing, so the time line stays true. `samples`:
    /// the packet's audio per channel; `fragmented`: a sequence gap's length is left to the frames' timestamps.
    func timing(_ st: State, sequence: UInt16, timestamp: UInt32, samples: Int, fragmented: Bool, record: Int, at now: Int64, starts: Int) {
        let s = st.stream
        let rate = Int64(s.sampleRate)
        func micros(_ n: Int) -> Int64 { Int64(n) &* 1_000_000 / max(1, rate) }
        // `us` is at most a pause (`bounded`), so the product does not overflow.
        func samplesIn(_ us: Int64) -> Int { Int(us * rate / 1_000_000) }
        func exact(_ n: Int) -> Double { Double(n) * 1_000_000 / Double(rate) }
        let arrival = Double(now)
        if st.expectedSequence == nil || starts != st.starts {
            // The first packet, or the first after a (re)start: a new time line origin, the pause kept as silence.
            if st.expectedSequence != nil {
                let pause = max(0, A2DPAudio.bounded(arrival - st.bufferEnd))
                fill(st, samplesIn(pause))
            }
            st.starts = starts
            st.bufferEnd = arrival
            st.previousTransit = nil
        } else if let expected = st.expectedSequence, sequence != expected {
            let skipped = Int(sequence &- expected)
            if skipped < 1000 {
                s.lostPackets += skipped
                let delta = Int(timestamp &- st.previousTimestamp)
                // Fragments: the frames lost are found from the timestamps of the frames put together.
                let missing = fragmented ? 0 : min(samplesIn(A2DPAudio.maxPauseMicros),
                                  delta > st.previousSamples && delta <= (skipped + 1) * max(1, st.previousSamples) * 2
                                      ? delta - st.previousSamples : skipped * st.previousSamples)
                s.dropout(AudioDropout(kind: .lost(packets: skipped), record: record, previousRecord: st.previousRecord,
                                       at: Timestamp(micros: now), positionMicros: micros(s.positionSamples), durationMicros: micros(missing)))
                fill(st, missing)
                st.bufferEnd += exact(missing)
            } else {
                s.sequenceJumps += 1
            }
        }
        let behind = A2DPAudio.bounded(arrival - st.bufferEnd)
        if behind > 2 * s.frameMicros, s.frameMicros > 0 {
            s.underruns += 1
            s.dropout(AudioDropout(kind: .underrun, record: record, previousRecord: st.previousRecord, at: Timestamp(micros: now),
                                   positionMicros: micros(s.positionSamples), durationMicros: behind))
            fill(st, samplesIn(behind))
        } else if behind > 0, st.previousTransit != nil {
            s.latePackets += 1
        }
        if st.previousTransit == nil { st.origin = now &- micros(s.positionSamples) }
        let transit = now &- st.origin &- micros(s.positionSamples)
        if let prev = st.previousTransit {
            let d = Double((transit &- prev).magnitude)
            s.jitterMicros += (d - s.jitterMicros) / 16
        }
        st.previousTransit = transit
        st.bufferEnd = max(st.bufferEnd, arrival) + exact(samples)
        st.expectedSequence = sequence &+ 1
        st.previousTimestamp = timestamp
        st.previousSamples = samples
    }

    /// Fragmented frames that did not all come (found from the RTP timestamp of the next whole frame): their
    /// samples are silence before it, and the duration of the sequence gap found since the last whole frame.
    func fragmentLoss(_ st: State, _ samples: Int) {
        let s = st.stream
        if let i = s.dropouts.indices.last, s.dropouts[i].record > st.lastFrameRecord, case .lost = s.dropouts[i].kind {
            s.dropouts[i].durationMicros += Int64(samples) * 1_000_000 / Int64(max(1, s.sampleRate))
        }
        fill(st, samples)
    }

    /// Silence of `samples` per channel on the stream's time line (and in its WAV file).
    func fill(_ st: State, _ samples: Int) {
        guard samples > 0 else { return }
        st.stream.positionSamples += samples
        st.stream.gapSamples += samples
        st.wav?.silence(frames: samples)
    }

    func frame(_ st: State, _ h: SBCFrameHeader, _ bytes: ArraySlice<UInt8>, index: Int, record: Int) {
        let s = st.stream
        s.frames += 1
        s.positionSamples += h.samplesPerFrame
        if let c = s.negotiated, c.mediaType == 0, h.matches(configuration: c.parameters) == false {
            s.mismatchedFrames += 1
            if s.mismatch == nil { s.mismatch = h }
            if s.mismatchRecords.count < AudioStream.maxRecords, s.mismatchRecords.last != record { s.mismatchRecords.append(record) }
        }
        guard options.decode, decodingUnavailable == nil else { return }
        if st.decoder == nil {
            do { st.decoder = try SBCDecoder() } catch {
                decodingUnavailable = error as? AudioCodecError ?? .unavailable("\(error)")
                return
            }
            if let out = options.output {
                st.wav = out(s, h.sampleRate, h.channels)
                st.wavFormat = (h.sampleRate, h.channels)
                // Silence before the first frame (a loss at the very start) is already on the time line.
                let before = s.positionSamples - h.samplesPerFrame
                if before > 0 { st.wav?.silence(frames: before) }
            }
            s.level = AudioLevel(samplesPerSecond: h.sampleRate * h.channels)
        }
        guard let decoder = st.decoder else { return }
        let fits = st.wavFormat.map { $0.rate == h.sampleRate && $0.channels == h.channels } ?? true
        let ok = decoder.decode(bytes) { pcm in
            s.level?.add(pcm)
            if fits { st.wav?.write(pcm) } else { st.wav?.silence(frames: h.samplesPerFrame) }
        }
        if ok {
            s.decodedFrames += 1
        } else {
            s.decodeErrors += 1
            s.error(AudioRecordProblem(record: record, kind: .decode(frame: index)))
            st.wav?.silence(frames: h.samplesPerFrame)
        }
    }

    /// Closes the WAV files and the level measurements; returns the files' write failures.
    @discardableResult
    public func finish() -> [String] {
        guard !finished else { return [] }
        finished = true
        finishSCO()
        var failures: [String] = []
        var open: [(AudioStream, WAVWriter?)] = []
        for st in Array(states.values) + reconfigured {
            open.append((st.stream, st.wav))
            st.wav = nil
            st.decoder = nil
        }
        for st in Array(scoStates.values) + retiredSCO {
            open.append((st.stream, st.wav))
            st.wav = nil
            st.decoder = nil
        }
        open += finishISO()
        for (s, wav) in open.sorted(by: { $0.0.number < $1.0.number }) {
            s.level?.finish()
            if let w = wav, let f = w.close() { failures.append("stream \(s.number): \(f)") }
        }
        return failures
    }

    /// The `audio` section (present only in runs that added this layer).
    public func summary() -> SummarySection? {
        finish()
        let list = streams, unavailable = decodingUnavailable ?? lc3Unavailable
        return SummarySection(name: "audio", value: { .object(AudioRender.section(list, unavailable: unavailable)) },
                              text: { ["  Audio:"] + AudioRender.lines(list, unavailable: unavailable).map { "    " + $0 } })
    }
}
