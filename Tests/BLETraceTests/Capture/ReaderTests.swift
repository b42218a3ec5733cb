import Foundation
import Testing
@testable import BLETrace

@Suite struct ReaderTests {
    static let reset = HCIBuilder.command(0x0C03)
    static let resetComplete = HCIBuilder.commandComplete(0x0C03)
    static let acl = HCIBuilder.acl(handle: 0x40, HCIBuilder.l2cap(cid: 4, [0x0A, 0x03, 0x00]))
    static let t0: Int64 = 1_600_000_000_000_000

    static func write(_ format: CaptureWriter.Format) -> [UInt8] {
        let w = CaptureWriter(format: format)
        w.add(kind: .command, direction: .hostToController, at: Timestamp(micros: t0), reset)
        w.add(kind: .event, direction: .controllerToHost, at: Timestamp(micros: t0 + 1500), resetComplete)
        w.add(kind: .acl, direction: .controllerToHost, at: Timestamp(micros: t0 + 2_000_001), acl)
        return w.bytes
    }

    static func check(_ records: [Record]) {
        #expect(records.map(\.number) == [1, 2, 3])
        #expect(records.map(\.kind) == [.command, .event, .acl])
        #expect(records.map(\.direction) == [.hostToController, .controllerToHost, .controllerToHost])
        #expect(records.map(\.timestamp.micros) == [t0, t0 + 1500, t0 + 2_000_001])
        #expect(records.map { Array($0.data) } == [reset, resetComplete, acl])
    }

    @Test(arguments: [1001, 1002, 2001])
    func btsnoopRoundTrip(datalink: Int) throws {
        let bytes = Self.write(.btsnoop(datalink: datalink))
        #expect(CaptureFile.detect(bytes[...]) == .btsnoop)
        let reader = try CaptureFile.open(bytes: bytes)
        #expect(reader.linkType == datalink)
        let (records, error) = TestSupport.readAll(reader)
        #expect(error == nil)
        Self.check(records)
    }

    @Test func btsnoopTimestampEpoch() throws {
        // A btsnoop timestamp is microseconds since 0000-01-01; 0x00E03AB44A676000 is 2000-01-01T00:00:00Z.
        var bytes = BTSnoopReader.magic + [0, 0, 0, 1, 0, 0, 0x03, 0xEA]
        bytes += [0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 0]
        bytes += [0x00, 0xE0, 0x3A, 0xB4, 0x4A, 0x67, 0x60, 0x00]
        bytes += [0x01] + Self.reset
        let (records, error) = TestSupport.readAll(try CaptureFile.open(bytes: bytes))
        #expect(error == nil)
        #expect(records.first?.timestamp.iso8601 == "2000-01-01T00:00:00.000000Z")
    }

    @Test func btsnoopMonitorNotesAndIndex() throws {
        let w = CaptureWriter(format: .btsnoop(datalink: 2001))
        w.add(kind: .note, direction: .unknown, at: Timestamp(micros: Self.t0), Array("Bluetooth daemon 5.66".utf8))
        w.add(kind: .command, direction: .hostToController, at: Timestamp(micros: Self.t0), Self.reset)
        let (events, summary) = TestSupport.analyze(try CaptureFile.open(bytes: w.bytes))
        #expect(events.count == 2)
        #expect(events[0].kind == .note)
        #expect(events[0].summary == "System Note: Bluetooth daemon 5.66")
        #expect(events[1].summary == "Reset")
        #expect(summary.stats.notes == 1)
    }

    @Test func monitorNewIndexAndDeleteIndex() throws {
        // btsnoop 2001 with hand-made flags: opcode 0 (New Index) and 1 (Delete Index) on controller index 1.
        var bytes = BTSnoopReader.magic + [0, 0, 0, 1, 0, 0, 0x07, 0xD1]
        let newIndex: [UInt8] = [0x00, 0x01] + HCIBuilder.addr(BDAddr(0x00_1A_7D_DA_71_13)) + Array("hci1".utf8) + [0, 0, 0, 0]
        for (opcode, data) in [(UInt8(0), newIndex), (UInt8(1), [])] {
            bytes += [0, 0, 0, UInt8(data.count)] + [0, 0, 0, UInt8(data.count)]
            bytes += [0x00, 0x01, 0x00, opcode] + [0, 0, 0, 0] + [0x00, 0xE0, 0x3A, 0xB4, 0x4A, 0x67, 0x60, 0x00] + data
        }
        let (events, _) = TestSupport.analyze(try CaptureFile.open(bytes: bytes))
        #expect(events.map(\.summary) == ["New Index: hci1 00:1A:7D:DA:71:13 (type 0, bus 1)", "Delete Index: hci1"])
        // The controller's name is its index's: said once ("hci1 hci1" before). A name of its own is shown.
        #expect(events[0].layer("note")?["name"] == .string("hci1"))
        #expect(events[0].layer("note")?["address"] == .string("00:1A:7D:DA:71:13"))
    }

