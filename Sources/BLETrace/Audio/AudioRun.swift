/// `bletrace audio` as a library call: one pass over the capture with the audio layer added, then the
/// streams listed (text or JSON) and, when asked, one stream's or every stream's PCM written as WAV.
public enum AudioRun {
    public enum Output: Sendable, Equatable {
        case none
        /// Stream `number` into the file at `path`.
        case stream(Int, path: String)
        /// Every stream into `directory` as stream-N.wav.
        case all(directory: String)
    }

    public struct Result {
        public var summary: Summary
        public var streams: [AudioStream]
        public var unavailable: AudioCodecError?
        /// The WAV files written, and what failed (a file that could not be made or written).
        public var written: [String] = []
        public var failures: [String] = []
        /// The audio diagnoses (the run's others belong to `analyze`).
        public var diagnoses: [Diagnosis] {
            summary.diagnoses.filter {
                switch $0.id {
                case .audioDropout, .audioDecodeError, .audioConfigMismatch, .audioSilentStream: return true
                default: return false
                }
            }
        }
    }

    @discardableResult
    public static func run(_ opened: OpenedCapture, path: String, format: Listings.Format, decode: Bool = true, output: Output = .none,
                           options: DecodeOptions = DecodeOptions(), out: OutputWriter) -> Result {
        var written: [String] = []
        var failures: [String] = []
        var audioOptions = A2DPAudio.Options(decode: decode || output != .none)
        if output != .none {
            audioOptions.output = { stream, rate, channels in
                let file: String
                switch output {
                case let .stream(n, p):
                    guard stream.number == n else { return nil }
                    file = p
                case let .all(dir):
                    file = dir + "/stream-\(stream.number).wav"
                case .none:
                    return nil
                }
                do {
                    let w = try WAVWriter(path: file, sampleRate: rate, channels: channels)
                    written.append(file)
                    return w
                } catch {
                    failures.append("\(error)")
                    return nil
                }
            }
        }
        let analyzer = Analyzer(options: options, sink: nil)
        let audio = analyzer.addAudio(audioOptions)
        let summary = analyzer.run(opened.reader, path: path, containers: opened.containers)
        failures += audio?.finish() ?? []
        let streams = audio?.streams ?? []
        if case let .stream(n, _) = output, !streams.contains(where: { $0.number == n }) {
            failures.append("no stream \(n): the capture has \(streams.count) audio stream\(streams.count == 1 ? "" : "s")")
        }
        // AAC is not decoded: a WAV asked for an AAC stream is not written, and one line says why.
        for s in streams {
            guard let a = s.aac else { continue }
            let asked: Bool
            switch output {
            case let .stream(n, _): asked = n == s.number
            case .all: asked = true
            case .none: asked = false
            }
            if asked { failures.append("stream \(s.number): " + AudioRender.notDecoded(a.notDecoded)) }
        }
        var result = Result(summary: summary, streams: streams, unavailable: audio?.decodingUnavailable ?? audio?.lc3Unavailable, written: written, failures: failures)
        if case .stream = output, written.isEmpty, failures.isEmpty, let u = result.unavailable { result.failures.append(u.description) }
        write(result, format: format, out: out)
        return result
    }

    static func write(_ r: Result, format: Listings.Format, out: OutputWriter) {
        switch format {
        case .text:
            for l in AudioRender.lines(r.streams, unavailable: r.unavailable) { Listings.line(l, nil, out) }
            if !r.diagnoses.isEmpty { for l in DiagnosisText.lines(r.diagnoses) { Listings.line(l, nil, out) } }
            for f in r.written { Listings.line("wrote \(f)", nil, out) }
        case .json:
            out.write("{\"schema\":\"bletrace/1\",\"capture\":")
            JSONOut.object(SummaryRender.captureFields(r.summary), to: out)
            out.write(",\"audio\":")
            JSONOut.object(AudioRender.section(r.streams, unavailable: r.unavailable), to: out)
            out.write(",\"diagnoses\":")
            JSONOut.write(.list(r.diagnoses.map { .object(DiagnosisText.fields($0)) }), to: out)
            if !r.written.isEmpty {
                out.write(",\"written\":")
                JSONOut.write(.list(r.written.map { .string($0) }), to: out)
            }
            if let e = r.summary.error {
                out.write(",\"error\":")
                JSONOut.string(e.description, to: out)
            }
            out.write("}\n")
        }
        out.flush()
    }
}
