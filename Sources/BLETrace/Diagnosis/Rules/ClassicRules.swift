/// Classic (BR/EDR) rules of dual-mode phone logs: channels that never got configured, audio that stalled,
/// bonds the host removed, and a host stack that restarted.

/// `l2cap_channel_not_configured`: a dynamic channel refused (BR/EDR Connection Response, LE or enhanced
/// credit-based connection response with an error result), or opened and never configured both ways.
final class ChannelConfigurationRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.signaling, .hciEvent] }
    struct Open {
        var record: Int
        var psm: UInt16
        var cids: (UInt16, UInt16)
        var configured = 0
    }
    /// Per connection: BR/EDR channels opened and not yet configured both ways (bounded).
    @exclusivity(unchecked) var open: [Int: [Open]] = [:]
    /// Per connection and identifier: the SPSM of a credit-based request waiting for its response.
    @exclusivity(unchecked) var creditRequests: [Int: [UInt8: UInt16]] = [:]

    override func signaling(_ s: SignalingBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard let id = e.connection else { return }
        switch s.content {
        case let .bredr(f):
            for entry in f.commands { bredr(entry, id, e, ctx) }
        case let .command(c):
            switch c.command {
            case let .leCreditBasedConnectionRequest(spsm, _, _, _, _), let .creditBasedConnectionRequest(spsm, _, _, _, _):
                if creditRequests[id, default: [:]].count < 64, creditRequests[id] != nil || creditRequests.count < 10_000 {
                    creditRequests[id, default: [:]][c.identifier] = spsm
                }
            case let .leCreditBasedConnectionResponse(_, _, _, _, result), let .creditBasedConnectionResponse(_, _, _, result, _):
                let spsm = creditRequests[id]?.removeValue(forKey: c.identifier)
                // 0 success, 0x000D–0x000F pending; the rest are refusals (0x0005–0x0008 ask for security first).
                if result != 0 && !(0x000D...0x000F).contains(result) { refused(id, psm: spsm, result: result, code: c.code, e, ctx) }
            default:
                return
            }
        default:
            return
        }
    }

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard let id = e.connection else { return }
        if case .disconnectionComplete(0, _, _) = h.params { close(id, ctx) }
    }

    func bredr(_ entry: BREDRSignalingEntry, _ id: Int, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        switch entry.command {
        case let .connectionResponse(dcid, scid, result, _), let .createChannelResponse(dcid, scid, result, _):
            if result == 1 { return } // pending
            if result != 0 {
                refused(id, psm: entry.psm, result: result, code: entry.code, e, ctx)
            } else if let psm = entry.psm, open[id, default: []].count < 64, open[id] != nil || open.count < 10_000 {
                open[id, default: []].append(Open(record: e.record, psm: psm, cids: (scid, dcid)))
            }
        case let .configurationResponse(scid, flags, result, _):
            // A successful response that is not continued: one direction configured.
            guard result == 0, flags & 0x0001 == 0, var list = open[id],
                  let i = list.firstIndex(where: { $0.cids.0 == scid || $0.cids.1 == scid }) else { return }
            list[i].configured += 1
            if list[i].configured >= 2 { list.remove(at: i) }
            open[id] = list.isEmpty ? nil : list
        case let .disconnectionRequest(dcid, scid):
            guard var list = open[id], let i = list.firstIndex(where: { [$0.cids.0, $0.cids.1].contains(dcid) || [$0.cids.0, $0.cids.1].contains(scid) }) else { return }
            let o = list.remove(at: i)
            open[id] = list.isEmpty ? nil : list
            notConfigured(o, id, ctx)
        default:
            return
        }
    }

    /// `code`: the signaling command that refused (its results are named per command).
    func refused(_ id: Int, psm: UInt16?, result: UInt16, code: UInt8, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        let c = ctx.connection(id)
        var f = DiagnosisFacts(reason: UInt8(truncatingIfNeeded: result), opcode: UInt16(code), psm: psm)
        f.result = result
        ctx.raise(Diagnosis(id: .l2capChannelNotConfigured, facts: f, peer: c?.peer, connection: id, evidence: [e.record]))
    }

    func notConfigured(_ o: Open, _ id: Int, _ ctx: DiagnosisContext) {
        let c = ctx.connection(id)
        ctx.raise(Diagnosis(id: .l2capChannelNotConfigured, facts: DiagnosisFacts(psm: o.psm, stage: UInt8(o.configured)), peer: c?.peer,
                            connection: id, evidence: [o.record]))
    }

    func close(_ id: Int, _ ctx: DiagnosisContext) {
        creditRequests[id] = nil
        guard let list = open.removeValue(forKey: id) else { return }
        for o in list { notConfigured(o, id, ctx) }
    }

    override func finish(_ ctx: DiagnosisContext) {
        for id in open.keys.sorted() { close(id, ctx) }
    }
}

