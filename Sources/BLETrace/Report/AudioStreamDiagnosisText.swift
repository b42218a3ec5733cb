/// Titles, explanations and advice of the decoded-audio diagnoses, from their `AudioProblem` facts.
extension DiagnosisText {
    static func ms(_ micros: Int64) -> String { Fmt.fixed(Int(micros / 100), scale: 10) + " ms" }

    static func streamAudioTitle(_ d: Diagnosis) -> String {
        let p = peer(d)
        switch d.facts.audio {
        case let .dropouts(s, lost, underruns, first, longest, total, flagged, voice, iso, swb)?:
            var parts: [String] = []
            if iso {
                if lost > 0 { parts.append("\(lost) SDU\(lost == 1 ? "" : "s") missing from the ISO sequence") }
                if flagged > 0 { parts.append("\(flagged) SDU\(flagged == 1 ? "" : "s") flagged lost by the controller") }
            } else {
                if flagged > 0 { parts.append("\(flagged) packet\(flagged == 1 ? "" : "s") flagged erroneous by the controller") }
                if lost > 0 { parts.append("\(lost) \(voice ? (swb ? "LC3-SWB frame" : "mSBC frame") : "packet")\(lost == 1 ? "" : "s") \(voice ? "missing" : "lost")") }
            }
            if underruns > 0 { parts.append("\(underruns) underrun\(underruns == 1 ? "" : "s")") }
            return "Audio stream \(s) with \(p) dropped out: " + parts.joined(separator: ", ")
                + "; first \(seconds(first)) into the stream, longest \(ms(longest)), \(ms(total)) missing in all"
        case let .decodeErrors(s, packets, frames, of, _, _, _)?:
            var parts: [String] = []
            if packets > 0 { parts.append("\(packets) packet\(packets == 1 ? "" : "s") whose frames could not be read") }
            if frames > 0 { parts.append("\(frames) of \(of) frames refused by the decoder") }
            return "Audio stream \(s) with \(p) has undecodable audio: " + parts.joined(separator: ", ")
        case let .configMismatch(s, frames, of, first)?:
            return "Audio stream \(s) with \(p): \(frames) of \(of) frames do not match the negotiated configuration (first: \(AudioRender.configuration(first)))"
        case let .aacMismatch(s, frames, of, first)?:
            return "Audio stream \(s) with \(p): \(frames) of \(of) AAC frames do not match the negotiated configuration (first: \(AudioRender.configuration(first)))"
        case let .lc3Mismatch(s, sdus, of, length, expected)?:
            return "Audio stream \(s) with \(p): \(sdus) of \(of) SDUs are not the negotiated \(expected) bytes (first: \(length) bytes)"
        case let .silent(s, _, micros)?:
            return "Audio stream \(s) with \(p) carried only silence (\(seconds(micros)) of audio)"
        case nil:
            return "Audio stream with \(p)"
        }
    }

    static func streamAudioExplanation(_ d: Diagnosis) -> String {
        switch d.facts.audio {
        case let .dropouts(_, _, _, _, _, _, _, _, iso, _)? where iso:
            return "SDUs are missing from the ISO packet sequence numbers, the controller flagged SDUs lost, or SDUs stopped coming for 100 ms or more beyond the audio already delivered: the listener hears a gap or a concealed stretch."
        case let .dropouts(_, _, _, _, _, _, _, voice, _, swb)? where voice:
            return "The controller flagged voice packets as erroneous (possibly invalid, no data received, partially lost), \(swb ? "LC3-SWB" : "mSBC") frames are missing from the H2 sequence, or packets stopped coming for 100 ms or more beyond the audio already delivered: the listener hears a gap or a concealed stretch."
        case .dropouts?:
            var s = "Media packets are missing from the stream's RTP sequence, or packets stopped coming for 100 ms or more beyond the audio already delivered (an underrun, longer than a sink's buffer usually hides): either way the listener hears a gap or a concealed stretch."
            if d.facts.limit != nil { s += " On a sniffer's capture the packets may have been sent and missed by the sniffer." }
            return s
        case let .decodeErrors(_, _, _, _, iso, _, _)? where iso:
            return "The SDUs held LC3 frames the decoder refused, or were too short for the frames their configuration (the ASE's; for a BIS, the BASE's) puts in them: the sink cannot play them."
        case let .decodeErrors(_, _, _, _, _, _, swb)? where swb:
            return "The voice packets carried LC3-SWB frames cut short (the next H2 header came before the frame's 58 bytes) or that the LC3 decoder refused: the receiving side cannot play them."
        case let .decodeErrors(_, _, _, _, _, aac, _)? where aac:
            return "The media packets carried bytes that are not AAC as LATM or ADTS frames them (a length or header reaching past the payload, a StreamMuxConfig that is not valid or not AAC, useSameStreamMux before any StreamMuxConfig): a sink cannot take the frames apart."
        case .decodeErrors?:
            return "The media packets carried bytes that are not valid SBC frames (no syncword where a frame should start, a frame cut short, fewer frames than the payload header declares) or that the decoder refused: the sink cannot play them."
        case .configMismatch?:
            return "The frames' own headers (sampling rate, channel mode, blocks, subbands, allocation, bitpool) are not what AVDTP Set Configuration agreed: a sink that trusts the negotiation may decode them wrongly or drop them."
        case .aacMismatch?:
            return "The configuration the AAC payloads carry (the LATM StreamMuxConfig's AudioSpecificConfig or the ADTS header: object type, sampling rate, channels) is not what AVDTP Set Configuration agreed: a sink that trusts the negotiation may decode them wrongly or drop them."
        case .lc3Mismatch?:
            return "The SDUs' length is not the octets per codec frame × channels × codec frame blocks per SDU the ASE's Codec Configured state (for a BIS, the broadcast's BASE) agreed: a sink that trusts the configuration splits them into the wrong frames or drops them."
        case .silent?:
            return "Every decoded sample was digital silence: the stream ran but carried no sound (nothing was playing, the source was muted, or the audio path fed zeros)."
        case nil:
            return ""
        }
    }

    static func streamAudioAdvice(_ d: Diagnosis) -> String {
        switch d.facts.audio {
        case .dropouts?: return "Look at the radio around the gaps (interference, Wi-Fi coexistence, distance) and at the source's scheduling; `bletrace audio FILE --stream N -o out.wav` lets you hear them."
        case .decodeErrors?: return "Check the source's encoder and packetisation at the records named; compare with the frames before and after."
        case .configMismatch?, .aacMismatch?: return "Make the encoder use the configuration Set Configuration chose, or reconfigure the stream before changing it."
        case .lc3Mismatch?: return "Make the encoder use the octets per frame, channel allocation and blocks per SDU of the ASE's configuration (for a BIS, the BASE's), or reconfigure the ASE first."
        case .silent?: return "Check that the source was playing and unmuted, and that its audio routing reached the Bluetooth encoder."
        case nil: return ""
        }
    }
}
