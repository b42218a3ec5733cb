/// The Markdown report's Diagnoses section: each cause with its evidence and next step, first in the report
/// (after the header) and the last section the size budget shortens.
extension MarkdownRenderer {
    func diagnoses(_ s: Summary) -> ReportSection {
        let shown = s.diagnoses.filter { d in !filtered || d.connections.isEmpty || d.connections.contains { shownConnections.contains($0) } }
        put("## Diagnosis")
        put()
        guard !shown.isEmpty else {
            put(filtered ? "None among the connections selected by the filters." : "None: no cause of failure found.")
            put()
            return ReportSection(kind: .diagnoses, lines: take())
        }
        let title = take()
        func list(_ n: Int, full: Bool) -> [String] {
            for d in shown.prefix(n) {
                put("- **\(d.severity.name)** `\(d.id.rawValue)`: \(MarkdownRenderer.md(DiagnosisText.title(d))) \(DiagnosisText.scope(d))")
                if full {
                    put("  - Why: \(MarkdownRenderer.md(DiagnosisText.explanation(d)))")
                    put("  - Next: \(MarkdownRenderer.md(DiagnosisText.advice(d)))")
                    if d.evidence.count > 1 { put("  - Evidence: records " + d.evidence.map(String.init).joined(separator: ", ")) }
                }
            }
            if shown.count > n { put("- … and \(shown.count - n) more (see the JSON summary).") }
            put()
            return title + take()
        }
        return ReportSection(kind: .diagnoses, priority: ReportSection.Priority.diagnoses, forms: [list(50, full: true), list(10, full: false)])
    }
}
