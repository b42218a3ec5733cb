import Foundation
import Testing
@testable import BLETrace

@Suite struct RendererTests {
    func render(_ make: (OutputWriter) -> EventSink, _ scenario: Scenario) throws -> String {
        let out = OutputWriter()
        let sink = make(out)
        Analyzer(sink: sink).run(try CaptureFile.open(bytes: scenario.writer.bytes), path: "sample.btsnoop")
        return out.text
    }

    @Test func jsonDocumentHasTheSchema() throws {
        let text = try render({ JSONRenderer(out: $0) }, Samples.gattSession())
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(doc["schema"] as? String == "bletrace/1")
        let capture = try #require(doc["capture"] as? [String: Any])
        #expect(capture["format"] as? String == "btsnoop")
        #expect(capture["linktype"] as? Int == 1002)
        let events = try #require(doc["events"] as? [[String: Any]])
        #expect(capture["records"] as? Int == events.count)
        #expect(capture["first"] as? String == events.first?["time"] as? String)
        for (i, e) in events.enumerated() {
            #expect(e["record"] as? Int == i + 1)
            #expect((e["time"] as? String)?.hasSuffix("Z") == true)
            #expect(["host_to_controller", "controller_to_host", "unknown"].contains(e["direction"] as? String ?? ""))
            #expect(e["kind"] is String)
        }
        let first = events[0]
        #expect(first["kind"] as? String == "hci_command")
        #expect((first["hci"] as? [String: Any])?["name"] as? String == "Reset")
        let summary = try #require(doc["summary"] as? [String: Any])
        #expect(summary["complete"] as? Bool == true)
        let conns = try #require(summary["connections"] as? [[String: Any]])
        #expect(conns.count == 1)
        #expect(conns[0]["peer"] as? String == "C4:7C:8D:6A:11:22")
    }

    @Test func jsonLinesHaveOneEventPerLineAndASummaryLast() throws {
        let text = try render({ JSONLinesRenderer(out: $0) }, Samples.scan())
        let lines = text.split(separator: "\n")
        #expect(lines.count == Samples.scan().writer.count + 1)
        for line in lines {
            #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(line.utf8)) }
        }
        let last = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any])
        #expect(last["kind"] as? String == "summary")
    }

    @Test func backgroundRenderingWritesTheSameBytesInOrder() throws {
        // The long capture hands over ~30 batches, more than may wait at once: the decoder has to wait too.
        var long: [UInt8] = []
        SyntheticCapture.generate(records: 15_000, format: .btsnoop(datalink: 1002)) { long += $0 }
        let renderers: [(OutputWriter) -> EventSink] = [
            { JSONLinesRenderer(out: $0) },
            { TextRenderer(out: $0, style: TextStyle(color: true, time: .delta, width: 60)) },
        ]
        for bytes in Samples.all().map(\.bytes) + [long] {
            for make in renderers {
                let direct = OutputWriter(), threaded = OutputWriter()
                Analyzer(sink: make(direct)).run(try CaptureFile.open(bytes: bytes), path: "c")
                let sink = BackgroundSink(next: make(threaded))
                Analyzer(sink: sink).run(try CaptureFile.open(bytes: bytes), path: "c")
                #expect(threaded.text == direct.text)
                #expect(sink.waiting.isEmpty && sink.filled == 0 && sink.current.count == 0)
            }
        }
    }

    @Test func streamedEventJSONEqualsTheFieldTree() throws {
        for sample in Samples.all() {
            let (events, _) = TestSupport.analyze(try CaptureFile.open(bytes: sample.bytes))
            for e in events {
                let direct = OutputWriter(), tree = OutputWriter()
                EventJSON.write(e, to: direct)
                JSONOut.object(EventJSON.fields(e), to: tree)
                #expect(direct.text == tree.text, "\(sample.fileName) record \(e.record)")
            }
        }
    }

    @Test func numberWriters() {
        let w = OutputWriter()
        w.write(int: -42); w.write(byte: 0x20)
        w.write(int: 7, width: 4); w.write(byte: 0x20)
        w.write(int: 5, width: 3, zeroPad: true); w.write(byte: 0x20)
        w.write(seconds: 12_000_345, width: 12); w.write(byte: 0x20)
        w.write(seconds: 5, width: 0); w.write(byte: 0x20)
        w.write(hex: 0x40, width: 4); w.write(byte: 0x20)
        w.write(iso8601: Timestamp(micros: 951_782_400_000_001))
        #expect(w.text == "-42    7 005    12.000345 0.000005 0x0040 2000-02-29T00:00:00.000001Z")
    }

    @Test func jsonStringEscaping() {
        let v: FieldValue = .object(["s": .string("a\"b\\c\n\u{01}é"), "h": .hex([0xAB, 0x01]), "l": .list([.int(-3), .bool(true), .null])])
        #expect(JSONOut.text(v) == #"{"s":"a\"b\\c\n\u0001é","h":"ab01","l":[-3,true,null]}"#)
    }

    @Test func textTimelineLayout() throws {
        let text = try render({ TextRenderer(out: $0) }, Samples.gattSession())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "      1      0.000000 <        Reset")
        #expect(lines[1] == "      2      0.000600 >        Command Complete: Reset: Success")
        #expect(text.contains("\nSummary\n"))
        #expect(text.contains("  Connections: 1\n    #1 handle 0x0040 C4:7C:8D:6A:11:22 (random static) \"Thermo-42\", local central"))
    }

    @Test func truncatedCaptureSummarySaysIncomplete() throws {
        let bytes = Array(Samples.scan().writer.bytes.dropLast(5))
        let out = OutputWriter()
        let summary = Analyzer(sink: JSONRenderer(out: out)).run(try CaptureFile.open(bytes: bytes), path: "cut")
        #expect(summary.error != nil)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [String: Any])
        let s = try #require(doc["summary"] as? [String: Any])
        #expect(s["complete"] as? Bool == false)
        #expect((s["error"] as? String)?.contains("truncated") == true)
        #expect((doc["events"] as? [Any])?.count == Samples.scan().writer.count - 1)
    }
}
