/// How a CIS or BIS connection is described in the summary: text after its handle and peer, and its `iso`
/// object in JSON.
enum ISOConnectionText {
    /// ", CIS 1 of CIG 1 on handle 0x0001, ISO interval 10.00 ms, SDU interval 10000 µs, max SDU 100, PHY 2M".
    static func text(_ l: ISOLink) -> String {
        var s: String
        switch l.kind {
        case let .cis(cig, cis, acl):
            s = ", CIS" + (cis.map { " \($0)" } ?? "") + (cig.map { " of CIG \($0)" } ?? "") + (acl.map { " on ACL \(Hex.hex($0, width: 4))" } ?? "")
        case let .bis(big, index, created):
            s = ", BIS \(index) of BIG \(big)" + (created ? " (broadcast here)" : " (synchronised)")
        }
        s += ", ISO interval " + ISONames.isoInterval(l.isoInterval)
        if let i = l.sduInterval { s += ", SDU interval \(ISONames.eachWay(i)) µs" }
        if let m = l.maxSDU { s += ", max SDU \(ISONames.eachWay(m))" }
        if let p = l.phy { s += ", PHY " + (p.cToP == p.pToC ? ISONames.phy(p.cToP) : "\(ISONames.phy(p.cToP))/\(ISONames.phy(p.pToC))") }
        s += ", " + (l.dataPaths == 0 ? "no ISO data path" : "data path " + ISONames.pathDirections(l.dataPaths))
        return s
    }

    static func fields(_ l: ISOLink) -> FieldValue {
        var f = Fields()
        switch l.kind {
        case let .cis(cig, cis, acl):
            f.add("kind", "cis")
            f.add("cig_id", cig.map { .int(Int($0)) } ?? .null)
            f.add("cis_id", cis.map { .int(Int($0)) } ?? .null)
            f.add("acl_handle", acl.map { .int(Int($0)) } ?? .null)
        case let .bis(big, index, created):
            f.add("kind", "bis")
            f.add("big_handle", Int(big))
            f.add("bis_index", index)
            f.add("broadcaster", created)
        }
        f.add("iso_interval", Int(l.isoInterval))
        if !l.isoIntervalValid { f.add("iso_interval_invalid", true) }
        func way<T: FixedWidthInteger & Sendable>(_ name: String, _ w: EachWay<T>?) {
            guard let w else { return }
            f.add(name, .object(["c_to_p": .int(Int(w.cToP)), "p_to_c": .int(Int(w.pToC))]))
        }
        way("sdu_interval_us", l.sduInterval)
        way("max_sdu", l.maxSDU)
        way("max_pdu", l.maxPDU)
        way("phy", l.phy)
        way("transport_latency_us", l.transportLatency)
        way("bn", l.bn)
        way("flush_timeout", l.flushTimeout)
        f.add("nse", Int(l.nse))
        if let fr = l.framing { f.add("framing", ISONames.framing(fr)) }
        f.add("data_paths", ISONames.pathDirections(l.dataPaths))
        return .object(f)
    }
}
