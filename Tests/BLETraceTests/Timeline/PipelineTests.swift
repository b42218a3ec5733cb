import Testing
@testable import BLETrace

@Suite struct PipelineTests {
    @Test func kindIndexMatchesAllCases() {
        for (i, k) in EventKind.allCases.enumerated() { #expect(k.index == i, "\(k)") }
    }

    @Test func oneEventPerRecordAndCountsByKind() throws {
        let (events, summary) = try TestSupport.analyze(Samples.gattSession())
        #expect(events.map(\.record) == Array(1...Samples.gattSession().writer.count))
        #expect(summary.stats.kinds.values.reduce(0, +) == events.count)
        #expect(summary.stats.kinds["hci_command"] == events.filter { $0.kind == .hciCommand }.count)
    }
}

@Suite struct SummaryTextTests {
    @Test func longConnectionListsAreCutInTextOnly() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        for i in 0..<60 {
            s.connect(handle: 0x40, peer: BDAddr(0xC4_7C_8D_6A_00_00 | UInt64(i)), peerType: 1)
            s.disconnect(handle: 0x40, reason: 0x13, byHost: false)
        }
        let (_, summary) = try TestSupport.analyze(s)
        let text = SummaryRender.text(summary)
        #expect(text.filter { $0.hasPrefix("    #") }.count == 50)
        #expect(text.contains("    … and 10 more (all of them are in the JSON summary)"))
        guard case let .list(all)? = SummaryRender.summaryFields(summary)["connections"] else { Issue.record("no list"); return }
        #expect(all.count == 60)
    }
}
