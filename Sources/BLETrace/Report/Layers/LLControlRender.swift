/// Text and JSON of an LL control PDU: "LL_NAME: detail" and the `control` object of the `ll` layer.
extension LLControlPDU {
    /// The event's text: the name, and the detail when there is one.
    func writeText(into b: inout TextBytes) {
        b.append(string: name)
        let start = b.count
        b.append(string: ": ")
        let detail = b.count
        writeDetail(into: &b)
        if b.count == detail { b.removeSubrange(start...) }
        switch notApplied {
        case .impossibleValues?: b.append(string: " (not applied: impossible values)")
        case .instantPassed?: b.append(string: " (not applied: its instant is not ahead of this event)")
        case nil: break
        }
    }

    static func join(_ names: [String], _ separator: String, into b: inout TextBytes) {
        for (i, n) in names.enumerated() {
            if i > 0 { b.append(string: separator) }
            b.append(string: n)
        }
    }

    func writeDetail(into b: inout TextBytes) {
        switch parameters {
        case let .connectionUpdate(_, _, interval, latency, timeout, instant):
            b.append(string: "interval ")
            b.append(string: Fmt.interval1250(Int(interval)))
            b.append(string: ", latency ")
            b.append(decimal: Int(latency))
            b.append(string: ", timeout ")
            b.append(decimal: Int(timeout) * 10)
            b.append(string: " ms, instant ")
            b.append(decimal: Int(instant))
        case let .channelMap(map, instant):
            b.append(decimal: LLControlPDU.usedChannels(map))
            b.append(string: " channels used, instant ")
            b.append(decimal: Int(instant))
        case let .error(code):
            b.append(string: HCIText.status(code))
        case let .encryptionRequest(rand, ediv, _, _):
            b.append(string: "EDIV ")
            b.append(hex: UInt64(ediv), width: 4)
            b.append(string: ", Rand ")
            b.append(string: Hex.string(rand))
        case let .unknownResponse(type):
            b.append(string: LLControl.name(type))
        case let .features(set):
            let names = LLControl.featureNames(set)
            if names.isEmpty { b.append(string: "no features") } else { LLControlPDU.join(names, ", ", into: &b) }
        case let .version(v, company, sub):
            b.append(string: LLControl.versionName(v))
            b.append(string: ", ")
            b.append(string: LLControlPDU.companyName(company))
            b.append(string: ", subversion ")
            b.append(hex: UInt64(sub), width: 4)
        case let .connectionParameters(minI, maxI, latency, timeout, _, _, _):
            b.append(string: "interval ")
            b.append(string: Fmt.interval1250(Int(minI)))
            b.append(string: "–")
            b.append(string: Fmt.interval1250(Int(maxI)))
            b.append(string: ", latency ")
            b.append(decimal: Int(latency))
            b.append(string: ", timeout ")
            b.append(decimal: Int(timeout) * 10)
            b.append(string: " ms")
        case let .rejectExtended(rop, code):
            b.append(string: LLControl.name(rop))
            b.append(string: ": ")
            b.append(string: HCIText.status(code))
        case let .length(rxO, rxT, txO, txT):
            b.append(string: "RX ")
            b.append(decimal: Int(rxO))
            b.append(string: " bytes/")
            b.append(decimal: Int(rxT))
            b.append(string: " µs, TX ")
            b.append(decimal: Int(txO))
            b.append(string: " bytes/")
            b.append(decimal: Int(txT))
            b.append(string: " µs")
        case let .phys(tx, rx):
            b.append(string: "TX ")
            LLControlPDU.join(LLControl.phys(tx), "/", into: &b)
            b.append(string: ", RX ")
            LLControlPDU.join(LLControl.phys(rx), "/", into: &b)
        case let .phyUpdate(cp, pc, instant):
            b.append(string: "central→peripheral ")
            b.append(string: LLControl.phys(cp).first ?? "unchanged")
            b.append(string: ", peripheral→central ")
            b.append(string: LLControl.phys(pc).first ?? "unchanged")
            b.append(string: ", instant ")
            b.append(decimal: Int(instant))
        case let .minUsedChannels(p, minUsed):
            LLControlPDU.join(LLControl.phys(p), "/", into: &b)
            b.append(string: ": at least ")
            b.append(decimal: Int(minUsed))
            b.append(string: " channels")
        case let .clockAccuracy(sca):
            b.append(string: "SCA ")
            b.append(string: LLAdvertisingPDU.sca(Int(sca)))
        case let .cisTerminate(cig, cis, code):
            b.append(string: "CIG ")
            b.append(decimal: Int(cig))
            b.append(string: " CIS ")
            b.append(decimal: Int(cis))
            b.append(string: ": ")
            b.append(string: HCIText.status(code))
        case let .cisRequest(r):
            r.writeDetail(into: &b)
        case let .cisResponse(lo, hi, count):
            b.append(string: "offset \(lo)–\(hi) µs at event \(count)")
        case let .cisIndication(i):
            i.writeDetail(into: &b)
        case .encryptionResponse, .cteRequest, .none, .other:
            break
        }
    }

