/// The explanation (what happened first, what it led to) and the next step of each diagnosis.
extension DiagnosisText {
    public static func explanation(_ d: Diagnosis) -> String {
        let f = d.facts
        var s: String
        switch d.id {
        case .cisNotEstablished, .aseOperationFailed, .isoDataLoss, .bigSyncLost, .bigSyncFailed, .isoPathMissing:
            s = audioExplanation(d)
        case .audioDropout, .audioDecodeError, .audioConfigMismatch, .audioSilentStream:
            s = streamAudioExplanation(d)
        case .linkLost where f.micros != nil:
            // Seen by a sniffer: the central's transmissions after the peripheral's last packet.
            s = "The sniffer saw the peripheral's last packet and then the central transmitting alone for \(seconds(f.micros ?? 0))"
            if let t = f.timeout { s += " (supervision timeout \(Fmt.timeout10(t))" + (f.interval.map { ", interval \(Fmt.interval1250($0))" } ?? "") + ")" }
            s += " before it stopped too: the peripheral no longer answered, and the central gave the link up."
            if let m = f.longestSilenceMicros, let t = f.timeout, t > 0 {
                s += " Before that, the peripheral's longest silence was \(seconds(m)), \(Int(m / 100) / t) % of the timeout"
                s += m * 2 > Int64(t) * 10_000 ? ": the link had been close to the limit." : ": the link had been healthy until then."
            }
            s += " The peripheral went out of range, was switched off, or stopped answering (a crash or reset)."
        case .linkLost:
            s = "The controller ended the link because no packet arrived from the peer within the supervision timeout"
            if let t = f.timeout { s += " (\(Fmt.timeout10(t))" + (f.interval.map { ", interval \(Fmt.interval1250($0))" } ?? "") + ")" }
            s += "."
            if let q = f.silenceMicros { s += " The peer was last heard (its ACL data, or its acknowledgement of the host's) \(seconds(q)) before the disconnect." }
            s += " The peer went out of range, was switched off, or stopped answering (a crash or reset)."
        case .peerRestarted:
            s = f.reason == 0x08
                ? "The peer advertised for new connections while the local side still held its link, was not heard on the link after that, and the link ended in a supervision timeout: it had left the link without a word."
                : "The peripheral advertised for new connections while the sniffer still followed its connection and the central kept polling it: it had left the link without a word."
        case .connectionNotEstablished:
            s = "The connection request was sent but the peer never answered on the data channel (0x3E): it stopped advertising, moved out of range, or the first packets were lost."
        case .procedureTimeout:
            s = "A link-layer control procedure (parameter update, encryption, feature exchange) got no answer within 40 s, so the controller ended the link (0x22)."
        case .connectionParametersRejected:
            s = "One side asked for connection parameters the other would not accept; the link keeps its old parameters or closes (0x3B)."
        case .reconnectLoop:
            s = "The host kept connecting to the same peer and each connection ended in failure; retrying did not help."
        case .pairingRejectedByUser:
            s = f.reason == 0x0C ? "The numeric comparison values were not confirmed on one side: the user (or the app) said no, or let the prompt time out."
                : "The passkey was not entered on one side: the user (or the app) cancelled the prompt."
        case .pairingWrongPasskey:
            s = "Both sides exchanged confirm values and one did not match the random value: the passkey typed was not the one shown, or the OOB data differed."
        case .pairingUnsupported:
            s = "The two sides' pairing requirements could not be met together."
            if let q = f.initiator, let r = f.responder { s += " " + requirements(q, r, f.reason) }
        case .pairingTimeout:
            s = "A pairing started and then no SMP PDU came for 30 s: one side stopped answering (often a prompt nobody saw)." + pairingStage(f)
        case .pairingFailed:
            s = "The pairing ended with Pairing Failed \(smpReason(f.reason))" + side(d) + "." + pairingStage(f)
        case .bondLost:
            s = "Encryption was started with a stored key and one side no longer had it: it was unpaired, reset or reinstalled while the other kept the bond."
        case .encryptionFailed:
            s = f.reason == 0x3D ? "A packet's MIC did not verify: the two sides encrypted with different keys, or the link was corrupted."
                : f.opcode == 0x03 ? "The link layer refused the encryption request (LL_ENC_REQ answered with a reject, \(status(f.reason))): the link stays unencrypted."
                : "The controller could not start encryption with the key it was given (\(status(f.reason)))."
        case .insufficientSecurity:
            s = "The server refused the request until the link is encrypted (or authenticated, or with a longer key)"
                + (f.number.map { $0 > 1 ? "; requests were refused \($0) times" : "" } ?? "")
                + (f.attributes.map { $0 > 1 ? " on \($0) attributes" : "" } ?? "")
                + (f.recovered ? "; the link was encrypted later but the request was not retried successfully." : "; the link was never encrypted afterwards on that connection.")
        case .weakSecurity:
            s = weakExplanation(f.weakness)
        case .attTimeout:
            s = f.reason == 0 ? "The server did not answer the request within 30 s; by the rules of ATT no other request may follow on that bearer, so the client is stuck until the link closes."
                : "The request was pending when the link closed: the server never answered it."
        case .staleGATTCache:
            s = f.reason == nil ? "The server said its database changed; a client that does not discover again writes to handles that may now mean something else."
                : "The client used a handle the server does not have (or says its cached database is out of sync): the handles it remembers are from an older database."
        case .subscriptionFailed:
            s = "The client wrote the Client Characteristic Configuration descriptor and the server refused it: notifications or indications will not come."
        case .attributeNotPermitted:
            s = "The attribute does not allow this operation (\(attError(f))): the client read or wrote something the server's permissions do not allow."
        case .applicationError:
            s = "The server's application refused the request with its own error code \(attError(f))."
        case .attError:
            s = "The server answered the request with \(attError(f))."
        case .controllerReset:
            s = f.byLocal == false ? "The controller reported a hardware error; the host usually resets it, dropping every link."
                : "The host reset the controller while \(f.number.map { $0 == 1 ? "a link was" : "\($0) links were" } ?? "links were") still open: every link and scan ended there."
        case .bluetoothOff:
            s = "The host closed its links and stopped scanning, then reset the controller: Bluetooth was switched off (or the stack restarted on purpose). Links it closed are not failures."
        case .supervisionTimeoutShort:
            s = "The supervision timeout covers only \(f.stage.map { String($0) } ?? "a few") of the connection events in which the peripheral must answer (interval × (1 + latency)): a few missed packets in a row, normal on a busy 2.4 GHz band, end the link."
        case .commandRejected:
            s = "The controller answered the command with an error status, so what it was to do did not happen."
        case .interference:
            s = "As the sniffer received them, those channels lost far more packets than the link's other channels: something else transmits on their frequencies (Wi-Fi, another link), or the sniffer hears them badly. Each lost packet is sent again in a later connection event."
        case .flowControlStall:
            s = "The host had sent as many ACL packets as the controller has buffers and had to wait for Number Of Completed Packets before sending more: nothing went out on any link sharing those buffers while it waited."
        case .captureIncomplete:
            s = captureExplanation(f.problem)
        case .classicPairingIncomplete:
            s = "The pairing started and the capture shows no completion: a prompt not answered, a link lost mid-pairing, or the capture ended first."
        case .l2capChannelNotConfigured:
            s = f.result != nil ? "The peer refused to open the channel, so the profile over it cannot run."
                : "The channel was opened but the two sides never agreed on its configuration both ways, so no data can flow on it."
        case .audioSetupStalled:
            s = f.stage == 0xFF ? "The host asked for a synchronous (voice) link and the controller never reported it established: calls have no audio."
                : f.stage == 6 ? "The stream was started but no media packet followed: the source never sent audio."
                : "AVDTP sets a stream up in order (Discover, Get Capabilities, Set Configuration, Open, Start); this one stopped part-way."
        case .unbonded:
            s = "The bond was removed on purpose by the host; a later connection has to pair again."
        case .stackRestarted:
            s = "btmon saw the daemon's control channel close and open again: the host stack restarted and every link it held was dropped."
        }
        if let b = f.benign { s += " " + benignSentence(b) }
        switch f.limit {
        case .snifferMayHaveMissed?:
            s += " This is a sniffer's capture: the answer may have been sent and missed by the sniffer."
        case let .undecrypted(n)?:
            s += " The link was encrypted and \(n) PDU\(n == 1 ? "" : "s") could not be decrypted: the answer may be among them."
        case let .lostFragment(r)?:
            s += " A fragment was lost at record \(r) (the sniffer missed a packet), so the answer's frame could not be completed."
        case nil:
            break
        }
        return s
    }

