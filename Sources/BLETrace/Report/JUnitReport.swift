/// The diagnoses as JUnit XML, for the test reporters of CI servers and test rigs: one test suite per
/// capture, one test case per diagnosis id the run checks. A case fails when its id was found at or above
/// the `--fail-on` severity (its failure message is the title with the records and connections); an id found
/// below it passes with the finding in its standard output; an absent id passes. A capture that could not be
/// read is one case in error.
public enum JUnitReport {
    public static func write(_ captures: [DiagnosedCapture], failOn: DiagnosisSeverity, to out: OutputWriter) {
        let ids = DiagnosedCapture.checkedIDs(captures)
        var tests = 0, failures = 0, errors = 0
        for c in captures {
            let t = totals(c, ids: ids, failOn: failOn)
            tests += t.tests; failures += t.failures; errors += t.errors
        }
        out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.write("<testsuites name=\"bletrace\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"0\">\n")
        for c in captures { suite(c, ids: ids, failOn: failOn, to: out) }
        out.write("</testsuites>\n")
    }

    static func totals(_ c: DiagnosedCapture, ids: [String], failOn: DiagnosisSeverity) -> (tests: Int, failures: Int, errors: Int) {
        if c.status == .failed { return (1, 0, 1) }
        let failing = c.worst.values.filter { $0 >= failOn }.count
        return (ids.count, failing, 0)
    }

    static func suite(_ c: DiagnosedCapture, ids: [String], failOn: DiagnosisSeverity, to out: OutputWriter) {
        let name = attribute(c.name)
        let t = totals(c, ids: ids, failOn: failOn)
        out.write("  <testsuite name=\"\(name)\" tests=\"\(t.tests)\" failures=\"\(t.failures)\" errors=\"\(t.errors)\" skipped=\"0\" time=\"0\">\n")
        // No <properties>: readers that merge the suites of a file (xunitparser) refuse a property name twice.
        if c.status == .failed {
            out.write("    <testcase name=\"analysis\" classname=\"\(name)\" time=\"0\">\n")
            out.write("      <error message=\"\(attribute(c.error ?? "the capture could not be read"))\" type=\"unreadable\"/>\n")
            out.write("    </testcase>\n")
            out.write("  </testsuite>\n")
            return
        }
        var byID: [String: [DiagnosedCapture.Entry]] = [:]
        for d in c.diagnoses { byID[d.id, default: []].append(d) }
        for id in ids {
            let found = byID[id] ?? []
            let worst = found.map(\.severity).max()
            out.write("    <testcase name=\"\(attribute(id))\" classname=\"\(name)\" time=\"0\"")
            guard let w = worst else {
                out.write("/>\n")
                continue
            }
            out.write(">\n")
            let body = found.map(details).joined(separator: "\n\n")
            if w >= failOn {
                // The worst occurrence first (the list is errors first already).
                let first = found.first { $0.severity == w } ?? found[0]
                out.write("      <failure message=\"\(attribute(first.title + " " + first.scope))\" type=\"\(w.name)\">")
                out.write(content(body))
                out.write("</failure>\n")
            } else {
                out.write("      <system-out>")
                out.write(content(body))
                out.write("</system-out>\n")
            }
            out.write("    </testcase>\n")
        }
        if c.status == .damaged {
            out.write("    <system-err>")
            out.write(content("The capture is damaged: " + (c.error ?? "reading stopped early") + "; the cases cover the \(c.records) records before the damage."))
            out.write("</system-err>\n")
        }
        out.write("  </testsuite>\n")
    }

    /// An occurrence in lines: severity, title and scope; peer; why; next step.
    static func details(_ d: DiagnosedCapture.Entry) -> String {
        var lines = [d.severity.name + " " + d.id + ": " + d.title + " " + d.scope]
        if let p = d.peer { lines.append("Peer: " + p) } else if d.peerCount > 1 { lines.append("Peers: \(d.peerCount)") }
        if !d.evidence.isEmpty { lines.append("Evidence: records " + d.evidence.map(String.init).joined(separator: ", ")) }
        if let e = d.explanation { lines.append("Why: " + e) }
        if let a = d.advice { lines.append("Next: " + a) }
        return lines.joined(separator: "\n")
    }

    /// Text for an attribute value: control characters shown (XML 1.0 cannot hold most of them), markup escaped.
    static func attribute(_ s: String) -> String {
        SVGWriter.escape(SafeText.escaped(s))
    }

    /// Element content: each line made safe, the line breaks kept.
    static func content(_ s: String) -> String {
        s.split(separator: "\n", omittingEmptySubsequences: false).map { attribute(String($0)) }.joined(separator: "\n")
    }
}
