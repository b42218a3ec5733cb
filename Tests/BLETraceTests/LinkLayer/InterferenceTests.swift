import Testing
@testable import BLETrace

/// `interference` (issue #28): a sniffed link's channels whose packet error rate stands far above the rest.
@Suite struct InterferenceTests {
    /// A connection followed on channels 0–5, 30 packets each; `bad` maps a channel to its packets with a bad CRC.
    static func capture(bad: [Int: Int]) -> Summary { LL.run(records(bad: bad)).summary }

    static func records(bad: [Int: Int]) -> [Record] {
        var records = [LL.record(1, LL.nordic(LL.connectInd(), packetID: 0x06, flags: 1, channel: 37), linkType: 272)]
        var n = 1
        for channel in 0..<6 {
            for k in 0..<30 {
                n += 1
                let broken = k < (bad[channel] ?? 0)
                let flags: UInt8 = broken ? LL.dflags(central: k % 2 == 0) & ~1 : LL.dflags(central: k % 2 == 0)
                records.append(LL.record(n, LL.nordic(LL.conn(LL.data(llid: 1, sn: UInt8(k & 1), [])), flags: flags, channel: UInt8(channel)),
                                         linkType: 272, micros: Int64(n) * 10_000))
            }
        }
        return records
    }

    @Test func aChannelFarAboveTheRestIsDiagnosed() throws {
        let summary = Self.capture(bad: [2: 12, 4: 1])
        let d = try #require(summary.diagnoses.first { $0.id == .interference })
        #expect(d.severity == .warning && d.facts.channels == [2] && d.facts.channelPerMille == [400])
        #expect(DiagnosisText.title(d) == "Channel 2 (40.0 %) lost far more packets than the rest of the link's (median 0.0 %)")
        #expect(d.connections == [1] && d.evidence == [1])
        // Evenly poor reception everywhere is no interference.
        let even = Self.capture(bad: [0: 9, 1: 9, 2: 9, 3: 9, 4: 9, 5: 9])
        #expect(!even.diagnoses.contains { $0.id == .interference })
    }
}
