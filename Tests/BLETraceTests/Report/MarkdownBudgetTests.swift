import Foundation
import Testing
@testable import BLETrace

/// The Markdown report as a list of sections: the size budget, filters that narrow every section, one GATT
/// database per device, `--summary-only`.
@Suite struct MarkdownBudgetTests {
    static func render(_ s: Scenario, filter: EventFilter? = nil, limit: Int? = ReportBudget.defaultLimit,
                       showEvents: Bool = true) throws -> [String] {
        let path = TestSupport.temporaryFile(s.writer.bytes, suffix: ".btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        return render(try CaptureFile.open(path: path), path: "two.btsnoop", filter: filter, limit: limit, showEvents: showEvents)
    }

    static func render(_ reader: RecordReader, path: String, filter: EventFilter? = nil, limit: Int? = ReportBudget.defaultLimit,
                       showEvents: Bool = true) -> [String] {
        let out = OutputWriter()
        let md = MarkdownRenderer(out: out)
        md.budget = ReportBudget(limit: limit)
        md.showEvents = showEvents
        var sink: EventSink = md
        var f: FilterSink? = nil
        if let filter {
            f = FilterSink(filter: filter, next: md)
            sink = f!
            md.filtered = true
        }
        let analyzer = Analyzer(sink: sink)
        analyzer.addActivityLog()
        md.layers = analyzer.layers
        md.pipeline = analyzer.pipeline
        f?.pipeline = analyzer.pipeline
        analyzer.run(reader, path: path)
        return out.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Two connections to the same thermometer, then one to a second device.
    static func twoDevices() -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        Samples.gattSession(s, handle: 0x0040, peer: Samples.thermo)
        Samples.gattSession(s, handle: 0x0041, peer: Samples.thermo)
        Samples.gattSession(s, handle: 0x0042, peer: BDAddr(0xC0_00_00_00_00_42))
        return s
    }

    static func size(_ lines: [String]) -> Int { lines.joined(separator: "\n").count }

    @Test func budgetCutsTheLowestPriorityFirstAndCountsEverySection() {
        let big = (0..<100).map { "line \($0)" }
        var sections = [
            ReportSection(kind: .header, lines: ["# title", ""]),
            ReportSection(kind: .findings, priority: ReportSection.Priority.findings, forms: [big, ["short findings"]]),
            ReportSection(kind: .timeline, connection: 1, priority: ReportSection.Priority.timeline, forms: [big, ["cut"]]),
            // A kind a later renderer adds: counted like the others.
            ReportSection(kind: .diagram, connection: 1, priority: ReportSection.Priority.diagram, forms: [big, []]),
        ]
        let full = sections.reduce(0) { $0 + $1.size }
        // Room for all but one of the big sections: the timeline goes first.
        #expect(ReportBudget(limit: full - 100).fit(&sections))
        #expect(sections.map(\.chosen) == [0, 0, 1, 0])
        // Less room: the diagram next, the findings last.
        #expect(ReportBudget(limit: full - 1000).fit(&sections))
        #expect(sections.map(\.chosen) == [0, 0, 1, 1])
        #expect(!ReportBudget(limit: 10).fit(&sections))
        #expect(sections.map(\.chosen) == [0, 1, 1, 1])
    }

    @Test func noteSaysWhatWasCutAndHowToGetIt() {
        let big = (0..<300).map { "event line \($0)" }
        let sections = [
            ReportSection(kind: .header, lines: ["# title", ""]),
            ReportSection(kind: .timeline, connection: 3, priority: ReportSection.Priority.timeline, forms: [big, ["cut"]]),
        ]
        let out = ReportBudget(limit: 1000).render(sections, file: "x.log")
        #expect(MarkdownBudgetTests.size(out) <= 1000)
        #expect(out[2].hasPrefix("> **Cut to fit 1000 characters**"))
        #expect(out.contains { $0.contains("(connections #3)") && $0.contains("`bletrace analyze x.log --connection N`") })
        #expect(ReportBudget(limit: nil).render(sections, file: "x.log").count == 302)
    }

    @Test func reportFitsItsBudgetAndTrimsTimelinesFirst() throws {
        let s = MarkdownBudgetTests.twoDevices()
        let full = try MarkdownBudgetTests.render(s, limit: nil)
        let limit = MarkdownBudgetTests.size(full) - 1500
        let cut = try MarkdownBudgetTests.render(s, limit: limit)
        #expect(MarkdownBudgetTests.size(cut) <= limit)
        #expect(cut.contains { $0.hasPrefix("> **Cut to fit \(limit) characters**") })
        #expect(cut.contains { $0.hasPrefix("> - timeline excerpts shortened or left out") })
        // Timelines went first: the GATT databases and the device table are whole.
        #expect(!cut.contains { $0.contains("GATT database") && $0.contains("shortened") })
        #expect(cut.filter { $0.contains("Battery Level `2A19`") }.count == full.filter { $0.contains("Battery Level `2A19`") }.count)
        #expect(!full.contains { $0.contains("Cut to fit") })
        // A tiny budget still gives a well-formed document that says what it cut.
        let tiny = try MarkdownBudgetTests.render(s, limit: 3000)
        #expect(MarkdownBudgetTests.size(tiny) <= 3000)
        #expect(tiny.filter { $0.hasPrefix("```") }.count % 2 == 0)
    }

    @Test func oneGATTDatabasePerDevice() throws {
        let lines = try MarkdownBudgetTests.render(MarkdownBudgetTests.twoDevices(), limit: nil)
        #expect(lines.filter { $0 == "### GATT database of `C4:7C:8D:6A:11:22`" }.count == 1)
        #expect(lines.contains("GATT database of `C4:7C:8D:6A:11:22`: shown with connection #1."))
        #expect(lines.filter { $0.hasPrefix("### GATT database of ") }.count == 2)
    }

    @Test func connectionFilterKeepsOnlyThatConnection() throws {
        var f = EventFilter()
        f.connections = [2]
        let lines = try MarkdownBudgetTests.render(MarkdownBudgetTests.twoDevices(), filter: f)
        let headings = lines.filter { $0.hasPrefix("## ") }
        #expect(headings == ["## Diagnosis", "## Findings", "## Devices", "## Connection #2: C4:7C:8D:6A:11:22 (random static)"])
        // The findings and the device table too: only connection #2's and its peer.
        #expect(lines.contains { $0.hasPrefix("| 1") && $0.contains("| #2 | ATT error |") })
        #expect(!lines.contains { $0.contains("| #1 |") || $0.contains("| #3 |") })
        #expect(!lines.contains { $0.contains("`C0:00:00:00:00:42`") })
        #expect(lines.contains("| Connections | 3; 1 shown after filters |"))
        // Connection #1 is not shown, so connection #2 shows the database itself.
        #expect(lines.contains("### GATT database of `C4:7C:8D:6A:11:22`"))
    }

    @Test func summaryOnlyHasNoTimeline() throws {
        let lines = try MarkdownBudgetTests.render(MarkdownBudgetTests.twoDevices(), showEvents: false)
        #expect(!lines.contains { $0.contains("Timeline") || $0.hasPrefix("```") })
        #expect(lines.contains("## Connection #3: C0:00:00:00:00:42 (random static)"))
    }

    /// The issue's goal: every shared capture's report, default options, fits 60,000 characters.
    @Test(.enabled(if: TestSupport.sharedCaptures != nil))
    func everySharedCaptureFitsTheDefaultBudget() throws {
        let dir = try #require(TestSupport.sharedCaptures)
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where !name.hasSuffix(".md") {
            let path = dir.appendingPathComponent(name).path
            guard let reader = try? CaptureFile.open(path: path) else { continue }
            let lines = MarkdownBudgetTests.render(reader, path: path)
            #expect(MarkdownBudgetTests.size(lines) < ReportBudget.defaultLimit, "\(name)")
            #expect(lines.filter { $0.hasPrefix("```") }.count % 2 == 0, "\(name)")
        }
    }

    @Test(.enabled(if: TestSupport.sharedCaptures != nil))
    func sharedCaptureConnectionFilter() throws {
        let path = try #require(TestSupport.sharedCaptures).appendingPathComponent("Syed-Bipul-Rahman__bluethooth_light_controll__btsnoop_hci.log").path
        guard FileManager.default.fileExists(atPath: path) else { return }
        var f = EventFilter()
        f.connections = [7]
        let lines = MarkdownBudgetTests.render(try CaptureFile.open(path: path), path: path, filter: f)
        #expect(lines.filter { $0.hasPrefix("## Connection #") } == ["## Connection #7: 4D:FF:2E:5E:9C:20 (resolvable private)"])
        let all = MarkdownBudgetTests.render(try CaptureFile.open(path: path), path: path, limit: nil)
        #expect(all.filter { $0.hasPrefix("### GATT database of `62:FA:DB:F9:85:E9`") }.count == 1)
    }
}
