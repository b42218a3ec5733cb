import Testing
@testable import BLETrace

/// A sniffed connection's events (issue #28): seen and missed against the interval, events with data, air
/// payload, and each side's longest silence against the supervision timeout.
@Suite struct ConnectionEventsTests {
    @Test func eventsMissedAndSilences() throws {
        // CONNECT_IND: 30 ms interval, 5 s timeout. Ten events, the fourth not seen; in the sixth the central
        // sends 4 payload octets; the peripheral does not answer in the eighth and ninth.
        let t0: Int64 = 1_000_000
        var records = [LL.record(1, LL.nordic(LL.connectInd(), packetID: 0x06, flags: 1, channel: 37), linkType: 272, micros: t0)]
        var n = 1
        for k in 0..<10 where k != 3 {
            let start = t0 + 10_000 + Int64(k) * 30_000
            n += 1
            let payload: [UInt8] = k == 5 ? [1, 2, 3, 4] : []
            records.append(LL.record(n, LL.nordic(LL.conn(LL.data(llid: payload.isEmpty ? 1 : 2, sn: UInt8(k & 1), payload)),
                                                  flags: LL.dflags(central: true), channel: UInt8(k)), linkType: 272, micros: start))
            if k != 7 && k != 8 {
                n += 1
                records.append(LL.record(n, LL.nordic(LL.conn(LL.data(llid: 1, nesn: UInt8((k + 1) & 1), [])),
                                                      flags: LL.dflags(central: false), channel: UInt8(k)), linkType: 272, micros: start + 300))
            }
        }
        let run = LL.run(records)
        let ll = try #require(run.analyzer.pipeline.linkLayerIfUsed)
        let link = try #require(ll.linkOrder.first)
        #expect(link.events.seen == 9)
        #expect(link.events.missed(interval: link.interval) == 1)
        #expect(link.events.eventsWithData == 1 && link.events.payloadBytes == [4, 0])
        // The central: 60 ms over the missed event; the peripheral: 90 ms (from the seventh event to the tenth).
        #expect(link.events.longestSilence == [60_000, 90_000])
        let text = try #require(run.summary.sections.first { $0.name == "link_layer" }).text
        #expect(text.contains { $0.hasPrefix("      events: 9 seen, 1 missed, 11 % with data;") && $0.hasSuffix("longest silence central 0.060000 s, peripheral 0.090000 s (supervision timeout 5000 ms)") })
    }
}
