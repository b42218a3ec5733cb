import Foundation
import Testing
@testable import BLETrace

@Suite struct ContainerTests {
    /// (record number, kind, direction, timestamp, bytes) for comparing two readings of the same capture.
    static func fingerprint(_ reader: RecordReader) -> [String] {
        let (records, error) = TestSupport.readAll(reader)
        #expect(error == nil)
        return records.map { "\($0.number) \($0.kind) \($0.direction) \($0.timestamp.micros) \(Hex.string($0.data))" }
    }

    static func summaries(_ reader: RecordReader) -> [String] {
        TestSupport.analyze(reader).0.map(\.summary)
    }

    @Test func gzipCaptureReadsLikeTheOriginal() throws {
        for sample in Samples.all() {
            let gz = try Deflate.compress(sample.bytes, gzip: true)
            let path = TestSupport.temporaryFile(gz, suffix: ".log") // the name does not say gzip
            defer { try? FileManager.default.removeItem(atPath: path) }
            let opened = try InputOpener.open(path: path)
            #expect(opened.containers == ["gzip"])
            let plain = TestSupport.temporaryFile(sample.bytes)
            defer { try? FileManager.default.removeItem(atPath: plain) }
            #expect(Self.summaries(opened.reader) == Self.summaries(try CaptureFile.open(path: plain)), "\(sample.fileName)")
        }
    }