    /// Where a pairing stood when it stopped: the last SMP PDU and, at the user's step, what the user had to do.
    static func pairingStage(_ f: DiagnosisFacts) -> String {
        guard let code = f.stage, code > 0x01 else { return "" }
        var s = " It had reached \(SMPNames.code(code))" + (f.method.map { " (\($0.rawValue))" } ?? "")
        if code == 0x04 || code == 0x03 {
            switch f.method {
            case .numericComparison?: s += ": the 6-digit values were to be confirmed by the user on both devices, so a user (or app) declining or not answering the prompt is the likely cause"
            case .passkeyEntry?: s += ": a passkey was to be typed by the user"
            default: break
            }
        }
        return s + "."
    }

    static func requirements(_ q: PairingFeatures, _ r: PairingFeatures, _ reason: UInt8?) -> String {
        let io = "IO capabilities \(SMPNames.ioCapability(q.ioCapability)) / \(SMPNames.ioCapability(r.ioCapability))"
        switch reason {
        case 0x06?:
            return "Key sizes: the initiator allows up to \(q.maxKeySize) bytes, the responder up to \(r.maxKeySize)."
        case 0x03?:
            var want: [String] = []
            if q.mitm || r.mitm { want.append("MITM protection (\(q.mitm ? "initiator" : "responder"))") }
            if q.secureConnections != r.secureConnections { want.append("Secure Connections (only the \(q.secureConnections ? "initiator" : "responder"))") }
            return "Asked for: " + (want.isEmpty ? "authentication" : want.joined(separator: ", ")) + "; \(io)."
        default:
            return "\(io); bonding \(q.bonding ? "yes" : "no") / \(r.bonding ? "yes" : "no")."
        }
    }

