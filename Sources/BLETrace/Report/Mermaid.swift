/// `--format markdown`: a Mermaid `sequenceDiagram` per connection, which GitHub and GitLab draw in issues.
/// Bounded hard (`maxArrows` per connection, `maxConnections` connections) so the report stays small; runs of
/// repeated notifications are one arrow with "×N"; what is left out is pointed at with `--records`.
public final class MermaidSequences {
    public static let maxArrows = 40
    public static let maxConnections = 8
    /// Characters of an arrow's text (the timeline has the rest).
    public static let maxLabel = 56
    let recorder = SequenceRecorder(maxSteps: MermaidSequences.maxArrows, maxConnections: MermaidSequences.maxConnections, maxLabel: MermaidSequences.maxLabel)

    public init() {}

    public func event(_ e: TraceEvent, redactor: Redactor?) { recorder.add(e, redactor: redactor) }

    /// Escapes text for a Mermaid message or participant: `#` and `;` (Mermaid's entity and statement
    /// characters), `<` and `>`, backticks (which would end the Markdown code fence); line breaks become spaces.
    public static func escape(_ s: String) -> String {
        var r = ""
        r.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "#": r += "#35;"
            case ";": r += "#59;"
            case "<": r += "#lt;"
            case ">": r += "#gt;"
            case "`": r += "'"
            case "\n", "\r", "\t": r += " "
            default: r.unicodeScalars.append(c)
            }
        }
        return r
    }

    static func alias(_ l: SequenceRecorder.Lane) -> String {
        switch l {
        case .host: return "H"
        case .controller: return "C"
        case .peer: return "P"
        case .central: return "M"
        case .peripheral: return "S"
        }
    }

    /// The diagram's lines for connection `id` (a heading, the fenced diagram and a note), or none.
    public func lines(connection id: Int, peer: String) -> [String] {
        guard let chart = recorder.charts[id], !chart.steps.isEmpty else { return [] }
        var out = ["### Sequence", "", "```mermaid", "sequenceDiagram"]
        for lane in SequenceRecorder.lanes(chart) {
            let title = lane == .peer || lane == .peripheral ? "\(lane.title) \(peer)" : lane.title
            out.append("    participant \(MermaidSequences.alias(lane)) as \(MermaidSequences.escape(title))")
        }
        for s in chart.steps {
            let arrow = s.latencyMicros != nil ? "-->>" : s.problem ? "--x" : "->>"
            var text = s.label
            if s.repeats > 1 { text += " ×\(s.repeats)" }
            if let l = s.latencyMicros { text += " (\(SequenceRecorder.latencyText(l)))" }
            out.append("    \(MermaidSequences.alias(s.from))\(arrow)\(MermaidSequences.alias(s.to)): \(MermaidSequences.escape(text))")
        }
        out.append("```")
        out.append("")
        if chart.omitted > 0, let r = chart.firstOmittedRecord {
            out.append("The diagram shows the first \(chart.steps.count) messages; \(chart.omitted) more follow from record \(r) "
                + "(`bletrace analyze FILE --connection \(id) --records \(r)-`).")
            out.append("")
        }
        return out
    }
}
