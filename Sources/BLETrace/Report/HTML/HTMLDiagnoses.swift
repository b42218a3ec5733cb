/// The HTML report's diagnosis card, above the charts: each cause with its explanation and next step, its
/// evidence records linked to their timeline lines.
enum HTMLDiagnoses {
    static let listed = 100

    static func card(_ s: Summary, anchors: Set<Int>, page: HTMLPage) -> String {
        var h = "<h2 id=\"diagnoses\">Diagnosis</h2>\n"
        guard !s.diagnoses.isEmpty else { return h + "<p>None: no cause of failure found.</p>\n" }
        h += "<div class=\"diagnoses\">\n"
        for d in s.diagnoses.prefix(listed) {
            let links = d.evidence.map { r in anchors.contains(r) ? "<a href=\"#\(HTMLPage.anchor(r))\">\(r)</a>" : "\(r)" }.joined(separator: ", ")
            h += "<div class=\"diagnosis \(d.severity.name)\" data-id=\"\(d.id.rawValue)\">"
            h += "<p><b>\(d.severity.name)</b> <code>\(d.id.rawValue)</code> \(page.t(DiagnosisText.title(d))) <span class=\"muted\">\(page.t(DiagnosisText.scope(d)))</span></p>"
            h += "<p>\(page.t(DiagnosisText.explanation(d)))</p>"
            h += "<p><b>Next:</b> \(page.t(DiagnosisText.advice(d)))</p>"
            h += "<p class=\"muted\">Evidence: records \(links)</p></div>\n"
        }
        if s.diagnoses.count > listed { h += "<p class=\"muted\">… and \(s.diagnoses.count - listed) more (see the JSON summary).</p>\n" }
        return h + "</div>\n"
    }
}
