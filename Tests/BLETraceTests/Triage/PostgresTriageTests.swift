import Foundation
import Testing
@testable import BLETrace

/// The PostgreSQL store, against the server `BLETRACE_TEST_POSTGRES` names (a URL or conninfo; `.ci/run`
/// starts one on loopback). Skipped without it.
@Suite(.serialized) struct PostgresTriageTests {
    static let conninfo = ProcessInfo.processInfo.environment["BLETRACE_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

    /// Drops the triage tables, for a run that starts from nothing.
    static func emptied() throws -> PostgresTriageStore {
        let s = try PostgresTriageStore(conninfo: try #require(conninfo))
        for t in TriageSchema.tables.reversed() { try s.command("DROP TABLE IF EXISTS \(t.name) CASCADE") }
        try s.command("DROP TABLE IF EXISTS meta")
        return s
    }

    /// Two `triage` processes on overlapping shards of the fleet, at once, into one server: each capture
    /// stored once, and the rows equal an SQLite run's over the whole fleet.
    @Test(.enabled(if: conninfo != nil && ExitStatusTests.binary != nil))
    func twoProcessesOnOverlappingShardsStoreWhatSQLiteStores() throws {
        let url = try #require(Self.conninfo)
        let dir = try TriageFleet.make()
        let db = TriageCLITests.database()
        defer { TriageStoreTests.cleanUp(dir, db) }
        try Self.emptied().close()
        let files = TriageInputs.files([dir]).files
        let shardA = Array(files[0..<6]), shardB = Array(files[3...])
        func start(_ shard: [String]) throws -> Process {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: try #require(ExitStatusTests.binary))
            p.arguments = ["triage"] + shard + ["--db", url, "--jobs", "2", "-q"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }
        let a = try start(shardA), b = try start(shardB)
        a.waitUntilExit()
        b.waitUntilExit()
        #expect(a.terminationStatus == 0 && b.terminationStatus == 0)

        let sqlite = try TriageCLITests.run(["triage", dir, "--db", db, "-q"])
        #expect(sqlite.status == 0)
        let local = try SQLiteTriageStore(path: db)
        defer { local.close() }
        let server = try PostgresTriageStore(conninfo: url)
        defer { server.close() }
        let remote = try TriageFleet.normalised(server)
        #expect(remote["captures"]?.count == TriageFleet.captures)
        #expect(remote == (try TriageFleet.normalised(local)))
        #expect(try server.meta()["schema_version"] == String(TriageSchema.version))

        // The report from the server is the SQLite one.
        let fromServer = try TriageCLITests.run(["triage", "--db", url, "--report"])
        let fromFile = try TriageCLITests.run(["triage", "--db", db, "--report"])
        #expect(fromServer.status == 0 && fromServer.out == fromFile.out)

        // Again into the server: everything already stored but the failed and the damaged capture (retried).
        let again = try TriageCLITests.run(["triage", dir, "--db", url])
        #expect(again.err.contains("2 analysed (2 retried, 1 failed), 7 already stored"), "\(again.err)")
    }

    @Test(.enabled(if: conninfo != nil))
    func concurrentWritersOfOneCaptureStoreItOnce() throws {
        let store = try Self.emptied()
        defer { store.close() }
        try store.prepare(redacted: false, check: true)
        let other = try PostgresTriageStore(conninfo: try #require(Self.conninfo))
        defer { other.close() }
        var c = TriageCapture(sha256: "feed", path: "a", member: nil, fileSHA256: "feed", status: .ok, bletraceVersion: "1", analysedAt: "t")
        c.connections = 1
        var r = TriageRecord(capture: c)
        r.connections = [TriageConnection(number: 1, handle: 64, transport: "le", encrypted: false)]
        // A first writer's capture row, not yet committed: the second writer waits on it, then finds it stored.
        try store.run("BEGIN")
        try store.run(TriageSchema.insert(TriageSchema.captures, dollar: true), r.rows[0].1[0])
        final class Box: @unchecked Sendable { var value: Bool?; var error: Error?; let store: PostgresTriageStore; init(_ s: PostgresTriageStore) { store = s } }
        let second = Box(other)
        let record = r
        let done = DispatchSemaphore(value: 0)
        let t = Thread {
            do { second.value = try second.store.write(record, replace: false) } catch { second.error = error }
            done.signal()
        }
        t.start()
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut)
        try store.run("COMMIT")
        done.wait()
        #expect(second.value == false && second.error == nil)
        #expect(try store.load().count == 1)
        #expect(try store.load().first?.connections.isEmpty == true)
    }
}
