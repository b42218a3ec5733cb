/// Diagnoses in words: the title that states the cause, the explanation (the chain of evidence) and the next
/// step, made from each diagnosis's typed facts with the names of the static tables; and the summary's text
/// lines and JSON fields.
public enum DiagnosisText {
    /// Diagnoses the text summary lists; JSON has them all.
    static let textListed = 30

    public static func fields(_ d: Diagnosis) -> Fields {
        var f = Fields()
        f.add("id", d.id.rawValue)
        f.add("severity", d.severity.name)
        f.add("title", title(d))
        f.add("explanation", explanation(d))
        f.add("advice", advice(d))
        f.add("count", d.count)
        f.add("connections", .list(d.connections.map { .int($0) }))
        f.add("peer", d.peer.map { .string($0.description) } ?? .null)
        f.add("peer_count", d.peerCount)
        f.add("first_record", d.firstRecord)
        f.add("last_record", d.lastRecord)
        f.add("evidence", .list(d.evidence.map { .int($0) }))
        if let l = d.facts.limit { f.add("capture_limit", limitName(l)) }
        return f
    }

    public static func lines(_ list: [Diagnosis], overflow: Int = 0) -> [String] {
        guard !list.isEmpty else { return ["  Diagnoses:   none"] }
        var counts = [0, 0, 0]
        for d in list { counts[d.severity.rawValue] += 1 }
        let parts = [(2, "error"), (1, "warning"), (0, "info")].compactMap { i, name -> String? in
            counts[i] == 0 ? nil : "\(counts[i]) \(name)" + (counts[i] == 1 || name == "info" ? "" : "s")
        }
        var out = ["  Diagnoses:   \(list.count) (\(parts.joined(separator: ", ")))"]
        for d in list.prefix(textListed) {
            out.append("    " + d.severity.name + String(repeating: " ", count: max(1, 8 - d.severity.name.count)) + d.id.rawValue + ": " + title(d) + " " + scope(d))
            out.append("              Why: " + explanation(d))
            out.append("              Next: " + advice(d))
        }
        if list.count > textListed { out.append("    … and \(list.count - textListed) more (all of them are in the JSON summary)") }
        if overflow > 0 { out.append("    … \(overflow) more not kept (too many distinct diagnoses)") }
        return out
    }

    /// "(3 times, records 12–480, connections #1, #2, #4)".
    static func scope(_ d: Diagnosis) -> String {
        scope(count: d.count, first: d.firstRecord, last: d.lastRecord, connections: d.connections)
    }

    static func scope(count: Int, first: Int, last: Int, connections: [Int]) -> String {
        var parts: [String] = []
        if count > 1 { parts.append("\(count) times") }
        parts.append(first == last ? "record \(first)" : "records \(first)–\(last)")
        if !connections.isEmpty {
            parts.append((connections.count == 1 ? "connection " : "connections ") + connections.map { "#\($0)" }.joined(separator: ", "))
        }
        return "(" + parts.joined(separator: ", ") + ")"
    }

    static func limitName(_ l: CaptureLimit) -> String {
        switch l {
        case .snifferMayHaveMissed: return "sniffer_may_have_missed"
        case .undecrypted: return "undecrypted"
        case .lostFragment: return "lost_fragment"
        }
    }

    static func peer(_ d: Diagnosis) -> String {
        if let p = d.peer { return p.description }
        return d.peerCount > 1 ? "\(d.peerCount) peers" : "the peer"
    }

    static func side(_ d: Diagnosis) -> String {
        switch d.facts.byLocal {
        case true?: return " (sent by the local host)"
        case false?: return " (sent by the peer)"
        default: return ""
        }
    }

    static func target(_ f: DiagnosisFacts) -> String {
        let t = GATTContextRender.target(handle: f.handle, f.location)
        let op = f.opcode.map { ATTNames.opcode(UInt8(truncatingIfNeeded: $0)) } ?? "request"
        return t.isEmpty ? op : op + " " + t
    }

    static func status(_ code: UInt8?) -> String {
        guard let c = code else { return "no status" }
        return "\(HCIText.status(c)) (\(Hex.hex(c, width: 2)))"
    }

    static func attError(_ f: DiagnosisFacts) -> String {
        guard let c = f.reason else { return "an error" }
        return "\(f.serviceError ?? ATTNames.error(c)) (\(Hex.hex(c, width: 2)))"
    }

    static func smpReason(_ code: UInt8?) -> String {
        guard let c = code else { return "no reason" }
        return "\(SMPNames.failReason(c)) (\(Hex.hex(c, width: 2)))"
    }

    static func psm(_ p: UInt16?) -> String {
        guard let p else { return "a dynamic" }
        return LESignalingNames.psm(p).map { "the \($0)" } ?? "the PSM \(Hex.hex(p, width: 4))"
    }

    static func seconds(_ micros: Int64) -> String { Fmt.seconds(micros: micros) + " s" }

    // MARK: Titles

