/// A connection's message sequence chart: a lane per side (host, controller and peer for HCI captures; central
/// and peripheral for sniffer captures), one arrow per message with its text, responses dashed with their
/// latency, repeated notifications as one arrow "×N", problems in red; bounded, with a `--records` pointer.
enum HTMLSequence {
    static let rowHeight = 22.0, top = 34.0, width = 900.0, left = 92.0

    static func section(_ chart: SequenceRecorder.Chart, connection c: Connection, anchors: Set<Int>, page: HTMLPage) -> String {
        guard !chart.steps.isEmpty else { return "" }
        let lanes = SequenceRecorder.lanes(chart)
        let gap = (width - left - 40) / Double(max(1, lanes.count - 1))
        func laneX(_ l: SequenceRecorder.Lane) -> Double { left + 20 + gap * Double(lanes.firstIndex(of: l) ?? 0) }
        let height = top + rowHeight * Double(chart.steps.count) + 12
        var w = SVGWriter(width: width, height: height)
        for l in lanes {
            let x = laneX(l)
            w.line(x, top - 8, x, height - 4, class: "lane")
            var title = l.title
            if l == .peer || l == .peripheral, let p = c.peer { title += " " + (page.redactor?.redact(p.description) ?? p.description) }
            w.text(x, 16, title, anchor: lanes.firstIndex(of: l) == 0 ? .start : lanes.last == l ? .end : .middle, class: "lane-title")
        }
        let first = chart.steps.first?.micros ?? 0
        for (i, s) in chart.steps.enumerated() {
            let y = top + rowHeight * Double(i) + 14
            if anchors.contains(s.record) { w.open(link: HTMLPage.anchor(s.record)) }
            w.text(4, y, "\(s.record)", class: "rec")
            if anchors.contains(s.record) { w.closeLink() }
            w.text(44, y, "+" + Fmt.fixed(Int((s.micros - first) / 1000), scale: 1000), class: "rec")
            let x1 = laneX(s.from), x2 = laneX(s.to)
            let style = "msg" + (s.latencyMicros != nil ? " answer" : "") + (s.problem ? " problem" : "")
            w.line(x1, y, x2, y, class: style)
            let dir = x2 >= x1 ? 1.0 : -1.0
            w.polygon([(x2, y), (x2 - 7 * dir, y - 3.5), (x2 - 7 * dir, y + 3.5)], class: "head" + (s.problem ? " problem" : ""))
            var text = s.label
            if s.repeats > 1 { text += " ×\(s.repeats)" }
            if let l = s.latencyMicros { text += " (\(SequenceRecorder.latencyText(l)))" }
            // Host ↔ controller arrows are short: their text starts beside the controller's lane. Either way the
            // text stays inside the picture.
            let short = lanes.count > 2 && (s.from == .controller || s.to == .controller)
            let textWidth = SVGWriter.textWidth(text)
            let x = short ? max(left, min(max(x1, x2) + 6, width - 4 - textWidth))
                          : max(left + textWidth / 2, min((x1 + x2) / 2, width - 4 - textWidth / 2))
            w.text(x, y - 4, text, anchor: short ? .start : .middle, class: "label" + (s.problem ? " problem" : ""))
        }
        let messages = chart.steps.reduce(0) { $0 + $1.repeats } + chart.omitted
        var h = "<details open class=\"sequence\"><summary>Message sequence: \(messages) message\(messages == 1 ? "" : "s")"
        h += chart.steps.count < messages ? ", \(chart.steps.count) arrows" : ""
        h += "</summary>\n" + w.svg(label: "message sequence of connection #\(c.id)", class: "chart sequence") + "\n"
        if chart.omitted > 0, let r = chart.firstOmittedRecord {
            h += "<p class=\"muted\">\(chart.omitted) more message\(chart.omitted == 1 ? "" : "s") from record \(r): "
                + "<code>bletrace analyze FILE --connection \(c.id) --records \(r)-</code></p>\n"
        }
        return h + "</details>\n"
    }
}
