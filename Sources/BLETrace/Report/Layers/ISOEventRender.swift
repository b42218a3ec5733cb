/// Text and JSON parameters of the isochronous and periodic advertising events (`ISOEvent`, `ISOReturn`).
extension ISOEvent {
    func writeDetail(into b: inout TextBytes) {
        switch self {
        case let .cisEstablished(c):
            b.appendHandle(c.handle)
            guard c.status == 0 else { b.append(string: ", "); b.appendFailed(c.status); return }
            b.append(string: ", ISO interval " + ISONames.isoInterval(c.isoInterval))
            b.append(string: ", latency \(ISONames.eachWay(c.transportLatency)) µs, PHY \(ISONames.phy(c.phy.cToP))/\(ISONames.phy(c.phy.pToC))")
            b.append(string: ", NSE \(c.nse), BN \(ISONames.eachWay(c.bn)), FT \(ISONames.eachWay(c.flushTimeout)), max PDU \(ISONames.eachWay(c.maxPDU))")
            if let s = c.sduInterval { b.append(string: ", SDU interval \(ISONames.eachWay(s)) µs") }
        case let .cisRequest(acl, cis, cig, id):
            b.append(string: "CIS \(Hex.hex(cis, width: 4)) on ACL \(Hex.hex(acl, width: 4)), CIG \(cig), CIS \(id)")
        case let .bigEstablished(g):
            b.append(string: "BIG \(g.big)")
            guard g.status == 0 else { b.append(string: ", "); b.appendFailed(g.status); return }
            b.append(string: ", \(g.handles.count) BIS " + g.handles.map { Hex.hex($0, width: 4) }.joined(separator: " "))
            b.append(string: ", ISO interval " + ISONames.isoInterval(g.isoInterval) + ", latency \(g.transportLatency) µs")
            if let p = g.phy { b.append(string: ", PHY " + ISONames.phy(p)) }
            b.append(string: ", NSE \(g.nse), BN \(g.bn), PTO \(g.pto), IRC \(g.irc), max PDU \(g.maxPDU)")
        case let .bigEnded(big, reason, _):
            b.append(string: "BIG \(big), " + HCIText.status(reason))
        case let .peerSCA(status, h, accuracy):
            b.appendHandle(h)
            b.append(string: ", ")
            if status == 0 { b.append(string: "peer clock accuracy \(accuracy)") } else { b.appendFailed(status) }
        case let .bigInfo(i):
            b.append(string: "sync \(Hex.hex(i.syncHandle, width: 4)): \(i.bisCount) BIS, ISO interval " + ISONames.isoInterval(i.isoInterval))
            b.append(string: ", SDU interval \(i.sduInterval) µs, max SDU \(i.maxSDU), PHY \(ISONames.phy(i.phy)), \(ISONames.framing(i.framing))")
            b.append(string: i.encryption != 0 ? ", encrypted" : ", unencrypted")
        case let .periodicSyncEstablished(p):
            b.append(string: "sync \(Hex.hex(p.handle, width: 4))")
            guard p.status == 0 else { b.append(string: ", "); b.appendFailed(p.status); return }
            b.append(string: ", \(p.address) (\(ISONames.addressType(p.addressType))), SID \(p.sid), PHY \(ISONames.phy(p.phy)), interval \(Fmt.interval1250(Int(p.interval)))")
        case let .periodicReport(r):
            b.append(string: "sync \(Hex.hex(r.syncHandle, width: 4)), RSSI \(r.rssi) dBm, \(ISONames.dataStatus(r.dataStatus)), \(r.data.count) bytes")
            // A complete report's data is AD structures (a broadcast's BASE among them).
            if r.dataStatus == 0, !r.data.isEmpty {
                b.append(string: ": ")
                ADDescriptions.writeText(r.data, rssi: nil, into: &b)
            }
        case let .periodicSyncLost(h):
            b.append(string: "sync \(Hex.hex(h, width: 4))")
        }
    }

