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
