/// Text and JSON of BR/EDR signaling (CID 0x0001): each command of a C-frame, its parameters and configuration
/// options, and the PSM of the channel it is about (names from `BREDRSignalingNames`).
extension BREDRSignalingFrame {
    func writeText(into b: inout TextBytes) {
        guard !commands.isEmpty else {
            b.append(string: "Malformed BR/EDR signaling")
            if let c = bytes.first {
                b.append(UInt8(ascii: " "))
                b.append(string: BREDRSignalingNames.code(c))
            }
            b.append(string: ": ")
            b.append(string: problem ?? "no command")
            return
        }
        b.append(string: "BR/EDR Signaling ")
        for (i, c) in commands.enumerated() {
            if i > 0 { b.append(string: "; ") }
            b.append(string: BREDRSignalingNames.code(c.code))
            b.append(string: " (id ")
            b.append(decimal: Int(c.identifier))
            b.append(UInt8(ascii: ")"))
            let start = b.count
            b.append(string: ": ")
            let detail = b.count
            c.writeDetail(into: &b)
            if b.count == detail { b.removeSubrange(start...) }
        }
        if let p = problem {
            b.append(string: " [")
            b.append(string: p)
            b.append(UInt8(ascii: "]"))
        }
    }

    func writeLayers<S: FieldSink>(into s: inout S) {
        s.object("bredr_signaling") { s in
            s.list("commands") { l in
                for c in commands {
                    l.beginObject()
                    c.writeMembers(into: &l)
                    l.endObject()
                }
            }
            if let p = problem {
                s.field("problem", p)
                if commands.isEmpty { s.field("data", hex: bytes) }
            }
        }
    }
}

extension BREDRSignalingEntry {
    static func cid(_ label: String, _ c: UInt16, into b: inout TextBytes) {
        b.append(string: label)
        b.append(hex: UInt64(c), width: 4)
    }

    /// " [PSM 0x0001 (SDP)]" when the channel table knows the command's channel.
    func writePSMNote(into b: inout TextBytes) {
        guard let p = psm else { return }
        b.append(string: " [PSM ")
        SignalingBody.writePSM(p, into: &b)
        b.append(UInt8(ascii: "]"))
    }

