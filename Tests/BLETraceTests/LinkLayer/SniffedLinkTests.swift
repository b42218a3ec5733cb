import Testing
@testable import BLETrace

/// A sniffed link in `summary.links` and the link layer's per-link state (issue #28): data PDUs counted each
/// way, acknowledgements with their latency, data length and PHY from the control PDUs, the channel map and
/// its updates, and a supervision timeout seen from the air.
@Suite struct SniffedLinkTests {
    /// A central PDU in event `k` (nRF event counter `k`, channel `channel`) and, unless `answer` is false, the
    /// peripheral's answer 300 µs later acknowledging it.
    static func event(_ k: Int, at start: Int64, channel: Int, central pdu: [UInt8]? = nil, peripheral answerPDU: [UInt8]? = nil,
                      answer: Bool = true, n: inout Int) -> [Record] {
        let sn = UInt8(k & 1)
        var out: [Record] = []
        n += 1
        let c = pdu.map { LL.data(llid: $0.first == 0xFF ? 3 : 2, sn: sn, nesn: sn, Array($0.dropFirst($0.first == 0xFF ? 1 : 0))) }
            ?? LL.data(llid: 1, sn: sn, nesn: sn, [])
        out.append(LL.record(n, LL.nordic(LL.conn(c), flags: LL.dflags(central: true), channel: UInt8(channel), eventCounter: k),
                             linkType: 272, micros: start))
        if answer {
            n += 1
            let p = answerPDU.map { LL.data(llid: $0.first == 0xFF ? 3 : 2, sn: sn, nesn: 1 - sn, Array($0.dropFirst($0.first == 0xFF ? 1 : 0))) }
                ?? LL.data(llid: 1, sn: sn, nesn: 1 - sn, [])
            out.append(LL.record(n, LL.nordic(LL.conn(p), flags: LL.dflags(central: false), channel: UInt8(channel), eventCounter: k),
                                 linkType: 272, micros: start + 300))
        }
        return out
    }

    static let t0: Int64 = 1_000_000

    static func connect() -> [Record] {
        [LL.record(1, LL.nordic(LL.connectInd(), packetID: 0x06, flags: 1, channel: 37), linkType: 272, micros: t0)]
    }

    /// The connection, then `count` events 30 ms apart on channel `k` in event `k`, with the PDUs `pdus` gives for
    /// an event (the central's, the peripheral's answer), else empty ones.
    static func link(events count: Int, _ pdus: [Int: (central: [UInt8]?, peripheral: [UInt8]?)]) -> [Record] {
        var records = connect()
        var n = 1
        for k in 0..<count {
            let (c, p) = pdus[k] ?? (nil, nil)
            records += event(k, at: t0 + 10_000 + Int64(k) * 30_000, channel: k, central: c, peripheral: p, n: &n)
        }
        return records
    }

    /// LL_LENGTH_REQ (0xFF marks LLID 3) with RX and TX 251, and the LL_LENGTH_RSP with `rx` and `tx` octets.
    static func lengthExchange(rx: Int, tx: Int) -> (central: [UInt8]?, peripheral: [UInt8]?) {
        ([0xFF, 0x14] + LL.le16(251) + LL.le16(2120) + LL.le16(251) + LL.le16(2120),
         [0xFF, 0x15] + LL.le16(rx) + LL.le16(2120) + LL.le16(tx) + LL.le16(2120))
    }

    /// An ATT Read Request (7 L2CAP octets) from the central, and the Read Response (8) to it.
    static let read: [UInt8] = [3, 0, 4, 0, 0x0A, 0x03, 0x00]
    static let response: [UInt8] = [4, 0, 4, 0, 0x0B, 1, 2, 3]