    static func usedChannels(_ map: ArraySlice<UInt8>) -> Int {
        map.enumerated().reduce(0) { $0 + ($1.offset == 4 ? ($1.element & 0x1F) : $1.element).nonzeroBitCount }
    }

    static func companyName(_ company: UInt16) -> String {
        AssignedNumbers.companyName(company) ?? "company \(Hex.hex(company, width: 4))"
    }

    /// The members of the `control` object: opcode, name, the parameters, surplus bytes.
    func writeFields<S: FieldSink>(into s: inout S) {
        s.field("opcode", Int(opcode))
        s.field("name", name)
        switch parameters {
        case let .connectionUpdate(win, off, interval, latency, timeout, instant):
            s.field("window_size", Int(win))
            s.field("window_offset", Int(off))
            s.field("interval", Int(interval))
            s.field("latency", Int(latency))
            s.field("timeout", Int(timeout))
            s.field("instant", Int(instant))
        case let .channelMap(map, instant):
            s.field("channel_map", hex: map)
            s.field("used_channels", LLControlPDU.usedChannels(map))
            s.field("instant", Int(instant))
        case let .error(code):
            s.field("error", Int(code))
            s.field("error_name", HCIText.status(code))
        case let .encryptionRequest(rand, ediv, skd, iv):
            s.field("rand", hex: rand)
            s.field("ediv", Int(ediv))
            s.field("skd_c", hex: skd)
            s.field("iv_c", hex: iv)
        case let .encryptionResponse(skd, iv):
            s.field("skd_p", hex: skd)
            s.field("iv_p", hex: iv)
        case let .unknownResponse(type):
            s.field("unknown_type", Int(type))
            s.field("unknown_type_name", LLControl.name(type))
        case let .features(set):
            s.field("features", Int(Int64(bitPattern: set)))
            s.list("feature_names") { s in for n in LLControl.featureNames(set) { s.string(n) } }
        case let .version(v, company, sub):
            s.field("version", Int(v))
            s.field("version_name", LLControl.versionName(v))
            s.field("company", Int(company))
            s.field("company_name", LLControlPDU.companyName(company))
            s.field("subversion", Int(sub))
        case let .connectionParameters(minI, maxI, latency, timeout, periodicity, ref, offsets):
            s.field("interval_min", Int(minI))
            s.field("interval_max", Int(maxI))
            s.field("latency", Int(latency))
            s.field("timeout", Int(timeout))
            s.field("preferred_periodicity", Int(periodicity))
            s.field("reference_event_count", Int(ref))
            s.list("offsets") { s in
                var c = ByteCursor(offsets)
                while let v = try? c.u16le() { s.int(Int(v)) }
            }
        case let .rejectExtended(rop, code):
            s.field("reject_opcode", Int(rop))
            s.field("reject_name", LLControl.name(rop))
            s.field("error", Int(code))
            s.field("error_name", HCIText.status(code))
        case let .length(rxO, rxT, txO, txT):
            s.field("max_rx_octets", Int(rxO))
            s.field("max_rx_time", Int(rxT))
            s.field("max_tx_octets", Int(txO))
            s.field("max_tx_time", Int(txT))
        case let .phys(tx, rx):
            s.field("tx_phys", Int(tx))
            s.field("rx_phys", Int(rx))
            s.list("tx_phy_names") { s in for n in LLControl.phys(tx) { s.string(n) } }
            s.list("rx_phy_names") { s in for n in LLControl.phys(rx) { s.string(n) } }
        case let .phyUpdate(cp, pc, instant):
            s.field("phy_c_to_p", Int(cp))
            s.field("phy_p_to_c", Int(pc))
            s.field("instant", Int(instant))
        case let .minUsedChannels(p, minUsed):
            s.field("phys", Int(p))
            s.field("min_used_channels", Int(minUsed))
        case let .cteRequest(b):
            s.field("cte_time", Int(b & 0x1F))
            s.field("cte_type", Int(b >> 6))
        case let .clockAccuracy(sca):
            s.field("sca", Int(sca))
            s.field("sca_ppm", LLAdvertisingPDU.sca(Int(sca)))
        case let .cisTerminate(cig, cis, code):
            s.field("cig_id", Int(cig))
            s.field("cis_id", Int(cis))
            s.field("error", Int(code))
            s.field("error_name", HCIText.status(code))
        case let .cisRequest(r):
            r.writeFields(into: &s)
        case let .cisResponse(lo, hi, count):
            s.field("cis_offset_min", Int(lo))
            s.field("cis_offset_max", Int(hi))
            s.field("conn_event_count", count)
        case let .cisIndication(i):
            i.writeFields(into: &s)
        case .none:
            break
        case let .other(bytes):
            if !bytes.isEmpty { s.field("parameters", hex: bytes) }
        }
        if surplus > 0 { s.field("surplus_bytes", surplus) }
        if let n = notApplied { s.field("not_applied", n.rawValue) }
    }
}
