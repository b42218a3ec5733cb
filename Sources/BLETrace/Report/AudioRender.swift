#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The audio streams' text and JSON (`bletrace audio`, the `audio` summary section): names and numbers made
/// here from `AudioStream`'s typed facts.
public enum AudioRender {
    static let maxListed = 50

    /// "SBC 44.1 kHz, joint stereo, 16 blocks, 8 subbands, loudness, bitpool 53".
    public static func configuration(_ h: SBCFrameHeader) -> String {
        if h.msbc { return "mSBC 16 kHz, mono, 15 blocks, 8 subbands, bitpool 26" }
        let mode: String
        switch h.mode {
        case .mono: mode = "mono"
        case .dualChannel: mode = "dual channel"
        case .stereo: mode = "stereo"
        case .jointStereo: mode = "joint stereo"
        }
        let rate = h.sampleRate == 44_100 ? "44.1" : String(h.sampleRate / 1000)
        return "SBC \(rate) kHz, \(mode), \(h.blocks) blocks, \(h.subbands) subbands, \(h.snrAllocation ? "SNR" : "loudness"), bitpool \(h.bitpool)"
    }

    static func ms(_ micros: Int64) -> String { Fmt.fixed(Int(micros / 100), scale: 10) + " ms" }

    static func dB(_ fraction: Double) -> String {
        guard let d = AudioLevel.dBFS(fraction) else { return "-inf dBFS" }
        return Fmt.fixed(Int((d * 10).rounded()), scale: 10) + " dBFS"
    }

    static func source(_ s: AudioStream) -> String {
        switch s.source {
        case let .a2dp(c): return "A2DP media, connection #\(c)" + (s.follows.map { ", configuration changed: continues stream \($0)" } ?? "")
        case let .sco(c, h, sent):
            if let v = s.voice { return voiceSource(v, connection: c) }
            return "SCO handle \(Hex.hex(h, width: 4)), \(sent ? "sent" : "received")"
        case let .iso(c, h, sent): return isoSource(s.lc3, handle: h, sent: sent, connection: c)
        }
    }

    static func problem(_ p: AudioRecordProblem) -> String {
        switch p.kind {
        case .payload(.noPayloadHeader): return "#\(p.record): no media payload header"
        case let .payload(.badSyncword(o)): return "#\(p.record): no SBC syncword at byte \(o)"
        case let .payload(.truncatedFrame(o)): return "#\(p.record): frame at byte \(o) cut short"
        case .payload(.countMismatch): return "#\(p.record): frame count differs from the payload header"
        case let .aac(problem): return "#\(p.record): " + aacProblem(problem)
        case let .decode(i): return "#\(p.record): frame \(i + 1) refused by the decoder"
        case let .scoShort(declared, present): return "#\(p.record): SCO packet of \(present) bytes, its header says \(declared)"
        case let .msbc(.truncated(n)): return "#\(p.record): mSBC frame cut short after \(n) bytes"
        case .msbc(.noSyncword): return "#\(p.record): no mSBC syncword after the H2 header"
        case let .lc3SWB(.truncated(n)): return "#\(p.record): LC3-SWB frame cut short after \(n) bytes"
        case .lc3SWB(.noSyncword): return "#\(p.record): no LC3-SWB frame after the H2 header"
        case let .msbcSkipped(n): return "#\(p.record): \(n) bytes with no H2 header"
        }
    }

    /// A dropout in a line; `sdu`: an LC3 stream over ISO, whose units are SDUs (and status 2 means lost); `swb`:
    /// an LC3-SWB voice stream (its H2-framed frames are LC3's, not mSBC's).
    static func dropout(_ d: AudioDropout, sdu: Bool = false, swb: Bool = false) -> String {
        let what: String
        let unit = sdu ? "SDU" : "packet"
        switch d.kind {
        case let .lost(n): what = "\(n) \(unit)\(n == 1 ? "" : "s") " + (sdu ? "missing from the ISO sequence" : "lost")
        case .underrun: what = "underrun"
        case let .erroneous(status, n):
            let flag = sdu ? (status == 2 ? "lost" : "possibly invalid") : statusName(status)
            return "\(n) \(unit)\(n == 1 ? "" : "s") flagged \(flag) from #\(d.record) at \(Fmt.seconds(micros: d.positionMicros)) s into the stream, \(ms(d.durationMicros))"
        case let .missingFrames(n): what = "\(n) \(swb ? "LC3-SWB" : "mSBC") frame\(n == 1 ? "" : "s") missing"
        }
        return "\(what) before #\(d.record) at \(Fmt.seconds(micros: d.positionMicros)) s into the stream, \(ms(d.durationMicros))"
    }

