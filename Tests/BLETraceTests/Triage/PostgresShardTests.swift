import Foundation
import Testing
@testable import BLETrace

extension PostgresTriageTests {
    /// `--shard K/N` (issue #39): N worker processes, each given every input, at once into one PostgreSQL
    /// store: each capture stored once, and the rows equal one SQLite run's over the whole fleet.
    @Test(.enabled(if: conninfo != nil && ExitStatusTests.binary != nil))
    func shardedWorkersIntoOneServerStoreWhatOneRunStores() throws {
        let url = try #require(Self.conninfo)
        let dir = try TriageFleet.make()
        let db = TriageCLITests.database()
        defer { TriageStoreTests.cleanUp(dir, db) }
        try Self.emptied().close()
        let workers = try (0..<3).map { k -> Process in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: try #require(ExitStatusTests.binary))
            p.arguments = ["triage", dir, "--db", url, "--shard", "\(k)/3", "--jobs", "1", "-q"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }
        for p in workers { p.waitUntilExit() }
        #expect(workers.allSatisfy { $0.terminationStatus == 0 })
        #expect(try TriageCLITests.run(["triage", dir, "--db", db, "-q"]).status == 0)
        let local = try SQLiteTriageStore(path: db)
        defer { local.close() }
        let server = try PostgresTriageStore(conninfo: url)
        defer { server.close() }
        let remote = try TriageFleet.normalised(server)
        #expect(remote["captures"]?.count == TriageFleet.captures)
        #expect(remote == (try TriageFleet.normalised(local)))
    }
}
