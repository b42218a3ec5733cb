import Foundation
import Testing
@testable import BLETrace

/// JUnit and SARIF from a run's diagnoses (issue #39): one suite per capture and one case per diagnosis id,
/// failing at the `--fail-on` severity; one SARIF rule per id and one result per diagnosis, with stable
/// fingerprints; redacted with the run.
@Suite struct CIReportTests {
    static func summary(_ bytes: [UInt8], redact: Bool = false) throws -> (Summary, Redactor?) {
        var run = AnalyzeRun()
        run.format = .json
        run.redact = redact
        let opened = { OpenedCapture(reader: try WriteCaptureTests.reader(bytes), containers: [], logs: [], chosenLog: nil) }
        let r = try run.run(open: opened, path: "rig-7/pairing.log", out: OutputWriter(discarding: ()))
        return (r.summary, r.redactor)
    }

    static func render(_ format: AnalyzeRun.Format, _ bytes: [UInt8], failOn: DiagnosisSeverity = .error, redact: Bool = false) throws -> String {
        var run = AnalyzeRun()
        run.format = format
        run.failOn = failOn
        run.redact = redact
        let out = OutputWriter()
        let opened = { OpenedCapture(reader: try WriteCaptureTests.reader(bytes), containers: [], logs: [], chosenLog: nil) }
        _ = try run.run(open: opened, path: "rig-7/pairing.log", out: out)
        out.flush()
        return String(decoding: out.captured, as: UTF8.self)
    }

    /// The names of the cases that hold a failure.
    static func failingCases(_ xml: String) -> [String] {
        var out: [String] = []
        var rest = Substring(xml)
        while let c = rest.range(of: "<testcase name=\"") {
            rest = rest[c.upperBound...]
            guard let q = rest.firstIndex(of: "\"") else { break }
            let name = String(rest[..<q])
            let end = rest.range(of: "</testcase>")?.lowerBound ?? rest.endIndex
            let selfClosed = rest.range(of: "/>")?.lowerBound ?? rest.endIndex
            if selfClosed < (rest.range(of: ">")?.lowerBound ?? rest.endIndex) { continue }
            if rest[..<end].contains("<failure ") { out.append(name) }
        }
        return out
    }

