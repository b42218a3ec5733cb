/// The `audio_streams` summary section: one object and one text line per ASE stream.
extension AudioStreamRow {
    static func stateName(_ s: UInt8) -> String { AudioNames.aseState(s) }

    /// "LC3 48 kHz, 10 ms, 100 octets × 1, Front Left".
    static func codecText(_ c: AudioCodecSettings) -> String {
        var parts = [ISONames.codec(c.codingFormat, company: c.companyID, vendor: c.vendorCodecID)]
        if let v = c.samplingFrequencyHz { parts[0] += " " + AudioNames.kHz(v) }
        if let v = c.frameDurationMicros { parts.append(AudioNames.ms(v)) }
        if let v = c.octetsPerFrame { parts.append("\(v) octets" + (c.frameBlocksPerSDU.map { " × \($0)" } ?? "")) }
        if let v = c.channelAllocation { parts.append(AudioNames.locationNames(v).joined(separator: "+")) }
        return parts.joined(separator: ", ")
    }

    /// SDUs the local side sent and received on the stream's CIS, and what was lost.
    var sdus: (out: Int, in: Int, lost: Int) { iso.sduTotals }

    static func fields(_ rows: [AudioStreamRow]) -> Fields {
        var f = Fields()
        f.add("streams", .list(rows.map { r in
            let s = r.stream
            var o = Fields()
            o.add("connection", s.connection)
            o.add("device", s.device)
            o.add("ase_id", Int(s.ase))
            o.add("direction", s.sink ? "sink" : "source")
            if let c = s.codec {
                var cf = Fields()
                cf.add("coding_format", Int(c.codingFormat))
                cf.add("codec", ISONames.codec(c.codingFormat, company: c.companyID, vendor: c.vendorCodecID))
                cf.add("sampling_frequency_hz", c.samplingFrequencyHz.map { .int($0) } ?? .null)
                cf.add("frame_duration_us", c.frameDurationMicros.map { .int($0) } ?? .null)
                cf.add("octets_per_frame", c.octetsPerFrame.map { .int($0) } ?? .null)
                cf.add("frame_blocks_per_sdu", c.frameBlocksPerSDU.map { .int($0) } ?? .null)
                cf.add("audio_channel_allocation", c.channelAllocation.map { .int(Int($0)) } ?? .null)
                o.add("codec", .object(cf))
            }
            o.add("cig_id", s.cig.map { .int(Int($0)) } ?? .null)
            o.add("cis_id", s.cis.map { .int(Int($0)) } ?? .null)
            o.add("sdu_interval_us", s.sduInterval.map { .int(Int($0)) } ?? .null)
            o.add("max_sdu", s.maxSDU.map { .int(Int($0)) } ?? .null)
            o.add("presentation_delay_us", s.presentationDelay.map { .int(Int($0)) } ?? .null)
            o.add("states", .list(s.states.map { .object(["state": .string(stateName($0.state)), "record": .int($0.record)]) }))
            o.add("streaming_record", s.streaming.map { .int($0.record) } ?? .null)
            o.add("stopped_record", s.stopped.map { .int($0.record) } ?? .null)
            o.add("cis_connection", r.cis.map { .int($0) } ?? .null)
            let d = r.sdus
            o.add("sdus_out", d.out)
            o.add("sdus_in", d.in)
            o.add("sdus_lost", d.lost)
            return .object(o)
        }))
        return f
    }

    /// "Idle (138) → Codec Configured (168) → …": every state up to 12, else the first 8, "…" and the last 3,
    /// so the list always ends with the state the ASE was left in.
    static func statesText(_ states: [(state: UInt8, record: Int)]) -> String {
        let shown = states.count <= 12 ? states : Array(states.prefix(8)) + Array(states.suffix(3))
        var parts = shown.map { "\(stateName($0.state)) (\($0.record))" }
        if states.count > 12 { parts.insert("…", at: 8) }
        return parts.joined(separator: " → ")
    }

    static func text(_ rows: [AudioStreamRow]) -> [String] {
        var out = ["  Audio:       \(rows.count) stream\(rows.count == 1 ? "" : "s") (ASEs: codec, CIS, states, audio carried)"]
        for r in rows.prefix(SummaryRender.textListed) {
            let s = r.stream
            var line = "    #\(s.connection) \(s.sink ? "Sink" : "Source") ASE \(s.ase)"
            if let c = s.codec { line += ": " + codecText(c) }
            if let cig = s.cig, let cis = s.cis {
                line += "; CIS \(cis) of CIG \(cig)" + (r.cis.map { " (#\($0), handle \(Hex.hex(r.cisHandle ?? 0, width: 4)))" } ?? " (not established in the capture)")
            }
            line += "; " + statesText(s.states.map { ($0.state, $0.record) })
            if let st = s.streaming {
                line += "; streamed from record \(st.record)" + (s.stopped.map { " to \($0.record) (\(Fmt.seconds(micros: $0.time.micros - st.time.micros)) s)" } ?? " to the end")
            } else {
                line += "; never streamed"
            }
            if r.cis != nil {
                let d = r.sdus
                line += "; its CIS carried \(d.out) SDUs out, \(d.in) in" + (d.lost > 0 ? ", \(d.lost) lost" : "")
            }
            out.append(line)
        }
        out += SummaryRender.more(rows.count)
        return out
    }
}

extension Array where Element == ISOStreams.Stream {
    /// SDUs the local side sent and received on these streams, and what was lost.
    var sduTotals: (out: Int, in: Int, lost: Int) {
        (filter(\.outgoing).reduce(0) { $0 + $1.sdus }, filter { !$0.outgoing }.reduce(0) { $0 + $1.sdus },
         reduce(0) { $0 + $1.missing + $1.lost })
    }
}