    public static func title(_ d: Diagnosis) -> String {
        let f = d.facts
        let p = peer(d)
        switch d.id {
        case .cisNotEstablished, .aseOperationFailed, .isoDataLoss, .bigSyncLost, .bigSyncFailed, .isoPathMissing: return audioTitle(d)
        case .audioDropout, .audioDecodeError, .audioConfigMismatch, .audioSilentStream: return streamAudioTitle(d)
        case .linkLost: return "The link to \(p) was lost (supervision timeout)"
        case .peerRestarted:
            if let m = f.micros { return "\(p) advertised again \(seconds(m)) after its link failed: it probably reset" }
            return "\(p) advertised while its connection was still open: it left the link, probably reset"
        case .connectionNotEstablished: return "The connection to \(p) could not be established"
        case .procedureTimeout: return "A link-layer procedure with \(p) went unanswered (LL Response Timeout)"
        case .connectionParametersRejected:
            if f.opcode == nil, f.byLocal != nil { return "A connection parameter update was rejected" + side(d) }
            return "Connection parameters with \(p) were rejected: \(status(f.reason))"
        case .reconnectLoop:
            return "\(p): \(f.number ?? d.count) failed connections within \(seconds(f.micros ?? 0)): a reconnect loop"
        case .pairingRejectedByUser:
            if f.opcode == 0x042D { return "Pairing with \(p) was rejected: the numeric comparison was declined (User Confirmation Request Negative Reply)" + side(d) }
            if f.opcode == 0x042F { return "Pairing with \(p) was rejected: the passkey entry was cancelled (User Passkey Request Negative Reply)" + side(d) }
            return "Pairing with \(p) was rejected: \(smpReason(f.reason))" + side(d)
        case .pairingWrongPasskey: return "Pairing with \(p) failed: the confirm value did not match (wrong passkey)" + side(d)
        case .pairingUnsupported: return "Pairing with \(p) failed: \(smpReason(f.reason))" + side(d)
        case .pairingTimeout: return "Pairing with \(p) stopped: no SMP PDU for 30 s and no Pairing Failed"
        case .pairingFailed: return "Pairing with \(p) failed: \(smpReason(f.reason))" + side(d)
        case .bondLost:
            if f.opcode == 0x201B { return "The local host had no key for \(p)'s stored bond (LTK Request Negative Reply)" }
            if f.opcode == 0x040C { return "The local host had no link key for \(p) and authentication failed" }
            return "The bond with \(p) is gone on one side: \(status(f.reason))"
        case .encryptionFailed: return "Encrypting the link to \(p) failed: \(status(f.reason))"
        case .insufficientSecurity:
            return "\(target(f)) was refused: \(attError(f)), and " + (f.recovered ? "no successful retry was seen once the link was encrypted"
                                                                        : "the link never became secure for it")
        case .weakSecurity: return weakTitle(f.weakness, p)
        case .attTimeout:
            return "\(target(f)) got no response " + (f.reason == 0 ? "within 30 s (ATT timeout)" : "before the link went down")
        case .staleGATTCache:
            if f.opcode == 0x1D && f.reason == nil { return "\(p) indicated Service Changed and the client did not discover again" }
            return "\(target(f)) failed with \(attError(f)): the client's GATT cache is stale"
        case .subscriptionFailed: return "Subscribing failed: \(target(f)): \(attError(f))"
        case .attributeNotPermitted: return "\(target(f)) is not permitted: \(attError(f))"
        case .applicationError: return "\(target(f)) failed with an application error: \(attError(f))"
        case .attError: return "\(target(f)) failed: \(attError(f))"
        case .controllerReset:
            if let r = f.reason, f.byLocal == false { return "The controller reported a hardware error (code \(Hex.hex(r, width: 2)))" }
            if let n = f.number { return "The host reset the controller with \(n == 1 ? "a link" : "\(n) links") still open" }
            return "The controller was reset after connections or scanning had started"
        case .bluetoothOff: return "Bluetooth was switched off: the host closed its links, then reset the controller"
        case .supervisionTimeoutShort:
            return "The link to \(p) accepted a supervision timeout of \(f.timeout.map(Fmt.timeout10) ?? "?") at interval \(f.interval.map(Fmt.interval1250) ?? "?"), latency \(f.result.map { String($0) } ?? "0"): only \(f.stage.map { String($0) } ?? "?") chances to hear the peripheral"
        case .interference:
            let list = zip(f.channels ?? [], f.channelPerMille ?? []).map { "\($0) (\(Fmt.fixed($1, scale: 10)) %)" }
            return "Channel\(list.count == 1 ? "" : "s") \(list.joined(separator: ", ")) lost far more packets than the rest of the link's (median \(Fmt.fixed(f.number ?? 0, scale: 10)) %)"
        case .flowControlStall:
            return "All \(f.number.map(String.init) ?? "the") controller ACL buffers were taken and no packet completed for \(f.micros.map { Fmt.fixed(Int($0 / 10_000), scale: 100) } ?? "over 1") s"
        case .commandRejected:
            return "The controller rejected \(f.opcode.map(HCIText.commandName) ?? "a command"): \(status(f.reason))"
        case .captureIncomplete: return captureTitle(f.problem)
        case .classicPairingIncomplete:
            return f.stage == 2 ? "Authentication with \(p) was requested and never completed"
                : "Secure Simple Pairing with \(p) started and never completed"
        case .l2capChannelNotConfigured:
            if let r = f.result { return "\(psm(f.psm).capitalizedFirst) channel was refused: \(channelResult(r, code: f.opcode))" }
            return "\(psm(f.psm).capitalizedFirst) channel opened and was never configured"
        case .audioSetupStalled: return audioTitle(f, p)
        case .unbonded:
            switch f.opcode {
            case 0x0C12: return "The host deleted the stored link key of \(p) (Delete Stored Link Key)"
            case 0x1105: return "HID Virtual Cable Unplug: the bond with \(p) was removed" + side(d)
            default: return "The host removed the bond with \(p) (MGMT Unpair Device)"
            }
        case .stackRestarted: return "The Bluetooth daemon (bluetoothd) restarted during the capture"
        }
    }