    @Test func junitHasACasePerIdAndFailsTheErrorsFound() throws {
        let bytes = Samples.pairingFailed().writer.bytes
        let (s, _) = try Self.summary(bytes)
        let errors = Set(s.diagnoses.filter { $0.severity == .error }.map(\.id.rawValue))
        #expect(!errors.isEmpty)
        let xml = try Self.render(.junit, bytes)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "))
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == DiagnosisID.allCases.count)
        #expect(Set(Self.failingCases(xml)) == errors)
        #expect(xml.contains("<testsuite name=\"rig-7/pairing.log\" tests=\"\(DiagnosisID.allCases.count)\" failures=\"\(errors.count)\""))
        // The failure message: the title, the records and the connection.
        let d = try #require(s.diagnoses.first { $0.severity == .error })
        let message = JUnitReport.attribute(DiagnosisText.title(d) + " " + DiagnosisText.scope(d))
        #expect(xml.contains("<failure message=\"\(message)\" type=\"error\">"))
        #expect(message.contains("record"))
        #expect(xml.contains("classname=\"rig-7/pairing.log\""))
    }

    @Test func failOnWarningFailsTheWarningsToo() throws {
        let bytes = Samples.gattSession().writer.bytes
        let (s, _) = try Self.summary(bytes)
        #expect(s.diagnoses.contains { $0.severity == .warning })
        #expect(Self.failingCases(try Self.render(.junit, bytes)) == s.diagnoses.filter { $0.severity == .error }.map(\.id.rawValue))
        let warned = Self.failingCases(try Self.render(.junit, bytes, failOn: .warning))
        #expect(Set(warned) == Set(s.diagnoses.filter { $0.severity >= .warning }.map(\.id.rawValue)))
        // Below --fail-on, the diagnosis is in the case's output, not a failure.
        #expect(try Self.render(.junit, bytes).contains("<system-out>warning attribute_not_permitted: "))
    }

    @Test func markupAndControlCharactersInNamesStayWellFormed() {
        var c = DiagnosedCapture(summary: Summary(capture: CaptureInfo(path: "a<b>&\"c\u{1B}.log", format: .btsnoop, linkType: 1002),
                                                  stats: CaptureStats(), connections: [], connectionCount: 0, sections: [], warnings: []))
        c.diagnoses = [DiagnosedCapture.Entry(id: "link_lost", severity: .error, title: "Lost <x> & \u{7}", explanation: nil, advice: nil,
                                              count: 1, peer: nil, peerCount: 0, connections: [1], firstRecord: 5, lastRecord: 5, evidence: [5])]
        let out = OutputWriter()
        JUnitReport.write([c], failOn: .error, to: out)
        out.flush()
        let xml = String(decoding: out.captured, as: UTF8.self)
        #expect(xml.contains("name=\"a&lt;b&gt;&amp;&quot;c\\x1b.log\""))
        #expect(xml.contains("message=\"Lost &lt;x&gt; &amp; \\x07 (record 5, connection #1)\""))
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func sarifHasARulePerIdAndAResultPerDiagnosisWithStableFingerprints() throws {
        let bytes = Samples.pairingFailed().writer.bytes
        let (s, _) = try Self.summary(bytes)
        let first = try Self.render(.sarif, bytes)
        #expect(first == (try Self.render(.sarif, bytes)))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(doc["version"] as? String == "2.1.0")
        let run = try #require((doc["runs"] as? [[String: Any]])?.first)
        let rules = try #require(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == DiagnosisID.allCases.map(\.rawValue))
        let linkLost = try #require(rules.first { $0["id"] as? String == "link_lost" })
        #expect(linkLost["name"] as? String == "LinkLost")
        #expect((linkLost["help"] as? [String: Any])?["text"] as? String == DiagnosisText.advice(Diagnosis(id: .linkLost, evidence: [])))
        #expect((linkLost["defaultConfiguration"] as? [String: Any])?["level"] as? String == "error")
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == s.diagnoses.map(\.id.rawValue))
        #expect(results.map { $0["level"] as? String } == s.diagnoses.map { SARIFReport.level($0.severity) })
        for (r, d) in zip(results, s.diagnoses) {
            let loc = try #require((r["locations"] as? [[String: Any]])?.first)
            let logical = try #require(loc["logicalLocations"] as? [[String: Any]])
            #expect(logical.map { $0["name"] as? String } == d.evidence.map { "record \($0)" })
            let uri = ((loc["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
            #expect(uri == "rig-7/pairing.log")
            let fp = (r["fingerprints"] as? [String: String])?["bletrace/v1"]
            #expect(fp?.count == 64)
        }
        // Another path to the same file: the same fingerprints.
        var c = DiagnosedCapture(summary: s)
        let before = c.diagnoses.map { SARIFReport.fingerprint($0, capture: c) }
        c.name = "/elsewhere/rig-7/pairing.log"
        c.path = c.name
        #expect(c.diagnoses.map { SARIFReport.fingerprint($0, capture: c) } == before)
        #expect(SARIFReport.uri(c.path) == "file:///elsewhere/rig-7/pairing.log")
        #expect(SARIFReport.uri("a b/#1.log") == "a%20b/%231.log")
    }

    @Test func redactedReportsCarryNoPeerAddress() throws {
        let bytes = Samples.gattSession().writer.bytes
        let (s, _) = try Self.summary(bytes)
        let peers = Set(s.diagnoses.compactMap { $0.peer?.description })
        #expect(!peers.isEmpty)
        for format in [AnalyzeRun.Format.junit, .sarif] {
            let plain = try Self.render(format, bytes, failOn: .warning)
            let redacted = try Self.render(format, bytes, failOn: .warning, redact: true)
            #expect(peers.contains { plain.contains($0) })
            #expect(!peers.contains { redacted.contains($0) })
        }
    }
}