    @Test func btsnoopRejectsOtherDatalinks() {
        let bytes = BTSnoopReader.magic + [0, 0, 0, 1, 0, 0, 0x03, 0xE9] // 1001 is fine …
        #expect((try? CaptureFile.open(bytes: bytes)) != nil)
        let bad = BTSnoopReader.magic + [0, 0, 0, 1, 0, 0, 0x03, 0xEB] // … 1003 is not
        #expect(throws: CaptureError.unsupportedLinkType(format: "btsnoop", linkType: 1003)) { try CaptureFile.open(bytes: bad) }
    }

    @Test func btsnoopTruncatedRecordKeepsWhatCameBefore() throws {
        let full = Self.write(.btsnoop(datalink: 1002))
        // Cut inside the third record's data.
        let cut = Array(full.dropLast(3))
        let (records, error) = TestSupport.readAll(try CaptureFile.open(bytes: cut))
        #expect(records.count == 2)
        let thirdOffset = 16 + (24 + 1 + Self.reset.count) + (24 + 1 + Self.resetComplete.count)
        guard case let .truncated(record, offset, reason)? = error else {
            Issue.record("expected a truncation error, got \(String(describing: error))")
            return
        }
        #expect(record == 3)
        #expect(offset == thirdOffset)
        #expect(reason.contains("claims"))
        // Cut inside the third record's header.
        let (records2, error2) = TestSupport.readAll(try CaptureFile.open(bytes: Array(full.prefix(thirdOffset + 10))))
        #expect(records2.count == 2)
        #expect(error2 == .truncated(record: 3, offset: thirdOffset, reason: "record header needs 24 bytes, file has 10 left"))
    }

    @Test(arguments: [true, false])
    func packetLoggerRoundTrip(littleEndian: Bool) throws {
        let bytes = Self.write(.packetLogger(littleEndian: littleEndian))
        #expect(CaptureFile.detect(bytes[...]) == .packetLogger)
        let reader = try CaptureFile.open(bytes: bytes)
        #expect((reader as? PacketLoggerReader)?.littleEndian == littleEndian)
        let (records, error) = TestSupport.readAll(reader)
        #expect(error == nil)
        Self.check(records)
    }

    @Test func packetLoggerNotesBecomeTimelineNotes() throws {
        let w = CaptureWriter(format: .packetLogger(littleEndian: true))
        w.add(kind: .note, direction: .unknown, at: Timestamp(micros: Self.t0), Array("Product: iPhone".utf8))
        var bytes = w.bytes
        // A power record (type 0xFB) with one byte of data.
        bytes += HCIBuilder.le32(10) + HCIBuilder.le32(1_600_000_000) + HCIBuilder.le32(0) + [0xFB, 0x01]
        let (events, _) = TestSupport.analyze(try CaptureFile.open(bytes: bytes))
        #expect(events.map(\.kind) == [.note, .note])
        #expect(events[0].summary == "Note: Product: iPhone")
        #expect(events[1].summary.hasPrefix("Power"))
        #expect(events.allSatisfy { $0.malformed == nil })
    }

    /// Binary PacketLogger records (LMP sent and received, configuration) and notes whose bytes are not UTF-8
    /// are shown as bytes, never as text full of U+FFFD; a well-formed UTF-8 note stays text.
    @Test func packetLoggerBinaryRecordsAreBytesNotText() throws {
        func record(_ type: UInt8, _ data: [UInt8]) -> [UInt8] {
            HCIBuilder.le32(UInt32(9 + data.count)) + HCIBuilder.le32(1_600_000_000) + HCIBuilder.le32(0) + [type] + data
        }
        let bytes = record(0x0A, [0x41, 0xC3, 0x42, 0x43]) + record(0xFC, [0x4C, 0x4D, 0xFF, 0xFE, 0x50])
            + record(0xFC, Array("Caf\u{E9} d\u{E9}j\u{E0}".utf8)) + record(0xFD, Array("abc".utf8))
        let (events, _) = TestSupport.analyze(try CaptureFile.open(bytes: bytes))
        #expect(events.count == 4)
        func isData(_ e: TraceEvent) -> Bool { if case let .note(n) = e.body, case .data = n.content { return true }; return false }
        #expect(isData(events[0]) && isData(events[1]) && isData(events[3]))
        #expect(!isData(events[2]))
        #expect(events[2].summary == "Note: Caf\u{E9} d\u{E9}j\u{E0}")
        #expect(events.allSatisfy { !$0.summary.contains("\u{FFFD}") })
    }

