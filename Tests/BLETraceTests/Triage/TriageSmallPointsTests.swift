import Foundation
import Testing
@testable import BLETrace

/// The small points of issue #37 item 5: duplicates are not "already stored", --fail-on names the report's
/// first capture, links in folders are followed or named, long names keep the columns, `-j1`, `triage -`.
@Suite struct TriageSmallPointsTests {
    @Test func duplicatesOnAFreshStoreAreNotAlreadyStored() throws {
        let dir = try TriageFleet.make()
        try FileManager.default.copyItem(atPath: dir + "/clean-a.btsnoop", toPath: dir + "/copy-of-clean-a.btsnoop")
        let (store, db) = try TriageStoreTests.store()
        defer { store.close(); TriageStoreTests.cleanUp(dir, db) }
        let run = try TriageStoreTests.triage(dir, into: store)
        #expect(run.duplicates == 1)
        #expect(run.progress.skipped == 0)
        #expect(run.progress.analysed == TriageFleet.captures)
    }

    @Test func failOnNamesTheFirstCaptureInReportOrder() {
        func record(_ sha: String, _ path: String) -> TriageRecord {
            var r = TriageRecord(capture: TriageCapture(sha256: sha, path: path, member: nil, fileSHA256: sha, status: .ok,
                                                        bletraceVersion: "v", analysedAt: "t"))
            r.diagnoses = [TriageDiagnosis(ordinal: 1, id: "link_lost", severity: "error", count: 1, peer: nil, peerCount: 1,
                                           connections: "1", firstRecord: 1, lastRecord: 2, title: "t")]
            return r
        }
        // In hash order (as the store returns them), "z.btsnoop" comes first; in the report, "a.btsnoop".
        let records = [record("00aa", "z.btsnoop"), record("ffbb", "a.btsnoop")]
        #expect(TriageReport.matches(records, atLeast: .error).map(\.capture) == ["a.btsnoop", "z.btsnoop"])
        #expect(TriageReport(records).lines.map(\.file) == ["a.btsnoop", "z.btsnoop"])
    }

    @Test func linkedFoldersAreFollowedOnceAndDanglingLinksAreNamed() throws {
        let dir = try TriageFleet.make()
        let elsewhere = NSTemporaryDirectory() + "bletrace-linked-" + UUID().uuidString
        defer { TriageStoreTests.cleanUp(dir, elsewhere) }
        let fm = FileManager.default
        try fm.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try fm.copyItem(atPath: dir + "/lost-1.btsnoop", toPath: elsewhere + "/other-rig.btsnoop")
        try fm.createSymbolicLink(atPath: dir + "/linked", withDestinationPath: elsewhere)
        try fm.createSymbolicLink(atPath: dir + "/sub/loop", withDestinationPath: dir)
        try fm.createSymbolicLink(atPath: dir + "/gone.btsnoop", withDestinationPath: dir + "/nothing-here")
        let found = TriageInputs.files([dir])
        #expect(found.files.contains(dir + "/linked/other-rig.btsnoop"))
        #expect(found.files.count == TriageFleet.files.count + 1)
        #expect(found.skipped.map(\.path) == [dir + "/gone.btsnoop", dir + "/sub/loop"])
        #expect(found.skipped.first?.reason == "a symbolic link to nothing")
        #expect(found.skipped.last?.reason.contains("already searched") == true)

        guard TriageCLITests.binary != nil else { return }
        let db = TriageCLITests.database()
        defer { TriageStoreTests.cleanUp(db) }
        let r = try TriageCLITests.run(["triage", dir, "--db", db])
        #expect(r.status == 0)
        #expect(r.err.contains("bletrace: skipped \(dir)/gone.btsnoop: a symbolic link to nothing\n"), "\(r.err)")
        // The linked capture is a copy of lost-1.btsnoop: the same capture, found twice.
        #expect(r.err.contains("triaged 9 captures from 9 files") && r.err.contains("1 duplicate"), "\(r.err)")
        #expect(r.err.contains("bletrace: skipped \(dir)/sub/loop: a folder already searched"), "\(r.err)")
    }

    @Test func longNamesKeepTheColumnsAligned() throws {
        func record(_ sha: String, _ path: String) -> TriageRecord {
            TriageRecord(capture: TriageCapture(sha256: sha, path: path, member: nil, fileSHA256: sha, status: .ok,
                                                bletraceVersion: "v", analysedAt: "t"))
        }
        let long = "nightly/" + String(repeating: "rig-7-overnight-", count: 6) + "btsnoop_hci.log"
        let lines = TriageRender.text(TriageReport([record("01", "short.btsnoop"), record("02", long), record("03", "x\u{1B}.log")]))
        let heading = try #require(lines.first { $0.contains("status") })
        let column = try #require(heading.range(of: "status")).lowerBound.utf16Offset(in: heading)
        let rows = lines.filter { $0.contains(" ok ") }
        #expect(rows.count == 3)
        for row in rows {
            let at = try #require(row.range(of: " ok ")).lowerBound.utf16Offset(in: row) + 1
            #expect(at == column, "\(row)")
        }
        #expect(lines.contains("  " + long))
    }

    @Test(.enabled(if: TriageCLITests.binary != nil))
    func jobsJoinedAndPathsFromStandardInput() throws {
        let dir = try TriageFleet.make()
        let db = TriageCLITests.database()
        defer { TriageStoreTests.cleanUp(dir, db) }
        let joined = try TriageCLITests.run(["triage", dir + "/clean-a.btsnoop", "--db", db, "-j1"])
        #expect(joined.status == 0, "\(joined.err)")
        let list = "\(dir)/lost-1.btsnoop\n\n\(dir)/sub\n"
        let piped = try TriageCLITests.run(["triage", "-", "--db", db, "-j", "2"], input: list, environment: [:])
        #expect(piped.status == 0, "\(piped.err)")
        #expect(piped.err.contains("triaged 2 captures from 2 files"), "\(piped.err)")
        let empty = try TriageCLITests.run(["triage", "-", "--db", db], input: "", environment: [:])
        #expect(empty.status == 2 && empty.err.contains("standard input lists no paths"))
    }
}
