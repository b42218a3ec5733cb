import Foundation
import Testing
@testable import BLETrace

/// Every capture in ../shared/captures: supported formats read to the end with exactly the record count
/// SOURCES.md lists; unsupported ones fail with a clear error. Skipped when the folder is absent.
@Suite struct RealCaptureTests {
    struct Entry: CustomStringConvertible {
        var file: String
        var format: String
        var records: Int
        var description: String { file }
    }

    static func entries() -> [Entry] {
        guard let dir = TestSupport.sharedCaptures,
              let text = try? String(contentsOf: dir.appendingPathComponent("SOURCES.md"), encoding: .utf8) else { return [] }
        var out: [Entry] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| file") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 8, let n = Int(cells[7]) else { continue }
            out.append(Entry(file: cells[0], format: cells[5], records: n))
        }
        return out
    }

    @Test(.enabled(if: TestSupport.sharedCaptures != nil))
    func sourcesListIsParsed() throws {
        #expect(Self.entries().count >= 20)
    }

    @Test(.enabled(if: TestSupport.sharedCaptures != nil), arguments: entries())
    func readsToTheEnd(_ entry: Entry) throws {
        let path = try #require(TestSupport.sharedCaptures).appendingPathComponent(entry.file).path
        let (events, summary) = TestSupport.analyze(try CaptureFile.open(path: path), path: path)
        #expect(summary.error == nil, "\(entry.file): \(String(describing: summary.error))")
        #expect(summary.stats.records == entry.records)
        #expect(events.count == entry.records)
        #expect(events.last?.record == entry.records)
    }
}
