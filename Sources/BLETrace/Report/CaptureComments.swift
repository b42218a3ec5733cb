/// `--write-capture FILE.pcapng`: what bletrace found, as pcapng comments for Wireshark (`frame.comment`):
/// each diagnosis (severity, id, title) on each of its evidence records, each finding on its record, and the
/// summary's diagnoses as the section comment. Redacted with the run's redactor.
public struct CaptureComments: Sendable {
    public var section: String
    /// Comments by record number.
    public var records: [Int: [String]]

    public init(section: String, records: [Int: [String]]) {
        self.section = section
        self.records = records
    }

    /// From the run's summary (as the analyzer returned it, not yet redacted) and its redactor.
    public init(summary raw: Summary, redactor: Redactor?) {
        let s = redactor.map { $0.redact(raw) } ?? raw
        func r(_ text: String) -> String { redactor?.redact(text) ?? text }
        var records: [Int: [String]] = [:]
        var lines: [String] = []
        for d in s.diagnoses {
            let text = r("bletrace " + d.severity.name + " " + d.id.rawValue + ": " + DiagnosisText.title(d))
            lines.append(text + " " + DiagnosisText.scope(d))
            for n in d.evidence where !(records[n]?.contains(text) ?? false) { records[n, default: []].append(text) }
        }
        for f in CaptureComments.findings(s) {
            records[f.record, default: []].append(r("bletrace finding " + f.kind + ": " + f.text))
        }
        var head = "bletrace \(BLETraceVersion.string): "
        head += s.diagnoses.isEmpty ? "no diagnoses" : "\(s.diagnoses.count) diagnos\(s.diagnoses.count == 1 ? "is" : "es")"
        head += " in " + r(s.capture.path)
        section = ([head] + lines).joined(separator: "\n")
        self.records = records
    }

    /// The findings as the summary's `findings` section lists them.
    static func findings(_ s: Summary) -> [(record: Int, kind: String, text: String)] {
        guard let section = s.sections.first(where: { $0.name == "findings" }),
              case let .list(items)? = section.value.objectValue?["list"] else { return [] }
        return items.compactMap { item in
            guard let o = item.objectValue, let n = o["record"]?.intValue, let k = o["kind"]?.stringValue,
                  let t = o["text"]?.stringValue else { return nil }
            return (n, k, t)
        }
    }
}
