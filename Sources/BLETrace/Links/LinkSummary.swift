/// The `links` summary section: one object per connection with ACL traffic, and the controller's buffers and
/// stalls. Text: one or two lines a link.
extension LinkStatistics {
    public func summary() -> SummarySection? {
        guard !orderedLinks.isEmpty else { return nil }
        // What other layers and the pipeline say is read now: the section may be built after they are gone.
        let limits = orderedLinks.map { self.limits($0) }
        let sniffed = orderedLinks.map { $0.sniffed ? sniffedLink($0) : nil }
        return SummarySection(name: "links", value: { [self] in .object(fields(limits, sniffed)) }, text: { [self] in text(limits) })
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

    func fields(_ limits: [LinkLimits?], _ sniffed: [LinkLayerDecoder.Link?]) -> Fields {
        var f = Fields()
        f.add("links", .list(orderedLinks.enumerated().map { i, l in
            var o = Fields()
            o.add("connection", l.connection)
            o.add("handle", Int(l.handle))
            o.add("transport", l.le ? "le" : "br_edr")
            o.add("span_us", Int(LinkStatistics.activeSpan(l)))
            o.add("tx", .object(wayFields(l.tx, l, tx: true)))
            o.add("rx", .object(wayFields(l.rx, l, tx: false)))
            if !l.parameters.isEmpty { o.add("parameter_updates", .list(l.parameters.map { .object(LinkStatistics.stepFields($0)) })) }
            o.add("l2cap_channels", .list(l.channels.map { c in
                var cf = Fields()
                cf.add("cid", Int(c.cid))
                if let p = c.psm { cf.add("psm", Int(p)) }
                if let n = LinkStatistics.channelName(c) { cf.add("name", n) }
                cf.add("tx", .object(["frames": .int(c.txFrames), "bytes": .int(c.txBytes), "sdus": .int(c.txSDUs)]))
                cf.add("rx", .object(["frames": .int(c.rxFrames), "bytes": .int(c.rxBytes), "sdus": .int(c.rxSDUs)]))
                return .object(cf)
            }))
            if l.sniffed {
                o.add("sniffed", true)
                if let s = sniffed[i] {
                    if s.events.seen > 0 { o.add("events", .object(LinkLayerDecoder.eventFields(s))) }
                    if let ch = s.channels { o.add("channels", ChannelCounts.fields(ch)) }
                }
            }
            if let m = limits[i] {
                var lf = Fields()
                lf.add("att_mtu", m.attMTU ?? 23)
                lf.add("tx_octets", m.txOctets ?? 27)
                lf.add("rx_octets", m.rxOctets ?? 27)
                lf.add("tx_phy", LinkLimits.phyName(m.txPHY))
                lf.add("rx_phy", LinkLimits.phyName(m.rxPHY))
                lf.add("interval", m.interval.map { .int($0) } ?? .null)
                lf.add("ceiling_bps", .object(["tx": m.ceiling(tx: true).map { .int($0) } ?? .null,
                                               "rx": m.ceiling(tx: false).map { .int($0) } ?? .null]))
                o.add("limits", .object(lf))
            }
            return .object(o)
        }))
        var buffers = Fields()
        for (name, p) in [("le", le), ("br_edr", bredr)] where p.count != nil || p.maxOutstanding > 0 {
            var b = Fields()
            b.add("count", p.count.map { .int($0) } ?? .null)
            b.add("length", p.length.map { .int($0) } ?? .null)
            b.add("max_outstanding", p.maxOutstanding)
            if let o = p.overTime.origin {
                b.add("outstanding_over_time", .object(["start": .string(Timestamp(micros: o).iso8601), "bucket_us": .int(Int(p.overTime.width)),
                                                        "peaks": .list(p.overTime.peaks.map { .int($0) })]))
            }
            buffers.add(name, .object(b))
        }
        f.add("buffers", .object(buffers))
        f.add("handles", .list(byHandle.keys.sorted().map { h in
            let c = byHandle[h] ?? HandleCounts()
            return .object(["handle": .int(Int(h)), "tx_packets": .int(c.tx), "rx_packets": .int(c.rx), "completed_packets": .int(c.completed)])
        }))
        f.add("stall_count", stallCount)
        f.add("stalls", .list(stalls.map { s in
            .object(["transport": .string(s.le ? "le" : "br_edr"), "first_record": .int(s.firstRecord), "last_record": .int(s.lastRecord),
                     "duration_us": .int(Int(s.duration)), "buffers": .int(s.buffers)])
        }))
        return f
    }

    func wayFields(_ w: Way, _ l: Link, tx: Bool) -> Fields {
        var o = Fields()
        o.add("acl_packets", w.aclPackets)
        o.add("acl_bytes", w.aclBytes)
        o.add("l2cap_bytes", w.l2capBytes)
        if tx {
            o.add("completed_packets", l.completed)
            o.add("completed_unmatched", l.completedUnmatched)
            if l.latency.count > 0 {
                var lat = Fields()
                lat.add("count", l.latency.count)
                lat.add("min", Int(l.latency.min))
                lat.add("p50", Int(l.latency.percentile(50) ?? 0))
                lat.add("p95", Int(l.latency.percentile(95) ?? 0))
                lat.add("max", Int(l.latency.max))
                o.add("latency_us", .object(lat))
            }
        }
        var t = Fields()
        t.add("mean", w.throughput.meanBitsPerSecond(over: LinkStatistics.span(l)).map { .int($0) } ?? .null)
        t.add("peak", w.throughput.peakBitsPerSecond)
        t.add("peak_window_start", w.throughput.peakAt.map { .string($0.iso8601) } ?? .null)
        o.add("throughput_bps", .object(t))
        return o
    }

    func text(_ limits: [LinkLimits?]) -> [String] {
        var out = orderedLinks.allSatisfy(\.sniffed)
            ? ["  Links:       \(orderedLinks.count) with data PDUs (packets, bytes, latency to acknowledgement, throughput each way)"]
            : ["  Links:       \(orderedLinks.count) with ACL data (packets, bytes, TX latency to completion, throughput each way)"]
        for (i, l) in orderedLinks.prefix(SummaryRender.textListed).enumerated() {
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
        out += SummaryRender.more(orderedLinks.count)
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