    func writeDetail(into b: inout TextBytes) {
        switch command {
        case let .commandReject(reason, data):
            b.append(string: LESignalingNames.rejectReason(reason))
            if !data.isEmpty {
                b.append(string: ", data ")
                b.append(spacedHex: data, limit: 8)
            }
        case let .connectionRequest(psm, scid), let .createChannelRequest(psm, scid, _):
            b.append(string: "PSM ")
            SignalingBody.writePSM(psm, into: &b)
            Self.cid(", source CID ", scid, into: &b)
            if case let .createChannelRequest(_, _, ctrl) = command {
                b.append(string: ", controller ID ")
                b.append(decimal: Int(ctrl))
            }
        case let .connectionResponse(dcid, scid, result, status), let .createChannelResponse(dcid, scid, result, status):
            b.append(string: BREDRSignalingNames.connectionResult(result))
            if result == 0 { Self.cid(", destination CID ", dcid, into: &b) }
            Self.cid(", source CID ", scid, into: &b)
            if result == 1 {
                b.append(string: " (")
                b.append(string: BREDRSignalingNames.connectionStatus(status))
                b.append(UInt8(ascii: ")"))
            }
            writePSMNote(into: &b)
        case let .configurationRequest(dcid, flags, options):
            Self.cid("destination CID ", dcid, into: &b)
            writePSMNote(into: &b)
            if flags & 1 != 0 { b.append(string: ", continued") }
            Self.writeOptions(options, into: &b)
        case let .configurationResponse(scid, flags, result, options):
            b.append(string: BREDRSignalingNames.configurationResult(result))
            Self.cid(", source CID ", scid, into: &b)
            writePSMNote(into: &b)
            if flags & 1 != 0 { b.append(string: ", continued") }
            Self.writeOptions(options, into: &b)
        case let .disconnectionRequest(dcid, scid), let .disconnectionResponse(dcid, scid):
            Self.cid("destination CID ", dcid, into: &b)
            Self.cid(", source CID ", scid, into: &b)
            writePSMNote(into: &b)
        case let .echoRequest(data), let .echoResponse(data):
            b.append(decimal: data.count)
            b.append(string: data.count == 1 ? " byte" : " bytes")
        case let .informationRequest(t):
            b.append(string: BREDRSignalingNames.infoType(t))
        case let .informationResponse(t, result, data):
            b.append(string: BREDRSignalingNames.infoType(t))
            guard result == 0 else {
                b.append(string: result == 1 ? ", not supported" : ", reserved result \(Hex.hex(result, width: 4))")
                return
            }
            var c = ByteCursor(data)
            switch t {
            case 0x0001:
                if let mtu = try? c.u16le() { b.append(string: " "); b.append(decimal: Int(mtu)) }
            case 0x0002:
                if let m = try? c.u32le() {
                    let names = BREDRSignalingNames.extendedFeatureNames(m)
                    b.append(string: ": ")
                    b.append(string: names.isEmpty ? "none" : names.joined(separator: ", "))
                }
            case 0x0003:
                if let m = try? c.u64le() {
                    let names = BREDRSignalingNames.fixedChannelNames(m)
                    b.append(string: ": ")
                    b.append(string: names.isEmpty ? "none" : names.joined(separator: ", "))
                }
            default:
                b.append(string: ": ")
                b.append(spacedHex: data, limit: 8)
            }
        case let .moveChannelRequest(icid, ctrl):
            Self.cid("initiator CID ", icid, into: &b)
            b.append(string: ", controller ID ")
            b.append(decimal: Int(ctrl))
        case let .moveChannelResponse(icid, result):
            Self.cid("initiator CID ", icid, into: &b)
            b.append(string: ", ")
            b.append(string: BREDRSignalingNames.moveResult(result))
        case let .moveChannelConfirmationRequest(icid, result):
            Self.cid("initiator CID ", icid, into: &b)
            b.append(string: result == 0 ? ", confirmed" : ", failure")
        case let .moveChannelConfirmationResponse(icid):
            Self.cid("initiator CID ", icid, into: &b)
        case let .flowControlCredit(cid, credits):
            Self.cid("CID ", cid, into: &b)
            b.append(string: ", ")
            b.append(decimal: Int(credits))
            b.append(string: " credits")
        case let .creditBasedConnectionRequest(spsm, mtu, mps, credits, scids):
            b.append(string: "SPSM ")
            SignalingBody.writePSM(spsm, into: &b)
            b.append(string: ", source CIDs ")
            SignalingBody.writeCIDs(scids, into: &b)
            SignalingBody.writeMTU(mtu, mps, credits, into: &b)
        case let .creditBasedConnectionResponse(mtu, mps, credits, result, dcids):
            b.append(string: LESignalingNames.connectionResult(result))
            b.append(string: ", destination CIDs ")
            SignalingBody.writeCIDs(dcids, into: &b)
            SignalingBody.writeMTU(mtu, mps, credits, into: &b)
        case let .creditBasedReconfigureRequest(mtu, mps, dcids):
            b.append(string: "MTU ")
            b.append(decimal: Int(mtu))
            b.append(string: ", MPS ")
            b.append(decimal: Int(mps))
            b.append(string: ", destination CIDs ")
            SignalingBody.writeCIDs(dcids, into: &b)
        case let .creditBasedReconfigureResponse(result):
            b.append(string: LESignalingNames.reconfigureResult(result))
        case let .unknown(_, data):
            b.append(spacedHex: data, limit: 16)
        }
        if surplus > 0 {
            b.append(string: " [")
            b.append(decimal: surplus)
            b.append(string: " bytes after the command]")
        }
    }

