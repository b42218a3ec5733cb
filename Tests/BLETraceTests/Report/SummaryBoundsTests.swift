import Foundation
import Testing
@testable import BLETrace

/// The summary of a long capture: streamed JSON equal to the field tree, text lists cut to a readable length.
@Suite struct SummaryBoundsTests {
    /// About 60 connections, each to a new peer with its own GATT database, battery and identity card.
    static let longCapture: [UInt8] = {
        var bytes: [UInt8] = []
        SyntheticCapture.generate(records: 15_000, format: .btsnoop(datalink: 1002)) { bytes += $0 }
        return bytes
    }()

    @Test func streamedSummaryEqualsTheFieldTree() throws {
        let out = OutputWriter()
        let summary = Analyzer(sink: JSONLinesRenderer(out: out)).run(try CaptureFile.open(bytes: Self.longCapture), path: "long")
        let last = try #require(out.text.split(separator: "\n").last)
        let tree = OutputWriter()
        JSONOut.object(SummaryRender.summaryFields(summary), to: tree)
        let streamed = try #require(last.range(of: ",\"summary\":"))
        #expect(String(last[streamed.upperBound...].dropLast()) == tree.text)
        #expect(summary.connectionCount == summary.connections.count)
        #expect(summary.connectionCount > SummaryRender.textListed)
    }

    @Test func textListsStopAtTheLimit() throws {
        let (_, summary) = TestSupport.analyze(try CaptureFile.open(bytes: Self.longCapture))
        let text = SummaryRender.text(summary)
        func section(_ head: String) -> [String] {
            guard let i = text.firstIndex(where: { $0.hasPrefix("  " + head) }) else { return [] }
            return Array(text[(i + 1)...].prefix(while: { $0.hasPrefix("    ") }))
        }
        let databases = section("ATT:").filter { $0.hasPrefix("    GATT database of ") }
        #expect(databases.count == SummaryRender.textListed)
        #expect(section("ATT:").contains { $0.hasPrefix("    … and ") && $0.hasSuffix("more GATT databases (bletrace gatt lists them all)") })
        #expect(section("ATT:").filter { $0.contains(": ATT_MTU ") }.count == SummaryRender.textListed)
        for head in ["Battery:", "Identity:"] {
            let lines = section(head)
            #expect(lines.count == SummaryRender.textListed + 1, "\(head)")
            #expect(lines.last?.hasPrefix("    … and ") == true, "\(head)")
        }
        // JSON keeps every item.
        let att = try #require(summary.sections.first { $0.name == "att" }?.value.objectValue)
        guard case let .list(dbs)? = att["databases"], case let .list(mtus)? = att["mtu"] else { Issue.record("att lists"); return }
        #expect(dbs.count > SummaryRender.textListed)
        #expect(mtus.count > SummaryRender.textListed)
    }
}
