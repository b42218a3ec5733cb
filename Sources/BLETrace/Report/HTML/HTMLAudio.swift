/// The HTML report's LE Audio streams (issue #29): one row per ASE on a common time axis: its life from the
/// first state the capture shows to the last, the span it was streaming, and a mark where its CIS lost SDUs.
enum HTMLAudio {
    static func section(_ audio: AudioStreams?, iso: ISOStreams?, origin: Int64?, end: Int64, page: HTMLPage) -> String {
        guard let audio, !audio.streams.isEmpty, let origin else { return "" }
        var h = "<h3 id=\"audio-streams\">Audio streams</h3>\n<p>Each ASE from the first state the capture shows to the last: "
            + "the thick bar is the time it was streaming, red marks are SDUs its CIS lost.</p>\n"
        let rows = Array(audio.streams.prefix(32))
        let width = 640.0, left = 130.0, right = 20.0, rowHeight = 24.0, top = 10.0
        let height = top + rowHeight * Double(rows.count) + 30
        let span = Double(max(end - origin, 1))
        func x(_ t: Int64) -> Double { left + (width - left - right) * Double(t - origin) / span }
        var w = SVGWriter(width: width, height: height)
        let losses = iso?.streams ?? []
        for (i, s) in rows.enumerated() {
            let y = top + rowHeight * Double(i) + rowHeight / 2
            w.text(4, y + 4, "#\(s.connection) \(s.sink ? "Sink" : "Source") ASE \(s.ase)", class: "tick")
            guard let first = s.states.first, let last = s.states.last else { continue }
            let states = s.states.map { "\(AudioStreamRow.stateName($0.state)) (\($0.record))" }.joined(separator: " → ")
            w.rect(x(first.time.micros), y - 1, max(1, x(last.time.micros) - x(first.time.micros)), 2, class: "key s0", title: states)
            if let st = s.streaming {
                let stop = s.stopped?.time.micros ?? end
                w.rect(x(st.time.micros), y - 6, max(2, x(stop) - x(st.time.micros)), 12, class: "bar",
                       title: "streaming from record \(st.record)" + (s.stopped.map { " to \($0.record)" } ?? " to the end"))
            }
            if let cis = audio.carrier(s) {
                for l in losses where l.connection == cis.id {
                    for t in l.lossTimes { w.line(x(t), y - 9, x(t), y + 9, class: "mark") }
                }
            }
        }
        let axisY = top + rowHeight * Double(rows.count) + 6
        w.line(left, axisY, width - right, axisY)
        w.text(left, axisY + 16, "0 s", class: "tick")
        w.text(width - right, axisY + 16, Fmt.seconds(micros: end - origin) + " s", anchor: .end, class: "tick")
        h += w.svg(label: "LE Audio streams over time") + "\n"
        if audio.streams.count > rows.count { h += "<p class=\"muted\">The first \(rows.count) of \(audio.streams.count) streams are drawn.</p>\n" }
        return h
    }
}