/// `audio_setup_stalled`: an AVDTP setup (Discover → Get Capabilities → Set Configuration → Open → Start) that
/// stops part-way or is rejected, a Start with no media, or a SCO/eSCO link requested and never completed. A
/// stream opened and never started is info: nothing asked to play.
final class AudioSetupRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.signaling, .media, .hciCommand, .hciEvent] }
    struct Setup {
        var first: Int
        var last: Int
        /// The furthest signal accepted (1 Discover … 7 Start).
        var reached: UInt8 = 0
        var rejected: (signal: UInt8, code: UInt8, record: Int)?
        var startRecord: Int?
        var media = 0
        /// True when the local host sent the setup's first command (it is the one to send the next step).
        var byLocal: Bool?
    }
    @exclusivity(unchecked) var setups: [Int: Setup] = [:]
    /// Synchronous link requests waiting for their Synchronous Connection Complete, per ACL handle or address.
    @exclusivity(unchecked) var synchronous: [(record: Int, connection: Int?)] = []

    /// Discover, Get (All) Capabilities, Set Configuration, Open, Start, in order.
    static func step(_ signal: UInt8) -> UInt8? {
        switch signal {
        case 0x01: return 1
        case 0x02, 0x0C: return 2
        case 0x03: return 3
        case 0x06: return 4
        case 0x07: return 5
        default: return nil
        }
    }

    override func signaling(_ s: SignalingBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard let id = e.connection else { return }
        switch s.content {
        case let .avdtp(a):
            guard let sig = a.signal, let step = AudioSetupRule.step(sig) else { return }
            if setups[id] == nil {
                guard setups.count < 10_000, a.messageType == .command else { return }
                setups[id] = Setup(first: e.record, last: e.record, byLocal: e.direction == .hostToController)
            }
            setups.modifyValue(forKey: id) { s in
                s.last = e.record
                switch a.messageType {
                case .accept:
                    if step > s.reached { s.reached = step }
                    if step == 5 { s.startRecord = e.record }
                case .reject, .generalReject:
                    var code: UInt8 = 0
                    if case let .error(_, c) = a.content { code = c }
                    s.rejected = (sig, code, e.record)
                case .command:
                    return
                }
            }
        case .a2dpMedia:
            setups.modifyValue(forKey: id) { $0.media += 1 }
        default:
            return
        }
    }

    override func hciCommand(_ c: HCICommandBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        // Setup / Accept (Enhanced) Synchronous Connection.
        guard [0x0428, 0x0429, 0x043D, 0x043E].contains(c.opcode), synchronous.count < 64 else { return }
        synchronous.append((e.record, e.connection))
    }

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        switch h.params {
        case let .classic(.synchronousConnectionComplete(status, _, _, _, _, _, _, _, _)):
            guard !synchronous.isEmpty else { return }
            let req = synchronous.removeFirst()
            if status != 0 { stalledSCO(req, status: status, e.record, ctx) }
        case let .commandStatus(status, _, op) where status != 0 && [0x0428, 0x0429, 0x043D, 0x043E].contains(op):
            // Refused at once: the Command Status is the answer (command_rejected names it too).
            if !synchronous.isEmpty { synchronous.removeLast() }
        case .disconnectionComplete(0, _, _):
            if let id = e.connection { close(id, ctx) }
        default:
            return
        }
    }

    func stalledSCO(_ req: (record: Int, connection: Int?), status: UInt8?, _ record: Int?, _ ctx: DiagnosisContext) {
        let c = ctx.connection(req.connection)
        var f = DiagnosisFacts(stage: 0xFF)
        f.reason = status
        ctx.raise(Diagnosis(id: .audioSetupStalled, facts: f, peer: c?.peer, connection: c?.id, evidence: [req.record] + (record.map { [$0] } ?? [])))
    }

    func close(_ id: Int, _ ctx: DiagnosisContext) {
        guard let s = setups.removeValue(forKey: id) else { return }
        let c = ctx.connection(id)
        if let r = s.rejected {
            let f = DiagnosisFacts(reason: r.code, opcode: UInt16(r.signal), stage: s.reached)
            ctx.raise(Diagnosis(id: .audioSetupStalled, facts: f, peer: c?.peer, connection: id, evidence: [r.record, s.first]))
        } else if s.reached < 5 {
            // Opened and never started: phones open the stream at connect and start it on playback (context).
            var f = DiagnosisFacts(byLocal: s.byLocal, stage: s.reached)
            if s.reached == 4 { f.benign = .streamOpenNotStarted }
            ctx.raise(Diagnosis(id: .audioSetupStalled, facts: f, peer: c?.peer, connection: id,
                                evidence: [s.last, s.first]))
        } else if s.media == 0, let start = s.startRecord {
            // Started, and not one media packet followed.
            ctx.raise(Diagnosis(id: .audioSetupStalled, facts: DiagnosisFacts(stage: 6), peer: c?.peer, connection: id, evidence: [start, s.first]))
        }
    }

    override func finish(_ ctx: DiagnosisContext) {
        for id in setups.keys.sorted() { close(id, ctx) }
        for r in synchronous { stalledSCO(r, status: nil, nil, ctx) }
        synchronous.removeAll()
    }
}