    @Test func dataAcknowledgementsLimitsAndChannelMap() throws {
        // Control PDUs (0xFF marks LLID 3): the length exchange (the peripheral's LL_LENGTH_RSP: RX 100, TX 80),
        // LL_PHY_UPDATE_IND (2M to the peripheral, 1M back), and in event 3 an LL_CHANNEL_MAP_IND excluding
        // channels 5, 12 and 15 from event 10; the read in event 6, its response in event 7.
        let phy: [UInt8] = [0xFF, 0x18, 0x02, 0x01] + LL.le16(8)
        let allBut: UInt64 = 0x1F_FFFF_FFFF & ~(1 << 5 | 1 << 12 | 1 << 15)
        let mapInd: [UInt8] = [0xFF, 0x01] + (0..<5).map { UInt8(truncatingIfNeeded: allBut >> (8 * UInt64($0))) } + LL.le16(10)
        let run = LL.run(Self.link(events: 20, [1: Self.lengthExchange(rx: 100, tx: 80), 2: (phy, nil), 3: (mapInd, nil),
                                                6: (Self.read, nil), 7: (nil, Self.response)]))
        let ll = try #require(run.analyzer.pipeline.linkLayerIfUsed)
        let link = try #require(ll.linkOrder.first)
        // Channel 5 (event 5) was still in the map; 12 and 15 were used after the instant: 2 packets each.
        #expect(link.maps.updateCount == 1 && link.maps.current == allBut)
        #expect(link.maps.outside == 4 && ChannelMapHistory.list(link.maps.outsideChannels) == [12, 15])
        #expect(link.dataLength.map { [$0.0, $0.1] } == [100, 80])
        #expect(link.empty == 34 && link.retransmissions == 0)
        let layerText = try #require(run.summary.sections.first { $0.name == "link_layer" }).text
        #expect(layerText.contains("      channel map: 34 channels in force; 1 update (record 8: 34 channels at event 10); 4 packets on channels the map excluded (12, 15) from record 26"))

        let stats = try #require(run.analyzer.layers.compactMap { $0 as? LinkStatistics }.first)
        let l = try #require(stats.orderedLinks.first)
        #expect(l.sniffed && l.tx.aclPackets == 1 && l.tx.aclBytes == 7 && l.rx.aclPackets == 1 && l.rx.aclBytes == 8)
        #expect(l.completed == 1 && l.latency.min == 300 && l.latency.max == 300)
        let section = try #require(stats.summary())
        #expect(section.text.contains("    #1 handle 0x0001: central 1 packets 7 bytes, 1 acknowledged (latency 0.30/0.30/0.30/0.30 ms min/p50/p95/max); peripheral 1 packets 8 bytes"))
        guard case let .list(links)? = section.value.objectValue?["links"], let first = links.first?.objectValue else {
            Issue.record("no links"); return
        }
        #expect(first["sniffed"] == .bool(true))
        #expect(first["events"]?.objectValue?["seen"] == .int(20))
        #expect(first["events"]?.objectValue?["missed"] == .int(0))
        guard case let .list(channels)? = first["channels"] else { Issue.record("no channels"); return }
        #expect(channels.count == 20 && channels.first?.objectValue?["packets"] == .int(2))
        let limits = try #require(first["limits"]?.objectValue)
        #expect(limits["tx_octets"] == .int(100) && limits["rx_octets"] == .int(80))
        #expect(limits["tx_phy"] == .string("2M") && limits["rx_phy"] == .string("1M"))
        guard case let .list(l2cap)? = first["l2cap_channels"] else { Issue.record("no L2CAP channels"); return }
        #expect(l2cap.first?.objectValue?["cid"] == .int(4))
    }

    /// The peripheral answers ten events, then the central polls alone for `polling` events at 30 ms; the
    /// capture goes on to `end` µs after the start with an advert.
    /// A length exchange that says no octets (what the fuzzer's find held: the link summary divided by the data
    /// length) leaves the link with no throughput ceiling; the summary is still written.
    @Test func aDataLengthOfNoOctetsGivesNoCeiling() throws {
        // A read after the exchange: the link carries data, so it has statistics.
        let run = LL.run(Self.link(events: 4, [1: Self.lengthExchange(rx: 0, tx: 0), 2: (Self.read, nil),
                                               3: (nil, Self.response)]))
        let stats = try #require(run.analyzer.layers.compactMap { $0 as? LinkStatistics }.first)
        let link = try #require(stats.orderedLinks.first)
        let m = try #require(stats.limits(link))
        #expect(m.txOctets == 0 && m.rxOctets == 0 && m.interval == 24)
        #expect(m.ceiling(tx: true) == nil && m.ceiling(tx: false) == nil)
        let text = try #require(stats.summary()).text
        #expect(!text.joined().contains("limits:"))
    }