    @Test func truncatedGzipIsAClearError() throws {
        let gz = try Deflate.compress(Samples.scan().writer.bytes, gzip: true)
        let path = TestSupport.temporaryFile(Array(gz.prefix(gz.count / 2)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (records, error) = TestSupport.readAll(try InputOpener.open(path: path).reader)
        #expect(!records.isEmpty)
        guard case let .truncated(_, _, reason)? = error else { Issue.record("expected truncation, got \(String(describing: error))"); return }
        #expect(reason.contains("gzip data ends early"))
    }

    /// A gzip stream cut before its first byte of data is a truncated stream, not "an empty file" (issue #37).
    @Test func gzipCutBeforeAnyDataSaysTruncatedStream() throws {
        let gz = try Deflate.compress(Samples.scan().writer.bytes, gzip: true)
        let path = TestSupport.temporaryFile(Array(gz.prefix(10))) // the gzip header alone
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: CaptureError.truncatedStream(container: "gzip", compressed: 10, decompressed: 0)) {
            try InputOpener.open(path: path)
        }
        // A few bytes of data ("btsn"…): too few to know the format, so not guessed to be text either.
        let few = TestSupport.temporaryFile(Array(gz.prefix(12)))
        defer { try? FileManager.default.removeItem(atPath: few) }
        #expect(throws: CaptureError.truncatedStream(container: "gzip", compressed: 12, decompressed: 1)) {
            try InputOpener.open(path: few)
        }
        #expect(CaptureError.truncatedStream(container: "gzip", compressed: 12, decompressed: 0).description
            == "truncated gzip stream: it ends after 12 compressed bytes, before any data")
        // Triage stores it as damaged (a cut file), not failed.
        let record = TriageAnalysis.analyse(TriageUnit(path: path, sha256: "x", fileSHA256: "x"), options: .init())
        #expect(record.capture.status == .damaged && record.capture.records == 0)
    }

    /// A gzip stream whose data is whole but whose trailer is cut (at a record boundary): every record is read,
    /// then the cut is the reader's error, for btsnoop and for a pcap spooled from the stream alike.
    @Test func gzipCutAtARecordBoundaryEndsInError() throws {
        for scenario in [Samples.scan(), Samples.encryptedLink()] {
            let bytes = scenario.writer.bytes
            let gz = try Deflate.compress(bytes, gzip: true)
            let path = TestSupport.temporaryFile(Array(gz.prefix(gz.count - 4)))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (records, error) = TestSupport.readAll(try InputOpener.open(path: path).reader)
            #expect(records.count == scenario.writer.count)
            guard case let .truncatedStream(container, _, decompressed)? = error else {
                Issue.record("expected a truncated stream, got \(String(describing: error))"); continue
            }
            #expect(container == "gzip" && decompressed == bytes.count)
        }
    }

    @Test func pcapFromANonFileSourceIsSpooled() throws {
        let bytes = Samples.encryptedLink().writer.bytes
        let opened = try InputOpener.open(source: MemorySource(bytes), path: "-", log: nil, depth: 0)
        #expect(opened.reader.format == .pcap)
        #expect(Self.fingerprint(opened.reader).count == Samples.encryptedLink().writer.count)
    }

    static func btsnoozText(_ scenario: Scenario, header: String = "== dumpstate: 2026-11-22 10:15:00\n") throws -> String {
        let (records, _) = TestSupport.readAll(try CaptureFile.open(bytes: scenario.writer.bytes))
        let snooz = try BTSnooz.encode(records)
        let b64 = Data(snooz).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
        return header + "DUMP OF SERVICE bluetooth_manager:\n" + BTSnooz.beginMarker + " (\(records.count) packets) ---\n"
            + b64 + "\n" + BTSnooz.endMarker + " ---\n" + "DUMP OF SERVICE other:\nnothing\n"
    }

    @Test func bugreportTextWithBTSnoozReadsLikeTheOriginal() throws {
        let scenario = Samples.gattSession()
        let text = try Self.btsnoozText(scenario)
        let path = TestSupport.temporaryFile(Array(text.utf8), suffix: ".txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let opened = try InputOpener.open(path: path)
        #expect(opened.containers.first == "bugreport text")
        #expect(opened.logs.count == 1)
        let original = try CaptureFile.open(bytes: scenario.writer.bytes)
        #expect(Self.fingerprint(opened.reader) == Self.fingerprint(original))
    }

    @Test func textWithoutASectionIsAClearError() throws {
        let path = TestSupport.temporaryFile(Array("just some notes\nnothing here\n".utf8), suffix: ".txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: CaptureError.self) { try InputOpener.open(path: path) }
        do { _ = try InputOpener.open(path: path) } catch let e as CaptureError {
            #expect(e.description.contains("without a btsnooz section"))
        }
    }

    @Test func filteredBTSnoozRecordsAreFilteredNotMalformed() throws {
        // An ACL packet of 40 bytes of which the log kept 8 (ACL header + L2CAP header).
        let full = HCIBuilder.acl(handle: 0x40, HCIBuilder.l2cap(cid: 4, [0x1B, 0x0E, 0x00] + [UInt8](repeating: 0x55, count: 33)))
        var record = Record(number: 1, timestamp: Timestamp(micros: 1_000_000), direction: .controllerToHost, kind: .acl,
                            data: full.prefix(8))
        record.originalLength = full.count
        let snooz = try BTSnooz.encode([record])
        let btsnoop = try BTSnooz.toBTSnoop(snooz)
        let (events, summary) = TestSupport.analyze(try CaptureFile.open(bytes: btsnoop))
        #expect(events.count == 1)
        #expect(events[0].malformed == nil)
        #expect(events[0].layer("filtered")?["original"] == .int(full.count))
        #expect(summary.stats.filtered == 1)
        #expect(summary.stats.malformed == 0)
    }

    @Test func bugreportZipWithSeveralLogs() throws {
        let gatt = Samples.gattSession(), scan = Samples.scan()
        let zipPath = try TestSupport.zipFile([
            ("FS/data/misc/bluetooth/logs/btsnoop_hci.log", gatt.writer.bytes),
            ("version.txt", Array("1.0\n".utf8)),
            ("bugreport-sdk_phone-2026-11-22.txt", Array(try Self.btsnoozText(scan).utf8)),
        ])
        defer { try? FileManager.default.removeItem(atPath: zipPath) }

        let first = try InputOpener.open(path: zipPath)
        #expect(first.logs.map(\.name) == ["FS/data/misc/bluetooth/logs/btsnoop_hci.log", "btsnooz section of bugreport-sdk_phone-2026-11-22.txt"])
        #expect(first.chosenLog == 1)
        #expect(first.containers == ["bugreport zip", "FS/data/misc/bluetooth/logs/btsnoop_hci.log"])
        #expect(Self.fingerprint(first.reader) == Self.fingerprint(try CaptureFile.open(bytes: gatt.writer.bytes)))

        let second = try InputOpener.open(path: zipPath, log: 2)
        #expect(second.chosenLog == 2)
        #expect(Self.fingerprint(second.reader) == Self.fingerprint(try CaptureFile.open(bytes: scan.writer.bytes)))
        #expect(Self.summaries(try InputOpener.open(path: zipPath, log: 2).reader) == Self.summaries(try CaptureFile.open(bytes: scan.writer.bytes)))

        #expect(throws: CaptureError.self) { try InputOpener.open(path: zipPath, log: 3) }
    }
}
