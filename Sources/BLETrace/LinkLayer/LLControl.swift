/// LL control PDUs (LLID 0b11; Core 5.4 Vol 6 Part B 2.4.2): names, fields and a one-line summary.
public enum LLControl {
    public struct Decoded {
        public var opcode: UInt8
        public var name: String
        public var fields: Fields
        public var detail: String
        /// What the PDU does to the connection, for the tracker.
        public var effect: Effect?
    }

    public enum Effect: Equatable {
        case update(interval: Int, latency: Int, timeout: Int, instant: Int)
        case terminate(reason: UInt8)
        case encryptionRequest
        case encryptionResponse
        case startEncryption
        case reject
    }

    public static func name(_ op: UInt8) -> String {
        switch op {
        case 0x00: return "LL_CONNECTION_UPDATE_IND"
        case 0x01: return "LL_CHANNEL_MAP_IND"
        case 0x02: return "LL_TERMINATE_IND"
        case 0x03: return "LL_ENC_REQ"
        case 0x04: return "LL_ENC_RSP"
        case 0x05: return "LL_START_ENC_REQ"
        case 0x06: return "LL_START_ENC_RSP"
        case 0x07: return "LL_UNKNOWN_RSP"
        case 0x08: return "LL_FEATURE_REQ"
        case 0x09: return "LL_FEATURE_RSP"
        case 0x0A: return "LL_PAUSE_ENC_REQ"
        case 0x0B: return "LL_PAUSE_ENC_RSP"
        case 0x0C: return "LL_VERSION_IND"
        case 0x0D: return "LL_REJECT_IND"
        case 0x0E: return "LL_PERIPHERAL_FEATURE_REQ"
        case 0x0F: return "LL_CONNECTION_PARAM_REQ"
        case 0x10: return "LL_CONNECTION_PARAM_RSP"
        case 0x11: return "LL_REJECT_EXT_IND"
        case 0x12: return "LL_PING_REQ"
        case 0x13: return "LL_PING_RSP"
        case 0x14: return "LL_LENGTH_REQ"
        case 0x15: return "LL_LENGTH_RSP"
        case 0x16: return "LL_PHY_REQ"
        case 0x17: return "LL_PHY_RSP"
        case 0x18: return "LL_PHY_UPDATE_IND"
        case 0x19: return "LL_MIN_USED_CHANNELS_IND"
        case 0x1A: return "LL_CTE_REQ"
        case 0x1B: return "LL_CTE_RSP"
        case 0x1C: return "LL_PERIODIC_SYNC_IND"
        case 0x1D: return "LL_CLOCK_ACCURACY_REQ"
        case 0x1E: return "LL_CLOCK_ACCURACY_RSP"
        case 0x1F: return "LL_CIS_REQ"
        case 0x20: return "LL_CIS_RSP"
        case 0x21: return "LL_CIS_IND"
        case 0x22: return "LL_CIS_TERMINATE_IND"
        case 0x23: return "LL_POWER_CONTROL_REQ"
        case 0x24: return "LL_POWER_CONTROL_RSP"
        case 0x25: return "LL_POWER_CHANGE_IND"
        case 0x26: return "LL_SUBRATE_REQ"
        case 0x27: return "LL_SUBRATE_IND"
        case 0x28: return "LL_CHANNEL_REPORTING_IND"
        case 0x29: return "LL_CHANNEL_STATUS_IND"
        case 0x2A: return "LL_PERIODIC_SYNC_WR_IND"
        case 0x2B: return "LL_FEATURE_EXT_REQ"
        case 0x2C: return "LL_FEATURE_EXT_RSP"
        default: return "LL control opcode \(Hex.hex(op, width: 2))"
        }
    }

    /// Bluetooth Core version from the LL_VERSION_IND VersNr (Assigned Numbers 2.1).
    public static func versionName(_ v: UInt8) -> String {
        let names = ["1.0b", "1.1", "1.2", "2.0+EDR", "2.1+EDR", "3.0+HS", "4.0", "4.1", "4.2", "5.0", "5.1", "5.2",
                     "5.3", "5.4", "6.0", "6.1"]
        return Int(v) < names.count ? "Bluetooth \(names[Int(v)])" : "version \(v)"
    }

    public static func phys(_ v: UInt8) -> [String] {
        var out: [String] = []
        if v & 1 != 0 { out.append("LE 1M") }
        if v & 2 != 0 { out.append("LE 2M") }
        if v & 4 != 0 { out.append("LE Coded") }
        return out
    }

