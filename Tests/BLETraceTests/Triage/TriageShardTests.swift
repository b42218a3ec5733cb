import Foundation
import Testing
@testable import BLETrace

/// `triage --shard K/N` (issue #39): the inputs split by content hash into N disjoint shards, the same on
/// every machine; the N shards together store exactly what one run stores, each capture analysed once.
@Suite struct TriageShardTests {
    static func shardRuns(_ dir: String, into store: TriageStore, count: Int, files: [String]) throws -> [TriageRun.Outcome] {
        try (0..<count).map { k in
            var o = TriageRun.Options()
            o.jobs = 2
            o.shard = TriageShard(index: k, count: count)
            // Each worker may list the inputs in its own order.
            return try TriageRun.run(files: k % 2 == 0 ? files : files.reversed(), store: store, options: o)
        }
    }

    @Test func theShardsTogetherStoreWhatOneRunStoresWithNoCaptureTwice() throws {
        let dir = try TriageFleet.make()
        let (whole, wholeDB) = try TriageStoreTests.store()
        let (sharded, shardedDB) = try TriageStoreTests.store()
        defer { whole.close(); sharded.close(); TriageStoreTests.cleanUp(dir, wholeDB, shardedDB) }
        let one = try TriageStoreTests.triage(dir, into: whole)
        let files = TriageInputs.files([dir]).files
        for n in [1, 3, 4] {
            let (store, db) = try TriageStoreTests.store()
            defer { store.close(); TriageStoreTests.cleanUp(db) }
            let runs = try Self.shardRuns(dir, into: store, count: n, files: files)
            // Disjoint: no capture is found (so analysed) by two shards; together they find every capture.
            let found = runs.flatMap(\.hashes)
            #expect(found.count == Set(found).count)
            #expect(Set(found) == Set(one.hashes))
            #expect(runs.reduce(0) { $0 + $1.progress.analysed } == one.progress.analysed)
            #expect(runs.allSatisfy { $0.progress.skipped == 0 && $0.storedElsewhere == 0 })
            // Each file went to exactly one shard.
            #expect(runs.allSatisfy { $0.progress.filesDone == files.count })
            #expect(runs.reduce(0) { $0 + (files.count - $1.otherShards) } == files.count)
            #expect(try TriageFleet.normalised(store) == (try TriageFleet.normalised(whole)))
        }
        // The split is the one the content decides: the same for any listing order.
        let a = try Self.shardRuns(dir, into: sharded, count: 3, files: files).map { Set($0.hashes) }
        let (again, againDB) = try TriageStoreTests.store()
        defer { again.close(); TriageStoreTests.cleanUp(againDB) }
        let b = try Self.shardRuns(dir, into: again, count: 3, files: files.shuffled()).map { Set($0.hashes) }
        #expect(a == b)
    }

    @Test func shardsAreParsedAndPlacedByTheHashAlone() {
        #expect(TriageShard("0/3") == TriageShard(index: 0, count: 3))
        #expect(TriageShard("2/3")?.index == 2)
        for bad in ["3/3", "-1/3", "1/0", "a/b", "1", "1/2/3", "", "/3", "1/", " 1/3", "+1/3"] { #expect(TriageShard(bad) == nil, "\(bad)") }
        // The first 15 hex digits as a number, modulo the count: fixed, not a per-process hash.
        let h = "00000000000000a" + String(repeating: "f", count: 49)
        #expect(TriageShard.of(h, count: 4) == 10 % 4)
        #expect(TriageShard.of(h, count: 1) == 0)
        #expect(TriageShard(index: 2, count: 4)?.contains(h) == true)
        #expect(TriageShard.of("fffffffffffffff0", count: 7) == Int(UInt64(0xfffffffffffffff) % 7))
    }

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func theCommandChecksTheShardAndSaysWhatItLeft() throws {
        let dir = try TriageFleet.make()
        let db = TriageCLITests.database()
        defer { TriageStoreTests.cleanUp(dir, db) }
        for bad in ["3/3", "x", "1/0"] {
            let r = try TriageCLITests.run(["triage", dir, "--db", db, "--shard", bad])
            #expect(r.status == 2 && r.err.contains("--shard: '\(bad)' is not a shard K/N"), "\(r.err)")
        }
        #expect(try TriageCLITests.run(["triage", "--db", db, "--report", "--shard", "0/2"]).status == 2)
        var stored = 0
        for k in 0..<2 {
            let r = try TriageCLITests.run(["triage", dir, "--db", db, "--shard", "\(k)/2"])
            #expect(r.status == 0, "\(r.err)")
            #expect(r.err.contains("(shard \(k)/2: "), "\(r.err)")
            stored += r.out.split(separator: "\n").count
        }
        let store = try SQLiteTriageStore(path: db)
        defer { store.close() }
        #expect(try store.load().count == TriageFleet.captures)
    }
}
