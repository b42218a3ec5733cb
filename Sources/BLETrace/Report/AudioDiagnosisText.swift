/// The LE Audio diagnoses in words: title, explanation and next step, from their `ISOProblem`.
extension DiagnosisText {
    static func handle(_ h: UInt16) -> String { Hex.hex(h, width: 4) }

    static func audioTitle(_ d: Diagnosis) -> String {
        let f = d.facts
        let failed = f.reason.map { ": " + status($0) } ?? ""
        switch f.iso {
        case let .cisFailed(h, answered)?:
            return answered ? "CIS \(handle(h)) was not established\(failed)" : "CIS \(handle(h)) was created and never reported established"
        case let .dataLoss(h, outgoing, missing, lost, invalid, sdus)?:
            var parts: [String] = []
            if missing > 0 { parts.append("\(missing) SDU\(missing == 1 ? "" : "s") missing from the sequence") }
            if lost > 0 { parts.append("\(lost) flagged lost") }
            if invalid > 0 { parts.append("\(invalid) flagged possibly invalid") }
            return "ISO stream \(handle(h)) \(outgoing ? "host → controller" : "controller → host") lost SDUs: " + parts.joined(separator: ", ") + " of \(sdus + missing)"
        case let .bigSyncLost(big)?:
            return "The synchronisation to BIG \(big) was lost\(failed)"
        case let .periodicSyncLost(sync)?:
            return "Periodic advertising sync \(handle(sync)) was lost"
        case let .bigSyncFailed(big, answered)?:
            return answered ? "Synchronising to BIG \(big) failed\(failed)" : "Synchronising to BIG \(big) was asked for and never completed"
        case let .periodicSyncFailed(a, answered)?:
            return answered ? "The periodic advertising sync to \(a) failed\(failed)" : "The periodic advertising sync to \(a) never completed"
        case let .noBIGInfo(sync)?:
            return "Periodic advertising sync \(handle(sync)) reported no BIGInfo: no broadcast was found on it"
        case let .pathMissing(h, setupFailed)?:
            return setupFailed ? "Stream \(handle(h)) has no ISO data path: setting it up failed\(failed)"
                : "Stream \(handle(h)) was established without an ISO data path"
        case let .pathWithoutData(h, output)?:
            return "Stream \(handle(h)) has an \(output ? "output" : "input") data path over HCI and no ISO data went \(output ? "to the host" : "to the controller")"
        case let .aseOperation(op, ase, code, reason)?:
            return "ASE \(ase): \(AudioNames.aseOpcode(op)) failed: \(AudioNames.responseCode(code))" + (AudioNames.reason(reason, response: code).map { " (\($0))" } ?? "")
        case nil:
            return d.id.rawValue
        }
    }

    static func audioExplanation(_ d: Diagnosis) -> String {
        switch d.facts.iso {
        case .cisFailed(_, true)?:
            return "The controllers could not set up the connected isochronous stream, so no audio flows on it; the status says why (a peer that rejected the CIS, parameters it cannot meet, or no resources)."
        case .cisFailed(_, false)?:
            return "LE Create CIS was sent and no CIS Established event followed in the capture: the peer never answered the CIS request, or the capture ended first."
        case .dataLoss?:
            return "Audio frames were lost between the radio and the host: skipped packet sequence numbers are SDUs that never reached the HCI, and the controller flags SDUs it received with errors or not at all. Each one is an audible gap or a concealed frame."
        case .bigSyncLost?, .periodicSyncLost?:
            return "The receiver stopped hearing the broadcast (its periodic advertising or the BIG itself) for longer than the sync timeout: the broadcaster stopped, moved out of range, or interference hid it."
        case .bigSyncFailed?, .periodicSyncFailed?:
            return "The receiver could not synchronise to the broadcast: it was not found within the sync timeout, the parameters or Broadcast_Code did not match, or the controller lacks resources."
        case .noBIGInfo?:
            return "A periodic advertising train announces its BIG with BIGInfo; without one, the train carries no broadcast isochronous group the receiver could join."
        case .pathMissing(_, true)?:
            return "An ISO data path tells the controller where a stream's audio comes from and goes to; its setup failed, so no audio moves between the host and that stream."
        case .pathMissing?:
            return "An ISO data path tells the controller where a stream's audio comes from and goes to; none was set up, so no audio moves between the host and that stream (unless a vendor path outside HCI carries it)."
        case .pathWithoutData?:
            return "The data path was set up over HCI, yet the capture has no ISO data packets that way: the audio source never started, the stream was never enabled, or the controller does not deliver ISO data."
        case .aseOperation?:
            return "The server refused the ASE Control Point operation for that ASE with the response code shown, so the stream did not move to the next state."
        case nil:
            return ""
        }
    }

    static func audioAdvice(_ d: Diagnosis) -> String {
        switch d.facts.iso {
        case .cisFailed?: return "Check the CIG parameters against what the peer's PACS and ASE QoS preferences allow, and that the peer accepts the CIS request."
        case .dataLoss?: return "Look at the link's radio (interference, distance) and the retransmission number and latency chosen in the QoS configuration."
        case .bigSyncLost?, .periodicSyncLost?: return "Check the broadcaster was still transmitting and in range; a longer sync timeout tolerates short fades."
        case .bigSyncFailed?, .periodicSyncFailed?, .noBIGInfo?: return "Check the broadcast is on the air (Broadcast_ID, SID, address) and that the Broadcast_Code is the right one for an encrypted BIG."
        case .pathMissing?, .pathWithoutData?: return "Set up the ISO data path (LE Setup ISO Data Path) once the stream is established, and start the audio source after the ASE reaches Streaming."
        case .aseOperation?: return "Send parameters the server's PAC records and ASE state allow; read the response and reason codes against ASCS Table 5.1."
        case nil: return ""
        }
    }
}
