/// The `links` summary section: one object per connection with ACL traffic, and the controller's buffers and
/// stalls. Text: one or two lines a link.
extension LinkStatistics {
    public func summary() -> SummarySection? {
        guard !links.isEmpty else { return nil }
        // What other layers and the pipeline say is read now: the section may be built after they are gone.
        let limits = (0..<links.count).map { self.limits(links[$0]) }
        let sniffed = (0..<links.count).map { links[$0].sniffed ? sniffedLink(links[$0]) : nil }
        return SummarySection(name: "links", writer: SummaryWriter(json: { [self] in write(limits, sniffed, into: &$0) },
                                                                   tree: { [self] in write(limits, sniffed, into: &$0) }),
                              text: { [self] in text(limits) })
    }

    /// From the first to the last ACL packet either way, and at least one second (a mean over a few
    /// milliseconds would say more than any window saw): what the mean throughput is measured over.
    static func span(_ l: Link) -> Int64 { max(ThroughputWindows.window, activeSpan(l)) }

    /// From the first to the last ACL packet either way.
    static func activeSpan(_ l: Link) -> Int64 {
        // The earliest first and the latest last of the two directions, without lists made for them.
        let tf = l.tx.throughput.first, rf = l.rx.throughput.first
        let tl = l.tx.throughput.last, rl = l.rx.throughput.last
        guard let a = tf.map({ t in rf.map { Swift.min(t, $0) } ?? t }) ?? rf,
              let b = tl.map({ t in rl.map { Swift.max(t, $0) } ?? t }) ?? rl else { return 0 }
        return b.micros - a.micros
    }

    /// The section's members, against any sink (JSON output writes them without building a tree).
    func write<S: FieldSink>(_ limits: [LinkLimits?], _ sniffed: [LinkLayerDecoder.Link?], into f: inout S) {
        f.objects("links", 0..<links.count) { f, i in
            let l = links[i]
            f.field("connection", l.connection)
            f.field("handle", Int(l.handle))
            f.field("transport", l.le ? "le" : "br_edr")
            f.field("span_us", Int(LinkStatistics.activeSpan(l)))
            f.object("tx") { writeWay(l.tx, l, tx: true, into: &$0) }
            f.object("rx") { writeWay(l.rx, l, tx: false, into: &$0) }
            if !l.parameters.isEmpty {
                f.list("parameter_updates") { f in for p in l.parameters { f.value(.object(LinkStatistics.stepFields(p))) } }
            }
            f.objects("l2cap_channels", l.channels) { f, c in
                f.field("cid", Int(c.cid))
                if let p = c.psm { f.field("psm", Int(p)) }
                if let n = LinkStatistics.channelName(c) { f.field("name", n) }
                f.object("tx") { f in
                    f.field("frames", c.txFrames)
                    f.field("bytes", c.txBytes)
                    f.field("sdus", c.txSDUs)
                }
                f.object("rx") { f in
                    f.field("frames", c.rxFrames)
                    f.field("bytes", c.rxBytes)
                    f.field("sdus", c.rxSDUs)
                }
            }
            if l.sniffed {
                f.field("sniffed", true)
                if let s = sniffed[i] {
                    if s.events.seen > 0 { f.key("events"); f.value(.object(LinkLayerDecoder.eventFields(s))) }
                    if let ch = s.channels { f.key("channels"); f.value(ChannelCounts.fields(ch)) }
                }
            }
            if let m = limits[i] {
                f.object("limits") { f in
                    f.field("att_mtu", m.attMTU ?? 23)
                    f.field("tx_octets", m.txOctets ?? 27)
                    f.field("rx_octets", m.rxOctets ?? 27)
                    f.field("tx_phy", LinkLimits.phyName(m.txPHY))
                    f.field("rx_phy", LinkLimits.phyName(m.rxPHY))
                    f.field("interval", orNull: m.interval)
                    f.object("ceiling_bps") { f in
                        f.field("tx", orNull: m.ceiling(tx: true))
                        f.field("rx", orNull: m.ceiling(tx: false))
                    }
                }
            }
        }
        f.object("buffers") { f in
            for (name, p) in [("le", le), ("br_edr", bredr)] where p.count != nil || p.maxOutstanding > 0 {
                f.object(name: name) { f in
                    f.field("count", orNull: p.count)
                    f.field("length", orNull: p.length)
                    f.field("max_outstanding", p.maxOutstanding)
                    if let o = p.overTime.origin {
                        f.object("outstanding_over_time") { f in
                            f.field("start", Timestamp(micros: o).iso8601)
                            f.field("bucket_us", Int(p.overTime.width))
                            f.list("peaks") { f in for x in p.overTime.peaks { f.int(x) } }
                        }
                    }
                }
            }
        }
        f.objects("handles", byHandle.keys.sorted()) { f, h in
            let c = byHandle[h] ?? HandleCounts()
            f.field("handle", Int(h))
            f.field("tx_packets", c.tx)
            f.field("rx_packets", c.rx)
            f.field("completed_packets", c.completed)
        }
        f.field("stall_count", stallCount)
        f.objects("stalls", stalls) { f, s in
            f.field("transport", s.le ? "le" : "br_edr")
            f.field("first_record", s.firstRecord)
            f.field("last_record", s.lastRecord)
            f.field("duration_us", Int(s.duration))
            f.field("buffers", s.buffers)
        }
    }

