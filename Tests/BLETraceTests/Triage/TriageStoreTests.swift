import Foundation
import Testing
@testable import BLETrace

/// `bletrace triage` through the library: the fleet's captures into an SQLite store, incremental runs, the
/// aggregate against the plants, redaction, timeouts.
@Suite struct TriageStoreTests {
    static func store() throws -> (SQLiteTriageStore, String) {
        let path = NSTemporaryDirectory() + "bletrace-triage-" + UUID().uuidString + ".sqlite"
        let s = try SQLiteTriageStore(path: path)
        try s.prepare(redacted: false, check: true)
        return (s, path)
    }

    static func triage(_ dir: String, into store: TriageStore, jobs: Int = 2, force: Bool = false, redact: Bool = false,
                       timeout: Double? = nil) throws -> TriageRun.Outcome {
        var o = TriageRun.Options()
        o.jobs = jobs
        o.force = force
        o.analysis.redact = redact
        o.analysis.timeout = timeout
        let found = TriageInputs.files([dir])
        #expect(found.missing.isEmpty)
        return try TriageRun.run(files: found.files, store: store, options: o)
    }

    static func cleanUp(_ paths: String...) {
        for p in paths { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: p + suffix) } }
    }

    @Test func discoveryWalksDirectoriesAndGlobsAndSplitsBugreports() throws {
        let dir = try TriageFleet.make()
        defer { Self.cleanUp(dir) }
        let found = TriageInputs.files([dir])
        #expect(found.files.map { String($0.dropFirst(dir.count + 1)) } == TriageFleet.files)
        // A glob, a file named twice and a missing path.
        let globbed = TriageInputs.files([dir + "/*.btsnoop", dir + "/lost-1.btsnoop", dir + "/nothing-*.log", dir + "/absent"])
        #expect(globbed.files.count == 4)
        #expect(globbed.missing == [dir + "/nothing-*.log", dir + "/absent"])
        let units = TriageInputs.units(of: dir + "/bugreport-1.zip")
        #expect(units.map(\.log) == [1, 2])
        #expect(units.map(\.member) == ["FS/data/misc/bluetooth/logs/btsnoop_hci.log", "FS/data/misc/bluetooth/logs/btsnoop_hci.log.last"])
        #expect(Set(units.map(\.sha256)).count == 2 && units.allSatisfy { $0.fileSHA256 == units[0].fileSHA256 && $0.sha256 != $0.fileSHA256 })
        #expect(TriageInputs.units(of: dir + "/notes.txt").first?.openError?.contains("btsnooz") == true)
    }

    @Test func aTriageRunStoresEveryCaptureAndASecondRunSkipsThemAll() throws {
        let dir = try TriageFleet.make()
        let (store, db) = try Self.store()
        defer { store.close(); Self.cleanUp(dir, db) }
        let first = try Self.triage(dir, into: store)
        #expect(first.hashes.count == TriageFleet.captures)
        #expect(first.progress.analysed == TriageFleet.captures)
        #expect(first.progress.failed == TriageFleet.failed)
        #expect(first.progress.skipped == 0)
        #expect(first.progress.filesDone == TriageFleet.files.count)
        let before = try TriageFleet.normalised(store)
        let okAt = try store.load().filter { $0.capture.status == .ok }.map(\.capture.analysedAt)
        #expect(before["captures"]?.count == TriageFleet.captures)

        // Again: the failed and the damaged capture are retried (and fail and are damaged again), the rest skipped.
        let second = try Self.triage(dir, into: store, jobs: 1)
        #expect(second.progress.analysed == TriageFleet.failed + 1)
        #expect(second.progress.retried == TriageFleet.failed + 1)
        #expect(second.progress.skipped == TriageFleet.captures - TriageFleet.failed - 1)
        #expect(second.duplicates == 0 && second.stale == 0)
        #expect(Set(second.hashes) == Set(first.hashes))
        #expect(try TriageFleet.normalised(store) == before)
        // The captures stored ok were not analysed again.
        #expect(try store.load().filter { $0.capture.status == .ok }.map(\.capture.analysedAt) == okAt)

        // --force analyses again and replaces each capture's rows (nothing doubled).
        let forced = try Self.triage(dir, into: store, force: true)
        #expect(forced.progress.analysed == TriageFleet.captures)
        #expect(try TriageFleet.normalised(store) == before)
    }

    @Test func theAggregateFindsThePlantsByFirmware() throws {
        let dir = try TriageFleet.make()
        let (store, db) = try Self.store()
        defer { store.close(); Self.cleanUp(dir, db) }
        _ = try Self.triage(dir, into: store)
        let records = try store.load()
        let report = TriageReport(records)
        #expect(report.lines.count == TriageFleet.captures)
        #expect(report.analysed == TriageFleet.analysed)
        #expect(report.failed == 1 && report.damaged == 1)
        let byName = Dictionary(uniqueKeysWithValues: report.lines.map { (String($0.name.dropFirst(dir.count + 1)), $0) })
        #expect(byName["notes.txt"]?.status == .failed)
        #expect(byName["damaged.btsnoop"]?.status == .damaged)
        #expect(byName["damaged.btsnoop"]?.diagnoses.map(\.id) == ["capture_incomplete"])
        #expect(byName["clean-a.btsnoop"]?.diagnoses.isEmpty == true)
        #expect(byName["clean-b.btsnoop.gz"]?.diagnoses.isEmpty == true)
        #expect(byName["lost-1.btsnoop"]?.diagnoses.map(\.id) == ["link_lost"])
        #expect(byName["bugreport-1.zip [FS/data/misc/bluetooth/logs/btsnoop_hci.log]"]?.diagnoses.map(\.id) == ["link_lost"])
        #expect(byName["bugreport-1.zip [FS/data/misc/bluetooth/logs/btsnoop_hci.log.last]"]?.diagnoses.isEmpty == true)
        #expect(byName["pairing.btsnoop"]?.diagnoses.map(\.id) == ["pairing_rejected_by_user"])

        // link_lost: the three captures of firmware 1.4.3, none of the five of 1.4.2.
        let lost = try #require(report.aggregates.first { $0.id == "link_lost" })
        #expect(TriageReport.sentence(lost) == "link_lost: 3 of 8 captures; firmware 1.4.3: 3 of 3; model TH-1: 3 of 8")
        #expect(report.aggregates.first?.id == "link_lost")
        let pairing = try #require(report.aggregates.first { $0.id == "pairing_rejected_by_user" })
        #expect(pairing.byFirmware == [TriageReport.Share(value: "1.4.2", having: 1, of: 5)])
        #expect(Set(report.aggregates.map(\.id)) == ["link_lost", "pairing_rejected_by_user", "capture_incomplete"])

        // The facts behind it, from typed values.
        let lostRecord = try #require(records.first { $0.capture.path.hasSuffix("lost-1.btsnoop") })
        #expect(lostRecord.deviceInformation == [TriageDeviceInformation(peer: Samples.thermo.description, model: "TH-1", firmwareRevision: "1.4.3")])
        #expect(lostRecord.connections.first?.disconnectReason == 0x08)
        #expect(lostRecord.connections.first?.peer == Samples.thermo.description)
        #expect(lostRecord.capture.controllerAddress == Samples.local.description)
        #expect(lostRecord.capture.controllerManufacturer == "Nordic Semiconductor ASA")
        #expect(lostRecord.links.first?.txPackets ?? 0 > 0)
        let pairingRecord = try #require(records.first { $0.capture.path.hasSuffix("pairing.btsnoop") })
        #expect(pairingRecord.connections.first?.pairingResult == "failed")
        #expect(pairingRecord.connections.first?.pairingFailedReason == 0x0C)
        #expect(TriageReport.matches(records, atLeast: .error).count == 4)
    }

    @Test func aRedactedStoreHoldsPseudonymsAndRefusesPlainRuns() throws {
        let dir = try TriageFleet.make()
        let path = NSTemporaryDirectory() + "bletrace-triage-" + UUID().uuidString + ".sqlite"
        let store = try SQLiteTriageStore(path: path)
        defer { store.close(); Self.cleanUp(dir, path) }
        try store.prepare(redacted: true, check: true)
        _ = try Self.triage(dir, into: store, redact: true)
        let all = try TriageFleet.normalised(store).values.flatMap { $0 }.joined(separator: "\n")
        #expect(!all.contains(Samples.thermo.description) && !all.contains(Samples.local.description))
        #expect(all.contains("firmware_revision=1.4.3"))
        let lost = try #require(store.load().first { $0.capture.path.hasSuffix("lost-1.btsnoop") })
        // The pseudonyms analyze --redact gives: numbered in the order the capture shows the addresses.
        #expect(lost.capture.controllerAddress == "00:00:00:00:00:01")
        #expect(lost.deviceInformation.first?.peer == lost.connections.first?.peer)
        #expect(throws: TriageStoreError.self) { try store.prepare(redacted: false, check: true) }
    }

    @Test func aCaptureOverItsTimeIsStoredAsFailed() throws {
        let path = TestSupport.temporaryFile(TriageFleet.session(firmware: "1", plant: .clean, start: 1_700_000_000_000_000, notifications: 3000), suffix: ".btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var o = TriageAnalysis.Options()
        o.timeout = 0.000_001
        let unit = try #require(TriageInputs.units(of: path).first)
        let r = TriageAnalysis.analyse(unit, options: o)
        #expect(r.capture.status == .failed)
        #expect(r.capture.error?.hasPrefix("timeout after 1e-06 s") == true)
        #expect(r.diagnoses.isEmpty && r.connections.isEmpty)
        o.timeout = 60
        #expect(TriageAnalysis.analyse(unit, options: o).capture.status == .ok)
    }

    @Test func storeValuesOfTheWrongTypeAreErrorsNotTraps() throws {
        var row = [SQLValue](repeating: .null, count: TriageSchema.captures.columns.count)
        row[0] = .text("abc")
        #expect(throws: TriageStoreError.self) { try TriageRecord.assemble(["captures": [row]]) }
        #expect(throws: TriageStoreError.self) { try TriageRecord.assemble(["captures": [[.text("abc")]]]) }
        var r = TriageRecord(capture: TriageCapture(sha256: "abc", path: "p", member: nil, fileSHA256: "abc", status: .ok,
                                                    bletraceVersion: "v", analysedAt: "t"))
        var values = r.rows[0].1[0]
        values[7] = .text("many")   // records
        #expect(throws: TriageStoreError.self) { try TriageRecord.assemble(["captures": [values]]) }
        r.diagnoses = [TriageDiagnosis(ordinal: 1, id: "link_lost", severity: "error", count: 2, peer: nil, peerCount: 2,
                                       connections: "1,2", firstRecord: 3, lastRecord: 9, title: "t")]
        let tables = Dictionary(uniqueKeysWithValues: r.rows.map { ($0.0.name, $0.1) })
        #expect(try TriageRecord.assemble(tables) == [r])
    }
}
