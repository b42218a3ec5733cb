import Foundation
import Testing
@testable import BLETrace

/// The SQLite store as other programs and users meet it (issue #37): no `-wal` or `-shm` file left after a
/// run, readable by a user who may not write it (`--report`), and a run that waits for another process' lock
/// says so.
@Suite struct TriageSQLiteAccessTests {
    static func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "bletrace-access-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir)
        return dir
    }

    @Test(.enabled(if: TriageCLITests.binary != nil))
    func aRunLeavesOnlyTheStoreFileAndAReadOnlyStoreIsReported() throws {
        let fleet = try TriageFleet.make()
        let dir = try Self.folder()
        defer { TriageStoreTests.cleanUp(fleet, dir) }
        let db = dir + "/fleet.sqlite"
        let run = try TriageCLITests.run(["triage", fleet, "--db", db, "-q"])
        #expect(run.status == 0, "\(run.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["fleet.sqlite"])
        let report = try TriageCLITests.run(["triage", "--db", db, "--report"])
        #expect(report.status == 0 && report.out == run.out)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["fleet.sqlite"])

        // Read-only for the user who reports: root writes anything, so root reports as nobody.
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir) }
        var binary = try TriageCLITests.requireBinary()
        // As root, a copy in a folder every user may enter: the checkout may lie in one only its owner can (mktemp -d).
        let copies = getuid() == 0 ? try Self.folder() : nil
        defer { if let c = copies { try? FileManager.default.removeItem(atPath: c) } }
        if let c = copies {
            try FileManager.default.copyItem(atPath: binary, toPath: c + "/bletrace")
            binary = c + "/bletrace"
        }
        let asOther = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "nobody", "--", binary] : [binary]
        guard FileManager.default.isExecutableFile(atPath: asOther[0]) else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: asOther[0])
        p.arguments = Array(asOther.dropFirst()) + ["triage", "--db", db, "--report"]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(String(decoding: e, as: UTF8.self))")
        #expect(String(decoding: o, as: UTF8.self) == run.out)
    }

    @Test(.enabled(if: TriageCLITests.binary != nil))
    func aRunThatWaitsForAnotherProcessLockSaysSo() throws {
        let fleet = try TriageFleet.make()
        let dir = try Self.folder()
        defer { TriageStoreTests.cleanUp(fleet, dir) }
        let db = dir + "/fleet.sqlite"
        let made = try SQLiteTriageStore(path: db)
        try made.prepare(redacted: false, check: true)
        made.close()
        // Another writer holds the lock for 2.5 s.
        let holder = try SQLiteTriageStore(path: db)
        let locked = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        final class Box: @unchecked Sendable { let store: SQLiteTriageStore; init(_ s: SQLiteTriageStore) { store = s } }
        let box = Box(holder)
        let t = Thread {
            try? box.store.holdingLock {
                locked.signal()
                release.wait()
            }
            released.signal()
        }
        t.start()
        locked.wait()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try TriageCLITests.requireBinary())
        p.arguments = ["triage", fleet + "/clean-a.btsnoop", "--db", db]
        let err = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = err
        try p.run()
        usleep(2_500_000)
        #expect(p.isRunning)
        release.signal()
        released.wait()
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        holder.close()
        #expect(p.terminationStatus == 0, "\(e)")
        #expect(e.contains("bletrace: waiting for the store's lock (held by another process)\n"), "\(e)")
        #expect(e.components(separatedBy: "waiting for").count == 2)
        #expect(e.contains("1 analysed"))
    }
}
