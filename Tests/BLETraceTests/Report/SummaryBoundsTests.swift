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

/// A connection whose parameters were updated says which values it opened with and which came last (issue
/// #27: the line showed the last values unlabelled, next to "opened at record N").
@Suite struct ConnectionParameterLineTests {
    @Test func openingAndLastValuesAreLabelled() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1, interval: 12, timeout: 400)
        s.controller(.event, HCIBuilder.leMeta(0x03, [0x00] + HCIBuilder.le16(0x0040) + HCIBuilder.le16(24) + HCIBuilder.le16(0) + HCIBuilder.le16(500)))
        let (_, summary) = try TestSupport.analyze(s)
        let line = try #require(SummaryRender.text(summary).first { $0.hasPrefix("    #1 ") })
        #expect(line.contains("opened with interval 15.00 ms, latency 0, timeout 4000 ms, 1 update, last at record "))
        #expect(line.contains(": interval 30.00 ms, latency 0, timeout 5000 ms"))
        let f = SummaryRender.connectionFields(try #require(summary.connections.first))
        #expect(f["opening"]?.objectValue?["interval"] == .int(12))
        #expect(f["interval"] == .int(24))
        // Without an update, the values are the connection's.
        let plain = Scenario(format: .btsnoop(datalink: 1002))
        plain.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1, interval: 12, timeout: 400)
        let p = try #require(SummaryRender.text(try TestSupport.analyze(plain).1).first { $0.hasPrefix("    #1 ") })
        #expect(p.contains(", interval 15.00 ms, latency 0, timeout 4000 ms,") && !p.contains("opened with"))
    }
}