    static func featureNames(_ set: UInt64) -> [String] {
        var out: [String] = []
        for bit in 0..<64 where set >> UInt64(bit) & 1 != 0 {
            out.append(bit < featureNames.count ? featureNames[bit] : "bit \(bit)")
        }
        return out
    }

    /// LE feature bits (Core 5.4 Vol 6 Part B 4.6).
    static let featureNames = [
        "LE Encryption", "Connection Parameters Request Procedure", "Extended Reject Indication",
        "Peripheral-initiated Features Exchange", "LE Ping", "LE Data Packet Length Extension", "LL Privacy",
        "Extended Scanner Filter Policies", "LE 2M PHY", "Stable Modulation Index - Transmitter",
        "Stable Modulation Index - Receiver", "LE Coded PHY", "LE Extended Advertising", "LE Periodic Advertising",
        "Channel Selection Algorithm #2", "LE Power Class 1", "Minimum Number of Used Channels Procedure",
        "Connection CTE Request", "Connection CTE Response", "Connectionless CTE Transmitter",
        "Connectionless CTE Receiver", "Antenna Switching During CTE Transmission (AoD)",
        "Antenna Switching During CTE Reception (AoA)", "Receiving Constant Tone Extensions",
        "Periodic Advertising Sync Transfer - Sender", "Periodic Advertising Sync Transfer - Recipient",
        "Sleep Clock Accuracy Updates", "Remote Public Key Validation", "Connected Isochronous Stream - Central",
        "Connected Isochronous Stream - Peripheral", "Isochronous Broadcaster", "Synchronized Receiver",
        "Connected Isochronous Stream (Host Support)", "LE Power Control Request", "LE Power Control Request",
        "LE Path Loss Monitoring", "Periodic Advertising ADI support", "Connection Subrating",
        "Connection Subrating (Host Support)", "Channel Classification",
    ]

