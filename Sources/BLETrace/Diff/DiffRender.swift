/// `bletrace diff` output: text, Markdown and JSON. Every string passes through `redact` on its way out.
public enum DiffRender {
    static func side(_ d: CaptureDigest) -> String {
        "\(d.file) (\(d.format), \(d.records) record\(d.records == 1 ? "" : "s")\(d.complete ? "" : ", damaged"))"
    }

    public static func text(_ diff: Diff, redact: (String) -> String = { $0 }) -> [String] {
        var lines = ["A: " + side(diff.a), "B: " + side(diff.b)]
        guard !diff.isEmpty else { return lines + ["No differences."] }
        lines.append("\(diff.items.count) difference\(diff.items.count == 1 ? "" : "s"), most important first")
        var category: DiffItem.Category? = nil
        var subject: String? = nil
        for item in diff.items {
            if item.category != category {
                lines.append("")
                lines.append(item.category.title)
                category = item.category
                subject = nil
            }
            if item.subject != subject {
                lines.append("  " + item.subject)
                subject = item.subject
            }
            lines.append("    " + item.line)
        }
        return lines.map(redact)
    }

    /// Escapes text for Markdown outside code spans.
    public static func md(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "#": out.append("\\"); out.append(ch)
            default: out.append(ch)
            }
        }
        return out
    }

    public static func markdown(_ diff: Diff, redact: (String) -> String = { $0 }) -> [String] {
        var lines = ["# bletrace diff", "",
                     "| | capture |", "|---|---|",
                     "| A | \(md(side(diff.a))) |", "| B | \(md(side(diff.b))) |", ""]
        guard !diff.isEmpty else { return (lines + ["**No differences.**"]).map(redact) }
        lines.append("**\(diff.items.count) difference\(diff.items.count == 1 ? "" : "s")**, most important first.")
        var category: DiffItem.Category? = nil
        var subject: String? = nil
        for item in diff.items {
            if item.category != category {
                lines.append("")
                lines.append("## \(item.category.title)")
                lines.append("")
                category = item.category
                subject = nil
            }
            if item.subject != subject {
                lines.append("- **\(md(item.subject))**")
                subject = item.subject
            }
            var s = "    - " + md(item.text)
            if item.a != nil || item.b != nil {
                s += ": " + (item.a.map { "`\(code($0))`" } ?? "*(none)*") + " → " + (item.b.map { "`\(code($0))`" } ?? "*(none)*")
            }
            let recs = [item.recordA.map { "A record \($0)" }, item.recordB.map { "B record \($0)" }].compactMap { $0 }
            if !recs.isEmpty { s += " (" + recs.joined(separator: ", ") + ")" }
            lines.append(s)
        }
        return lines.map(redact)
    }

    /// Text inside a code span: backticks would end it.
    static func code(_ s: String) -> String { s.replacingAll("`", with: "'") }

    public static func json(_ diff: Diff, redact: (FieldValue) -> FieldValue = { $0 }) -> Fields {
        func side(_ d: CaptureDigest) -> FieldValue {
            .object(["file": .string(d.file), "format": .string(d.format), "records": .int(d.records), "complete": .bool(d.complete)])
        }
        var f = Fields()
        f.add("schema", "bletrace-diff/1")
        f.add("a", side(diff.a))
        f.add("b", side(diff.b))
        f.add("count", diff.items.count)
        f.add("differences", .list(diff.items.map { .object($0.fields) }))
        return redact(.object(f)).objectValue ?? f
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for ch in self { if ch == target { out += replacement } else { out.append(ch) } }
        return out
    }
}
