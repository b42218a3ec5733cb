/// What went wrong with a decoded audio stream (`audio_dropout`, `audio_decode_error`, `audio_config_mismatch`,
/// `audio_silent_stream`): typed facts, written by `Report/AudioStreamDiagnosisText.swift`.
public enum AudioProblem: Sendable, Equatable, Hashable {
    /// Packets lost from the RTP sequence (mSBC frames missing from the H2 sequence) and underruns: how many of
    /// each, the first gap's place in the stream's audio, the longest gap and all gaps together (microseconds);
    /// SCO packets the controller flagged erroneous, and whether the stream is SCO voice.
    case dropouts(stream: Int, lostPackets: Int, underruns: Int, firstAtMicros: Int64, longestMicros: Int64, totalMicros: Int64,
                  flaggedPackets: Int = 0, voice: Bool = false, iso: Bool = false, swb: Bool = false)
    /// Packets whose frames could not be taken apart, and frames the codec refused, of `frames`.
    case decodeErrors(stream: Int, packets: Int, frames: Int, of: Int, iso: Bool = false, aac: Bool = false, swb: Bool = false)
    /// Frames unlike the negotiated configuration: how many of how many, and the first such frame's header.
    case configMismatch(stream: Int, frames: Int, of: Int, first: SBCFrameHeader)
    /// AAC: access units whose carried configuration (in-band StreamMuxConfig, ADTS header) is unlike the
    /// negotiated one, of `of`, and the first such configuration.
    case aacMismatch(stream: Int, frames: Int, of: Int, first: AACConfiguration)
    /// LC3 over ISO: SDUs whose length is not the negotiated octets per frame × channels × blocks, of `of`; the
    /// first such length and the negotiated one.
    case lc3Mismatch(stream: Int, sdus: Int, of: Int, length: Int, expected: Int)
    /// Every decoded sample was (digital) silence: frames decoded, audio duration.
    case silent(stream: Int, frames: Int, micros: Int64)

    /// Grouping: one diagnosis per kind and stream.
    var key: Int {
        switch self {
        case let .dropouts(s, _, _, _, _, _, _, _, _, _): return 0 + s << 4
        case let .decodeErrors(s, _, _, _, _, _, _): return 1 + s << 4
        case let .lc3Mismatch(s, _, _, _, _): return 2 + s << 4
        case let .configMismatch(s, _, _, _): return 2 + s << 4
        case let .aacMismatch(s, _, _, _): return 2 + s << 4
        case let .silent(s, _, _): return 3 + s << 4
        }
    }
}

/// The decoded-audio diagnoses, after the last record, from the audio layer's streams (`A2DPAudio`; runs
/// without it have none). A gap (lost packets, or an underrun of at least 100 ms) is a warning: on the receiving host it is audio that did not arrive, on the
/// sending host audio that left late or not at all, and a sniffer may simply have missed the packets (info).
/// A frame the codec refuses is an error: the trace holds the bytes that could not be played.
final class AudioStreamRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [] }
    /// An underrun shorter than this is counted in the stream's statistics but not diagnosed: sources that send
    /// each packet just in time are a few milliseconds late now and then, which a sink's buffer absorbs.
    static let audibleUnderrun: Int64 = 100_000

    override func finish(_ ctx: DiagnosisContext) {
        guard let audio = ctx.a2dpAudio else { return }
        audio.finish()
        for s in audio.streams {
            let peer = s.connection.flatMap { ctx.pipeline?.connections.connection(id: $0)?.peer }
            func raise(_ id: DiagnosisID, _ p: AudioProblem, evidence: [Int], severity: DiagnosisSeverity? = nil, limit: CaptureLimit? = nil) {
                var f = DiagnosisFacts()
                f.audio = p
                f.limit = limit
                ctx.raise(Diagnosis(id: id, severity: severity, facts: f, peer: peer, connection: s.connection, evidence: evidence))
            }
            // Lost packets (frames) and flagged packets always; underruns only when a sink's jitter buffer could not
            // have hidden them.
            let audible = s.dropouts.filter { d in
                if case .underrun = d.kind { return d.durationMicros >= AudioStreamRule.audibleUnderrun }
                return true
            }
            if !audible.isEmpty {
                let first = audible.first?.positionMicros ?? 0
                let longest = audible.map(\.durationMicros).max() ?? 0
                let total = audible.reduce(Int64(0)) { $0 + $1.durationMicros }
                let underruns = audible.filter { $0.kind == .underrun }.count
                let flagged = s.voice?.erroneousPackets ?? s.lc3?.lostSDUs ?? 0
                var evidence: [Int] = []
                for d in audible where evidence.count < Diagnosis.maxEvidence - 1 { evidence += [d.record, d.previousRecord] }
                raise(.audioDropout, .dropouts(stream: s.number, lostPackets: s.lostPackets, underruns: underruns, firstAtMicros: first,
                                               longestMicros: longest, totalMicros: total, flaggedPackets: flagged, voice: s.voice != nil, iso: s.lc3 != nil,
                                               swb: s.voice?.found == .lc3),
                      evidence: evidence, severity: ctx.sniffed ? .info : nil, limit: ctx.sniffed ? .snifferMayHaveMissed : nil)
            }
            if s.payloadErrors + s.decodeErrors > 0 {
                raise(.audioDecodeError, .decodeErrors(stream: s.number, packets: s.payloadErrors, frames: s.decodeErrors, of: s.frames, iso: s.lc3 != nil,
                                                       aac: s.aac != nil, swb: s.voice?.found == .lc3),
                      evidence: s.errorRecords.map(\.record))
            }
            if s.mismatchedFrames > 0, let m = s.mismatch {
                raise(.audioConfigMismatch, .configMismatch(stream: s.number, frames: s.mismatchedFrames, of: s.frames, first: m),
                      evidence: s.mismatchRecords + (s.negotiatedRecord.map { [$0] } ?? []))
            }
            if s.mismatchedFrames > 0, let m = s.aac?.firstMismatch {
                raise(.audioConfigMismatch, .aacMismatch(stream: s.number, frames: s.mismatchedFrames, of: s.frames, first: m),
                      evidence: s.mismatchRecords + (s.negotiatedRecord.map { [$0] } ?? []))
            }
            if let l = s.lc3, l.mismatchedSDUs > 0, let c = l.negotiated {
                raise(.audioConfigMismatch, .lc3Mismatch(stream: s.number, sdus: l.mismatchedSDUs, of: s.packets, length: l.firstMismatchLength ?? 0,
                                                         expected: c.sduLength),
                      evidence: l.mismatchRecords + (l.negotiatedRecord.map { [$0] } ?? []))
            }
            if let l = s.level, l.silent {
                raise(.audioSilentStream, .silent(stream: s.number, frames: s.decodedFrames,
                                                  micros: Int64(l.samples) * 1_000_000 / Int64(max(1, s.levelRate))),
                      evidence: [s.firstRecord, s.lastRecord])
            }
        }
    }
}
