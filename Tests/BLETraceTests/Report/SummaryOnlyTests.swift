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

    /// `Analyzer(events: false)`, what `--summary-only` uses for text and JSON: the sink gets the summary but no
    /// event, and the summary is the one it gets with the events.
    @Test func anAnalyzerWithoutEventsHandsNoneToItsSink() throws {
        func run(events: Bool) throws -> CollectingSink {
            let sink = CollectingSink()
            Analyzer(sink: sink, events: events).run(try CaptureFile.open(bytes: Samples.gattSession().writer.bytes), path: "sample.btsnoop")
            return sink
        }
        let with = try run(events: true), without = try run(events: false)
        #expect(with.events.count == 87)
        #expect(without.events.isEmpty)
        let a = try #require(with.summary), b = try #require(without.summary)
        #expect(b.stats.records == 87)
        #expect(SummaryRender.text(a) == SummaryRender.text(b))
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
