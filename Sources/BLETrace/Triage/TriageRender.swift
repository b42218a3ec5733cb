/// The triage report as text, JSON, CSV or Markdown. Text and Markdown pass `SafeText` (file names and
/// errors may hold control characters).
public enum TriageRender {
    public enum Format: String, Sendable, CaseIterable { case text, json, csv, markdown }

    public static func write(_ r: TriageReport, format: Format, to out: OutputWriter) {
        switch format {
        case .text: for l in text(r) { out.write(SafeText.escaped(l)); out.write(byte: 0x0A) }
        case .markdown: for l in markdown(r) { out.write(SafeText.escaped(l)); out.write(byte: 0x0A) }
        case .csv: for l in csv(r) { out.write(l); out.write("\r\n") }
        case .json:
            JSONOut.object(json(r), to: out)
            out.write(byte: 0x0A)
        }
    }

    static func totals(_ r: TriageReport) -> String {
        var parts = ["\(r.lines.count) capture\(r.lines.count == 1 ? "" : "s")"]
        if r.damaged > 0 { parts.append("\(r.damaged) damaged") }
        if r.failed > 0 { parts.append("\(r.failed) failed") }
        return parts.joined(separator: ", ")
    }

    // MARK: text

    /// The capture table's file column is as wide as the longest name, up to 60 characters.
    public static func text(_ r: TriageReport) -> [String] {
        var out = ["Captures: " + totals(r)]
        // Names as printed (control characters escaped), so that the widths are those on the screen.
        let names = r.lines.map { SafeText.escaped($0.name) }
        let nameWidth = min(60, names.map(\.count).max() ?? 4)
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        func left(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
        out.append("  " + pad("file", nameWidth) + "  " + pad("status", 7) + left("records", 9) + left("devices", 8) + left("conns", 6) + "  diagnoses")
        for (l, shown) in zip(r.lines, names) {
            // A name wider than the column: on a line of its own, the columns under the heading below it.
            var name = shown
            if name.count > nameWidth {
                out.append("  " + name)
                name = ""
            }
            var line = "  " + pad(name, nameWidth) + "  " + pad(l.status.rawValue, 7) + left(String(l.records), 9)
                + left(String(l.devices), 8) + left(String(l.connections), 6) + "  "
            line += l.status == .failed ? (l.error ?? "failed") : TriageReport.diagnosisList(l)
            if l.status == .damaged, let e = l.error { line += " (damaged: \(e))" }
            out.append(line)
        }
        out.append("")
        if r.aggregates.isEmpty {
            out.append("Diagnoses: none in \(r.analysed) capture\(r.analysed == 1 ? "" : "s") analysed")
        } else {
            out.append("Diagnoses across \(r.analysed) capture\(r.analysed == 1 ? "" : "s") analysed:")
            for a in r.aggregates { out.append("  " + TriageReport.sentence(a)) }
        }
        return out
    }

    // MARK: Markdown

    static func cell(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    public static func markdown(_ r: TriageReport) -> [String] {
        var out = ["# Triage: " + totals(r), "", "| file | status | records | devices | connections | diagnoses |",
                   "|---|---|---:|---:|---:|---|"]
        for l in r.lines {
            let d = l.status == .failed ? (l.error ?? "failed") : TriageReport.diagnosisList(l)
            out.append("| \(cell(l.name)) | \(l.status.rawValue) | \(l.records) | \(l.devices) | \(l.connections) | \(cell(d)) |")
        }
        out += ["", "## Diagnoses across \(r.analysed) capture\(r.analysed == 1 ? "" : "s")", ""]
        if r.aggregates.isEmpty { out.append("None.") }
        for a in r.aggregates {
            out.append("- **\(a.id)** (\(a.severity)): \(a.captures) of \(a.of) captures, \(a.occurrences) occurrence\(a.occurrences == 1 ? "" : "s")")
            if !a.byFirmware.isEmpty { out.append("  - by firmware: " + a.byFirmware.map { "\(cell($0.value)): \($0.having) of \($0.of)" }.joined(separator: ", ")) }
            if !a.byModel.isEmpty { out.append("  - by model: " + a.byModel.map { "\(cell($0.value)): \($0.having) of \($0.of)" }.joined(separator: ", ")) }
        }
        return out
    }

    // MARK: CSV

    /// RFC 4180: one row per capture; the diagnoses as "id:count" separated by spaces.
    public static func csv(_ r: TriageReport) -> [String] {
        func q(_ s: String) -> String {
            guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        var out = ["file,member,sha256,status,records,devices,connections,diagnoses,error"]
        for l in r.lines {
            let d = l.diagnoses.map { "\($0.id):\($0.count)" }.joined(separator: " ")
            out.append([l.file, l.member ?? "", l.sha256, l.status.rawValue, String(l.records), String(l.devices),
                        String(l.connections), d, l.error ?? ""].map(q).joined(separator: ","))
        }
        return out
    }

    // MARK: JSON

    public static func json(_ r: TriageReport) -> Fields {
        var f = Fields()
        f.add("schema", "bletrace-triage-report/1")
        var t = Fields()
        t.add("captures", r.lines.count)
        t.add("analysed", r.analysed)
        t.add("damaged", r.damaged)
        t.add("failed", r.failed)
        f.add("totals", t)
        f.add("captures", .list(r.lines.map { l in
            var o = Fields()
            o.add("file", l.file)
            o.add("member", l.member.map { .string($0) } ?? .null)
            o.add("sha256", l.sha256)
            o.add("status", l.status.rawValue)
            o.add("records", l.records)
            o.add("devices", l.devices)
            o.add("connections", l.connections)
            o.add("diagnoses", .list(l.diagnoses.map { .object(["id": .string($0.id), "count": .int($0.count)]) }))
            o.add("error", l.error.map { .string($0) } ?? .null)
            return .object(o)
        }))
        func shares(_ list: [TriageReport.Share]) -> FieldValue {
            .list(list.map { .object(["value": .string($0.value), "captures": .int($0.having), "of": .int($0.of)]) })
        }
        f.add("diagnoses", .list(r.aggregates.map { a in
            var o = Fields()
            o.add("id", a.id)
            o.add("severity", a.severity)
            o.add("captures", a.captures)
            o.add("of", a.of)
            o.add("occurrences", a.occurrences)
            o.add("by_firmware", shares(a.byFirmware))
            o.add("by_model", shares(a.byModel))
            o.add("text", TriageReport.sentence(a))
            return .object(o)
        }))
        return f
    }
}