    func writeParameters<S: FieldSink>(into s: inout S) {
        switch self {
        case let .cisEstablished(c):
            s.writeStatus(c.status)
            s.field("handle", c.handle)
            s.field("cig_sync_delay", Int(c.cigSyncDelay))
            s.field("cis_sync_delay", Int(c.cisSyncDelay))
            ISONames.eachWayFields("transport_latency", c.transportLatency, into: &s)
            ISONames.eachWayFields("phy", c.phy, into: &s)
            s.field("nse", c.nse)
            ISONames.eachWayFields("bn", c.bn, into: &s)
            ISONames.eachWayFields("ft", c.flushTimeout, into: &s)
            ISONames.eachWayFields("max_pdu", c.maxPDU, into: &s)
            s.field("iso_interval", c.isoInterval)
            if !(4...0x0C80).contains(c.isoInterval) { s.field("iso_interval_invalid", true) }
            if let v = c.subInterval { s.field("sub_interval", Int(v)) }
            if let v = c.maxSDU { ISONames.eachWayFields("max_sdu", v, into: &s) }
            if let v = c.sduInterval { ISONames.eachWayFields("sdu_interval", v, into: &s) }
            if let v = c.framing { s.field("framing", v) }
        case let .cisRequest(acl, cis, cig, id):
            s.field("acl_handle", acl)
            s.field("cis_handle", cis)
            s.field("cig_id", cig)
            s.field("cis_id", id)
        case let .bigEstablished(g):
            s.writeStatus(g.status)
            s.field("big_handle", g.big)
            if let v = g.syncDelay { s.field("big_sync_delay", Int(v)) }
            s.field("transport_latency_big", Int(g.transportLatency))
            if let p = g.phy { s.field("phy", p) }
            s.field("nse", g.nse)
            s.field("bn", g.bn)
            s.field("pto", g.pto)
            s.field("irc", g.irc)
            s.field("max_pdu", g.maxPDU)
            s.field("iso_interval", g.isoInterval)
            s.list("bis_handles") { s in for h in g.handles { s.int(Int(h)) } }
        case let .bigEnded(big, reason, _):
            s.field("big_handle", big)
            s.field("reason", reason)
            s.field("reason_name", HCIText.status(reason))
        case let .peerSCA(status, h, accuracy):
            s.writeStatus(status)
            s.field("handle", h)
            s.field("peer_clock_accuracy", accuracy)
        case let .bigInfo(i):
            s.field("sync_handle", i.syncHandle)
            s.field("num_bis", i.bisCount)
            s.field("nse", i.nse)
            s.field("iso_interval", i.isoInterval)
            s.field("bn", i.bn)
            s.field("pto", i.pto)
            s.field("irc", i.irc)
            s.field("max_pdu", i.maxPDU)
            s.field("sdu_interval", Int(i.sduInterval))
            s.field("max_sdu", i.maxSDU)
            s.field("phy", i.phy)
            s.field("framing", i.framing)
            s.field("encryption", i.encryption)
        case let .periodicSyncEstablished(p):
            s.writeStatus(p.status)
            s.field("sync_handle", p.handle)
            s.field("advertising_sid", p.sid)
            s.field("advertiser_address_type", p.addressType)
            s.field("advertiser_address", p.address.description)
            s.field("advertiser_phy", p.phy)
            s.field("periodic_advertising_interval", p.interval)
            s.field("advertiser_clock_accuracy", p.clockAccuracy)
        case let .periodicReport(r):
            s.field("sync_handle", r.syncHandle)
            s.field("tx_power", Int(r.txPower))
            s.field("rssi", Int(r.rssi))
            s.field("cte_type", r.cteType)
            if let c = r.eventCounter { s.field("periodic_event_counter", c) }
            if let v = r.subevent { s.field("subevent", v) }
            s.field("data_status", r.dataStatus)
            s.field("data", hex: r.data)
            if r.dataStatus == 0, !r.data.isEmpty {
                s.key("ad")
                s.value(ADDescriptions.fields(r.data, rssi: nil))
            }
        case let .periodicSyncLost(h):
            s.field("sync_handle", h)
        }
    }
}

extension ISOReturn {
    func writeText(into b: inout TextBytes) {
        switch self {
        case let .cig(cig, handles):
            b.append(string: ", CIG \(cig), CIS " + handles.map { Hex.hex($0, width: 4) }.joined(separator: " "))
        case let .handle(h):
            b.append(string: ", ")
            b.appendHandle(h)
        case let .cigRemoved(g):
            b.append(string: ", CIG \(g)")
        case let .bigSyncTerminated(g):
            b.append(string: ", BIG \(g)")
        case let .txSync(h, seq, ts, offset):
            b.append(string: ", ")
            b.appendHandle(h)
            b.append(string: ", sequence \(seq), time stamp \(ts) µs, offset \(offset) µs")
        }
    }

    func writeFields<S: FieldSink>(into s: inout S) {
        switch self {
        case let .cig(cig, handles):
            s.field("cig_id", cig)
            s.list("cis_handles") { s in for h in handles { s.int(Int(h)) } }
        case let .handle(h):
            s.field("handle", h)
        case let .cigRemoved(g):
            s.field("cig_id", g)
        case let .bigSyncTerminated(g):
            s.field("big_handle", g)
        case let .txSync(h, seq, ts, offset):
            s.field("handle", h)
            s.field("packet_sequence_number", seq)
            s.field("tx_time_stamp", Int(ts))
            s.field("time_offset", Int(offset))
        }
    }
}
