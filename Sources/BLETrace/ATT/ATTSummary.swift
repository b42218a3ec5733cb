/// The `att` summary section: PDUs, transactions and latency, MTUs, errors, unanswered requests, unexpected
/// responses and the GATT databases.
extension ATTLayer {
    // MARK: Summary

    public func summary() -> SummarySection? {
        guard pduCount > 0 || !servers.isEmpty else { return nil }
        return SummarySection(name: "att", value: { [self] in .object(summaryFields()) }, text: { [self] in summaryText() })
    }

    /// Service and characteristic counts of each database with content, in order of first use.
    var databaseCounts: [(device: String, services: Int, characteristics: Int, source: String)] {
        zip(serverKeys, servers).compactMap { k, db in
            var db = db
            guard !db.isEmpty else { return nil }
            return (k, db.orderedServices().count, db.orderedCharacteristics().count, db.source)
        }
    }

    func summaryFields() -> Fields {
        var f = Fields()
        f.add("pdus", pduCount)
        f.add("transactions", transactions)
        if timed > 0 {
            f.add("mean_latency_us", Int(latencyTotal / Int64(timed)))
            f.add("max_latency_us", Int(latencyMax))
        }
        f.add("mtu", .list(mtuList.map { m in
            .object(["connection": .int(m.connection), "client_mtu": m.client.map { .int(Int($0)) } ?? .null,
                     "server_mtu": m.server.map { .int(Int($0)) } ?? .null, "att_mtu": .int(m.mtu)])
        }))
        f.add("errors", errorCount)
        f.add("error_list", .list(errors.map { .object(["record": .int($0.record), "request_opcode": .int(Int($0.request)), "handle": .int(Int($0.handle)), "error": .int(Int($0.code)), "error_name": .string(self.serviceErrorNames[$0.code] ?? ATTNames.error($0.code))]) }))
        f.add("unanswered", unansweredCount)
        f.add("unanswered_list", .list(unanswered.map { .object(["record": .int($0.record), "opcode": .int(Int($0.opcode)), "name": .string(ATTNames.opcode($0.opcode)), "reason": .string($0.why.reason)]) }))
        f.add("unexpected_responses", unexpectedCount)
        f.add("unexpected_list", .list(unexpected.map { .object(["record": .int($0.record), "opcode": .int(Int($0.opcode)), "name": .string(ATTNames.opcode($0.opcode))]) }))
        f.add("databases", .list(databaseCounts.map { d in
            .object(["device": .string(d.device), "services": .int(d.services), "characteristics": .int(d.characteristics), "source": .string(d.source)])
        }))
        if earlyNamedCount > 0 {
            f.add("early_values_count", earlyNamedCount)
            f.add("early_values", earlyValueFields)
        }
        return f
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
        let dbs = databaseCounts
        for d in dbs.prefix(SummaryRender.textListed) {
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
