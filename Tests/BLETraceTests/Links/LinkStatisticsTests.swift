import Testing
@testable import BLETrace

/// Link statistics of HCI captures (issue #28): ACL counts each way, TX latency to completion, throughput
/// windows, controller buffers and flow-control stalls.
@Suite struct LinkStatisticsTests {
    static func le16(_ v: UInt16) -> [UInt8] { HCIBuilder.le16(v) }

    /// LE buffers 2 × 251; four Write Commands each completed 300 µs later; then two packets fill both buffers
    /// and their completion takes 1.5 s (a stall); three notifications come back.
    static func capture() -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.command(0x2002, returning: le16(251) + [2])
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        s.aclMTU = 251
        for _ in 0..<4 {
            s.advance(ms: 100)
            s.attOut(0x0040, [0x52] + le16(0x0010) + [UInt8](repeating: 0x41, count: 20))
        }
        s.advance(ms: 100)
        for _ in 0..<2 {
            s.host(.acl, HCIBuilder.acl(handle: 0x0040, HCIBuilder.l2cap(cid: 4, [0x52] + le16(0x0010) + [1, 2, 3])))
        }
        s.advance(ms: 1500)
        s.controller(.event, HCIBuilder.event(0x13, [1] + le16(0x0040) + le16(2)))
        for i in 0..<3 {
            s.advance(ms: 10)
            s.attIn(0x0040, [0x1B] + le16(0x000E) + [UInt8(50 + i)])
        }
        return s
    }

    static func layer(_ s: Scenario) throws -> LinkStatistics {
        let a = Analyzer(sink: nil)
        a.run(try CaptureFile.open(bytes: s.writer.bytes), path: "t")
        return try #require(a.layers.compactMap { $0 as? LinkStatistics }.first)
    }

    @Test func countsLatencyBuffersAndAStall() throws {
        let stats = try Self.layer(Self.capture())
        let l = try #require(stats.orderedLinks.first)
        #expect(stats.orderedLinks.count == 1 && l.connection == 1 && l.handle == 0x0040 && l.le)
        #expect(l.tx.aclPackets == 6 && l.tx.aclBytes == 4 * 27 + 2 * 10 && l.tx.l2capBytes == 4 * 23 + 2 * 6)
        #expect(l.rx.aclPackets == 3 && l.rx.aclBytes == 3 * 8)
        #expect(l.completed == 6 && l.completedUnmatched == 0)
        #expect(l.latency.count == 6 && l.latency.min == 300 && l.latency.max == 1_500_000)
        #expect(l.latency.percentile(50) == 300 && l.latency.percentile(95) == 1_500_000)
        #expect(stats.le.count == 2 && stats.le.length == 251 && stats.le.maxOutstanding == 2)
        #expect(stats.stallCount == 1)
        let stall = try #require(stats.stalls.first)
        #expect(stall.duration == 1_500_000 && stall.buffers == 2 && stall.le && stall.lastRecord == stall.firstRecord + 1)
        let text = try #require(stats.summary()).text
        #expect(text.contains("    controller LE buffers: 2 × 251 bytes, at most 2 outstanding"))
        #expect(text.contains { $0.hasPrefix("    flow control stalls: 1 (every buffer taken, no completion for over 1 s): records ") && $0.hasSuffix("(1500.00 ms)") })
        #expect(text.contains { $0.hasPrefix("    #1 handle 0x0040: tx 6 packets 128 bytes, 6 completed (latency 0.30/0.30/1500.00/1500.00 ms") })
        let json = try #require(stats.summary()?.value.objectValue)
        guard case let .list(links)? = json["links"], let first = links.first?.objectValue else { Issue.record("no links"); return }
        #expect(first["tx"]?.objectValue?["latency_us"]?.objectValue?["p95"] == .int(1_500_000))
        #expect(first["rx"]?.objectValue?["acl_packets"] == .int(3))
    }

    @Test func aStallIsDiagnosed() throws {
        let summary = Analyzer(sink: nil).run(try CaptureFile.open(bytes: Self.capture().writer.bytes), path: "t")
        let d = try #require(summary.diagnoses.first { $0.id == .flowControlStall })
        #expect(d.severity == .warning && d.count == 1 && d.facts.micros == 1_500_000 && d.facts.number == 2)
        #expect(DiagnosisText.title(d) == "All 2 controller ACL buffers were taken and no packet completed for 1.50 s")
        // Without the stall (completions 300 µs after each packet) there is none.
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.command(0x2002, returning: Self.le16(251) + [2])
        Samples.gattSession(s, handle: 0x0040, peer: Samples.thermo)
        let calm = Analyzer(sink: nil).run(try CaptureFile.open(bytes: s.writer.bytes), path: "t")
        #expect(!calm.diagnoses.contains { $0.id == .flowControlStall })
    }

    /// ATT_MTU 247, 251-octet PDUs and 2M PHY both ways, 7.5 ms interval: 1048 µs a data PDU, 44 µs an empty
    /// one, 1392 µs an exchange with both inter-frame spaces; 5 in an event, 666.7 a second, one notification of
    /// 244 bytes each: 1,301,333 bit/s.
    @Test func limitsGiveTheCeiling() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1, interval: 6)
        s.attOut(0x0040, [0x02] + Self.le16(247))
        s.attIn(0x0040, [0x03] + Self.le16(247))
        s.controller(.event, HCIBuilder.leMeta(0x07, Self.le16(0x0040) + Self.le16(251) + Self.le16(2120) + Self.le16(251) + Self.le16(2120)))
        s.controller(.event, HCIBuilder.leMeta(0x0C, [0x00] + Self.le16(0x0040) + [0x02, 0x02]))
        let a = Analyzer(sink: nil)
        a.run(try CaptureFile.open(bytes: s.writer.bytes), path: "t")
        let stats = try #require(a.layers.compactMap { $0 as? LinkStatistics }.first)
        let l = try #require(stats.link(1))
        let m = try #require(stats.limits(l))
        #expect(m.attMTU == 247 && m.interval == 6)
        #expect(m.txOctets == 251 && m.rxOctets == 251)
        #expect(m.txPHY == 2 && m.rxPHY == 2)
        #expect(m.ceiling(tx: true) == 1_301_333)
        let lines = try #require(stats.summary()).text
        #expect(lines.contains(
            "      limits: ATT_MTU 247, data length 251/251 octets, PHY 2M/2M, interval 7.50 ms: about 1.30 Mbit/s possible tx, 1.30 Mbit/s rx"), "\(lines)")
        // Two packets a few milliseconds apart: the mean is over a second at least, never above the peak.
        #expect(lines.contains("      throughput tx mean 56 bit/s, peak 56 bit/s; rx mean 56 bit/s, peak 56 bit/s (1-second windows)"))
        // Defaults: ATT_MTU 23, 27 octets, 1M: each notification carries 20 bytes.
        // 676 µs an exchange, 44 in a 30 ms event: 1466.7 notifications a second.
        #expect(LinkLimits(interval: 24).ceiling(tx: true) == 234_667)
        // A data length of no octets (a fuzzed sniffer capture's length exchange) gives no ceiling, not a trap.
        #expect(LinkLimits(txOctets: 0, rxOctets: 27, interval: 24).ceiling(tx: true) == nil)
        #expect(LinkLimits(txOctets: 0, rxOctets: 27, interval: 24).ceiling(tx: false) == 234_667)
    }

    /// Each L2CAP channel once, whichever of its two CIDs a frame carried: the A2DP stream's signaling channel
    /// and its media channel, named by PSM, and BR/EDR signaling.
    @Test func channelsAreCountedEachWay() throws {
        let stats = try Self.layer(LayerFilterTests.phone(mediaPackets: 12))
        let l = try #require(stats.orderedLinks.first { !$0.le })
        #expect(l.channels.map { LinkStatistics.channelName($0) } == ["BR/EDR signaling", "AVDTP", "AVDTP"])
        let media = l.channels[2]
        #expect(media.txFrames == 12 && media.txBytes == 12 * 113 && media.rxFrames == 0)
        let signaling = l.channels[1]
        #expect(signaling.txFrames == 1 && signaling.rxFrames == 1 && signaling.cid == 0x0041)
        let text = try #require(stats.summary()).text
        #expect(text.contains { $0.hasPrefix("      channels: BR/EDR signaling tx 2/") && $0.contains("; AVDTP tx 12/1356 bytes rx 0/0 bytes (frames/bytes)") })
    }

    /// A dynamic CID reused after its channel closed is a new channel: SDP's bytes and then AVDTP's on the same
    /// CIDs are two rows, each named by its own PSM.
    @Test func aReusedChannelIDIsNamedByItsNewPSM() throws {
        let s = DX.scenario()
        DX.classicConnect(s)
        let acl: UInt16 = 0x000B
        func open(_ psm: UInt16, id: UInt8) {
            s.l2cap(handle: acl, cid: 0x0001, fromHost: true, [0x02, id] + Self.le16(4) + Self.le16(psm) + Self.le16(0x0040))
            s.l2cap(handle: acl, cid: 0x0001, fromHost: false, [0x03, id] + Self.le16(8) + Self.le16(0x0041) + Self.le16(0x0040) + Self.le16(0) + Self.le16(0))
        }
        open(0x0001, id: 1)
        s.l2cap(handle: acl, cid: 0x0041, fromHost: true, [0x06, 0x00, 0x01, 0x00, 0x00])
        s.l2cap(handle: acl, cid: 0x0001, fromHost: true, [0x06, 2] + Self.le16(4) + Self.le16(0x0041) + Self.le16(0x0040))
        s.l2cap(handle: acl, cid: 0x0001, fromHost: false, [0x07, 2] + Self.le16(4) + Self.le16(0x0041) + Self.le16(0x0040))
        open(0x0019, id: 3)
        for _ in 0..<3 { s.l2cap(handle: acl, cid: 0x0041, fromHost: true, [0x00, 0x01]) }
        let stats = try Self.layer(s)
        let l = try #require(stats.orderedLinks.first { !$0.le })
        let names = l.channels.map { LinkStatistics.channelName($0) }
        #expect(names == ["BR/EDR signaling", "SDP", "AVDTP"], "\(names)")
        #expect(l.channels.first { $0.psm == 0x0001 }?.txFrames == 1)
        #expect(l.channels.first { $0.psm == 0x0019 }?.txFrames == 3)
    }

    /// Who asked for new parameters and what became of it: the peer over L2CAP (accepted, then carried out by
    /// the host's LE Connection Update), the peer's link layer (refused by the host), and an update nobody asked.
    @Test func parameterHistory() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        let h: UInt16 = 0x0040
        s.connect(handle: h, peer: Samples.thermo, peerType: 1)
        s.l2cap(handle: h, cid: 5, fromHost: false, [0x12, 0x01] + Self.le16(8) + Self.le16(6) + Self.le16(12) + Self.le16(0) + Self.le16(200))
        s.l2cap(handle: h, cid: 5, fromHost: true, [0x13, 0x01] + Self.le16(2) + Self.le16(0))
        s.commandWithStatus(0x2013, Self.le16(h) + Self.le16(6) + Self.le16(12) + Self.le16(0) + Self.le16(200) + Self.le16(0) + Self.le16(0))
        s.controller(.event, HCIBuilder.leMeta(0x03, [0x00] + Self.le16(h) + Self.le16(12) + Self.le16(0) + Self.le16(200)))
        s.controller(.event, HCIBuilder.leMeta(0x06, Self.le16(h) + Self.le16(80) + Self.le16(100) + Self.le16(4) + Self.le16(600)))
        s.command(0x2021, Self.le16(h) + [0x3B])
        s.controller(.event, HCIBuilder.leMeta(0x03, [0x00] + Self.le16(h) + Self.le16(24) + Self.le16(0) + Self.le16(400)))
        let stats = try Self.layer(s)
        let p = try #require(stats.link(1)).parameters
        #expect(p.map(\.asker) == [.peerL2CAP, .peerLinkLayer, .unseen])
        guard p.count == 3 else { return }
        #expect(p[0].intervalMin == 6 && p[0].intervalMax == 12 && p[0].timeout == 200)
        if case let .applied(_, interval, _, timeout) = p[0].outcome { #expect(interval == 12 && timeout == 200) } else { Issue.record("\(p[0].outcome)") }
        if case let .rejected(_, reason) = p[1].outcome { #expect(reason == 0x3B) } else { Issue.record("\(p[1].outcome)") }
        let text = try #require(stats.summary()).text.filter { $0.hasPrefix("      parameters: ") }
        #expect(text.count == 3)
        #expect(text[0].contains("the peer asked over L2CAP 7.50–15.00 ms, latency 0, timeout 2000 ms: applied at record "))
        #expect(text[1].contains("the peer's link layer asked 100.00–125.00 ms, latency 4, timeout 6000 ms: rejected at record "))
        #expect(text[1].hasSuffix("(Unacceptable Connection Parameters)"))
        #expect(text[2].contains("an update nobody was seen asking for: applied at record "))
    }

    @Test func aDisconnectFreesWhatWasQueued() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.command(0x2002, returning: Self.le16(27) + [1])
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        s.host(.acl, HCIBuilder.acl(handle: 0x0040, HCIBuilder.l2cap(cid: 4, [0x52, 0x10, 0x00, 1])))
        s.advance(ms: 3000)
        s.disconnect(handle: 0x0040, reason: 0x08, byHost: false)
        let stats = try Self.layer(s)
        #expect(stats.le.outstanding == 0 && stats.stallCount == 0)
        #expect(stats.orderedLinks.first?.completed == 0)
    }

    @Test func latencyPercentilesStayWithinABinOnceTheSamplesAreMany() {
        var h = LatencyHistogram()
        for v in 1...1000 { h.add(Int64(v) * 100) } // 100 µs … 100 ms, uniform
        #expect(h.count == 1000 && h.min == 100 && h.max == 100_000)
        let p50 = Double(h.percentile(50) ?? 0), p95 = Double(h.percentile(95) ?? 0)
        #expect(abs(p50 - 50_000) / 50_000 < 0.07 && abs(p95 - 95_000) / 95_000 < 0.07)
        var exact = LatencyHistogram()
        for v in [5, 1, 4, 2, 3] as [Int64] { exact.add(v) }
        #expect(exact.percentile(50) == 3 && exact.percentile(100) == 5 && exact.percentile(0) == 1)
    }

    @Test func throughputWindowsFindThePeakAndTheSilence() {
        var w = ThroughputWindows()
        let t0: Int64 = 1_700_000_000_000_000
        w.add(100, at: Timestamp(micros: t0))
        w.add(100, at: Timestamp(micros: t0 + 500_000))
        w.add(1000, at: Timestamp(micros: t0 + 3_200_000)) // windows 2 and 3 empty
        w.add(50, at: Timestamp(micros: t0 + 4_100_000))
        #expect(w.bytes == 1250 && w.peakBitsPerSecond == 8000)
        #expect(w.peakAt == Timestamp(micros: t0 + 3_000_000))
        #expect(w.leastBytes == 0)
        #expect(w.meanBitsPerSecond(over: 4_100_000) == Int((1250.0 * 8 / 4.1).rounded()))
    }
}

