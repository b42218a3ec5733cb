/// Text and JSON of `SignalingBody`: LE signaling commands (the `signaling` layer), K-frames on the
/// credit-based channels they open (text only: their SDU is in the `l2cap` layer), and, through their own
/// renderers, BR/EDR signaling and the BR/EDR profiles.
extension SignalingBody: LayerBody {
    public func writeText(_ e: TraceEvent, into b: inout TextBytes) {
        switch content {
        case let .malformed(reason, data):
            b.append(string: "Malformed LE signaling")
            if let c = data.first {
                b.append(UInt8(ascii: " "))
                b.append(string: LESignalingNames.code(c))
            }
            b.append(string: ": ")
            b.append(string: reason)
        case let .bredr(f):
            f.writeText(into: &b)
        case let .avdtp(a):
            a.writeText(into: &b)
        case let .a2dpMedia(m):
            m.writeText(into: &b)
        case let .rfcomm(f):
            f.writeText(into: &b)
        case let .sdp(p):
            p.writeText(into: &b)
        case let .avctp(f):
            f.writeText(into: &b)
        case let .hid(m):
            m.writeText(into: &b)
        case let .command(c):
            b.append(string: "LE Signaling ")
            b.append(string: LESignalingNames.code(c.code))
            b.append(string: " (id ")
            b.append(decimal: Int(c.identifier))
            b.append(UInt8(ascii: ")"))
            let start = b.count
            b.append(string: ": ")
            let detail = b.count
            writeDetail(c, into: &b)
            if b.count == detail { b.removeSubrange(start...) }
        case let .kFrame(k):
            b.append(string: "L2CAP PSM ")
            SignalingBody.writePSM(k.psm, into: &b)
            b.append(string: " CID ")
            b.append(hex: UInt64(k.cid), width: 4)
            b.append(string: ": ")
            switch k.part {
            case .malformed:
                b.append(string: "malformed K-frame")
            case let .sdu(sdu, beyond):
                b.append(string: "SDU of ")
                b.append(decimal: sdu.count)
                b.append(string: " bytes: ")
                b.append(spacedHex: sdu, limit: 16)
                if beyond > 0 {
                    b.append(string: " [")
                    b.append(decimal: beyond)
                    b.append(string: " bytes beyond the SDU length]")
                }
            case let .start(have, expected), let .continuation(have, expected):
                if case .start = k.part { b.append(string: "SDU start, ") } else { b.append(string: "SDU continuation, ") }
                b.append(decimal: have)
                b.append(string: " of ")
                b.append(decimal: expected)
                b.append(string: " bytes, ")
                b.append(decimal: k.length)
                b.append(string: " bytes in this frame")
            }
        }
    }

    /// "0x0027 (EATT)": the PSM and its assigned name.
    static func writePSM(_ p: UInt16, into b: inout TextBytes) {
        b.append(hex: UInt64(p), width: 4)
        if let n = LESignalingNames.psm(p) {
            b.append(string: " (")
            b.append(string: n)
            b.append(UInt8(ascii: ")"))
        }
    }

    static func writeCIDs(_ l: [UInt16], into b: inout TextBytes) {
        for (i, c) in l.enumerated() {
            if i > 0 { b.append(string: ", ") }
            b.append(hex: UInt64(c), width: 4)
        }
    }

    /// ", MTU 64, MPS 64, 10 credits"
    static func writeMTU(_ mtu: UInt16, _ mps: UInt16, _ credits: UInt16, into b: inout TextBytes) {
        b.append(string: ", MTU ")
        b.append(decimal: Int(mtu))
        b.append(string: ", MPS ")
        b.append(decimal: Int(mps))
        b.append(string: ", ")
        b.append(decimal: Int(credits))
        b.append(string: " credits")
    }