    /// ", MTU 672, mode Enhanced Retransmission, FCS none, …"
    static func writeOptions(_ options: [ConfigurationOption], into b: inout TextBytes) {
        for o in options {
            b.append(string: ", ")
            switch o.value {
            case let .mtu(m):
                b.append(string: "MTU ")
                b.append(decimal: Int(m))
            case let .flushTimeout(t):
                b.append(string: "flush timeout ")
                b.append(string: t == 0xFFFF ? "infinite" : "\(t) ms")
            case let .qos(_, serviceType, _, _, _, _, _):
                b.append(string: "QoS service type ")
                b.append(decimal: Int(serviceType))
            case let .retransmissionAndFlowControl(mode, txWindow, maxTransmit, _, _, mps):
                b.append(string: "mode ")
                b.append(string: BREDRSignalingNames.mode(mode))
                if mode != 0 {
                    b.append(string: " (TxWindow ")
                    b.append(decimal: Int(txWindow))
                    b.append(string: ", MaxTransmit ")
                    b.append(decimal: Int(maxTransmit))
                    b.append(string: ", MPS ")
                    b.append(decimal: Int(mps))
                    b.append(UInt8(ascii: ")"))
                }
            case let .fcs(f):
                b.append(string: f == 0 ? "no FCS" : f == 1 ? "16-bit FCS" : "FCS type \(f)")
            case let .extendedFlowSpec(_, serviceType, maxSDU, _, _, _):
                b.append(string: "extended flow spec service type ")
                b.append(decimal: Int(serviceType))
                b.append(string: ", max SDU ")
                b.append(decimal: Int(maxSDU))
            case let .extendedWindowSize(w):
                b.append(string: "extended window size ")
                b.append(decimal: Int(w))
            case let .other(data):
                b.append(string: BREDRSignalingNames.optionName(o.type))
                if !data.isEmpty {
                    b.append(UInt8(ascii: " "))
                    b.append(spacedHex: data, limit: 8)
                }
            }
        }
    }

    func writeMembers<S: FieldSink>(into s: inout S) {
        s.field("code", code)
        s.field("name", BREDRSignalingNames.code(code))
        s.field("identifier", identifier)
        func psmField(_ key: String, _ p: UInt16) {
            s.field(name: key, p)
            if let n = LESignalingNames.psm(p) { s.field(name: key + "_name", n) }
        }
        switch command {
        case let .commandReject(reason, data):
            s.field("reason", reason)
            s.field("reason_name", LESignalingNames.rejectReason(reason))
            if !data.isEmpty { s.field("data", hex: data) }
        case let .connectionRequest(psm, scid):
            psmField("psm", psm)
            s.field("scid", scid)
        case let .createChannelRequest(psm, scid, ctrl):
            psmField("psm", psm)
            s.field("scid", scid)
            s.field("controller_id", ctrl)
        case let .connectionResponse(dcid, scid, result, status), let .createChannelResponse(dcid, scid, result, status):
            s.field("dcid", dcid)
            s.field("scid", scid)
            s.field("result", result)
            s.field("result_name", BREDRSignalingNames.connectionResult(result))
            s.field("status", status)
            if result == 1 { s.field("status_name", BREDRSignalingNames.connectionStatus(status)) }
        case let .configurationRequest(dcid, flags, options):
            s.field("dcid", dcid)
            s.field("flags", flags)
            Self.writeOptionMembers(options, into: &s)
        case let .configurationResponse(scid, flags, result, options):
            s.field("scid", scid)
            s.field("flags", flags)
            s.field("result", result)
            s.field("result_name", BREDRSignalingNames.configurationResult(result))
            Self.writeOptionMembers(options, into: &s)
        case let .disconnectionRequest(dcid, scid), let .disconnectionResponse(dcid, scid):
            s.field("dcid", dcid)
            s.field("scid", scid)
        case let .echoRequest(data), let .echoResponse(data):
            s.field("data", hex: data)
        case let .informationRequest(t):
            s.field("info_type", t)
            s.field("info_type_name", BREDRSignalingNames.infoType(t))
        case let .informationResponse(t, result, data):
            s.field("info_type", t)
            s.field("info_type_name", BREDRSignalingNames.infoType(t))
            s.field("result", result)
            s.field("result_name", result == 0 ? "Success" : result == 1 ? "Not supported" : "Reserved")
            var c = ByteCursor(data)
            if result == 0, t == 1, let mtu = try? c.u16le() {
                s.field("mtu", mtu)
            } else if result == 0, t == 2, let m = try? c.u32le() {
                s.field("features", m)
                s.list("feature_names") { l in for n in BREDRSignalingNames.extendedFeatureNames(m) { l.string(n) } }
            } else if result == 0, t == 3, let m = try? c.u64le() {
                s.field("fixed_channels", String(m, radix: 16))
                s.list("fixed_channel_names") { l in for n in BREDRSignalingNames.fixedChannelNames(m) { l.string(n) } }
            } else if !data.isEmpty {
                s.field("data", hex: data)
            }
        case let .moveChannelRequest(icid, ctrl):
            s.field("icid", icid)
            s.field("controller_id", ctrl)
        case let .moveChannelResponse(icid, result):
            s.field("icid", icid)
            s.field("result", result)
            s.field("result_name", BREDRSignalingNames.moveResult(result))
        case let .moveChannelConfirmationRequest(icid, result):
            s.field("icid", icid)
            s.field("result", result)
        case let .moveChannelConfirmationResponse(icid):
            s.field("icid", icid)
        case let .flowControlCredit(cid, credits):
            s.field("cid", cid)
            s.field("credits", credits)
        case let .creditBasedConnectionRequest(spsm, mtu, mps, credits, scids):
            psmField("spsm", spsm)
            s.field("mtu", mtu); s.field("mps", mps); s.field("credits", credits)
            SignalingBody.cidList("scids", scids, into: &s)
        case let .creditBasedConnectionResponse(mtu, mps, credits, result, dcids):
            s.field("mtu", mtu); s.field("mps", mps); s.field("credits", credits)
            s.field("result", result)
            s.field("result_name", LESignalingNames.connectionResult(result))
            SignalingBody.cidList("dcids", dcids, into: &s)
        case let .creditBasedReconfigureRequest(mtu, mps, dcids):
            s.field("mtu", mtu); s.field("mps", mps)
            SignalingBody.cidList("dcids", dcids, into: &s)
        case let .creditBasedReconfigureResponse(result):
            s.field("result", result)
            s.field("result_name", LESignalingNames.reconfigureResult(result))
        case let .unknown(_, data):
            s.field("data", hex: data)
        }
        if let p = psm, !command.namesPSM { psmField("channel_psm", p) }
        if surplus > 0 { s.field("surplus_bytes", surplus) }
    }