    /// Decodes an LL control PDU's payload (opcode first).
    public static func decode(_ payload: ArraySlice<UInt8>) throws -> Decoded {
        var c = ByteCursor(payload)
        let op = try c.u8()
        var f = Fields()
        f.add("opcode", Int(op))
        let n = name(op)
        f.add("name", n)
        var detail = ""
        var effect: Effect? = nil
        switch op {
        case 0x00:
            let win = try c.u8(), off = try c.u16le(), interval = try c.u16le(), latency = try c.u16le()
            let timeout = try c.u16le(), instant = try c.u16le()
            f.add("window_size", Int(win)); f.add("window_offset", Int(off)); f.add("interval", Int(interval))
            f.add("latency", Int(latency)); f.add("timeout", Int(timeout)); f.add("instant", Int(instant))
            detail = "interval \(Fmt.interval1250(Int(interval))), latency \(latency), timeout \(Int(timeout) * 10) ms, instant \(instant)"
            effect = .update(interval: Int(interval), latency: Int(latency), timeout: Int(timeout), instant: Int(instant))
        case 0x01:
            let map = try c.array(5), instant = try c.u16le()
            let used = map.enumerated().reduce(0) { $0 + ($1.offset == 4 ? ($1.element & 0x1F) : $1.element).nonzeroBitCount }
            f.add("channel_map", hex: map); f.add("used_channels", used); f.add("instant", Int(instant))
            detail = "\(used) channels used, instant \(instant)"
        case 0x02, 0x0D:
            let code = try c.u8()
            f.add("error", Int(code)); f.add("error_name", HCIText.status(code))
            detail = HCIText.status(code)
            effect = op == 0x02 ? .terminate(reason: code) : .reject
        case 0x03:
            let rand = try c.array(8), ediv = try c.u16le(), skd = try c.array(8), iv = try c.array(4)
            f.add("rand", hex: rand); f.add("ediv", Int(ediv)); f.add("skd_c", hex: skd); f.add("iv_c", hex: iv)
            detail = "EDIV \(Hex.hex(ediv, width: 4)), Rand \(Hex.string(rand))"
            effect = .encryptionRequest
        case 0x04:
            let skd = try c.array(8), iv = try c.array(4)
            f.add("skd_p", hex: skd); f.add("iv_p", hex: iv)
            effect = .encryptionResponse
        case 0x05:
            effect = .startEncryption
        case 0x07:
            let t = try c.u8()
            f.add("unknown_type", Int(t)); f.add("unknown_type_name", name(t))
            detail = name(t)
        case 0x08, 0x09, 0x0E:
            let set = try c.u64le()
            let names = featureNames(set)
            f.add("features", Int(Int64(bitPattern: set)))
            f.add("feature_names", .list(names.map { .string($0) }))
            detail = names.isEmpty ? "no features" : names.joined(separator: ", ")
        case 0x0C:
            let v = try c.u8(), company = try c.u16le(), sub = try c.u16le()
            f.add("version", Int(v)); f.add("version_name", versionName(v)); f.add("company", Int(company))
            let cname = AssignedNumbers.companyName(company) ?? "company \(Hex.hex(company, width: 4))"
            f.add("company_name", cname); f.add("subversion", Int(sub))
            detail = "\(versionName(v)), \(cname), subversion \(Hex.hex(sub, width: 4))"
        case 0x0F, 0x10:
            let minI = try c.u16le(), maxI = try c.u16le(), latency = try c.u16le(), timeout = try c.u16le()
            let periodicity = try c.u8(), ref = try c.u16le()
            var offsets: [FieldValue] = []
            for _ in 0..<6 { offsets.append(.int(Int(try c.u16le()))) }
            f.add("interval_min", Int(minI)); f.add("interval_max", Int(maxI)); f.add("latency", Int(latency))
            f.add("timeout", Int(timeout)); f.add("preferred_periodicity", Int(periodicity))
            f.add("reference_event_count", Int(ref)); f.add("offsets", .list(offsets))
            detail = "interval \(Fmt.interval1250(Int(minI)))–\(Fmt.interval1250(Int(maxI))), latency \(latency), timeout \(Int(timeout) * 10) ms"
        case 0x11:
            let rop = try c.u8(), code = try c.u8()
            f.add("reject_opcode", Int(rop)); f.add("reject_name", name(rop))
            f.add("error", Int(code)); f.add("error_name", HCIText.status(code))
            detail = "\(name(rop)): \(HCIText.status(code))"
            effect = .reject
        case 0x14, 0x15:
            let rxO = try c.u16le(), rxT = try c.u16le(), txO = try c.u16le(), txT = try c.u16le()
            f.add("max_rx_octets", Int(rxO)); f.add("max_rx_time", Int(rxT))
            f.add("max_tx_octets", Int(txO)); f.add("max_tx_time", Int(txT))
            detail = "RX \(rxO) bytes/\(rxT) µs, TX \(txO) bytes/\(txT) µs"
        case 0x16, 0x17:
            let tx = try c.u8(), rx = try c.u8()
            f.add("tx_phys", Int(tx)); f.add("rx_phys", Int(rx))
            f.add("tx_phy_names", .list(phys(tx).map { .string($0) })); f.add("rx_phy_names", .list(phys(rx).map { .string($0) }))
            detail = "TX \(phys(tx).joined(separator: "/")), RX \(phys(rx).joined(separator: "/"))"
        case 0x18:
            let cp = try c.u8(), pc = try c.u8(), instant = try c.u16le()
            f.add("phy_c_to_p", Int(cp)); f.add("phy_p_to_c", Int(pc)); f.add("instant", Int(instant))
            let a = phys(cp).first ?? "unchanged", b = phys(pc).first ?? "unchanged"
            detail = "central→peripheral \(a), peripheral→central \(b), instant \(instant)"
        case 0x19:
            let p = try c.u8(), minUsed = try c.u8()
            f.add("phys", Int(p)); f.add("min_used_channels", Int(minUsed))
            detail = "\(phys(p).joined(separator: "/")): at least \(minUsed) channels"
        case 0x1A:
            let b = try c.u8()
            f.add("cte_time", Int(b & 0x1F)); f.add("cte_type", Int(b >> 6))
        case 0x1D, 0x1E:
            let sca = try c.u8()
            f.add("sca", Int(sca)); f.add("sca_ppm", LLAdvertisingPDU.sca(Int(sca)))
            detail = "SCA \(LLAdvertisingPDU.sca(Int(sca)))"
        case 0x22:
            let cig = try c.u8(), cis = try c.u8(), code = try c.u8()
            f.add("cig_id", Int(cig)); f.add("cis_id", Int(cis)); f.add("error", Int(code)); f.add("error_name", HCIText.status(code))
            detail = "CIG \(cig) CIS \(cis): \(HCIText.status(code))"
        case 0x06, 0x0A, 0x0B, 0x12, 0x13:
            break
        default:
            if !c.isAtEnd { f.add("parameters", hex: c.rest()) }
        }
        if !c.isAtEnd { f.add("surplus_bytes", c.remaining) }
        return Decoded(opcode: op, name: n, fields: f, detail: detail, effect: effect)
    }
}
