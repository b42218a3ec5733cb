import Foundation
import Testing
@testable import BLETrace

/// Hostile input must not make memory grow without bound: each case is reported, not buffered forever.
@Suite struct ResourceLimitTests {
    static func run(_ records: [Record]) -> (Analyzer, [TraceEvent], Summary) {
        let sink = CollectingSink()
        let analyzer = Analyzer(sink: sink)
        let summary = analyzer.run(ArrayReader(records), path: "limits")
        return (analyzer, sink.events, summary)
    }

    static func rec(_ n: Int, _ kind: PacketKind, _ data: [UInt8], _ d: Direction = .controllerToHost) -> Record {
        Record(number: n, timestamp: Timestamp(micros: Int64(n) * 1000), direction: d, kind: kind, data: data[...])
    }

    @Test func lengthFieldClaimingGigabytes() throws {
        // A btsnoop record whose included length is 0xFFFFFFF0: a clear truncation error, nothing allocated for it.
        var bytes = BTSnoopReader.magic + [0, 0, 0, 1, 0, 0, 0x03, 0xEA]
        bytes += [0xFF, 0xFF, 0xFF, 0xF0, 0xFF, 0xFF, 0xFF, 0xF0] + [0, 0, 0, 0] + [0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + [1, 2, 3]
        let (records, error) = TestSupport.readAll(try CaptureFile.open(bytes: bytes))
        #expect(records.isEmpty)
        guard case let .truncated(record, offset, reason)? = error else { Issue.record("expected truncation"); return }
        #expect(record == 1 && offset == 16)
        #expect(reason.contains("implausible"))
        // The same for a PacketLogger record length.
        let pklg: [UInt8] = [0x7F, 0xFF, 0xFF, 0xFF] + [0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x01]
        #expect(throws: CaptureError.self) { _ = try CaptureFile.open(bytes: pklg).next() }
    }

    @Test(arguments: [UInt32(0), UInt32.max])
    func pcapSnapLengthExtremes(_ snaplen: UInt32) throws {
        var bytes = Samples.encryptedLink().writer.bytes
        for i in 0..<4 { bytes[16 + i] = UInt8(truncatingIfNeeded: snaplen >> (8 * UInt32(i))) }
        let reader: RecordReader
        do { reader = try CaptureFile.open(bytes: bytes) } catch { return } // refusing the header is fine
        let (records, _) = TestSupport.readAll(reader)
        #expect(records.count <= Samples.encryptedLink().writer.count)
    }

    @Test func manyConnectionsAreCapped() {
        // 120,000 LE Connection Complete events on ever-changing handles and addresses.
        var records: [Record] = []
        records.reserveCapacity(120_000)
        for i in 0..<120_000 {
            let ev = HCIBuilder.leConnectionComplete(handle: UInt16(i % 0x0EFF), role: 0, peerType: 1,
                                                     peer: BDAddr(0xC0_00_00_00_00_00 | UInt64(i)), interval: 24, timeout: 400)
            records.append(Self.rec(i + 1, .event, ev))
        }
        let (_, events, summary) = Self.run(records)
        #expect(events.count == 120_000)
        #expect(summary.connections.count == ConnectionTracker.maxListed)
        #expect(summary.connectionCount == 120_000)
        // Connections beyond the listed ones keep their own numbers.
        #expect(events.last?.connection == 120_000)
    }

    @Test func endlessL2CAPReassemblyIsReported() {
        // A start fragment announcing a 65,535-byte frame, then continuations far past it.
        // On an opened LE connection: a handle no Connection Complete opened shows such bytes undecoded.
        var records = [Self.rec(1, .event, HCIBuilder.leConnectionComplete(handle: 0x40, role: 0, peerType: 1, peer: Samples.thermo, interval: 24, timeout: 400)),
                       Self.rec(2, .acl, HCIBuilder.acl(handle: 0x40, [0xFF, 0xFF, 0x04, 0x00, 0x01, 0x02]))]
        for i in 3...5001 {
            records.append(Self.rec(i, .acl, HCIBuilder.acl(handle: 0x40, start: false, [UInt8](repeating: 0xAB, count: 27))))
        }
        let (analyzer, events, _) = Self.run(records)
        // 65,535 bytes are reached after ~2,428 continuations; the overrun is reported and the frame dropped.
        #expect(events.contains { $0.malformed?.contains("overran") == true })
        // Later continuations have no frame to join: each is reported, none is buffered.
        #expect(events.last?.malformed?.contains("no frame started") == true)
        #expect(analyzer.pipeline.l2cap.unfinished.isEmpty)
    }

    @Test func preparedWritesThatNeverExecuteAreBounded() throws {
        var records: [Record] = [Self.rec(1, .event, HCIBuilder.leConnectionComplete(handle: 0x40, role: 0, peerType: 1, peer: Samples.thermo, interval: 24, timeout: 400))]
        for i in 0..<6000 {
            let pdu: [UInt8] = [0x16] + HCIBuilder.le16(0x0012) + HCIBuilder.le16(UInt16(i % 512)) + [UInt8](repeating: 0x55, count: 18)
            records.append(Self.rec(i + 2, .acl, HCIBuilder.acl(handle: 0x40, HCIBuilder.l2cap(cid: 4, pdu)), .hostToController))
        }
        let (analyzer, events, _) = Self.run(records)
        #expect(events.count == 6001)
        let att = try #require(analyzer.layers.compactMap { $0 as? ATTLayer }.first)
        let queued = att.conns.values.map { $0.prepared.values.map(\.count).reduce(0, +) }.reduce(0, +)
        #expect(queued <= 4096)
    }

    @Test func gattDatabaseOfAllHandles() throws {
        // Find Information responses naming every handle 0x0001…0xFFFF as a CCCD: 65,535 attributes.
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.aclMTU = 251
        s.connect(handle: 0x40, peer: Samples.thermo, peerType: 1)
        s.attOut(0x40, [0x02] + HCIBuilder.le16(517))
        s.attIn(0x40, [0x03] + HCIBuilder.le16(517))
        var start = 1
        while start <= 0xFFFF {
            let end = min(0xFFFF, start + 127)
            s.attOut(0x40, [0x04] + HCIBuilder.le16(UInt16(start)) + HCIBuilder.le16(0xFFFF))
            var rsp: [UInt8] = [0x05, 0x01]
            for h in start...end { rsp += HCIBuilder.le16(UInt16(h)) + HCIBuilder.le16(0x2902) }
            s.attIn(0x40, rsp)
            start = end + 1
        }
        let sink = CollectingSink()
        let analyzer = Analyzer(sink: sink)
        let summary = analyzer.run(try CaptureFile.open(bytes: s.writer.bytes), path: "gatt")
        #expect(summary.error == nil)
        let att = try #require(analyzer.layers.compactMap { $0 as? ATTLayer }.first)
        let db = try #require(att.exportDatabases().first)
        #expect(db.types.count == 65_535)
    }
}
