/// The LC3-over-ISO parts of the audio streams' text and JSON: the CIS direction, the ASE it carries, the LC3
/// configuration the ASE negotiated against the SDUs found, and the SDUs the controller flagged, written from
/// `LC3Stream`'s typed facts.
extension AudioRender {
    /// "LC3 48 kHz, 10 ms, 100 octets × 1 channel × 1 block (100-byte SDUs)".
    public static func configuration(_ c: LC3Configuration) -> String {
        let rate = c.sampleRate == 44_100 ? "44.1" : String(c.sampleRate / 1000)
        return "LC3 \(rate) kHz, \(Fmt.fixed(c.frameMicros / 100, scale: 10)) ms, \(c.octetsPerFrame) octets × \(c.channels) channel\(c.channels == 1 ? "" : "s")"
            + " × \(c.blocksPerSDU) block\(c.blocksPerSDU == 1 ? "" : "s") (\(c.sduLength)-byte SDUs)"
    }

    static func isoSource(_ l: LC3Stream?, handle: UInt16, sent: Bool, connection: Int?) -> String {
        if let bis = l?.bis {
            return "BIS \(bis)" + (l?.big.map { " of BIG \($0)" } ?? "") + ", handle \(Hex.hex(handle, width: 4)), \(sent ? "sent" : "received")"
                + (connection.map { ", connection #\($0)" } ?? "")
        }
        var t = "CIS handle \(Hex.hex(handle, width: 4)), \(sent ? "sent" : "received")" + (connection.map { ", connection #\($0)" } ?? "")
        if let l, let a = l.ase, let sink = l.sink { t += ", \(sink ? "Sink" : "Source") ASE \(a)" }
        return t
    }

    /// The configuration lines of an LC3 stream's text block.
    static func lc3Lines(_ s: AudioStream, _ l: LC3Stream) -> [String] {
        var out: [String] = []
        if let c = l.negotiated {
            out.append("  negotiated: \(configuration(c))" + (l.negotiatedRecord.map { " (#\($0))" } ?? ""))
        } else {
            out.append(l.bis == nil ? "  negotiated: no LC3 configuration found for this CIS direction (not decoded)"
                                    : "  negotiated: no LC3 configuration for this BIS in a BASE (not decoded)")
        }
        if let n = l.foundLength { out.append("  in SDUs:    \(n) bytes" + (l.foundRecord.map { " (#\($0))" } ?? "")) }
        if l.mismatchedSDUs > 0 {
            out.append("  \(l.mismatchedSDUs) SDU\(l.mismatchedSDUs == 1 ? "" : "s") not as negotiated (first: \(l.firstMismatchLength ?? 0) bytes; #"
                       + l.mismatchRecords.map(String.init).joined(separator: ", #") + ")")
        }
        if l.invalidSDUs + l.lostSDUs + l.emptySDUs > 0 {
            out.append("  flagged by the controller: \(l.invalidSDUs) possibly invalid, \(l.lostSDUs) lost; \(l.emptySDUs) empty SDUs")
        }
        return out
    }

    /// The ISO members of a stream's JSON object.
    static func lc3Fields(_ l: LC3Stream, into f: inout Fields) {
        var o = Fields()
        if let a = l.ase { o.add("ase", Int(a)) }
        if let sink = l.sink { o.add("ase_direction", sink ? "sink" : "source") }
        if let b = l.big { o.add("big", Int(b)) }
        if let b = l.bis { o.add("bis", Int(b)) }
        if let c = l.negotiated {
            var n = Fields()
            n.add("sampling_rate", c.sampleRate)
            n.add("frame_duration_us", c.frameMicros)
            n.add("octets_per_frame", c.octetsPerFrame)
            n.add("channels", c.channels)
            n.add("blocks_per_sdu", c.blocksPerSDU)
            n.add("sdu_length", c.sduLength)
            n.add("configuration", configuration(c))
            if let r = l.negotiatedRecord { n.add("record", r) }
            o.add("negotiated", n)
        }
        if let n = l.foundLength { o.add("found_sdu_length", n) }
        if let r = l.foundRecord { o.add("found_record", r) }
        o.add("mismatched_sdus", l.mismatchedSDUs)
        o.add("mismatch_records", .list(l.mismatchRecords.map { .int($0) }))
        o.add("invalid_sdus", l.invalidSDUs)
        o.add("lost_sdus", l.lostSDUs)
        o.add("empty_sdus", l.emptySDUs)
        f.add("lc3", o)
    }
}