    func writeWay<S: FieldSink>(_ w: Way, _ l: Link, tx: Bool, into o: inout S) {
        o.field("acl_packets", w.aclPackets)
        o.field("acl_bytes", w.aclBytes)
        o.field("l2cap_bytes", w.l2capBytes)
        if tx {
            o.field("completed_packets", l.completed)
            o.field("completed_unmatched", l.completedUnmatched)
            if l.latency.count > 0 {
                o.object("latency_us") { lat in
                    lat.field("count", l.latency.count)
                    lat.field("min", Int(l.latency.min))
                    lat.field("p50", Int(l.latency.percentile(50) ?? 0))
                    lat.field("p95", Int(l.latency.percentile(95) ?? 0))
                    lat.field("max", Int(l.latency.max))
                }
            }
        }
        o.object("throughput_bps") { t in
            t.field("mean", orNull: w.throughput.meanBitsPerSecond(over: LinkStatistics.span(l)))
            t.field("peak", w.throughput.peakBitsPerSecond)
            t.field("peak_window_start", orNull: w.throughput.peakAt?.iso8601)
        }
    }

    func text(_ limits: [LinkLimits?]) -> [String] {
        var out = (0..<links.count).allSatisfy { links[$0].sniffed }
            ? ["  Links:       \(links.count) with data PDUs (packets, bytes, latency to acknowledgement, throughput each way)"]
            : ["  Links:       \(links.count) with ACL data (packets, bytes, TX latency to completion, throughput each way)"]
        for i in 0..<min(links.count, SummaryRender.textListed) {
            let l = links[i]
            let span = LinkStatistics.span(l)
            // A sniffed link's directions are the central's and the peripheral's; completions are acknowledgements.
            let (txName, rxName, done) = l.sniffed ? ("central", "peripheral", "acknowledged") : ("tx", "rx", "completed")
            var line = "    #\(l.connection) handle \(Hex.hex(l.handle, width: 4)): \(txName) \(l.tx.aclPackets) packets \(LinkStatistics.size(l.tx.aclBytes))"
            line += ", \(l.completed) \(done)"
            if l.latency.count > 0, let p50 = l.latency.percentile(50), let p95 = l.latency.percentile(95) {
                line += " (latency \(LinkStatistics.ms(l.latency.min))/\(LinkStatistics.ms(p50))/\(LinkStatistics.ms(p95))/\(LinkStatistics.ms(l.latency.max)) ms min/p50/p95/max)"
            }
            line += "; \(rxName) \(l.rx.aclPackets) packets \(LinkStatistics.size(l.rx.aclBytes))"
            out.append(line)
            func rate(_ w: Way) -> String {
                let mean = w.throughput.meanBitsPerSecond(over: span).map { LinkStatistics.rate($0) } ?? "–"
                return "mean \(mean), peak \(LinkStatistics.rate(w.throughput.peakBitsPerSecond))"
            }
            if l.tx.aclBytes + l.rx.aclBytes > 0 {
                out.append("      throughput \(txName) \(rate(l.tx)); \(rxName) \(rate(l.rx)) (1-second windows)")
            }
            for p in l.parameters.prefix(10) { out.append("      parameters: " + LinkStatistics.stepText(p)) }
            if l.parameters.count > 10 { out.append("      … \(l.parameters.count - 10) more parameter requests in the JSON summary") }
            if !l.channels.isEmpty {
                out.append("      channels: " + l.channels.prefix(8).map { c in
                    "\(LinkStatistics.channelName(c) ?? "CID \(Hex.hex(c.cid, width: 4))") tx \(c.txFrames)/\(LinkStatistics.size(c.txBytes)) rx \(c.rxFrames)/\(LinkStatistics.size(c.rxBytes))"
                }.joined(separator: "; ") + (l.channels.count > 8 ? "; …" : "") + " (frames/bytes)")
            }
            if let m = limits[i], let tx = m.ceiling(tx: true), let rx = m.ceiling(tx: false) {
                let mtu = m.attMTU ?? 23
                var line = "      limits: ATT_MTU \(mtu), data length \(m.txOctets ?? 27)/\(m.rxOctets ?? 27) octets, PHY \(LinkLimits.phyName(m.txPHY))/\(LinkLimits.phyName(m.rxPHY))"
                if let i = m.interval { line += ", interval \(Fmt.interval1250(i))" }
                line += ": about \(LinkStatistics.rate(tx)) possible tx, \(LinkStatistics.rate(rx)) rx"
                if mtu == 23 { line += "; ATT_MTU 23 limits each notification to 20 bytes" }
                out.append(line)
            }
        }
        out += SummaryRender.more(links.count)
        for (name, p) in [("LE", le), ("BR/EDR", bredr)] where p.count != nil {
            out.append("    controller \(name) buffers: \(p.count ?? 0) × \(p.length ?? 0) bytes, at most \(p.maxOutstanding) outstanding")
        }
        if stallCount > 0 {
            out.append("    flow control stalls: \(stallCount) (every buffer taken, no completion for over 1 s): "
                + stalls.prefix(5).map { "records \($0.firstRecord)–\($0.lastRecord) (\(LinkStatistics.ms($0.duration)) ms)" }.joined(separator: ", ")
                + (stallCount > 5 ? ", …" : ""))
        }
        return out
    }

