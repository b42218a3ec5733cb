import Foundation
import Testing
@testable import BLETrace

/// A rerun retries what failed and replaces what changed (issue #37): a capture stored as failed or damaged
/// is analysed again by a plain rerun; a file whose content changed leaves no stale row beside its new one.
@Suite struct TriageRerunTests {
    static func folder(_ files: [String: [UInt8]]) throws -> String {
        let dir = NSTemporaryDirectory() + "bletrace-rerun-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, bytes) in files { #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(bytes))) }
        return dir
    }

    static let session = TriageFleet.session(firmware: "1", plant: .clean, start: 1_700_000_000_000_000, notifications: 3000)

    @Test func aCaptureThatTimedOutIsRetriedByAPlainRerun() throws {
        let dir = try Self.folder(["a.btsnoop": Self.session])
        let (store, db) = try TriageStoreTests.store()
        defer { store.close(); TriageStoreTests.cleanUp(dir, db) }
        let first = try TriageStoreTests.triage(dir, into: store, timeout: 0.000_001)
        #expect(first.progress.failed == 1)
        #expect(try store.load().first?.capture.status == .failed)
        let second = try TriageStoreTests.triage(dir, into: store, timeout: 600)
        #expect(second.progress.analysed == 1 && second.progress.retried == 1 && second.progress.failed == 0)
        let all = try store.load()
        #expect(all.count == 1 && all.first?.capture.status == .ok)
        // Stored ok: the next run skips it.
        let third = try TriageStoreTests.triage(dir, into: store)
        #expect(third.progress.analysed == 0 && third.progress.skipped == 1)
    }

    @Test func aFileWhoseContentChangedReplacesItsStaleRow() throws {
        let dir = try Self.folder(["a.btsnoop": Self.session, "b.btsnoop": Array("not yet a capture\n".utf8)])
        let (store, db) = try TriageStoreTests.store()
        defer { store.close(); TriageStoreTests.cleanUp(dir, db) }
        let first = try TriageStoreTests.triage(dir, into: store)
        #expect(first.progress.failed == 1)
        // The file is fixed: other bytes, another content hash.
        let fixed = TriageFleet.session(firmware: "2", plant: .linkLost, start: 1_700_000_100_000_000)
        #expect(FileManager.default.createFile(atPath: dir + "/b.btsnoop", contents: Data(fixed)))
        let second = try TriageStoreTests.triage(dir, into: store)
        #expect(second.stale == 1 && second.progress.analysed == 1 && second.progress.skipped == 1)
        let report = TriageReport(try store.load())
        #expect(report.lines.count == 2 && report.failed == 0)
        #expect(TriageRender.text(report).first == "Captures: 2 captures")
        // A path not in the run keeps its row.
        let (other, otherDB) = try TriageStoreTests.store()
        defer { other.close(); TriageStoreTests.cleanUp(otherDB) }
        _ = try TriageStoreTests.triage(dir, into: other)
        var o = TriageRun.Options()
        o.jobs = 1
        let partial = try TriageRun.run(files: [dir + "/a.btsnoop"], store: other, options: o)
        #expect(partial.stale == 0)
        #expect(try other.load().count == 2)
    }
}
