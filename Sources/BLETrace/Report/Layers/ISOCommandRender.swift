/// Text and JSON parameters of the isochronous and periodic advertising HCI commands (`ISOCommandParams`).
extension ISOCommandParams {
    func writeDetail(into b: inout TextBytes) {
        switch self {
        case let .setCIGParameters(g):
            b.append(string: "CIG \(g.cig), SDU interval \(ISONames.eachWay(g.sduInterval)) µs, \(ISONames.framing(g.framing))")
            if let l = g.maxLatency { b.append(string: ", max latency \(ISONames.eachWay(l)) ms") }
            if let i = g.isoInterval { b.append(string: ", ISO interval " + ISONames.isoInterval(i)) }
            b.append(string: ", \(g.cis.count) CIS")
            for (i, c) in g.cis.enumerated() {
                b.append(string: i == 0 ? ": " : "; ")
                b.append(string: "CIS \(c.id) max SDU \(ISONames.eachWay(c.maxSDU)), PHY \(ISONames.phyBits(c.phy.cToP))/\(ISONames.phyBits(c.phy.pToC))")
                if let r = c.rtn { b.append(string: ", RTN \(ISONames.eachWay(r))") }
            }
        case let .createCIS(pairs):
            b.append(string: pairs.map { "CIS \(Hex.hex($0.cis, width: 4)) on ACL \(Hex.hex($0.acl, width: 4))" }.joined(separator: ", "))
        case let .removeCIG(cig):
            b.append(string: "CIG \(cig)")
        case let .acceptCIS(h), let .isoHandle(h):
            b.appendHandle(h)
        case let .rejectCIS(h, reason):
            b.appendHandle(h)
            b.append(string: ", " + HCIText.status(reason))
        case let .createBIG(g):
            b.append(string: "BIG \(g.big) on advertising set \(g.advertisingHandle), \(g.bisCount) BIS, SDU interval \(g.sduInterval) µs, max SDU \(g.maxSDU)")
            if let l = g.maxLatency { b.append(string: ", max latency \(l) ms") }
            if let r = g.rtn { b.append(string: ", RTN \(r)") }
            if let i = g.isoInterval { b.append(string: ", ISO interval " + ISONames.isoInterval(i)) }
            b.append(string: ", PHY \(ISONames.phyBits(g.phy)), \(ISONames.framing(g.framing))")
            b.append(string: g.encryption != 0 ? ", encrypted" : ", unencrypted")
        case let .terminateBIG(big, reason):
            b.append(string: "BIG \(big), " + HCIText.status(reason))
        case let .bigCreateSync(s):
            b.append(string: "BIG \(s.big) over sync \(Hex.hex(s.syncHandle, width: 4)), BIS " + s.bis.map(String.init).joined(separator: ", "))
            b.append(string: ", timeout \(Int(s.timeout) * 10) ms")
            b.append(string: s.encryption != 0 ? ", encrypted" : ", unencrypted")
        case let .bigTerminateSync(big):
            b.append(string: "BIG \(big)")
        case let .setupDataPath(p):
            b.appendHandle(p.handle)
            b.append(string: ", " + ISONames.pathDirection(p.direction) + ", " + (p.pathID == 0 ? "over HCI" : "vendor path \(p.pathID)"))
            b.append(string: ", " + ISONames.codec(p.codingFormat, company: p.company, vendor: p.vendorCodec))
            b.append(string: ", controller delay \(p.controllerDelay) µs")
        case let .removeDataPath(h, directions):
            b.appendHandle(h)
            b.append(string: ", " + ISONames.pathDirections(directions))
        case let .setHostFeature(bit, value):
            b.append(string: "bit \(bit)")
            if let n = LLControl.featureName(Int(bit)) { b.append(string: " (\(n))") }
            b.append(string: value != 0 ? " on" : " off")
        case let .periodicCreateSync(s):
            b.append(string: "\(s.address) (\(ISONames.addressType(s.addressType))), SID \(s.sid), skip \(s.skip), timeout \(Int(s.timeout) * 10) ms")
            if s.options & 1 != 0 { b.append(string: ", from the periodic advertiser list") }
        case let .periodicTerminateSync(h):
            b.append(string: "sync \(Hex.hex(h, width: 4))")
        case let .periodicParameters(a, lo, hi, _):
            b.append(string: "set \(a), interval \(Fmt.interval1250(Int(lo)))–\(Fmt.interval1250(Int(hi)))")
        case let .periodicData(a, _, data):
            b.append(string: "set \(a), \(data.count) bytes")
        case let .periodicEnable(enable, a):
            b.append(string: (enable & 1 != 0 ? "enabled" : "disabled") + ", set \(a)")
        }
    }

