import Foundation
import Testing
@testable import BLETrace

/// A capture cut at every record boundary and inside headers always yields a prefix of the full decode and a
/// clear error; never a crash, never a record that is not there.
@Suite struct TruncationSweepTests {
    /// Offsets to cut at: every record boundary, and a few bytes into each record's header and data.
    static func cuts(_ bytes: [UInt8], headerSize: Int, fileHeader: Int, recordLength: ([UInt8], Int) -> Int?) -> [Int] {
        var out: [Int] = [0, 1, fileHeader - 1, fileHeader]
        var offset = fileHeader
        while offset < bytes.count, let len = recordLength(bytes, offset) {
            out += [offset + 1, offset + headerSize - 1, offset + headerSize, offset + headerSize + 1, offset + len - 1]
            offset += len
            out.append(offset)
        }
        return out.filter { $0 >= 0 && $0 <= bytes.count }
    }

    static func sweep(_ bytes: [UInt8], cuts: [Int], open: ([UInt8]) throws -> RecordReader) throws -> Int {
        let (full, fullError) = TestSupport.readAll(try open(bytes))
        #expect(fullError == nil)
        let fullPrints = full.map { "\($0.number) \($0.timestamp.micros) \(Hex.string($0.data))" }
        var checked = 0
        for cut in Set(cuts).sorted() {
            let part = Array(bytes.prefix(cut))
            guard let reader = try? open(part) else { continue } // too short for a file header: a clear open error
            let (records, error) = TestSupport.readAll(reader)
            let prints = records.map { "\($0.number) \($0.timestamp.micros) \(Hex.string($0.data))" }
            #expect(Array(fullPrints.prefix(prints.count)) == prints, "cut at \(cut)")
            if cut < bytes.count && prints.count < fullPrints.count {
                // Cut inside a record: an error names the record after the last one delivered, unless the cut fell
                // exactly on a boundary.
                if let e = error, case let .truncated(record, _, _) = e { #expect(record == records.count + 1, "cut at \(cut)") }
            }
            // Analysis of the damaged file never reports more events than records delivered.
            let (events, summary) = TestSupport.analyze(try open(part))
            #expect(events.count == summary.stats.records)
            #expect(events.count == records.count)
            checked += 1
        }
        return checked
    }

    @Test func btsnoopSweep() throws {
        let bytes = Samples.gattSession().writer.bytes
        let cuts = Self.cuts(bytes, headerSize: 24, fileHeader: 16) { b, o in
            guard o + 8 <= b.count else { return nil }
            var c = ByteCursor(b[(o + 4)..<(o + 8)])
            return (try? c.u32be()).map { 24 + Int($0) }
        }
        #expect(try Self.sweep(bytes, cuts: cuts) { try CaptureFile.open(bytes: $0) } > 200)
    }

    @Test func packetLoggerSweep() throws {
        let bytes = Samples.ancsSession().writer.bytes
        let cuts = Self.cuts(bytes, headerSize: 13, fileHeader: 0) { b, o in
            guard o + 4 <= b.count else { return nil }
            var c = ByteCursor(b[o..<(o + 4)])
            return (try? c.u32le()).map { 4 + Int($0) }
        }
        #expect(try Self.sweep(bytes, cuts: cuts) { try CaptureFile.open(bytes: $0) } > 200)
    }

    @Test func pcapSweep() throws {
        let bytes = Samples.encryptedLink().writer.bytes
        let cuts = Self.cuts(bytes, headerSize: 16, fileHeader: 24) { b, o in
            guard o + 12 <= b.count else { return nil }
            var c = ByteCursor(b[(o + 8)..<(o + 12)])
            return (try? c.u32le()).map { 16 + Int($0) }
        }
        #expect(try Self.sweep(bytes, cuts: cuts) { try CaptureFile.open(bytes: $0) } > 100)
    }

    @Test(.enabled(if: TestSupport.sharedCaptures != nil))
    func sharedBTSnoopSweep() throws {
        let path = try #require(TestSupport.sharedCaptures).appendingPathComponent("madkaye__revcar-cli__btsnoop_hci.log").path
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        let cuts = Self.cuts(bytes, headerSize: 24, fileHeader: 16) { b, o in
            guard o + 8 <= b.count else { return nil }
            var c = ByteCursor(b[(o + 4)..<(o + 8)])
            return (try? c.u32be()).map { 24 + Int($0) }
        }
        #expect(try Self.sweep(bytes, cuts: cuts) { try CaptureFile.open(bytes: $0) } > 500)
    }
}