/// `unbonded` (the host removed a bond: Delete Stored Link Key, HID Virtual Cable Unplug, btmon's MGMT Unpair
/// Device) and `stack_restarted` (btmon: the Bluetooth daemon's control channel closed and opened again).
final class HostStackRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.hciCommand, .signaling, .note] }
    /// btmon control channels: cookie → whether it is the daemon's; the daemon's last close.
    @exclusivity(unchecked) var daemonCookies: Set<UInt32> = []
    @exclusivity(unchecked) var daemonClosed: Int?

    override func hciCommand(_ c: HCICommandBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        // Delete Stored Link Key for one address (Delete_All_Flag 0); deleting all of them is how a host that
        // keeps its keys itself clears the controller at start-up, not an unpairing.
        guard c.opcode == 0x0C12, case let .other(p) = c.params else { return }
        var cur = ByteCursor(p)
        guard let a = try? cur.address(), let all = try? cur.u8(), all == 0, a.value != 0 else { return }
        ctx.raise(Diagnosis(id: .unbonded, facts: DiagnosisFacts(opcode: 0x0C12, byLocal: true), peer: a, evidence: [e.record]))
    }

    override func signaling(_ s: SignalingBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        // HID_CONTROL (0x1) VIRTUAL_CABLE_UNPLUG (0x5).
        guard case let .hid(m) = s.content, m.type == 0x1, m.parameter == 0x5 else { return }
        let c = ctx.connection(e.connection)
        ctx.raise(Diagnosis(id: .unbonded, facts: DiagnosisFacts(opcode: 0x1105, byLocal: e.direction == .hostToController),
                            peer: c?.peer, connection: c?.id, evidence: [e.record]))
    }

    override func note(_ n: NoteBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard n.monitor else { return }
        switch n.content {
        case let .controlOpen(o):
            guard o.process.elementsEqual("bluetoothd".utf8) else { return }
            if let closed = daemonClosed {
                daemonClosed = nil
                ctx.raise(Diagnosis(id: .stackRestarted, evidence: [e.record, closed]))
            }
            if daemonCookies.count < 64 { daemonCookies.insert(o.cookie) }
        case let .controlClose(cookie):
            if daemonCookies.remove(cookie) != nil { daemonClosed = e.record }
        case let .controlMessage(_, opcode, parameters) where n.sourceType == 16 && opcode == 0x001B:
            // MGMT Unpair Device: address and type.
            var c = ByteCursor(parameters)
            guard let a = try? c.address() else { return }
            ctx.raise(Diagnosis(id: .unbonded, facts: DiagnosisFacts(opcode: 0x001B, byLocal: true), peer: a, evidence: [e.record]))
        default:
            return
        }
    }
}
