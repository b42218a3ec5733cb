/// The SCO (HFP voice) parts of the audio streams' text and JSON: the link, the negotiation, the format the bytes
/// were taken as and what the controller flagged, written from `SCOVoice`'s typed facts.
extension AudioRender {
    /// "linear PCM 16-bit 8 kHz", "mSBC 16 kHz", "µ-law 8 kHz", …
    public static func format(_ f: SCOFormat) -> String {
        switch f {
        case let .linear(rate, bits, encoding):
            let forms = ["one's complement", "two's complement", "sign-magnitude", "unsigned"]
            let form = encoding == 1 ? "" : " " + (forms.indices.contains(Int(encoding)) ? forms[Int(encoding)] : "")
            return "linear PCM \(bits)-bit\(form) \(rate / 1000) kHz"
        case .muLaw: return "µ-law 8 kHz"
        case .aLaw: return "A-law 8 kHz"
        case .msbc: return "mSBC 16 kHz"
        case .cvsd: return "CVSD bits 8 kHz"
        case .lc3: return "LC3-SWB 32 kHz"
        case .transparent: return "transparent data"
        case let .other(c): return "coding format \(Hex.hex(c, width: 2)) (not decoded)"
        }
    }

    /// HFP codec IDs (HFP 1.9 appendix B).
    public static func hfpCodec(_ c: UInt8) -> String {
        switch c {
        case 1: return "CVSD"
        case 2: return "mSBC"
        case 3: return "LC3-SWB"
        default: return "codec \(c)"
        }
    }

    /// Coding format IDs (Assigned Numbers 2.11).
    static func codingFormat(_ c: UInt8) -> String {
        switch c {
        case 0x00: return "µ-law"
        case 0x01: return "A-law"
        case 0x02: return "CVSD"
        case 0x03: return "transparent"
        case 0x04: return "linear PCM"
        case 0x05: return "mSBC"
        case 0x06: return "LC3"
        case 0xFF: return "vendor"
        default: return Hex.hex(c, width: 2)
        }
    }

    static func link(_ v: SCOVoice) -> String { v.negotiation.linkType == 0x02 ? "eSCO" : "SCO" }

    static func voiceSource(_ v: SCOVoice, connection: Int?) -> String {
        "\(link(v)) handle \(Hex.hex(v.handle, width: 4)), \(v.sent ? "sent" : "received")" + (connection.map { ", connection #\($0)" } ?? "")
    }

    /// The negotiation in one line: "eSCO, air mode transparent, voice setting 0x0063 (#11), HFP codec mSBC (#9) (#13)".
    static func negotiation(_ n: SCONegotiation) -> String {
        var parts: [String] = []
        if let a = n.airMode { parts.append("air mode " + ClassicNames.airMode(a) + (n.record.map { " (#\($0))" } ?? "")) }
        if let v = n.voiceSetting { parts.append("voice setting \(Hex.hex(v, width: 4))" + (n.voiceRecord.map { " (#\($0))" } ?? "")) }
        if let e = n.enhanced {
            parts.append("enhanced: air \(codingFormat(e.transmitCoding)), HCI \(codingFormat(e.inputCoding)) in / \(codingFormat(e.outputCoding)) out"
                         + (e.inputPath == 0 && e.outputPath == 0 ? "" : ", vendor data path") + (n.enhancedRecord.map { " (#\($0))" } ?? ""))
        }
        if let c = n.hfpCodec { parts.append("HFP codec \(hfpCodec(c))" + (n.hfpCodecRecord.map { " (#\($0))" } ?? "")) }
        return parts.joined(separator: ", ")
    }

    /// The stream's SCO lines: negotiated, found, and the flagged packets.
    static func voiceLines(_ s: AudioStream, _ v: SCOVoice) -> (config: [String], flags: String) {
        var out: [String] = []
        if !v.negotiation.isEmpty {
            out.append("  negotiated: " + negotiation(v.negotiation) + (v.negotiated.map { " → " + format($0) } ?? ""))
        } else {
            out.append("  negotiated: not in the capture")
        }
        var found = "  in frames:  " + (s.found.map(configuration) ?? format(v.found)) + " (#\(s.foundRecord ?? v.foundRecord))"
        if v.mismatch { found += ", not as negotiated" }
        if v.negotiated == nil, v.found != .msbc { found += ", assumed" }
        out.append(found)
        var flags = "  erroneous data: \(v.erroneousPackets) packet\(v.erroneousPackets == 1 ? "" : "s") flagged"
        if v.erroneousPackets > 0 {
            flags += " (\(v.possiblyInvalid) possibly invalid, \(v.noData) no data, \(v.partiallyLost) partially lost)"
        }
        if v.found.h2Framed { flags += "; H2 sequence: \(s.lostPackets) frame\(s.lostPackets == 1 ? "" : "s") missing" }
        return (out, flags)
    }

    static func statusName(_ s: UInt8) -> String {
        switch s {
        case 1: return "possibly invalid"
        case 2: return "no data received"
        default: return "partially lost"
        }
    }

    /// The SCO members of a stream's JSON object.
    static func voiceFields(_ s: AudioStream, _ v: SCOVoice, into f: inout Fields) {
        var n = Fields()
        n.add("link_type", link(v))
        if let a = v.negotiation.airMode {
            n.add("air_mode", Int(a))
            n.add("air_mode_name", ClassicNames.airMode(a))
        }
        if let r = v.negotiation.record { n.add("record", r) }
        if let vs = v.negotiation.voiceSetting {
            n.add("voice_setting", Int(vs))
            if let r = v.negotiation.voiceRecord { n.add("voice_setting_record", r) }
        }
        if let e = v.negotiation.enhanced {
            var o = Fields()
            o.add("transmit_coding", codingFormat(e.transmitCoding))
            o.add("receive_coding", codingFormat(e.receiveCoding))
            o.add("input_coding", codingFormat(e.inputCoding))
            o.add("output_coding", codingFormat(e.outputCoding))
            o.add("input_bandwidth", Int(e.inputBandwidth))
            o.add("output_bandwidth", Int(e.outputBandwidth))
            o.add("input_sample_bits", Int(e.inputSampleBits))
            o.add("output_sample_bits", Int(e.outputSampleBits))
            o.add("input_data_path", Int(e.inputPath))
            o.add("output_data_path", Int(e.outputPath))
            if let r = v.negotiation.enhancedRecord { o.add("record", r) }
            n.add("enhanced", o)
        }
        if let c = v.negotiation.hfpCodec {
            n.add("hfp_codec", Int(c))
            n.add("hfp_codec_name", hfpCodec(c))
            if let r = v.negotiation.hfpCodecRecord { n.add("hfp_codec_record", r) }
        }
        if let fmt = v.negotiated { n.add("format", format(fmt)) }
        f.add("negotiated", n)
        if let h = s.found {
            f.add("found", frameFields(h, record: s.foundRecord))
        } else {
            var o = Fields()
            o.add("format", format(v.found))
            o.add("sampling_rate", v.found.sampleRate)
            o.add("channels", 1)
            o.add("record", v.foundRecord)
            f.add("found", o)
        }
        f.add("format_mismatch", v.mismatch)
        var e = Fields()
        e.add("possibly_invalid", v.possiblyInvalid)
        e.add("no_data", v.noData)
        e.add("partially_lost", v.partiallyLost)
        f.add("erroneous_packets", e)
    }
}