    static func lossCapture(polling: Int, end: Int64) -> Summary { LL.run(lossRecords(polling: polling, end: end)).summary }

    static func lossRecords(polling: Int, end: Int64) -> [Record] {
        var records = Self.connect()
        var n = 1
        for k in 0..<(10 + polling) {
            // The peripheral skips event 4 too: 60 ms without it, its longest silence before the loss.
            records += Self.event(k, at: Self.t0 + 10_000 + Int64(k) * 30_000, channel: k % 37, answer: k < 10 && k != 4, n: &n)
        }
        n += 1
        records.append(LL.record(n, LL.nordic(LL.packet(LL.advAA, LL.adv(0, LL.addr(0x0A_0B_0C_0D_0E_0F) + [2, 1, 6]), crcInit: LLCRC.advertisingInit), packetID: 0x06, flags: 1, channel: 37),
                                 linkType: 272, micros: Self.t0 + end))
        return records
    }

    @Test func aSupervisionTimeoutSeenFromTheAir() throws {
        // Timeout 5 s: the central polls for 5.1 s after the peripheral's last packet.
        let summary = Self.lossCapture(polling: 170, end: 7_000_000)
        let d = try #require(summary.diagnoses.first { $0.id == .linkLost })
        #expect(d.facts.micros == 170 * 30_000 - 300 && d.facts.longestSilenceMicros == 60_000 && d.facts.timeout == 500)
        #expect(d.connections == [1])
        let why = DiagnosisText.explanation(d)
        #expect(why.hasPrefix("The sniffer saw the peripheral's last packet and then the central transmitting alone for 5.099700 s (supervision timeout 5000 ms, interval 30.00 ms)"))
        #expect(why.contains("the peripheral's longest silence was 0.060000 s, 1 % of the timeout: the link had been healthy until then."))
        // Both sides stopping together is the sniffer losing the link, not a supervision timeout.
        let lostBySniffer = Self.lossCapture(polling: 0, end: 7_000_000)
        #expect(!lostBySniffer.diagnoses.contains { $0.id == .linkLost })
        // A central that stopped polling before the timeout ran out (3 s of 5 s) proves no supervision timeout:
        // the central may have left the link (SweynTooth's attack dongles do), or the sniffer lost it.
        let stopped = Self.lossCapture(polling: 100, end: 7_000_000)
        #expect(!stopped.diagnoses.contains { $0.id == .linkLost })
        // A capture that ends before the timeout could have run out cannot tell.
        let short = Self.lossCapture(polling: 100, end: 4_000_000)
        #expect(!short.diagnoses.contains { $0.id == .linkLost })
    }

    /// A sniffed peripheral that advertises after its last packet on the link, while the central goes on polling
    /// it, has left the link (it reset); one whose central stopped too tells nothing.
    @Test func aPeripheralAdvertisingWhileTheCentralStillPollsRestarted() throws {
        func capture(pollingAfter: Int) -> Summary {
            var records = Self.connect()
            var n = 1
            for k in 0..<10 { records += Self.event(k, at: Self.t0 + 10_000 + Int64(k) * 30_000, channel: k % 37, n: &n) }
            n += 1
            let advert = LL.packet(LL.advAA, LL.adv(0, LL.addr(LL.peripheral) + [2, 1, 6]), crcInit: LLCRC.advertisingInit)
            records.append(LL.record(n, LL.nordic(advert, packetID: 0x02, flags: 1, channel: 37), linkType: 272,
                                     micros: Self.t0 + 10_000 + 9 * 30_000 + 15_000))
            for k in 10..<(10 + pollingAfter) {
                records += Self.event(k, at: Self.t0 + 10_000 + Int64(k) * 30_000, channel: k % 37, answer: false, n: &n)
            }
            return LL.run(records).summary
        }
        let d = try #require(capture(pollingAfter: 5).diagnoses.first { $0.id == .peerRestarted })
        #expect(d.connections == [1] && d.evidence.count == 3)
        #expect(DiagnosisText.explanation(d).contains("the central kept polling it"))
        #expect(!capture(pollingAfter: 0).diagnoses.contains { $0.id == .peerRestarted })
    }

