import Foundation
import Testing
@testable import BLETrace

/// `--summary-only` in JSON and JSON Lines: the summary without the events.
@Suite struct SummaryOnlyTests {
    func render(_ sink: EventSink, _ out: OutputWriter) throws -> String {
        Analyzer(sink: sink).run(try CaptureFile.open(bytes: Samples.gattSession().writer.bytes), path: "sample.btsnoop")
        return out.text
    }

    @Test func jsonHasCaptureAndSummaryButNoEvents() throws {
        let out = OutputWriter()
        let r = JSONRenderer(out: out)
        r.showEvents = false
        let text = try render(r, out)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(doc.keys) == ["schema", "capture", "summary"])
        #expect((doc["capture"] as? [String: Any])?["records"] as? Int == 87)
        #expect(((doc["summary"] as? [String: Any])?["connections"] as? [Any])?.count == 1)
    }

    @Test func jsonLinesIsTheSummaryLineAlone() throws {
        let out = OutputWriter()
        let r = JSONLinesRenderer(out: out)
        r.showEvents = false
        let lines = try render(r, out).split(separator: "\n")
        #expect(lines.count == 1)
        let last = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(last["kind"] as? String == "summary")
    }
}
