/// The `iso` summary section: one object (and text line) per ISO stream and direction.
extension ISOStreams {
    /// The SDU interval of a stream's direction (µs), from its CIS or BIS.
    static func interval(_ s: Stream, _ w: EachWay<UInt32>?) -> Int? {
        guard let w else { return nil }
        let v = Int(s.outgoing ? w.cToP : w.pToC)
        return v > 0 ? v : nil
    }

    static func fields(_ list: [Stream], _ intervals: [EachWay<UInt32>?]) -> Fields {
        var f = Fields()
        f.add("streams", .list(list.enumerated().map { i, s in
            var o = Fields()
            o.add("handle", Int(s.handle))
            o.add("connection", s.connection.map { .int($0) } ?? .null)
            o.add("direction", s.outgoing ? "host_to_controller" : "controller_to_host")
            o.add("packets", s.packets)
            o.add("sdus", s.sdus)
            o.add("bytes", s.bytes)
            o.add("fragments", s.fragments)
            o.add("incomplete_sdus", s.broken)
            o.add("sequence_gaps", s.gaps)
            o.add("sdus_missing", s.missing)
            o.add("flagged_invalid", s.invalid)
            o.add("flagged_lost", s.lost)
            o.add("first_gap_record", s.firstGapRecord.map { .int($0) } ?? .null)
            o.add("first_lost_record", s.firstLostRecord.map { .int($0) } ?? .null)
            o.add("sdu_interval_us", interval(s, intervals[i]).map { .int($0) } ?? .null)
            if s.intervals.count > 0 {
                o.add("timing", .object([
                    "source": .string(s.timestamped > 0 ? "time_stamps" : "capture"),
                    "min_us": .int(Int(s.intervals.min)), "p50_us": .int(Int(s.intervals.percentile(50) ?? 0)),
                    "max_us": .int(Int(s.intervals.max)),
                    "jitter_us": interval(s, intervals[i]).map { .int(jitter(s, $0)) } ?? .null,
                ]))
            }
            o.add("first_record", s.firstRecord)
            o.add("last_record", s.lastRecord)
            return .object(o)
        }))
        return f
    }

    /// The largest distance of an SDU-to-SDU interval from the SDU interval (µs).
    static func jitter(_ s: Stream, _ interval: Int) -> Int {
        Int(max(abs(s.intervals.max - Int64(interval)), abs(Int64(interval) - s.intervals.min)))
    }

    static func text(_ list: [Stream], _ intervals: [EachWay<UInt32>?]) -> [String] {
        var out = ["  ISO:         \(list.count) stream\(list.count == 1 ? "" : "s") (SDUs each way, lost, timing against the SDU interval)"]
        for (i, s) in list.prefix(SummaryRender.textListed).enumerated() {
            var line = "    " + (s.connection.map { "#\($0) " } ?? "") + "handle \(Hex.hex(s.handle, width: 4)) "
            line += s.outgoing ? "host → controller" : "controller → host"
            line += ": \(s.sdus) SDUs, \(LinkStatistics.size(s.bytes))"
            var losses: [String] = []
            if s.missing > 0 { losses.append("\(s.missing) missing in \(s.gaps) sequence gap\(s.gaps == 1 ? "" : "s") from record \(s.firstGapRecord ?? 0)") }
            if s.lost > 0 { losses.append("\(s.lost) flagged lost from record \(s.firstLostRecord ?? 0)") }
            if s.invalid > 0 { losses.append("\(s.invalid) flagged possibly invalid") }
            if s.broken > 0 { losses.append("\(s.broken) incomplete") }
            line += losses.isEmpty ? ", none lost" : ", " + losses.joined(separator: ", ")
            if s.intervals.count > 0, let p50 = s.intervals.percentile(50) {
                line += "; SDU every \(LinkStatistics.ms(s.intervals.min))/\(LinkStatistics.ms(p50))/\(LinkStatistics.ms(s.intervals.max)) ms min/p50/max"
                line += s.timestamped > 0 ? " (time stamps)" : " (capture times)"
                if let v = interval(s, intervals[i]) { line += " against \(LinkStatistics.ms(Int64(v))) ms" }
            }
            out.append(line)
        }
        out += SummaryRender.more(list.count)
        return out
    }
}