    static func channelResult(_ r: UInt16, code: UInt16?) -> String {
        code == 0x03 || code == 0x0D ? BREDRSignalingNames.connectionResult(r) : LESignalingNames.connectionResult(r)
    }

    static func weakTitle(_ w: Weakness?, _ p: String) -> String {
        switch w {
        case let .legacyPairing(m, cracked)?:
            return "Legacy pairing with \(p)" + (m.map { " (\($0.rawValue))" } ?? "") + ": its key can be found from a sniffed pairing"
                + (cracked ? " (bletrace cracked it in this capture)" : "")
        case let .justWorksDespiteMITM(asked)?:
            return "Just Works pairing with \(p) although " + (asked ? "MITM protection was requested" : "both sides' IO allowed an authenticated method")
        case let .keySize(n)?: return "The link to \(p) is encrypted with a \(n)-byte key (less than 16)"
        case .debugKey?: return "LE Secure Connections with \(p) used the debug key pair: anyone can decrypt the link"
        case .encryptionWithoutPairing?: return "Encryption with \(p) started after a pairing that never completed (no public keys or DHKey check)"
        case let .invalidKeySize(n)?: return "Pairing with \(p) went on with a maximum key size of \(n) bytes (allowed: 7–16)"
        case let .zeroKey(k)?: return "An all-zero \(k) was distributed in the pairing with \(p)"
        case nil: return "Weak security with \(p)"
        }
    }

    static func captureTitle(_ p: CaptureProblem?) -> String {
        switch p {
        case let .damaged(reason)?: return "The file is damaged or truncated: \(reason)"
        case let .filtered(n, source)?:
            return "\(n) record\(n == 1 ? " was" : "s were") cut short by the capture (\(source == .snoopLog ? "payloads not logged" : "longer than its snapshot length"))"
        case let .timeBackwards(m)?: return "Timestamps go backwards (by \(seconds(m)))"
        case let .timeJump(m)?: return "Timestamps jump forward by \(seconds(m))"
        case let .alreadyOpen(n)?: return "\(n) connection\(n == 1 ? " was" : "s were") already open when the capture began"
        case let .snifferLoss(bad, frames)?:
            return "The sniffer lost packets: \(bad) with a bad CRC" + (frames > 0 ? ", \(frames) L2CAP frame\(frames == 1 ? "" : "s") never completed" : "")
        case nil: return "The capture is incomplete"
        }
    }

    static func audioTitle(_ f: DiagnosisFacts, _ p: String) -> String {
        if f.stage == 0xFF {
            return "A SCO/eSCO link with \(p) was requested and never established" + (f.reason.map { ": \(status($0))" } ?? "")
        }
        if let sig = f.opcode { return "A2DP setup with \(p): \(A2DPNames.signal(UInt8(truncatingIfNeeded: sig))) was rejected (\(A2DPNames.error(f.reason ?? 0)))" }
        if f.stage == 6 { return "A2DP stream with \(p) started and no media followed" }
        if f.benign == .streamOpenNotStarted { return "A2DP stream with \(p) open, no audio played (never started)" }
        let next = ["Discover", "Get Capabilities", "Set Configuration", "Open", "Start"][min(Int(f.stage ?? 0), 4)]
        let who = f.byLocal.map { $0 ? ": the local host never sent \(next)" : ": \(p) never sent \(next)" } ?? ""
        return "A2DP setup with \(p) stopped after " + audioStep(f.stage ?? 0) + who
    }

    static func audioStep(_ s: UInt8) -> String {
        switch s {
        case 0: return "it began (no signal accepted)"
        case 1: return "Discover"
        case 2: return "Get Capabilities"
        case 3: return "Set Configuration"
        case 4: return "Open"
        default: return "Start"
        }
    }
}

extension String {
    /// The string with its first letter upper-cased.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
