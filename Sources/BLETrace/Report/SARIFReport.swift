import Crypto

/// The diagnoses as SARIF 2.1.0, for code-scanning views and SARIF readers: each diagnosis id a rule (what
/// the id claims, `DiagnosisRuleText`; the explanation and advice of `DiagnosisText` with no facts), each diagnosis a result at its
/// capture (the artifact) and records (logical locations), with a fingerprint that stays the same when the
/// same capture is analysed again.
public enum SARIFReport {
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    public static func write(_ captures: [DiagnosedCapture], to out: OutputWriter) {
        JSONOut.object(log(captures), to: out)
        out.write(byte: 0x0A)
    }

    public static func log(_ captures: [DiagnosedCapture]) -> Fields {
        let ids = DiagnosedCapture.checkedIDs(captures)
        var ruleIndex: [String: Int] = [:]
        for (i, id) in ids.enumerated() { ruleIndex[id] = i }
        var driver = Fields()
        driver.add("name", "bletrace")
        driver.add("version", BLETraceVersion.string)
        driver.add("semanticVersion", BLETraceVersion.string)
        driver.add("rules", .list(ids.map { .object(rule($0)) }))

        var artifacts: [FieldValue] = []
        var results: [FieldValue] = []
        var notes: [FieldValue] = []
        for (index, c) in captures.enumerated() {
            var a = Fields()
            a.add("location", ["uri": .string(uri(c.path))])
            a.add("roles", .list([.string("analysisTarget")]))
            var p = Fields()
            p.add("name", c.name)
            p.add("status", c.status.rawValue)
            p.add("records", c.records)
            a.add("properties", p)
            artifacts.append(.object(a))
            for d in c.diagnoses {
                results.append(.object(result(d, capture: c, artifact: index, rule: ruleIndex[d.id] ?? 0)))
            }
            if c.status != .ok {
                var n = Fields()
                n.add("level", c.status == .failed ? "error" : "warning")
                n.add("message", ["text": .string(c.name + ": " + (c.status == .failed ? "not analysed: " : "damaged, analysed up to the damage: ")
                                                 + (c.error ?? c.status.rawValue))])
                n.add("locations", .list([.object(["physicalLocation": .object(["artifactLocation": .object(artifactLocation(c.path, index))])])]))
                notes.append(.object(n))
            }
        }
        var invocation = Fields()
        invocation.add("executionSuccessful", !captures.contains { $0.status == .failed })
        if !notes.isEmpty { invocation.add("toolExecutionNotifications", .list(notes)) }

        var run = Fields()
        run.add("tool", ["driver": .object(driver)])
        run.add("invocations", .list([.object(invocation)]))
        run.add("artifacts", .list(artifacts))
        run.add("results", .list(results))
        var f = Fields()
        f.add("$schema", schemaURI)
        f.add("version", "2.1.0")
        f.add("runs", .list([.object(run)]))
        return f
    }

    /// SARIF's level for a severity.
    static func level(_ s: DiagnosisSeverity) -> String {
        switch s {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    /// A rule: its texts are the diagnosis's with no facts (what any diagnosis of the id says).
    static func rule(_ id: String) -> Fields {
        var r = Fields()
        r.add("id", id)
        r.add("name", ruleName(id))
        guard let known = DiagnosisID(rawValue: id) else {
            r.add("shortDescription", ["text": .string(id)])
            return r
        }
        // The explanation and advice of a diagnosis of the id with no facts: what any of them says.
        let general = Diagnosis(id: known, evidence: [])
        let summary = DiagnosisRuleText.summary(known)
        let explanation = DiagnosisText.explanation(general), advice = DiagnosisText.advice(general)
        r.add("shortDescription", ["text": .string(summary)])
        r.add("fullDescription", ["text": .string(explanation.isEmpty ? summary + "." : explanation)])
        r.add("help", ["text": .string(advice.isEmpty ? "See the diagnosis's own advice in each result (docs/diagnoses.md: \(id))." : advice)])
        r.add("defaultConfiguration", ["level": .string(level(known.severity))])
        return r
    }

    /// "link_lost" → "LinkLost".
    static func ruleName(_ id: String) -> String {
        id.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func result(_ d: DiagnosedCapture.Entry, capture c: DiagnosedCapture, artifact: Int, rule: Int) -> Fields {
        var r = Fields()
        r.add("ruleId", d.id)
        r.add("ruleIndex", rule)
        r.add("level", level(d.severity))
        var text = d.title + " " + d.scope + "."
        if let e = d.explanation { text += " " + e }
        if let a = d.advice { text += " Next: " + a }
        r.add("message", ["text": .string(text)])
        let records = d.evidence.isEmpty ? [d.firstRecord] : d.evidence
        var location = Fields()
        location.add("physicalLocation", ["artifactLocation": .object(artifactLocation(c.path, artifact))])
        location.add("logicalLocations", .list(records.map { n in
            .object(["name": .string("record \(n)"), "fullyQualifiedName": .string(c.name + "#record \(n)"), "kind": .string("element")])
        }))
        r.add("locations", .list([.object(location)]))
        r.add("fingerprints", ["bletrace/v1": .string(fingerprint(d, capture: c))])
        var p = Fields()
        p.add("count", d.count)
        p.add("peer", d.peer.map { .string($0) } ?? .null)
        p.add("peer_count", d.peerCount)
        p.add("connections", .list(d.connections.map { .int($0) }))
        p.add("first_record", d.firstRecord)
        p.add("last_record", d.lastRecord)
        p.add("evidence", .list(d.evidence.map { .int($0) }))
        r.add("properties", p)
        return r
    }

    static func artifactLocation(_ path: String, _ index: Int) -> Fields {
        ["uri": .string(uri(path)), "index": .int(index)]
    }

    /// The same diagnosis of the same capture, wherever the capture lies: the id, the capture's file name
    /// (and member), the decisive record and the title.
    static func fingerprint(_ d: DiagnosedCapture.Entry, capture c: DiagnosedCapture) -> String {
        let file = c.name.split(separator: "/").last.map(String.init) ?? c.name
        let key = [d.id, file, String(d.firstRecord), d.title].joined(separator: "\u{0}")
        return TriageInputs.hex(SHA256.hash(data: Array(key.utf8)))
    }

    /// A path as a URI reference: an absolute path as a file URI, a relative one as a relative reference;
    /// every byte outside the unreserved set and "/" percent-encoded.
    static func uri(_ path: String) -> String {
        var out = path.hasPrefix("/") ? "file://" : ""
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let h = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(h[Int(b >> 4)])
                out.unicodeScalars.append(h[Int(b & 15)])
            }
        }
        return out
    }
}