    func writeDetail(_ c: SignalingCommandFrame, into b: inout TextBytes) {
        switch c.command {
        case let .commandReject(reason, _):
            b.append(string: LESignalingNames.rejectReason(reason))
        case let .disconnectionRequest(dcid, scid), let .disconnectionResponse(dcid, scid):
            b.append(string: "destination CID ")
            b.append(hex: UInt64(dcid), width: 4)
            b.append(string: ", source CID ")
            b.append(hex: UInt64(scid), width: 4)
            if let p = closedPSM {
                b.append(string: ", PSM ")
                SignalingBody.writePSM(p, into: &b)
            }
        case let .connectionParameterUpdateRequest(minI, maxI, lat, to):
            b.append(string: "interval ")
            b.append(string: Fmt.interval1250(Int(minI)))
            b.append(string: "–")
            b.append(string: Fmt.interval1250(Int(maxI)))
            b.append(string: ", latency ")
            b.append(decimal: Int(lat))
            b.append(string: ", timeout ")
            b.append(string: Fmt.timeout10(Int(to)))
        case let .connectionParameterUpdateResponse(result):
            SignalingBody.writeUpdateResult(result, into: &b)
        case let .leCreditBasedConnectionRequest(spsm, scid, mtu, mps, credits):
            b.append(string: "SPSM ")
            SignalingBody.writePSM(spsm, into: &b)
            b.append(string: ", source CID ")
            b.append(hex: UInt64(scid), width: 4)
            SignalingBody.writeMTU(mtu, mps, credits, into: &b)
        case let .creditBasedConnectionRequest(spsm, mtu, mps, credits, scids):
            b.append(string: "SPSM ")
            SignalingBody.writePSM(spsm, into: &b)
            b.append(string: ", source CIDs ")
            SignalingBody.writeCIDs(scids, into: &b)
            SignalingBody.writeMTU(mtu, mps, credits, into: &b)
        case let .leCreditBasedConnectionResponse(dcid, mtu, mps, credits, result):
            b.append(string: LESignalingNames.connectionResult(result))
            if result == 0 {
                b.append(string: ", destination CID ")
                b.append(hex: UInt64(dcid), width: 4)
                SignalingBody.writeMTU(mtu, mps, credits, into: &b)
            }
            writeOpened(into: &b)
        case let .creditBasedConnectionResponse(mtu, mps, credits, result, dcids):
            b.append(string: LESignalingNames.connectionResult(result))
            b.append(string: ", destination CIDs ")
            SignalingBody.writeCIDs(dcids, into: &b)
            SignalingBody.writeMTU(mtu, mps, credits, into: &b)
            writeOpened(into: &b)
        case let .flowControlCredit(cid, credits):
            b.append(string: "CID ")
            b.append(hex: UInt64(cid), width: 4)
            b.append(string: ", ")
            b.append(decimal: Int(credits))
            b.append(string: " credits")
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
        if c.surplus > 0 {
            b.append(string: " [")
            b.append(decimal: c.surplus)
            b.append(string: " bytes after the command]")
        }
    }

    func writeOpened(into b: inout TextBytes) {
        guard let o = opened, o.count > 0 else { return }
        b.append(string: " [")
        b.append(decimal: Int(o.count))
        b.append(string: o.count == 1 ? " channel open, PSM " : " channels open, PSM ")
        b.append(hex: UInt64(o.spsm), width: 4)
        b.append(UInt8(ascii: "]"))
    }

    static func updateResultName(_ result: UInt16) -> String {
        result == 0 ? "accepted" : result == 1 ? "rejected" : "reserved result \(Hex.hex(result, width: 4))"
    }

    static func writeUpdateResult(_ result: UInt16, into b: inout TextBytes) {
        b.append(string: updateResultName(result))
    }

    public func writeLayers<S: FieldSink>(_ e: TraceEvent, into s: inout S) {
        switch content {
        case .kFrame: return
        case let .bredr(f): f.writeLayers(into: &s)
        case let .avdtp(a): a.writeLayers(into: &s)
        case let .a2dpMedia(m): m.writeLayers(into: &s)
        case let .rfcomm(f): f.writeLayers(into: &s)
        case let .sdp(p): p.writeLayers(into: &s)
        case let .avctp(f): f.writeLayers(into: &s)
        case let .hid(m): m.writeLayers(into: &s)
        case let .malformed(_, data):
            s.object("signaling") { s in
                if let c = data.first {
                    s.field("code", Int(c))
                    s.field("name", LESignalingNames.code(c))
                }
                s.field("data", hex: data)
            }
        case let .command(c):
            s.object("signaling") { s in
                s.field("code", Int(c.code))
                s.field("name", LESignalingNames.code(c.code))
                s.field("identifier", Int(c.identifier))
                writeMembers(c, into: &s)
            }
        }
    }

    static func cidList<S: FieldSink>(_ key: StaticString, _ l: [UInt16], into s: inout S) {
        s.list(key) { s in for c in l { s.int(Int(c)) } }
    }

    func writeMembers<S: FieldSink>(_ c: SignalingCommandFrame, into s: inout S) {
        switch c.command {
        case let .commandReject(reason, data):
            s.field("reason", Int(reason))
            s.field("reason_name", LESignalingNames.rejectReason(reason))
            if !data.isEmpty { s.field("data", hex: data) }
        case let .disconnectionRequest(dcid, scid), let .disconnectionResponse(dcid, scid):
            s.field("dcid", Int(dcid))
            s.field("scid", Int(scid))
            if let p = closedPSM { s.field("psm", Int(p)) }
        case let .connectionParameterUpdateRequest(minI, maxI, lat, to):
            s.field("interval_min", Int(minI))
            s.field("interval_max", Int(maxI))
            s.field("latency", Int(lat))
            s.field("timeout", Int(to))
        case let .connectionParameterUpdateResponse(result):
            s.field("result", Int(result))
            s.field("result_name", SignalingBody.updateResultName(result))
        case let .leCreditBasedConnectionRequest(spsm, scid, mtu, mps, credits):
            s.field("spsm", Int(spsm))
            s.field("scid", Int(scid))
            s.field("mtu", Int(mtu))
            s.field("mps", Int(mps))
            s.field("credits", Int(credits))
            if let n = LESignalingNames.psm(spsm) { s.field("spsm_name", n) }
        case let .creditBasedConnectionRequest(spsm, mtu, mps, credits, scids):
            s.field("spsm", Int(spsm))
            s.field("mtu", Int(mtu))
            s.field("mps", Int(mps))
            s.field("credits", Int(credits))
            SignalingBody.cidList("scids", scids, into: &s)
            if let n = LESignalingNames.psm(spsm) { s.field("spsm_name", n) }
        case let .leCreditBasedConnectionResponse(dcid, mtu, mps, credits, result):
            s.field("dcid", Int(dcid))
            s.field("mtu", Int(mtu))
            s.field("mps", Int(mps))
            s.field("credits", Int(credits))
            s.field("result", Int(result))
            s.field("result_name", LESignalingNames.connectionResult(result))
            if let o = opened { s.field("spsm", Int(o.spsm)) }
        case let .creditBasedConnectionResponse(mtu, mps, credits, result, dcids):
            s.field("mtu", Int(mtu))
            s.field("mps", Int(mps))
            s.field("credits", Int(credits))
            s.field("result", Int(result))
            s.field("result_name", LESignalingNames.connectionResult(result))
            SignalingBody.cidList("dcids", dcids, into: &s)
            if let o = opened { s.field("spsm", Int(o.spsm)) }
        case let .flowControlCredit(cid, credits):
            s.field("cid", Int(cid))
            s.field("credits", Int(credits))
        case let .creditBasedReconfigureRequest(mtu, mps, dcids):
            s.field("mtu", Int(mtu))
            s.field("mps", Int(mps))
            SignalingBody.cidList("dcids", dcids, into: &s)
        case let .creditBasedReconfigureResponse(result):
            s.field("result", Int(result))
            s.field("result_name", LESignalingNames.reconfigureResult(result))
        case let .unknown(_, data):
            s.field("data", hex: data)
        }
        if c.surplus > 0 { s.field("surplus_bytes", c.surplus) }
    }
}