extension LinkStatisticsTests {
    /// Buffers in use over time (issue #28): the stall's two packets hold both buffers for 1.5 s, and the
    /// buckets with no change in between keep that level.
    @Test func buffersInUseOverTime() throws {
        let stats = try Self.layer(Self.capture())
        let s = stats.le.overTime
        #expect(s.width == 100_000 && s.peaks.max() == 2)
        // From the stall's start, 15 buckets at 2 before the completion frees them.
        let run = s.peaks.drop { $0 < 2 }.prefix { $0 == 2 }
        #expect(run.count >= 15, "\(s.peaks)")
        let html = try HTMLReportTests.render(Self.capture().writer.bytes)
        #expect(html.contains("<h3 id=\"buffers\">Controller buffers in use</h3>") && html.contains("LE ACL buffers: 2 × 251 bytes, at most 2 in use"))
    }

    @Test func peakSeriesMergesAndKeepsTheLevel() {
        var p = PeakSeries()
        p.add(1, at: Timestamp(micros: 0))
        p.add(3, at: Timestamp(micros: 50_000))
        p.add(0, at: Timestamp(micros: 60_000))
        p.add(2, at: Timestamp(micros: 350_000))
        #expect(p.peaks == [3, 0, 0, 2])
        // Past 240 buckets, pairs merge keeping the higher.
        p.add(1, at: Timestamp(micros: 30_000_000))
        #expect(p.width == 200_000 && p.peaks.count <= 240 && p.peaks.first == 3 && p.peaks.max() == 3)
    }
    @Test("the queue of packets awaiting completion is first in, first out, through emptying, compaction and its cap")
    func pendingQueue() {
        var q = PendingQueue()
        #expect(q.pop() == nil)
        for i in 0..<5 { q.push(Timestamp(micros: Int64(i)), connection: i) }
        #expect(q.pop()?.1 == 0)
        #expect(q.pop()?.1 == 1)
        for i in 5..<8 { q.push(Timestamp(micros: Int64(i)), connection: i) }
        var out: [Int] = []
        while let (t, c) = q.pop() {
            #expect(t.micros == Int64(c))
            out.append(c)
        }
        #expect(out == [2, 3, 4, 5, 6, 7])
        // Emptied, its storage is reused: what is pushed next comes out next.
        q.push(Timestamp(micros: 100), connection: 100)
        #expect(q.pop()?.1 == 100)
        #expect(q.pop() == nil)

        // Far ahead of its head, the queue moves what is left to the front and goes on in order.
        for i in 0..<2000 { q.push(Timestamp(micros: Int64(i)), connection: i) }
        for i in 0..<1500 { #expect(q.pop()?.1 == i) }
        q.push(Timestamp(micros: 2000), connection: 2000)
        #expect(q.head == 0)
        out = []
        while let (_, c) = q.pop() { out.append(c) }
        #expect(out == Array(1500...2000))

        // At most `maxPendingPerHandle` wait: the oldest beyond it are dropped.
        let cap = LinkStatistics.maxPendingPerHandle
        for i in 0..<(cap + 10) { q.push(Timestamp(micros: Int64(i)), connection: i) }
        #expect(q.pop()?.1 == 10)
        var left = 1
        while q.pop() != nil { left += 1 }
        #expect(left == cap)
    }
}

