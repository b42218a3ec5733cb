/// The `broadcasts` summary section: per broadcast its advertiser and announcement, periodic sync, BASE, BIG
/// with BISes and their ISO data, and how it ended; per scan-delegator source its receive states.
extension BroadcastRow {
    static func fields(_ rows: [BroadcastRow], _ sources: [Broadcasts.ReceiveSource]) -> Fields {
        var f = Fields()
        f.add("broadcasts", .list(rows.map { r in
            let b = r.broadcast
            var o = Fields()
            o.add("role", b.created ? "source" : "sink")
            o.add("advertiser", b.advertiser.map { .string($0.description) } ?? .null)
            o.add("advertiser_address_type", b.advertiserType.map { .string($0.name) } ?? .null)
            o.add("broadcast_id", r.announced?.id.map { .int(Int($0)) } ?? .null)
            o.add("broadcast_name", r.announced?.name.map { .string($0) } ?? .null)
            o.add("sid", b.sid.map { .int(Int($0)) } ?? .null)
            o.add("sync_handle", b.syncHandle.map { .int(Int($0)) } ?? .null)
            o.add("sync_record", b.syncRecord.map { .int($0) } ?? .null)
            o.add("pa_interval", b.paInterval.map { .int(Int($0)) } ?? .null)
            o.add("sync_lost_record", b.syncLostRecord.map { .int($0) } ?? .null)
            o.add("base_record", b.baseRecord.map { .int($0) } ?? .null)
            o.add("base", b.base.map { BroadcastAudioData.fields($0) } ?? .null)
            o.add("big_id", b.big.map { .int(Int($0)) } ?? .null)
            o.add("requested_bis", .list(b.requestedBIS.map { .int(Int($0)) }))
            o.add("encrypted", b.encrypted.map { .bool($0) } ?? .null)
            o.add("big_record", b.bigRecord.map { .int($0) } ?? .null)
            o.add("big_status", b.bigStatus.map { .int(Int($0)) } ?? .null)
            o.add("iso_interval", b.isoInterval.map { .int(Int($0)) } ?? .null)
            o.add("bis", .list(zip(b.bisHandles, r.bisConnections).map { h, c in
                .object(["handle": .int(Int(h)), "connection": c.map { .int($0) } ?? .null])
            }))
            let d = r.sdus
            o.add("sdus_out", d.out)
            o.add("sdus_in", d.in)
            o.add("sdus_lost", d.lost)
            o.add("end_record", b.endRecord.map { .int($0) } ?? .null)
            o.add("end_reason", b.endReason.map { .int(Int($0)) } ?? .null)
            o.add("end_lost", b.endLost)
            return .object(o)
        }))
        f.add("receive_states", .list(sources.map { s in
            .object(["connection": .int(s.connection), "source_id": .int(Int(s.sourceID)), "address": .string(s.address.description),
                     "broadcast_id": .int(Int(s.broadcastID)),
                     "states": .list(s.states.map { st in
                         .object(["record": .int(st.record), "pa_sync_state": .int(Int(st.paSyncState)),
                                  "pa_sync_state_name": .string(AudioNames.paSyncState(st.paSyncState)),
                                  "big_encryption": .int(Int(st.bigEncryption)), "bis_synced": .bool(st.bisSynced)])
                     })])
        }))
        return f
    }

    /// SDUs sent and received on the broadcast's BISes, and what was lost.
    var sdus: (out: Int, in: Int, lost: Int) { iso.sduTotals }

    static func text(_ rows: [BroadcastRow], _ sources: [Broadcasts.ReceiveSource]) -> [String] {
        var out = ["  Broadcast:   \(rows.count) broadcast\(rows.count == 1 ? "" : "s") (advertiser, periodic sync, BASE, BIG and BISes)"
            + (sources.isEmpty ? "" : "; \(sources.count) BASS source\(sources.count == 1 ? "" : "s")")]
        for r in rows.prefix(SummaryRender.textListed) { out += lines(r) }
        out += SummaryRender.more(rows.count)
        for s in sources.prefix(SummaryRender.textListed) {
            let states = s.states.map { st in
                AudioNames.paSyncState(st.paSyncState) + (st.bisSynced ? ", BIS synced" : "") + " (\(st.record))"
            }
            out.append("    BASS on #\(s.connection): source \(s.sourceID) \(s.address), Broadcast_ID \(Hex.hex(s.broadcastID, width: 6)): "
                + states.joined(separator: " → "))
        }
        return out
    }

    static func lines(_ r: BroadcastRow) -> [String] {
        let b = r.broadcast
        var head = "    " + (b.created ? "local source" : b.advertiser.map { a in "\(a)" + (b.advertiserType.map { " (\($0.name))" } ?? "") } ?? "?")
        if let name = r.announced?.name { head += " \"\(name)\"" }
        if let id = r.announced?.id { head += ", Broadcast_ID \(Hex.hex(id, width: 6))" }
        if let sid = b.sid { head += ", SID \(sid)" }
        if let rec = b.syncRecord {
            head += ": periodic sync at record \(rec)" + (b.paInterval.map { " (interval \(Fmt.interval1250(Int($0))))" } ?? "")
            if let lost = b.syncLostRecord { head += ", lost at record \(lost)" }
        }
        var out = [head]
        if let base = b.base, let rec = b.baseRecord { out.append("      BASE (record \(rec)): " + BroadcastAudioData.text(base)) }
        if let big = b.big {
            var line = "      BIG \(big) " + (b.created ? "created" : "synchronised")
            if let rec = b.bigRecord {
                line += " at record \(rec)"
                if let s = b.bigStatus, s != 0 { line += ": failed, " + HCIText.status(s) }
            } else {
                line += ": no BIG established in the capture"
            }
            if !b.requestedBIS.isEmpty { line += " (BIS " + b.requestedBIS.map(String.init).joined(separator: ", ") + " asked)" }
            if !b.bisHandles.isEmpty {
                line += "; " + zip(b.bisHandles, r.bisConnections).map { h, c in
                    "BIS \(Hex.hex(h, width: 4))" + (c.map { " (#\($0))" } ?? "")
                }.joined(separator: ", ")
            }
            if let i = b.isoInterval { line += ", ISO interval \(Fmt.interval1250(Int(i)))" }
            if let e = b.encrypted { line += e ? ", encrypted" : ", unencrypted" }
            if !b.bisHandles.isEmpty {
                let d = r.sdus
                line += d.out + d.in == 0 ? "; no ISO data" : "; \(d.out) SDUs out, \(d.in) in" + (d.lost > 0 ? ", \(d.lost) lost" : "")
            }
            if let rec = b.endRecord {
                line += "; " + (b.endLost ? "lost" : "ended") + " at record \(rec)" + (b.endReason.map { ": " + HCIText.status($0) } ?? "")
            }
            out.append(line)
        }
        return out
    }
}