    static func weakExplanation(_ w: Weakness?) -> String {
        switch w {
        case .legacyPairing?: return "LE legacy pairing derives its key from a 6-digit passkey or none; whoever sniffs the pairing can find it in seconds and decrypt the link."
        case .justWorksDespiteMITM?: return "Just Works gives no protection against a man in the middle; the devices could have used Passkey Entry or Numeric Comparison."
        case .keySize?: return "A key shorter than 16 bytes is easier to brute-force (the KNOB attack lowers it on purpose)."
        case .debugKey?: return "The debug key pair is published in the Core specification; a sniffer computes the same key."
        case .encryptionWithoutPairing?: return "The Secure Connections pairing never exchanged public keys and DHKey checks, yet encryption started: the key did not come from that pairing (a known-key or zero-key controller bug)."
        case .invalidKeySize?: return "A maximum encryption key size outside 7–16 bytes is invalid, and the responder must refuse it with Pairing Failed (Encryption Key Size); going on with it shows a stack that does not check key sizes (SweynTooth's key size overflow)."
        case .zeroKey?: return "A key of all zeros is known to everyone: with it anyone decrypts the link (LTK), resolves the device's private addresses (IRK) or forges its signed writes (CSRK)."
        case nil: return "The link's security is weaker than it could be."
        }
    }

    static func captureExplanation(_ p: CaptureProblem?) -> String {
        switch p {
        case .damaged?: return "Reading stopped at the damage; everything after it is missing, and absences near the end may be the capture's."
        case .filtered(_, .snoopLog)?:
            return "The phone's snoop log was filtered: payloads were not logged, so values and some protocol steps cannot be seen."
        case .filtered(_, .sniffer)?, .filtered(_, .hostCapture)?:
            return "These packets are longer than the capture's snapshot length: only their first bytes were read, so what came after the cut (values, some protocol steps) cannot be seen."
        case .timeBackwards?: return "Time went backwards in the file; latencies and timeouts across that point are not computed."
        case .timeJump?: return "The clock jumped by more than a day between two records; durations across it are not real."
        case .alreadyOpen?: return "Their setup (and any pairing or discovery before it) is not in the capture; responses to requests made before the start may appear unmatched."
        case .snifferLoss?: return "Packets the sniffer lost leave gaps: a missing response there is not proof that it was never sent."
        case nil: return "Part of what happened is not in the file."
        }
    }

    /// Why a diagnosis is context, not a fault (its severity is info).
    static func benignSentence(_ b: Benign) -> String {
        switch b {
        case .vendorCommand: return "It is a vendor command: hosts send these to probe for vendor features, and a refusal only means the controller lacks one."
        case .optionalFeature: return "The controller does not support it: an optional feature the host asked about and does without."
        case .racedDisconnect: return "The connection had already closed when the command reached the controller: a race with the disconnect, not a fault."
        case .nothingToCancel: return "There was nothing left to cancel: the procedure had already ended."
        case let .duplicate(r): return "The same command had just succeeded (record \(r)): the host sent it twice, and the repeat changes nothing."
        case .streamOpenNotStarted: return "Phones open the stream when the headset connects and start it only when something plays: an open stream with no audio is normal."
        case .linkClosedFirst: return "The link went down while it was pending (see the link's own diagnosis or the disconnect): not an ATT timeout, which needs 30 s on a live link."
        case .peerUsedHandleZero: return "The peer's client asked for handle 0x0000, which no attribute has, and the local server refused it as it must: a bug of the peer's, nothing the local side did wrong."
        }
    }