    /// The streams as text: one block per stream.
    public static func lines(_ streams: [AudioStream], unavailable: AudioCodecError?) -> [String] {
        var out: [String] = []
        if let u = unavailable { out.append(u.description) }
        if streams.isEmpty { out.append("no audio streams"); return out }
        for s in streams.prefix(maxListed) {
            out.append("stream \(s.number): \(source(s)), records #\(s.firstRecord)–#\(s.lastRecord)")
            let voice = s.voice.map { voiceLines(s, $0) }
            if let v = voice { out += v.config }
            if let l = s.lc3 { out += lc3Lines(s, l) }
            if let c = s.negotiated { out.append("  negotiated: \(A2DPNames.codecName(c)) \(A2DPNames.configuration(c))" + (s.negotiatedRecord.map { " (#\($0))" } ?? "")) }
            if let h = s.inferred {
                out.append("  inferred:   \(configuration(h))" + (s.inferredRecord.map { " (#\($0))" } ?? "")
                           + " from the media: the capture holds no AVDTP configuration")
            }
            if voice == nil, let h = s.found { out.append("  in frames:  \(configuration(h))" + (s.foundRecord.map { " (#\($0))" } ?? "")) }
            if let a = s.aac { out += aacLines(s, a) }
            let sdu = s.lc3 != nil
            var counts = sdu ? "  \(s.packets) SDU\(s.packets == 1 ? "" : "s"), \(s.frames) LC3 frame\(s.frames == 1 ? "" : "s")"
                             : "  \(s.packets) packets, \(s.frames) frames"
            if s.fragmentPackets > 0 { counts += ", \(s.fragmentPackets) fragmented" }
            if s.decodedFrames > 0 || s.level != nil { counts += ", \(s.decodedFrames) decoded" }
            counts += ", \(Fmt.seconds(micros: Int64(s.positionSamples) * 1_000_000 / Int64(s.sampleRate))) s of audio"
            out.append(counts)
            if s.mismatchedFrames > 0, let m = s.mismatch.map({ configuration($0) }) ?? s.aac?.firstMismatch.map({ configuration($0) }) {
                out.append("  \(s.mismatchedFrames) frame\(s.mismatchedFrames == 1 ? "" : "s") not as negotiated (first: \(m); #" + s.mismatchRecords.map(String.init).joined(separator: ", #") + ")")
            }
            if s.payloadErrors + s.decodeErrors > 0 {
                out.append((sdu ? "  \(s.decodeErrors) decode errors: " : "  \(s.payloadErrors) packet errors, \(s.decodeErrors) decode errors: ")
                           + s.errorRecords.prefix(5).map(problem).joined(separator: "; "))
            }
            var timing = "  sequence: \(s.lostPackets) " + (sdu ? "SDU\(s.lostPackets == 1 ? "" : "s") missing" : "lost")
            if s.sequenceJumps > 0 { timing += ", \(s.sequenceJumps) jumps" }
            if let v = voice { timing = v.flags }
            timing += "; timing: jitter \(ms(Int64(s.jitterMicros))), \(s.latePackets) late, \(s.underruns) underrun\(s.underruns == 1 ? "" : "s")"
            out.append(timing)
            for d in s.dropouts.prefix(10) { out.append("    " + dropout(d, sdu: sdu, swb: s.voice?.found == .lc3)) }
            if s.dropoutCount > 10 { out.append("    … \(s.dropoutCount - 10) more dropouts") }
            if let l = s.level {
                var line = "  level: RMS \(dB(l.rms)), peak \(dB(Double(l.peak) / 32768)), \(l.clipped) clipped samples"
                if l.silences > 0 { line += ", \(l.silences) digital silences (longest \(ms(Int64(l.longestSilenceSamples) * 1_000_000 / Int64(max(1, s.levelRate)))))" }
                out.append(line)
            }
        }
        if streams.count > maxListed { out.append("… \(streams.count - maxListed) more streams") }
        return out
    }

