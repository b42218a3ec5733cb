/// The AAC parts of the audio streams' text and JSON: the framing, the configuration the payloads carry against
/// the negotiated one, elements put together from fragments, and why the stream is not decoded, written from
/// `AACStream`'s typed facts.
extension AudioRender {
    static func aacObjectType(_ t: Int) -> String {
        switch t {
        case 1: return "AAC Main"
        case 2: return "AAC LC"
        case 3: return "AAC SSR"
        case 4: return "AAC LTP"
        case 5: return "HE-AAC"
        case 6: return "AAC scalable"
        case 17: return "ER AAC LC"
        case 19: return "ER AAC LTP"
        case 20: return "ER AAC scalable"
        case 23: return "ER AAC LD"
        case 29: return "HE-AAC v2"
        case 39: return "AAC ELD"
        default: return "audio object type \(t)"
        }
    }

    /// 44100 → "44.1", 11025 → "11.025", 48000 → "48".
    static func kHz(_ rate: Int) -> String {
        var fraction = String(rate % 1000)
        guard rate % 1000 != 0 else { return String(rate / 1000) }
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(rate / 1000).\(fraction)"
    }

    /// "AAC LC 44.1 kHz, 2 channels, 1024 samples per frame"; SBR and PS name their core.
    public static func configuration(_ c: AACConfiguration) -> String {
        var name = (c.mpeg2 ? "MPEG-2 " : "") + aacObjectType(c.objectType)
        if c.objectType != c.coreObjectType { name += " (core \(aacObjectType(c.coreObjectType)) \(kHz(c.coreSampleRate)) kHz)" }
        let channels = c.channels.map { "\($0) channel\($0 == 1 ? "" : "s")" } ?? "channels in a program config element"
        return "\(name) \(kHz(c.sampleRate)) kHz, \(channels), \(c.samplesPerFrame) samples per frame"
    }

    static func framing(_ f: AACFraming) -> String {
        switch f {
        case .latmInBand: return "LATM, StreamMuxConfig in band"
        case .latmOutOfBand: return "LATM, StreamMuxConfig out of band"
        case .adts: return "ADTS"
        }
    }

    static func framingKey(_ f: AACFraming) -> String {
        switch f {
        case .latmInBand: return "latm_in_band"
        case .latmOutOfBand: return "latm_out_of_band"
        case .adts: return "adts"
        }
    }

    static func notDecoded(_ n: AACStream.NotDecoded) -> String {
        switch n {
        case .noLinkableDecoder:
            return "AAC is not decoded: no packaged AAC decoder can be linked under terms that fit (Debian's libfdk-aac is in non-free, libfaad2 is GPL-2.0-or-later, Debian's libavcodec is built with GPL parts)"
        }
    }

    static func aacProblem(_ p: AACPayloadProblem) -> String {
        switch p {
        case .noPayload: return "no AAC payload after the RTP header"
        case .noFraming: return "neither ADTS nor LATM"
        case let .truncated(o): return "AAC payload cut short at byte \(o)"
        case .noStreamMuxConfig: return "LATM useSameStreamMux with no StreamMuxConfig before it"
        case let .invalidConfiguration(o): return "AAC configuration not valid at byte \(o)"
        case .unsupported(.audioMuxVersionA): return "LATM audioMuxVersionA 1 (not read)"
        case let .unsupported(.frameLengthType(t)): return "LATM frameLengthType \(t) (not read)"
        case .unsupported(.separateTimeFraming): return "LATM streams with separate time framing (not read)"
        }
    }

    /// The AAC lines of a stream's text block (after the negotiated configuration).
    static func aacLines(_ s: AudioStream, _ a: AACStream) -> [String] {
        var out: [String] = []
        let how = a.framing.map(framing) ?? "no AAC framing found"
        if let c = a.found {
            out.append("  in frames:  \(configuration(c)), \(how)" + (a.foundRecord.map { " (#\($0))" } ?? ""))
        } else {
            out.append("  in frames:  \(how), no configuration in band")
        }
        out.append("  " + notDecoded(a.notDecoded))
        if a.reassembled + a.incomplete > 0 {
            out.append("  \(a.reassembled) element\(a.reassembled == 1 ? "" : "s") put together from fragments, \(a.incomplete) incomplete")
        }
        return out
    }

    /// The AAC configuration as the JSON `found` / `first_mismatch` object.
    static func aacConfigFields(_ c: AACConfiguration, record: Int?) -> Fields {
        var f = Fields()
        f.add("codec", "AAC")
        f.add("object_type", c.objectType)
        f.add("object_type_name", aacObjectType(c.objectType))
        if c.coreObjectType != c.objectType { f.add("core_object_type", c.coreObjectType) }
        f.add("sampling_rate", c.sampleRate)
        if c.coreSampleRate != c.sampleRate { f.add("core_sampling_rate", c.coreSampleRate) }
        f.add("channel_configuration", c.channelConfiguration)
        if let n = c.channels { f.add("channels", n) }
        f.add("samples_per_frame", c.samplesPerFrame)
        f.add("configuration", configuration(c))
        if let r = record { f.add("record", r) }
        return f
    }

    /// The `aac` member of a stream's JSON object.
    static func aacFields(_ a: AACStream) -> Fields {
        var o = Fields()
        if let f = a.framing { o.add("framing", framingKey(f)) }
        if let n = a.negotiated {
            var c = Fields()
            let names: [(UInt8, String)] = [(0x80, "MPEG-2 AAC LC"), (0x40, "MPEG-4 AAC LC"), (0x20, "MPEG-4 AAC LTP"), (0x10, "MPEG-4 AAC scalable"),
                                            (0x08, "MPEG-4 HE-AAC"), (0x04, "MPEG-4 HE-AAC v2"), (0x02, "MPEG-4 AAC-ELD v2")]
            c.add("object_types", .list(names.filter { n.objectTypes & $0.0 != 0 }.map { .string($0.1) }))
            c.add("sampling_rates", .list(n.sampleRates.map { .int($0) }))
            c.add("channels", .list(n.channels.map { .int($0) }))
            c.add("vbr", n.vbr)
            c.add("bit_rate", n.bitRate)
            o.add("negotiated", c)
        }
        o.add("reassembled_elements", a.reassembled)
        o.add("incomplete_elements", a.incomplete)
        o.add("not_decoded", notDecoded(a.notDecoded))
        return o
    }
}