    public static func advice(_ d: Diagnosis) -> String {
        let f = d.facts
        switch d.id {
        case .cisNotEstablished, .aseOperationFailed, .isoDataLoss, .bigSyncLost, .bigSyncFailed, .isoPathMissing: return audioAdvice(d)
        case .audioDropout, .audioDecodeError, .audioConfigMismatch, .audioSilentStream: return streamAudioAdvice(d)
        case .linkLost: return "Check the peer's power and distance at that time, and its crash or reset log; a longer supervision timeout tolerates short fades."
        case .peerRestarted: return "Look at the peer's crash or reset log around that time."
        case .connectionNotEstablished: return "Check that the peer was still advertising and in range when the connection was made; retry after a short delay."
        case .procedureTimeout: return "Find which LL procedure the peer left unanswered (a sniffer capture shows it) and check the peer's firmware for it."
        case .connectionParametersRejected: return "Request parameters within both sides' limits (interval, latency, timeout), or leave the central to choose."
        case .reconnectLoop: return "Fix the first failure before retrying; add a back-off to the reconnect logic."
        case .pairingRejectedByUser: return "Make sure the prompt is shown and confirmed on both devices; check the app does not cancel it."
        case .pairingWrongPasskey: return "Enter the passkey shown on the other device; check that the firmware displays the passkey it uses."
        case .pairingUnsupported: return "Align the pairing requirements: IO capabilities, MITM and Secure Connections flags, and key sizes on both sides."
        case .pairingTimeout: return "Find which side stopped answering; check for a prompt that was never shown or answered."
        case .pairingFailed: return "Look at the side that sent Pairing Failed for why it gave up."
        case .bondLost: return "Remove the bond on both sides and pair again."
        case .encryptionFailed: return "Remove the bond on both sides and pair again; if it recurs, check the key storage of the side that failed."
        case .insufficientSecurity:
            return f.byLocal == false ? "The peer asked before the link was secure: pair first." : "The app used the attribute before pairing: pair first (or on the Insufficient Authentication error), then retry; or use a characteristic that does not need encryption."
        case .weakSecurity:
            switch f.weakness {
            case .legacyPairing?, .justWorksDespiteMITM?: return "Use LE Secure Connections with Numeric Comparison or Passkey Entry."
            case .keySize?: return "Require 16-byte keys on both sides."
            case .debugKey?: return "Turn off the Secure Connections debug mode."
            case .encryptionWithoutPairing?: return "Update the controller's firmware; do not trust this link's encryption."
            case .invalidKeySize?: return "Reject pairings whose maximum key size is outside 7–16 bytes (Pairing Failed 0x06)."
            case .zeroKey?: return "Generate keys from a random source; check the key generation of the side that sent it."
            case nil: return "Review the pairing settings."
            }
        case .attTimeout:
            return f.limit != nil ? "Capture again closer to the devices (or with the LTK to decrypt) to see whether the response was sent."
                : "Check why the server did not answer (a stuck handler on the peer); the link must be reconnected to use ATT again."
        case .staleGATTCache: return "Clear the client's GATT cache (or bond so Service Changed is delivered) and discover again."
        case .subscriptionFailed: return "Check the CCCD's permissions on the server (pair first if it needs encryption) and the value written."
        case .attributeNotPermitted: return "Check the characteristic's properties before reading or writing it."
        case .applicationError: return "Look up the error code in the service's specification or the peer's firmware."
        case .attError: return "Check the request's parameters against the server's database."
        case .controllerReset: return "Look at the controller's firmware log and the host's reason for the reset around that time."
        case .bluetoothOff: return "Nothing to fix unless nobody switched Bluetooth off: then look at the host's log for why its stack shut down."
        case .supervisionTimeoutShort: return "Ask for a supervision timeout of at least 6 times interval × (1 + latency) (the central chooses it in the connection or update)."
        case .commandRejected:
            return f.benign != nil ? "Nothing to fix: this is context for reading the log." : "Check the command's parameters and the controller's state when it was sent."
        case .interference: return "Leave those channels out of the channel map (LE Set Host Channel Classification), move the link away from the Wi-Fi channel that overlaps them, or capture closer to the devices to rule out the sniffer."
        case .flowControlStall: return "Look at the link around those records: a peer that stopped acknowledging (range, interference, a busy peripheral) keeps the buffers taken; the Links section shows the TX latency to completion."
        case .captureIncomplete: return "Keep it in mind when reading absences; capture again with a complete log if they matter."
        case .classicPairingIncomplete: return "Check that the pairing prompt was answered on both devices and the link stayed up."
        case .l2capChannelNotConfigured: return "Check that the peer supports \(psm(f.psm)) channel and the configuration asked for (MTU, mode)."
        case .audioSetupStalled: return "Find why the side that was to send the next step stopped (its log around that time); check the codec configuration both sides accepted."
        case .unbonded: return "Expected after a user unpairs; otherwise find out why the host removed the bond."
        case .stackRestarted: return "Look at the system log (bluetoothd's crash) around that time."
        }
    }
}
