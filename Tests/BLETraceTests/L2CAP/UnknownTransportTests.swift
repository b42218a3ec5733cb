import Testing
@testable import BLETrace

/// ACL data on handles no Connection Complete opened: unknown transport, decoded only where consistent, no findings;
/// BR/EDR-only HCI traffic makes such a handle BR/EDR.
@Suite struct UnknownTransportTests {
    static func capture() throws -> ([TraceEvent], Summary) {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        // Vendor pseudo-handle 0x0EFF: bytes whose "L2CAP length" (1) leaves bytes after the frame's end.
        s.controller(.acl, HCIBuilder.acl(handle: 0x0EFF, [0x01, 0x00, 0x04, 0x00, 0x99, 0x01, 0x02]))
        // A continuation of nothing.
        s.controller(.acl, HCIBuilder.acl(handle: 0x0EFF, start: false, [0x01, 0x02, 0x03]))
        // …and a consistent frame: an ATT Read Request that nothing answers.
        s.controller(.acl, HCIBuilder.acl(handle: 0x0EFF, [0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00]))
        s.advance(ms: 40_000)
        // Handle 0x0010: ACL, then a Mode Change (BR/EDR only).
        s.controller(.acl, HCIBuilder.acl(handle: 0x0010, [0x02, 0x00, 0x01, 0x00, 0xAA, 0xBB]))
        s.controller(.event, HCIBuilder.event(0x14, [0x00] + HCIBuilder.le16(0x0010) + [0x02] + HCIBuilder.le16(0x0320)))
        return try TestSupport.analyze(s)
    }

    @Test func inconsistentBytesAreShownNotDecoded() throws {
        let (events, summary) = try UnknownTransportTests.capture()
        let raw = events.filter { $0.handle == 0x0EFF }.prefix(2)
        #expect(raw.count == 2 && raw.allSatisfy { $0.kind == .vendor && $0.malformed == nil })
        // The consistent frame is decoded as ATT …
        #expect(events.contains { $0.handle == 0x0EFF && $0.kind == .att })
        // … but raises no finding (no "unanswered request" from an ATT timeout, no L2CAP problem).
        let findings = summary.sections.first { $0.name == "findings" }?.value.objectValue
        #expect(findings?["count"] == .int(0), "\(String(describing: findings))")
        let c = try #require(summary.connections.first { $0.handle == 0x0EFF })
        #expect(!c.transportKnown)
        #expect(SummaryRender.connectionFields(c)["transport"] == .string("unknown"))
        #expect(SummaryRender.text(summary).contains { $0.hasPrefix("    #1 handle 0x0EFF") && $0.contains("transport unknown") })
    }

    @Test func modeChangeMakesAHandleBREDR() throws {
        let (_, summary) = try UnknownTransportTests.capture()
        let c = try #require(summary.connections.first { $0.handle == 0x0010 })
        #expect(c.transportKnown && !c.le)
        #expect(SummaryRender.connectionFields(c)["transport"] == .string("br_edr"))
    }
}