    /// The Markdown report's link rows: a sniffed link's are the central's and the peripheral's, with its radio;
    /// an HCI link's are tx and rx with completions.
    @Test func markdownLinkRows() throws {
        var records = Self.connect()
        var n = 1
        for k in 0..<10 {
            records += Self.event(k, at: Self.t0 + 10_000 + Int64(k) * 30_000, channel: k, central: k == 2 ? [3, 0, 4, 0, 0x0A, 0x03, 0x00] : nil,
                                  peripheral: k == 3 ? [4, 0, 4, 0, 0x0B, 1, 2, 3] : nil, n: &n)
        }
        let lines = MarkdownBudgetTests.render(ArrayReader(records, format: .pcap, linkType: 272), path: "s.pcap")
        #expect(lines.contains("| Central → peripheral | 1 data PDUs, 7 bytes, 1 acknowledged; latency to acknowledgement 0.30 ms p50, 0.30 ms p95, 0.30 ms max |"))
        #expect(lines.contains("| Peripheral → central | 1 data PDUs, 8 bytes |"))
        #expect(lines.contains { $0.hasPrefix("| Radio | 10 events seen, 0 missed") }, "\(lines.filter { $0.hasPrefix("| ") })")
        let hci = try MarkdownBudgetTests.render(Samples.gattSession())
        #expect(hci.contains { $0.hasPrefix("| Sent (tx) | 21 ACL packets, ") && $0.contains("21 completed; latency to completion 0.30 ms p50") })
        #expect(!hci.contains { $0.hasPrefix("| Radio |") })
    }
}

/// Missed events are counted gap by gap in the interval in force then, so a connection update changes how
/// many events a gap holds from its instant on, not over the whole capture.
@Suite struct ConnectionEventsMissedTests {
    @Test func gapsCountInTheIntervalOfTheirTime() {
        var ev = ConnectionEvents()
        var t: Int64 = 0
        // 10 events at 10 ms (8 units), every other one missed: 5 seen over 9 gaps' worth.
        for _ in 0..<5 { ev.packet(at: t, central: true, newEvent: true, payload: 0, record: 1, interval: 8); t += 20_000 }
        t -= 20_000
        // Then at 50 ms (40 units): 4 events seen, none missed.
        for _ in 0..<4 { t += 50_000; ev.packet(at: t, central: true, newEvent: true, payload: 0, record: 2, interval: 40) }
        #expect(ev.seen == 9)
        // 4 gaps of 2 events, then 4 of 1: 12 events after the first, 13 in all; 9 seen.
        #expect(ev.missed(interval: 40) == 4)
        #expect(ev.missed(interval: nil) == nil)
    }

    /// The gap across a connection update's instant holds the events up to the instant at the old interval (the
    /// instant's event one old interval plus the transmit window offset after the one before it), then the new
    /// interval: a switch from 7.5 ms to 45 ms with an 18.75 ms offset is one event, not three (whad-team
    /// ble_pairing records 210–211, whose event counter then ran 16 events ahead).
    @Test func theGapAcrossAnInstantCountsTheOffsetAndTheNewInterval() {
        let update = (instant: 105, interval: 36, windowOffset: 15)
        // Event 104 to the instant's event 105: 7.5 ms + 18.75 ms.
        #expect(ConnectionEvents.steps(26_250, interval: 6, from: 104, update: update) == 1)
        // From 103: two events; one more 45 ms interval after the instant: three.
        #expect(ConnectionEvents.steps(33_750, interval: 6, from: 103, update: update) == 2)
        #expect(ConnectionEvents.steps(78_750, interval: 6, from: 103, update: update) == 3)
        // Before the instant's event: old intervals only.
        #expect(ConnectionEvents.steps(15_000, interval: 6, from: 100, update: update) == 2)
        // No update: the old interval.
        #expect(ConnectionEvents.steps(26_250, interval: 6, from: 104, update: nil) == 4)
    }
}