    /// One stream as a JSON object.
    public static func fields(_ s: AudioStream) -> Fields {
        var f = Fields()
        f.add("stream", s.number)
        switch s.source {
        case let .a2dp(c):
            f.add("source", "a2dp")
            f.add("connection", c)
            if let n = s.follows { f.add("follows", n) }
        case let .sco(c, h, sent):
            f.add("source", "sco")
            if let c { f.add("connection", c) }
            f.add("handle", Int(h))
            f.add("direction", sent ? "sent" : "received")
        case let .iso(c, h, sent):
            f.add("source", "iso")
            if let c { f.add("connection", c) }
            f.add("handle", Int(h))
            f.add("direction", sent ? "sent" : "received")
        }
        f.add("first_record", s.firstRecord)
        f.add("last_record", s.lastRecord)
        if let v = s.voice { voiceFields(s, v, into: &f) }
        if let l = s.lc3 { lc3Fields(l, into: &f) }
        if let c = s.negotiated {
            var n = Fields()
            n.add("codec", Int(c.codecType))
            n.add("codec_name", A2DPNames.codecName(c))
            n.add("configuration", A2DPNames.configuration(c))
            if let r = s.negotiatedRecord { n.add("record", r) }
            f.add("negotiated", n)
        }
        if let h = s.inferred { f.add("inferred", frameFields(h, record: s.inferredRecord)) }
        if s.voice == nil, let h = s.found { f.add("found", frameFields(h, record: s.foundRecord)) }
        if let a = s.aac, let c = a.found { f.add("found", aacConfigFields(c, record: a.foundRecord)) }
        f.add("packets", s.packets)
        f.add("frames", s.frames)
        f.add("fragmented_packets", s.fragmentPackets)
        f.add("audio_us", Int(Int64(s.positionSamples) * 1_000_000 / Int64(s.sampleRate)))
        f.add("gap_us", Int(Int64(s.gapSamples) * 1_000_000 / Int64(s.sampleRate)))
        f.add("mismatched_frames", s.mismatchedFrames)
        if let m = s.mismatch { f.add("first_mismatch", frameFields(m, record: s.mismatchRecords.first)) }
        if let m = s.aac?.firstMismatch { f.add("first_mismatch", aacConfigFields(m, record: s.mismatchRecords.first)) }
        f.add("mismatch_records", .list(s.mismatchRecords.map { .int($0) }))
        f.add("packet_errors", s.payloadErrors)
        f.add("decode_errors", s.decodeErrors)
        f.add("error_records", .list(s.errorRecords.map { p in
            var e = Fields()
            e.add("record", p.record)
            e.add("problem", problem(p))
            return .object(e)
        }))
        f.add("lost_packets", s.lostPackets)
        f.add("sequence_jumps", s.sequenceJumps)
        f.add("late_packets", s.latePackets)
        f.add("underruns", s.underruns)
        f.add("jitter_us", Int(s.jitterMicros.rounded()))
        f.add("frame_interval_us", Int(s.frameMicros))
        if let a = s.aac { f.add("aac", aacFields(a)) }
        f.add("dropout_count", s.dropoutCount)
        f.add("dropouts", .list(s.dropouts.map { d in
            var o = Fields()
            switch d.kind {
            case let .lost(n):
                o.add("kind", "lost")
                o.add("packets", n)
            case .underrun:
                o.add("kind", "underrun")
            case let .erroneous(status, n):
                o.add("kind", "erroneous")
                o.add("status", Int(status))
                o.add("status_name", statusName(status))
                o.add("packets", n)
            case let .missingFrames(n):
                o.add("kind", "missing_frames")
                o.add("frames", n)
            }
            o.add("record", d.record)
            o.add("previous_record", d.previousRecord)
            o.add("position_us", Int(d.positionMicros))
            o.add("duration_us", Int(d.durationMicros))
            return .object(o)
        }))
        if let l = s.level {
            var o = Fields()
            o.add("decoded_frames", s.decodedFrames)
            o.add("rms_dbfs", l.rms > 0 ? .double(round1(AudioLevel.dBFS(l.rms) ?? 0)) : .null)
            o.add("peak", l.peak)
            o.add("clipped_samples", l.clipped)
            o.add("silences", l.silences)
            o.add("silent_us", Int(Int64(l.silentSamples) * 1_000_000 / Int64(max(1, s.levelRate))))
            o.add("longest_silence_us", Int(Int64(l.longestSilenceSamples) * 1_000_000 / Int64(max(1, s.levelRate))))
            o.add("strip_bucket_us", Int(Int64(l.bucketSamples) * 1_000_000 / Int64(max(1, s.levelRate))))
            o.add("strip_dbfs", .list(l.strip.map { v in AudioLevel.dBFS(v / 32768).map { .double(round1($0)) } ?? .null }))
            f.add("level", o)
        }
        return f
    }

    static func round1(_ v: Double) -> Double { (v * 10).rounded() / 10 }

    static func frameFields(_ h: SBCFrameHeader, record: Int?) -> Fields {
        var f = Fields()
        f.add("codec", h.msbc ? "mSBC" : "SBC")
        f.add("sampling_rate", h.sampleRate)
        f.add("channels", h.channels)
        f.add("blocks", h.blocks)
        f.add("subbands", h.subbands)
        f.add("bitpool", h.bitpool)
        f.add("frame_length", h.frameLength)
        f.add("configuration", configuration(h))
        if let r = record { f.add("record", r) }
        return f
    }
}

extension AudioStream {
    /// Samples per second over all channels of the decoded signal.
    var levelRate: Int { sampleRate * (found?.channels ?? lc3?.negotiated?.channels ?? 1) }
}

extension AudioRender {
    /// The `audio` object: whether frames were decoded, and the streams.
    public static func section(_ streams: [AudioStream], unavailable: AudioCodecError?) -> Fields {
        var f = Fields()
        if let u = unavailable { f.add("decoding_unavailable", u.description) }
        f.add("streams", .list(streams.map { .object(fields($0)) }))
        return f
    }
}
