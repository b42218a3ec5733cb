import Foundation
import Testing
@testable import BLETrace

/// `bletrace triage` as users run it: the binary on the fleet, killed part-way and run again, its report and
/// `--report` alike, the formats, the exit statuses.
@Suite struct TriageCLITests {
    static var binary: String? { ExitStatusTests.binary }

    static func run(_ args: [String]) throws -> (status: Int32, out: String, err: String) { try ExitStatusTests.run(args) }

    static func database() -> String { NSTemporaryDirectory() + "bletrace-triage-" + UUID().uuidString + ".sqlite" }

    @Test(.enabled(if: binary != nil))
    func theRunsReportIsWhatReportPrintsFromTheStoreInEveryFormat() throws {
        let dir = try TriageFleet.make()
        let db = Self.database()
        defer { TriageStoreTests.cleanUp(dir, db) }
        let run = try Self.run(["triage", dir, "--db", db, "--jobs", "2"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("triaged 9 captures from 8 files"))
        #expect(run.out.contains("link_lost: 3 of 8 captures; firmware 1.4.3: 3 of 3; model TH-1: 3 of 8"))
        #expect(run.out.contains("notes.txt") && run.out.contains("failed"))
        let report = try Self.run(["triage", "--db", db, "--report"])
        #expect(report.status == 0)
        #expect(report.out == run.out)
        #expect(report.err.isEmpty)
        // The .sqlite file alone holds the store (the WAL was checkpointed at the end of the run).
        let copy = Self.database()
        defer { TriageStoreTests.cleanUp(copy) }
        try FileManager.default.copyItem(atPath: db, toPath: copy)
        #expect(try Self.run(["triage", "--db", copy, "--report"]).out == run.out)

        let json = try Self.run(["triage", "--db", db, "--report", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect((object["totals"] as? [String: Any])?["captures"] as? Int == 9)
        #expect((object["captures"] as? [Any])?.count == 9)
        let lost = (object["diagnoses"] as? [[String: Any]])?.first { $0["id"] as? String == "link_lost" }
        #expect(lost?["captures"] as? Int == 3 && lost?["of"] as? Int == 8)
        let csv = try Self.run(["triage", "--db", db, "--report", "--format", "csv"])
        let rows = csv.out.split(separator: "\r\n")
        #expect(rows.count == 1 + 9)
        #expect(rows.first == "file,member,sha256,status,records,devices,connections,diagnoses,error")
        let md = try Self.run(["triage", "--db", db, "--report", "--format", "markdown"])
        #expect(md.out.hasPrefix("# Triage: 9 captures, 1 damaged, 1 failed"))
        #expect(md.out.contains("| file | status | records | devices | connections | diagnoses |"))

        // Run again: every capture skipped but the failed and the damaged one (retried), the same report.
        let again = try Self.run(["triage", dir, "--db", db])
        #expect(again.err.contains("2 analysed (2 retried, 1 failed), 7 already stored"), "\(again.err)")
        #expect(again.out == run.out)
    }

    @Test(.enabled(if: binary != nil))
    func failOnAndUsageErrors() throws {
        let dir = try TriageFleet.make()
        let db = Self.database()
        defer { TriageStoreTests.cleanUp(dir, db) }
        let failing = try Self.run(["triage", dir, "--db", db, "--fail-on", "error", "-q"])
        #expect(failing.status == 1)
        #expect(failing.err.isEmpty)
        let noisy = try Self.run(["triage", dir, "--db", db, "--fail-on", "warning"])
        #expect(noisy.status == 1)
        #expect(noisy.err.contains("--fail-on warning: 4 captures with a diagnosis at or above warning"))
        // Clean captures only: no failure.
        let clean = try Self.run(["triage", dir + "/clean-*", "--db", Self.database(), "--fail-on", "warning", "-q"])
        #expect(clean.status == 0)

        for (args, message) in [
            (["triage", "--db", db], "give the captures or directories to triage"),
            (["triage", dir + "/absent.log", "--db", db], "absent.log: no such file or directory"),
            (["triage", dir, "--db", db, "--jobs", "0"], "--jobs: 0 is not"),
            (["triage", dir, "--db", db, "--timeout", "-1"], "--timeout: -1.0 is not"),
            (["triage", dir, "--db", dir + "/clean-a.btsnoop"], "clean-a.btsnoop"),
            (["triage", "--db", dir + "/none.sqlite", "--report"], "no such store"),
            (["triage", dir, "--db", db, "--redact"], "holds captures that are not redacted"),
        ] {
            let r = try Self.run(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.err.hasPrefix("bletrace: ") && r.err.contains(message), "\(args): \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1, "\(args): \(r.err)")
        }
    }

    /// Killed (SIGKILL) while it works, run again: every capture stored once, none lost, none half-written.
    @Test(.enabled(if: binary != nil))
    func killedPartWayThenRunAgainLosesNothing() throws {
        let dir = NSTemporaryDirectory() + "bletrace-triage-kill-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let db = Self.database()
        defer { TriageStoreTests.cleanUp(dir, db) }
        let count = 16
        var hashes = Set<String>()
        for i in 0..<count {
            let bytes = TriageFleet.session(firmware: "2.\(i)", plant: i % 3 == 0 ? .linkLost : .clean,
                                            start: 1_700_000_000_000_000 + Int64(i) * 10_000_000, notifications: 6000)
            let path = dir + "/capture-\(String(format: "%02d", i)).btsnoop"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            hashes.formUnion(TriageInputs.units(of: path).map(\.sha256))
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(Self.binary))
        p.arguments = ["triage", dir, "--db", db, "--jobs", "1", "-q"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Kill it once the first captures are committed.
        var stored = 0
        let deadline = Date().addingTimeInterval(60)
        while p.isRunning && Date() < deadline {
            if FileManager.default.fileExists(atPath: db), let s = try? SQLiteTriageStore(path: db),
               let n = try? s.storedVersions().count {
                s.close()
                stored = n
                if n >= 2 { break }
            }
            usleep(5_000)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal, "the run ended before it could be killed")
        let store = try SQLiteTriageStore(path: db)
        try store.prepare(redacted: false, check: true)
        let partial = try store.load()
        #expect(partial.count >= stored && partial.count < count)
        // What was committed is whole: each capture's connection rows are all there.
        for r in partial { #expect(r.connections.count == r.capture.connections && r.deviceInformation.count == 1) }
        store.close()

        let again = try Self.run(["triage", dir, "--db", db, "--jobs", "2"])
        #expect(again.status == 0)
        #expect(again.err.contains("\(count - partial.count) analysed") && again.err.contains("\(partial.count) already stored"))
        let done = try SQLiteTriageStore(path: db)
        defer { done.close() }
        let all = try done.load()
        #expect(all.count == count)
        #expect(Set(all.map(\.capture.sha256)) == hashes)
        for r in all { #expect(r.capture.status == .ok && r.connections.count == 1 && r.deviceInformation.count == 1) }
        let report = TriageReport(all)
        #expect(report.aggregates.first { $0.id == "link_lost" }?.captures == 6)
    }
}
