import Testing
@testable import BLETrace

@Suite struct FilterTests {
    static func run(_ s: Scenario, _ f: EventFilter) throws -> ([TraceEvent], Summary) {
        let collect = CollectingSink()
        let sink = FilterSink(filter: f, next: collect)
        let analyzer = Analyzer(sink: sink)
        sink.pipeline = analyzer.pipeline
        let summary = analyzer.run(try CaptureFile.open(bytes: s.writer.bytes), path: "t")
        return (collect.events, summary)
    }

    @Test func parsesRecordRanges() {
        #expect(EventFilter.parseRecords("10-20") == 10...20)
        #expect(EventFilter.parseRecords("150") == 150...150)
        #expect(EventFilter.parseRecords("-5") == 1...5)
        #expect(EventFilter.parseRecords("7-")?.lowerBound == 7)
        #expect(EventFilter.parseRecords("20-10") == nil)
        #expect(EventFilter.parseRecords("x") == nil)
    }

    @Test func layerAndRecordsKeepTheSummaryWhole() throws {
        var f = EventFilter()
        _ = f.parseLayers("att")
        f.records = 1...60
        let (events, summary) = try FilterTests.run(Samples.gattSession(), f)
        #expect(!events.isEmpty)
        #expect(events.allSatisfy { $0.kind == .att && $0.record <= 60 })
        // The state is built from every record.
        #expect(summary.stats.records == 87)
        #expect(summary.connections.count == 1)
        #expect(summary.sections.first { $0.name == "findings" }?.value.objectValue?["count"] == .int(1))
    }

    @Test func deviceByNameOrAddress() throws {
        var f = EventFilter()
        f.devices = ["thermo-42"]
        let (byName, _) = try FilterTests.run(Samples.scan(), f)
        #expect(byName.count == 8) // 4 adverts and 4 scan responses
        #expect(byName.allSatisfy { $0.kind == .adv && $0.summary.contains("C4:7C:8D:6A:11:22") })
        f.devices = ["C4:7C:8D:6A:11:22"]
        let (conn, _) = try FilterTests.run(Samples.gattSession(), f)
        #expect(conn.first?.summary.hasPrefix("LE Create Connection") == true)
        #expect(conn.dropFirst().allSatisfy { $0.connection == 1 || $0.summary.hasPrefix("Command Status") == false })
        #expect(conn.filter { $0.kind == .att }.count == 44)
    }

    @Test func relativeTimesCountFromTheFirstRecordNotTheFirstShown() throws {
        let out = OutputWriter()
        let text = TextRenderer(out: out, style: TextStyle(width: 0))
        text.showSummary = false
        var f = EventFilter()
        f.records = 80...80
        let sink = FilterSink(filter: f, next: text)
        sink.onFirst = { text.origin = $0 }
        Analyzer(sink: sink).run(try CaptureFile.open(bytes: Samples.gattSession().writer.bytes), path: "t")
        #expect(out.text.hasPrefix("     80      3.430300 < 0x0040 ATT Read Request"))
    }

    @Test func connectionAndTimeWindow() throws {
        var f = EventFilter()
        f.connections = [2]
        #expect(try FilterTests.run(Samples.gattSession(), f).0.isEmpty)
        f = EventFilter()
        f.from = 1.0
        f.to = 3.0
        let (events, _) = try FilterTests.run(Samples.gattSession(), f)
        #expect(events.map(\.record) == [77, 78])
    }
}
