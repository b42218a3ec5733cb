import Foundation
import Testing
@testable import BLETrace

/// `analyze --write-capture`: the records the filters select, as a capture bletrace (and Wireshark) reads back.
@Suite struct WriteCaptureTests {
    /// pcap goes through libpcap, which reads files: those bytes are written to one first.
    static func reader(_ bytes: [UInt8]) throws -> RecordReader {
        guard bytes.starts(with: [0xD4, 0xC3, 0xB2, 0xA1]) else { return try CaptureFile.open(bytes: bytes) }
        let path = TestSupport.temporaryFile(bytes, suffix: ".pcap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try CaptureFile.open(path: path)
    }

    static func opened(_ bytes: [UInt8]) throws -> OpenedCapture {
        OpenedCapture(reader: try reader(bytes), containers: [], logs: [], chosenLog: nil)
    }

    /// Runs `analyze` with `configure`, then writes the selected records; returns the extract and its bytes.
    static func extract(_ bytes: [UInt8], _ configure: (inout AnalyzeRun) -> Void) throws -> (CaptureExtract, [UInt8]) {
        var run = AnalyzeRun()
        run.selectRecords = true
        run.format = .json
        configure(&run)
        let result = try run.run(open: { try opened(bytes) }, path: "t", out: OutputWriter(discarding: ()))
        let out = OutputWriter()
        let (x, error) = CaptureExtract.copy(try opened(bytes).reader, selected: result.selection, redactor: result.redactor, to: out)
        #expect(error == nil)
        out.flush()
        return (x, out.captured)
    }

    static func records(_ bytes: [UInt8]) throws -> [Record] {
        let r = try reader(bytes)
        var out: [Record] = []
        while let rec = try r.next() {
            var copy = rec
            copy.data = ArraySlice(Array(rec.data))
            out.append(copy)
        }
        return out
    }

    @Test func theSelectedRecordsAndTheOpeningOfTheirConnectionAsBTSnoop() throws {
        let source = Samples.gattSession().writer.bytes
        let (x, bytes) = try Self.extract(source) { _ = $0.filter.parseLayers("att"); $0.filter.records = 40...60 }
        #expect(x.format == .btsnoopH4)
        let all = try Self.records(source)
        let kept = try Self.records(bytes)
        // The connection's opening event, then the ATT events' records in the window, byte for byte.
        let opening = try #require(all.first { r in r.kind == .event && r.data.first == 0x3E })
        #expect(kept.first?.data == opening.data && kept.first?.timestamp == opening.timestamp)
        let window = kept.dropFirst()
        #expect(!window.isEmpty && x.written == kept.count)
        for r in window {
            let original = try #require(all.first { $0.timestamp == r.timestamp && $0.data == r.data })
            #expect((40...60).contains(original.number) && original.kind == .acl && original.direction == r.direction)
        }
        // Decoded again, the ATT requests still find their responses.
        let again = TestSupport.analyze(try Self.reader(bytes)).0
        #expect(again.contains { $0.summary.contains("ATT Find Information Request") && $0.summary.contains("[response at record") })
    }

    @Test func withoutFiltersEveryRecordIsKeptAndAPacketLoggerNoteIsLeftOut() throws {
        let s = Samples.ancsSession()
        s.note("a PacketLogger note")
        let (x, bytes) = try Self.extract(s.writer.bytes) { _ in }
        let source = try Self.records(s.writer.bytes)
        let kept = try Self.records(bytes)
        #expect(x.leftOut == source.filter { $0.kind == .note }.count && x.leftOut >= 1)
        #expect(kept.count == source.count - x.leftOut)
        #expect(kept.map(\.data) == source.filter { $0.kind != .note }.map(\.data))
        #expect(kept.map(\.direction) == source.filter { $0.kind != .note }.map(\.direction))
    }

    @Test func redactedExtractsCarryNoAddressOrName() throws {
        let source = Samples.gattSession().writer.bytes
        let (_, bytes) = try Self.extract(source) { $0.redact = true }
        let peer: [UInt8] = [0x22, 0x11, 0x6A, 0x8D, 0x7C, 0xC4] // C4:7C:8D:6A:11:22 as the packets carry it
        #expect(source.firstRange(of: peer) != nil)
        #expect(bytes.firstRange(of: peer) == nil)
        #expect(bytes.firstRange(of: Array("Thermo-42".utf8)) == nil && source.firstRange(of: Array("Thermo-42".utf8)) != nil)
        #expect(bytes.count == source.count) // same-length stand-ins: every length field still holds
    }

    @Test(.enabled(if: TestSupport.sharedCaptures != nil))
    func aSnifferCaptureStaysPcapWithItsLinkType() throws {
        let path = try #require(TestSupport.sharedCaptures?.appendingPathComponent(CrackleConformanceTests.crack).path)
        let source = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let (x, bytes) = try Self.extract(source) { _ = $0.filter.parseLayers("smp") }
        #expect(x.format == .pcap(linkType: try Self.reader(source).linkType))
        let again = TestSupport.analyze(try Self.reader(bytes)).0
        // The pairing, the CONNECT_IND that opened its connection, the encryption procedure, and the packets
        // before the peripheral's (their direction is inferred from timing): enough to crack the pairing and
        // decrypt the LTK's distribution again.
        let smp = TestSupport.analyze(try Self.reader(source)).0.filter { $0.kind == .smp }.count
        #expect(again.filter { $0.kind == .smp }.count == smp && smp == 7)
        #expect(again.first?.summary.hasPrefix("LL CONNECT_IND") == true)
        #expect(again.contains { $0.summary.hasPrefix("LL_START_ENC_REQ") })
        #expect(again.contains { $0.summary == "SMP Encryption Information: LTK 7f62c053f104a5bbe68b1d896a2ed49c (MSB first, as --ltk takes it)" })
        #expect(again.contains { $0.summary.hasPrefix("SMP Pairing Response") && $0.direction == .controllerToHost })
        #expect(x.written < 30)
    }
}
