/// What each diagnosis id claims, in one line that holds for every diagnosis of the id: the description of
/// the id itself where a report lists ids rather than diagnoses (SARIF's rules). The texts of a diagnosis
/// found are `DiagnosisText`'s, made from its facts.
public enum DiagnosisRuleText {
    public static func summary(_ id: DiagnosisID) -> String {
        switch id {
        case .linkLost: return "A link was lost: the peer stopped answering within the supervision timeout"
        case .peerRestarted: return "A peer advertised while its link was still open, then the link was lost: it probably reset"
        case .connectionNotEstablished: return "A connection could not be established"
        case .procedureTimeout: return "A link-layer procedure went unanswered (LL Response Timeout)"
        case .connectionParametersRejected: return "Connection parameters asked for were rejected"
        case .reconnectLoop: return "The host kept reconnecting to a peer and every connection failed"
        case .pairingRejectedByUser: return "A pairing was rejected by the user (or the app) on one side"
        case .pairingWrongPasskey: return "A passkey pairing failed because the confirm values did not match (wrong passkey)"
        case .pairingUnsupported: return "A pairing failed because the two sides' requirements could not be met together"
        case .pairingTimeout: return "A pairing stopped: no SMP PDU for 30 s and no Pairing Failed"
        case .pairingFailed: return "A pairing failed"
        case .bondLost: return "A bond was gone on one side: encryption with the stored key failed"
        case .encryptionFailed: return "Encrypting a link failed"
        case .insufficientSecurity: return "A request was refused for lack of security and the link never became secure for it"
        case .weakSecurity: return "A pairing or an encrypted link is weaker than it could be"
        case .attTimeout: return "An ATT request got no response for 30 s on a live link"
        case .staleGATTCache: return "A client used a GATT cache the server's database no longer matches"
        case .subscriptionFailed: return "A subscription (a CCCD write) was refused"
        case .attributeNotPermitted: return "A read or write was not permitted by the attribute's permissions"
        case .applicationError: return "A request failed with an application or service error code"
        case .attError: return "An ATT request failed with an error"
        case .controllerReset: return "The controller was reset, or reported a hardware error, while in use"
        case .commandRejected: return "The controller rejected an HCI command"
        case .flowControlStall: return "Every controller ACL buffer was taken and none completed for over 1 s"
        case .interference: return "Some channels of a sniffed link lost far more packets than the rest"
        case .captureIncomplete: return "The capture is incomplete: damaged, filtered, or missing packets or time"
        case .classicPairingIncomplete: return "A BR/EDR Secure Simple Pairing started and never completed"
        case .l2capChannelNotConfigured: return "A dynamic L2CAP channel opened and was never configured"
        case .audioSetupStalled: return "An A2DP stream setup stopped part-way"
        case .unbonded: return "The host removed a bond"
        case .stackRestarted: return "The Bluetooth daemon restarted during the capture"
        case .cisNotEstablished: return "A connected isochronous stream (CIS) could not be established"
        case .aseOperationFailed: return "An ASE Control Point operation was refused"
        case .isoDataLoss: return "Isochronous SDUs were lost on a stream"
        case .bigSyncLost: return "A broadcast isochronous group or periodic advertising sync was lost"
        case .bigSyncFailed: return "Synchronising to a broadcast isochronous group or periodic advertising failed"
        case .isoPathMissing: return "An isochronous stream had no data path, or a data path no data"
        case .bluetoothOff: return "Bluetooth was switched off: the host closed its links and reset the controller"
        case .supervisionTimeoutShort: return "A link's supervision timeout leaves few chances to hear the peripheral"
        }
    }
}