    static func writeOptionMembers<S: FieldSink>(_ options: [ConfigurationOption], into s: inout S) {
        s.list("options") { l in
            for o in options {
                l.beginObject()
                l.field("type", o.type)
                l.field("name", BREDRSignalingNames.optionName(o.type))
                if o.hint { l.field("hint", true) }
                switch o.value {
                case let .mtu(m): l.field("mtu", m)
                case let .flushTimeout(t): l.field("flush_timeout", t)
                case let .qos(flags, serviceType, tokenRate, bucket, peak, latency, delay):
                    l.field("flags", flags); l.field("service_type", serviceType); l.field("token_rate", tokenRate)
                    l.field("token_bucket_size", bucket); l.field("peak_bandwidth", peak); l.field("latency", latency)
                    l.field("delay_variation", delay)
                case let .retransmissionAndFlowControl(mode, txWindow, maxTransmit, rto, mto, mps):
                    l.field("mode", mode); l.field("mode_name", BREDRSignalingNames.mode(mode))
                    l.field("tx_window", txWindow); l.field("max_transmit", maxTransmit)
                    l.field("retransmission_timeout", rto); l.field("monitor_timeout", mto); l.field("mps", mps)
                case let .fcs(f): l.field("fcs", f)
                case let .extendedFlowSpec(id, serviceType, maxSDU, interArrival, accessLatency, flush):
                    l.field("identifier", id); l.field("service_type", serviceType); l.field("max_sdu_size", maxSDU)
                    l.field("sdu_inter_arrival_time", interArrival); l.field("access_latency", accessLatency)
                    l.field("flush_timeout", flush)
                case let .extendedWindowSize(w): l.field("window_size", w)
                case let .other(data): l.field("data", hex: data)
                }
                l.endObject()
            }
        }
    }
}

extension BREDRSignalingCommand {
    /// True when the command carries the PSM itself (its JSON has `psm` already).
    var namesPSM: Bool {
        switch self {
        case .connectionRequest, .createChannelRequest: return true
        default: return false
        }
    }
}