    /// A channel's name: the fixed channel's, or the PSM's of a dynamic one.
    static func channelName(_ c: Channel) -> String? {
        switch c.cid {
        case 0x0001: return "BR/EDR signaling"
        case 0x0002: return "connectionless"
        case 0x0004: return "ATT"
        case 0x0005: return "LE signaling"
        case 0x0006: return "SMP"
        case 0x0007: return "BR/EDR SMP"
        default: return c.psm.map { LESignalingNames.psm($0) ?? "PSM \(Hex.hex($0, width: 4))" }
        }
    }

    /// A latency or duration in ms, two decimals, rounded (`Fmt.milliseconds`): the text, Markdown and HTML alike.
    static func ms(_ micros: Int64) -> String { Fmt.milliseconds(micros: micros) }

    static func size(_ bytes: Int) -> String {
        bytes < 10_000 ? "\(bytes) bytes" : bytes < 10_000_000 ? "\(Fmt.fixed(bytes / 100, scale: 10)) kB" : "\(Fmt.fixed(bytes / 100_000, scale: 10)) MB"
    }

    static func rate(_ bps: Int) -> String {
        bps < 10_000 ? "\(bps) bit/s" : bps < 1_000_000 ? "\(Fmt.fixed(bps / 100, scale: 10)) kbit/s" : "\(Fmt.fixed(bps / 10_000, scale: 100)) Mbit/s"
    }
}

extension LinkStatistics {
    static func stepFields(_ p: ParameterStep) -> Fields {
        var f = Fields()
        f.add("record", p.record)
        f.add("asked_by", p.asker.rawValue)
        if let v = p.intervalMin { f.add("interval_min", v) }
        if let v = p.intervalMax { f.add("interval_max", v) }
        if let v = p.latency { f.add("latency", v) }
        if let v = p.timeout { f.add("timeout", v) }
        switch p.outcome {
        case .pending:
            f.add("outcome", "pending")
        case let .accepted(r):
            f.add("outcome", "accepted"); f.add("outcome_record", r)
        case let .rejected(r, reason):
            f.add("outcome", "rejected"); f.add("outcome_record", r); f.add("reason", reason)
        case let .applied(r, interval, latency, timeout):
            f.add("outcome", "applied"); f.add("outcome_record", r)
            f.add("applied", .object(["interval": .int(interval), "latency": .int(latency), "timeout": .int(timeout)]))
        case let .failed(r, status):
            f.add("outcome", "failed"); f.add("outcome_record", r); f.add("status", Int(status)); f.add("status_name", HCIText.status(status))
        }
        return f
    }

    /// "record 120, the peer over L2CAP asked 7.50–15.00 ms, latency 0, timeout 2000 ms: accepted (record 121), applied at record 135: 15.00 ms, latency 0, timeout 2000 ms".
    static func stepText(_ p: ParameterStep) -> String {
        let who: String
        switch p.asker {
        case .localHost: who = "the local host asked"
        case .peerL2CAP: who = "the peer asked over L2CAP"
        case .peerLinkLayer: who = "the peer's link layer asked"
        case .unseen: who = "an update nobody was seen asking for"
        }
        var s = "record \(p.record), \(who)"
        if let a = p.intervalMin, let b = p.intervalMax, let l = p.latency, let t = p.timeout {
            s += " " + (a == b ? Fmt.interval1250(a) : "\(Fmt.fixed(a * 125, scale: 100))–\(Fmt.interval1250(b))") + ", latency \(l), timeout \(Fmt.timeout10(t))"
        }
        switch p.outcome {
        case .pending: s += ": no answer in the capture"
        case let .accepted(r): s += ": accepted at record \(r), never applied"
        case let .rejected(r, reason): s += ": rejected at record \(r) (\(p.asker == .peerL2CAP || p.asker == .localHost ? "result \(reason)" : HCIText.status(UInt8(truncatingIfNeeded: reason))))"
        case let .applied(r, interval, latency, timeout):
            s += ": applied at record \(r): \(Fmt.interval1250(interval)), latency \(latency), timeout \(Fmt.timeout10(timeout))"
        case let .failed(r, status): s += ": failed at record \(r): \(HCIText.status(status))"
        }
        return s
    }
}