    func writeParameters<S: FieldSink>(into s: inout S) {
        switch self {
        case let .setCIGParameters(g):
            s.field("cig_id", g.cig)
            ISONames.eachWayFields("sdu_interval", g.sduInterval, into: &s)
            if let ft = g.flushTimeout { ISONames.eachWayFields("ft", ft, into: &s) }
            if let i = g.isoInterval { s.field("iso_interval", i) }
            s.field("worst_case_sca", g.sca)
            s.field("packing", g.packing)
            s.field("framing", g.framing)
            if let l = g.maxLatency { ISONames.eachWayFields("max_transport_latency", l, into: &s) }
            s.list("cis") { s in
                for c in g.cis {
                    s.beginObject()
                    s.field("cis_id", c.id)
                    if let n = c.nse { s.field("nse", n) }
                    ISONames.eachWayFields("max_sdu", c.maxSDU, into: &s)
                    if let p = c.maxPDU { ISONames.eachWayFields("max_pdu", p, into: &s) }
                    ISONames.eachWayFields("phy", c.phy, into: &s)
                    if let r = c.rtn { ISONames.eachWayFields("rtn", r, into: &s) }
                    if let bn = c.bn { ISONames.eachWayFields("bn", bn, into: &s) }
                    s.endObject()
                }
            }
        case let .createCIS(pairs):
            s.list("cis") { s in
                for p in pairs {
                    s.beginObject()
                    s.field("cis_handle", p.cis)
                    s.field("acl_handle", p.acl)
                    s.endObject()
                }
            }
        case let .removeCIG(cig):
            s.field("cig_id", cig)
        case let .acceptCIS(h), let .isoHandle(h):
            s.field("handle", h)
        case let .rejectCIS(h, reason):
            s.field("handle", h)
            s.field("reason", reason)
            s.field("reason_name", HCIText.status(reason))
        case let .createBIG(g):
            s.field("big_handle", g.big)
            s.field("advertising_handle", g.advertisingHandle)
            s.field("num_bis", g.bisCount)
            s.field("sdu_interval", Int(g.sduInterval))
            if let i = g.isoInterval { s.field("iso_interval", i) }
            if let n = g.nse { s.field("nse", n) }
            s.field("max_sdu", g.maxSDU)
            if let p = g.maxPDU { s.field("max_pdu", p) }
            if let l = g.maxLatency { s.field("max_transport_latency", l) }
            if let r = g.rtn { s.field("rtn", r) }
            s.field("phy", g.phy)
            s.field("packing", g.packing)
            s.field("framing", g.framing)
            if let v = g.bn { s.field("bn", v) }
            if let v = g.irc { s.field("irc", v) }
            if let v = g.pto { s.field("pto", v) }
            s.field("encryption", g.encryption)
            s.field("broadcast_code", hex: g.broadcastCode)
        case let .terminateBIG(big, reason):
            s.field("big_handle", big)
            s.field("reason", reason)
            s.field("reason_name", HCIText.status(reason))
        case let .bigCreateSync(b):
            s.field("big_handle", b.big)
            s.field("sync_handle", b.syncHandle)
            s.field("encryption", b.encryption)
            s.field("broadcast_code", hex: b.broadcastCode)
            s.field("mse", b.mse)
            s.field("big_sync_timeout", b.timeout)
            s.list("bis") { s in for i in b.bis { s.int(Int(i)) } }
        case let .bigTerminateSync(big):
            s.field("big_handle", big)
        case let .setupDataPath(p):
            s.field("handle", p.handle)
            s.field("data_path_direction", p.direction)
            s.field("data_path_direction_name", ISONames.pathDirection(p.direction))
            s.field("data_path_id", p.pathID)
            s.field("coding_format", p.codingFormat)
            s.field("coding_format_name", ISONames.codec(p.codingFormat, company: p.company, vendor: p.vendorCodec))
            s.field("company_id", p.company)
            s.field("vendor_codec_id", p.vendorCodec)
            s.field("controller_delay", Int(p.controllerDelay))
            s.field("codec_configuration", hex: p.configuration)
        case let .removeDataPath(h, directions):
            s.field("handle", h)
            s.field("data_path_direction", directions)
        case let .setHostFeature(bit, value):
            s.field("bit_number", bit)
            if let n = LLControl.featureName(Int(bit)) { s.field("bit_name", n) }
            s.field("bit_value", value)
        case let .periodicCreateSync(c):
            s.field("options", c.options)
            s.field("advertising_sid", c.sid)
            s.field("advertiser_address_type", c.addressType)
            s.field("advertiser_address", c.address.description)
            s.field("skip", c.skip)
            s.field("sync_timeout", c.timeout)
            s.field("sync_cte_type", c.cteType)
        case let .periodicTerminateSync(h):
            s.field("sync_handle", h)
        case let .periodicParameters(a, lo, hi, props):
            s.field("advertising_handle", a)
            s.field("interval_min", lo)
            s.field("interval_max", hi)
            s.field("properties", props)
        case let .periodicData(a, op, data):
            s.field("advertising_handle", a)
            s.field("operation", op)
            s.field("data", hex: data)
        case let .periodicEnable(enable, a):
            s.field("enable", enable)
            s.field("advertising_handle", a)
        }
    }
}
