/// The `att` summary section: PDUs, transactions and latency, MTUs, errors, unanswered requests, unexpected
/// responses and the GATT databases.
extension ATTLayer {
    // MARK: Summary

    public func summary() -> SummarySection? {
        guard pduCount > 0 || !servers.isEmpty else { return nil }
        return SummarySection(name: "att", writer: SummaryWriter(json: { [self] in writeSummary(into: &$0) }, tree: { [self] in writeSummary(into: &$0) }),
                              text: { [self] in summaryText() })
    }

    /// Service and characteristic counts of each database with content, in order of first use.
    var databaseCounts: [(device: String, services: Int, characteristics: Int, source: String)] {
        databaseCounts(limit: .max).listed
    }

    /// The first `limit` of `databaseCounts`, and how many databases have content.
    func databaseCounts(limit: Int) -> (listed: [(device: String, services: Int, characteristics: Int, source: String)], count: Int) {
        var listed: [(device: String, services: Int, characteristics: Int, source: String)] = []
        var count = 0
        for (k, db) in zip(serverKeys, servers) where !db.isEmpty {
            count += 1
            if listed.count < limit { listed.append((k, db.serviceCount, db.characteristicCount, db.source)) }
        }
        return (listed, count)
    }

    /// The section's members, against any sink (JSON output writes them without building a tree).
    func writeSummary<S: FieldSink>(into f: inout S) {
        f.field("pdus", pduCount)
        f.field("transactions", transactions)
        if timed > 0 {
            f.field("mean_latency_us", Int(latencyTotal / Int64(timed)))
            f.field("max_latency_us", Int(latencyMax))
        }
        f.objects("mtu", mtuList) { f, m in
            f.field("connection", m.connection)
            f.field("client_mtu", orNull: m.client.map { Int($0) })
            f.field("server_mtu", orNull: m.server.map { Int($0) })
            f.field("att_mtu", m.mtu)
        }
        f.field("errors", errorCount)
        f.objects("error_list", errors) { f, e in
            f.field("record", e.record)
            f.field("request_opcode", Int(e.request))
            f.field("handle", Int(e.handle))
            f.field("error", Int(e.code))
            f.field("error_name", serviceErrorNames[e.code] ?? ATTNames.error(e.code))
        }
        f.field("unanswered", unansweredCount)
        f.objects("unanswered_list", unanswered) { f, u in
            f.field("record", u.record)
            f.field("opcode", Int(u.opcode))
            f.field("name", ATTNames.opcode(u.opcode))
            f.field("reason", u.why.reason)
        }
        f.field("unexpected_responses", unexpectedCount)
        f.objects("unexpected_list", unexpected) { f, u in
            f.field("record", u.record)
            f.field("opcode", Int(u.opcode))
            f.field("name", ATTNames.opcode(u.opcode))
        }
        f.objects("databases", databaseCounts) { f, d in
            f.field("device", d.device)
            f.field("services", d.services)
            f.field("characteristics", d.characteristics)
            f.field("source", d.source)
        }
        if earlyNamedCount > 0 {
            f.field("early_values_count", earlyNamedCount)
            f.key("early_values")
            f.value(earlyValueFields)
        }
    }

    func summaryText() -> [String] {
        var text: [String] = []
        text.append("  ATT:         \(pduCount) PDU\(pduCount == 1 ? "" : "s"), \(transactions) transaction\(transactions == 1 ? "" : "s")"
            + (timed > 0 ? ", mean latency \(Fmt.fixed(Int(latencyTotal / Int64(timed) / 10), scale: 100)) ms, max \(Fmt.fixed(Int(latencyMax / 10), scale: 100)) ms" : ""))
        let mtus = mtuList
        for m in mtus.prefix(SummaryRender.textListed) {
            if m.client == nil && m.server == nil {
                text.append("    connection #\(m.connection): ATT_MTU 23 (no MTU exchange seen)")
            } else {
                text.append("    connection #\(m.connection): ATT_MTU \(m.mtu) (client " + (m.client.map { String($0) } ?? "?") + ", server " + (m.server.map { String($0) } ?? "?") + ")")
            }
        }
        if mtus.count > SummaryRender.textListed { text.append("    … ATT_MTU of \(mtus.count - SummaryRender.textListed) more connections in the JSON summary") }
        if errorCount > 0 {
            var byCode: [UInt8: Int] = [:]
            for e in errors { byCode[e.code, default: 0] += 1 }
            text.append("    errors: \(errorCount): " + byCode.sorted { $0.key < $1.key }.map { "\(serviceErrorNames[$0.key] ?? ATTNames.error($0.key)) ×\($0.value)" }.joined(separator: ", "))
        }
        for u in unanswered.prefix(20) {
            text.append("    unanswered: record \(u.record) \(ATTNames.opcode(u.opcode)): \(u.why.reason)")
        }
        if unansweredCount > 20 { text.append("    … \(unansweredCount - 20) more unanswered") }
        if unexpectedCount > 0 {
            text.append("    responses with no matching request: \(unexpectedCount) (records " + unexpected.prefix(10).map { String($0.record) }.joined(separator: ", ") + (unexpectedCount > 10 ? ", …" : "") + ")")
        }
        let dbs = databaseCounts(limit: SummaryRender.textListed)
        for d in dbs.listed {
            text.append("    GATT database of \(d.device): \(d.services) service\(d.services == 1 ? "" : "s"), \(d.characteristics) characteristic\(d.characteristics == 1 ? "" : "s")" + (d.source == "capture" ? "" : " (from \(d.source))"))
        }
        if dbs.count > SummaryRender.textListed { text.append("    … and \(dbs.count - SummaryRender.textListed) more GATT databases (bletrace gatt lists them all)") }
        text += earlyValueText
        return text
    }

    var mtuList: [(connection: Int, client: UInt16?, server: UInt16?, mtu: Int)] {
        seenMTU.sorted { $0.key < $1.key }.map { ($0.key, $0.value.client, $0.value.server, $0.value.mtu) }
    }

    /// MTU per connection kept after the connection's state is dropped.
    var seenMTU: [Int: (client: UInt16?, server: UInt16?, mtu: Int)] {
        var out = closedMTU
        for (id, s) in conns where s.pdus > 0 { out[id] = (s.clientMTU, s.serverMTU, s.mtu) }
        return out
    }

    /// All databases with content, in order of first use.
    public func exportDatabases() -> [GATTDatabase] {
        servers.filter { !$0.isEmpty }
    }
}