    @Test(arguments: [187, 201, 254])
    func pcapRoundTrip(linkType: Int) throws {
        let path = TestSupport.temporaryFile(Self.write(.pcap(linkType: linkType)), suffix: ".pcapng") // the name lies
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try CaptureFile.open(path: path)
        #expect(reader.format == .pcap)
        #expect(reader.linkType == linkType)
        let (records, error) = TestSupport.readAll(reader)
        #expect(error == nil)
        if linkType == 187 {
            // H4 without a direction header: data direction is unknown.
            #expect(records.map(\.direction) == [.hostToController, .controllerToHost, .unknown])
            #expect(records.map(\.kind) == [.command, .event, .acl])
        } else {
            Self.check(records)
        }
    }

    @Test func pcapOtherLinkTypeIsAClearError() throws {
        var bytes = Self.write(.pcap(linkType: 201))
        bytes[20] = 192 // PPI
        let path = TestSupport.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // PPI is read only when it wraps Ubertooth's LE packets; these packets hold no PPI header at all.
        #expect(throws: CaptureError.unsupportedPPI(format: "pcap", dlt: -1, fields: [])) { try CaptureFile.open(path: path) }
        bytes[20] = 1 // Ethernet
        let other = TestSupport.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: other) }
        #expect(throws: CaptureError.unsupportedLinkType(format: "pcap", linkType: 1)) { try CaptureFile.open(path: other) }
        #expect(CaptureError.unsupportedLinkType(format: "pcap", linkType: 192).description.contains("192 (PPI)"))
    }

    @Test func pcapTruncated() throws {
        let bytes = Array(Self.write(.pcap(linkType: 201)).dropLast(2))
        let path = TestSupport.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (records, error) = TestSupport.readAll(try CaptureFile.open(path: path))
        #expect(records.count == 2)
        guard case let .truncated(record, _, _)? = error else {
            Issue.record("expected truncation, got \(String(describing: error))")
            return
        }
        #expect(record == 3)
    }

    @Test func snifferLinkTypesAreRecognised() throws {
        var bytes = Self.write(.pcap(linkType: 201))
        bytes[20] = 0x10; bytes[21] = 0x01 // 272 NORDIC_BLE
        let path = TestSupport.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (records, error) = TestSupport.readAll(try CaptureFile.open(path: path))
        #expect(error == nil)
        #expect(records.count == 3)
        #expect(records.allSatisfy { $0.kind == .linkLayer })
    }

    @Test func detectionIsByContent() throws {
        #expect(CaptureFile.detect([0x0A, 0x0D, 0x0D, 0x0A, 0, 0, 0, 0][...]) == .pcapng)
        #expect(CaptureFile.detect([0xA1, 0xB2, 0xC3, 0xD4, 0, 0, 0, 0][...]) == .pcap)
        #expect(CaptureFile.detect(Array("hello world, not a capture".utf8)[...]) == nil)
        #expect(throws: CaptureError.emptyFile) { try CaptureFile.open(bytes: []) }
        #expect(throws: CaptureError.unknownFormat(magic: Array("GIF89a\0\0".utf8))) {
            try CaptureFile.open(bytes: Array("GIF89a\0\0 and more bytes here".utf8))
        }
        let missing = "/nonexistent/bletrace/capture.log"
        #expect(throws: CaptureError.self) { try CaptureFile.open(path: missing) }
        let empty = TestSupport.temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: CaptureError.emptyFile) { try CaptureFile.open(path: empty) }
    }

    @Test func largeCaptureStreamsAcrossBufferRefills() throws {
        // More than one read-ahead window (1 MiB) of records, each checked for its number and payload.
        let w = CaptureWriter(format: .btsnoop(datalink: 1002))
        for i in 0..<40_000 {
            w.add(kind: .event, direction: .controllerToHost, at: Timestamp(micros: Int64(i)),
                  HCIBuilder.commandComplete(UInt16(truncatingIfNeeded: i)))
        }
        let reader = try CaptureFile.open(bytes: w.bytes)
        var n = 0
        while let r = try reader.next() {
            n += 1
            #expect(r.number == n)
            var c = ByteCursor(r.data)
            _ = try c.u8(); _ = try c.u8(); _ = try c.u8()
            if try c.u16le() != UInt16(truncatingIfNeeded: n - 1) { Issue.record("record \(n) has the wrong payload"); break }
        }
        #expect(n == 40_000)
    }
}
