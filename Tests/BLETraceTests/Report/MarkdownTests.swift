import Testing
@testable import BLETrace

@Suite struct MarkdownTests {
    static func render(_ s: Scenario, filter: EventFilter? = nil) throws -> [String] {
        let out = OutputWriter()
        let md = MarkdownRenderer(out: out)
        var sink: EventSink = md
        var f: FilterSink? = nil
        if let filter { f = FilterSink(filter: filter, next: md); sink = f! }
        let analyzer = Analyzer(sink: sink)
        analyzer.addActivityLog()
        md.layers = analyzer.layers
        md.pipeline = analyzer.pipeline
        f?.pipeline = analyzer.pipeline
        analyzer.run(try CaptureFile.open(bytes: s.writer.bytes), path: "samples/gatt-session.btsnoop")
        return out.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func diagnosesAndFindingsComeFirstThenDevicesThenConnections() throws {
        let lines = try MarkdownTests.render(Samples.gattSession())
        #expect(lines.first == "# bletrace report: gatt-session.btsnoop")
        let headings = lines.filter { $0.hasPrefix("## ") }
        #expect(headings == ["## Diagnosis", "## Findings", "## Devices", "## Connection #1: C4:7C:8D:6A:11:22 (random static)", "## Timeline outside connections"])
        #expect(lines.contains("| 82 | #1 | ATT error | Read Request of Nordic UART TX (Nordic UART Service, handle 0x001D): Read Not Permitted (0x02) |"))
        #expect(lines.contains("| Records | 87 |"))
        #expect(lines.contains { $0.hasPrefix("- **warning** `attribute_not_permitted`: Read Request of Nordic UART TX") && $0.hasSuffix("(record 82, connection #1)") })
        #expect(lines.contains("  - Next: Check the characteristic's properties before reading or writing it."))
    }

    @Test func gattTreeHasValuesAndNotificationHistory() throws {
        let lines = try MarkdownTests.render(Samples.gattSession())
        #expect(lines.contains("- **Battery** `180F` (0x000C–0x000F)"))
        let fw = try #require(lines.first { $0.contains("Firmware Revision String") })
        // The value as the Device Information dissector renders it.
        #expect(fw.hasPrefix("    - ") && fw.contains("`\"1.4.2\"` (read, record 70)"))
        let battery = try #require(lines.firstIndex { $0.contains("Battery Level `2A19`") })
        #expect(lines[battery].contains("(notified, record 79)"))
        #expect(lines[battery + 1].hasPrefix("        - 3 notifications; "))
        #expect(lines.contains("        - Client Characteristic Configuration `2902` (0x000F)"))
    }

    @Test func tablesAreWellFormedAndCodeBlocksClosed() throws {
        for s in [Samples.gattSession(), Samples.scan(), Samples.ancsSession(), Samples.diffSession(bad: true)] {
            let lines = try MarkdownTests.render(s)
            #expect(lines.filter { $0.hasPrefix("```") }.count % 2 == 0)
            // Every row of a table has as many unescaped pipes as its header.
            var columns: Int? = nil
            var inCode = false
            for l in lines {
                if l.hasPrefix("```") { inCode.toggle(); continue }
                guard !inCode else { continue }
                guard l.hasPrefix("|") else { columns = nil; continue }
                var pipes = 0
                var escaped = false
                for ch in l { if ch == "|" && !escaped { pipes += 1 }; escaped = ch == "\\" && !escaped }
                if let c = columns { #expect(pipes == c, "\(l)") } else { columns = pipes }
            }
        }
    }

    @Test func excerptKeepsFindingsBeyondItsHead() throws {
        let lines = try MarkdownTests.render(Samples.gattSession())
        let start = try #require(lines.firstIndex(of: "### Timeline excerpt"))
        let block = lines[start...].prefix { $0 != "## Timeline outside connections" }
        #expect(block.contains { $0.hasPrefix("     82 ") && $0.contains("Error Response") })
        #expect(block.contains { $0.contains("more events …") })
    }

    @Test func filtersShowInTheHeader() throws {
        var f = EventFilter()
        _ = f.parseLayers("att")
        let lines = try MarkdownTests.render(Samples.gattSession(), filter: f)
        #expect(lines.contains("| Records | 87; 44 shown after filters |"))
        #expect(!lines.contains("## Timeline outside connections"))
    }
}

/// A device named only through GATT (its Device Name read) has that name in the Markdown Devices table, as in
/// the text summary (issue #27: the Name cell was empty).
@Suite struct MarkdownGATTNameTests {
    @Test func deviceNameReadNamesTheDevice() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        let name = Array("Thermo-42".utf8)
        s.attOut(0x0040, [0x08] + HCIBuilder.le16(0x0001) + HCIBuilder.le16(0xFFFF) + HCIBuilder.le16(0x2A00))
        s.attIn(0x0040, [0x09, UInt8(2 + name.count)] + HCIBuilder.le16(0x0003) + name)
        s.disconnect(handle: 0x0040)
        let (_, summary) = try TestSupport.analyze(s)
        #expect(SummaryRender.text(summary).contains { $0.hasPrefix("    #1 ") && $0.contains("\"Thermo-42\"") })
        let lines = try MarkdownTests.render(s)
        let row = try #require(lines.first { $0.hasPrefix("| `\(Samples.thermo)`") })
        #expect(row.contains("| Thermo-42 |"), "\(row)")
    }
}
