/// The timeline: the first events with the same decoded text as the text output, each line an anchor
/// (`#r` and the record) that findings and sequence charts link to; beyond them, the events worth seeing.
enum HTMLTimeline {
    static func section(_ lines: [HTMLRenderer.Line], shown: Int, total: Int, page: HTMLPage) -> String {
        var h = "<h2 id=\"timeline\">Timeline</h2>\n"
        h += "<p>The first \(min(shown, total)) of \(total) events (<code>--html-events N</code> shows more)"
            + (lines.count > min(shown, total) ? ", then the errors, failures and malformed packets after them" : "")
            + ". Times are seconds since the first event.</p>\n"
        h += "<input id=\"filter\" type=\"search\" placeholder=\"Filter the timeline\" aria-label=\"Filter the timeline\">\n"
        h += "<pre class=\"timeline\" id=\"timeline-lines\">"
        var previous: Int?
        var index = 0
        for l in lines {
            if index >= shown, previous != nil, let p = previous, l.record > p + 1 {
                h += "<span class=\"muted\">        …</span>"
            }
            h += "<span id=\"\(HTMLPage.anchor(l.record))\"" + (l.marked ? " class=\"finding\"" : "") + ">" + HTMLPage.e(l.text) + "</span>"
            previous = l.record
            index += 1
        }
        return h + "</pre>\n"
    }
}
