/// A diagnosis: a cause found in the capture, with its evidence. Rules make these from typed events; the
/// engine groups equal ones (same id, peer and key facts) into one with a count and a record range. Titles,
/// explanations and advice are written by the renderers (`Report/DiagnosisText.swift`) from these facts.
public struct Diagnosis: Sendable {
    public var id: DiagnosisID
    public var severity: DiagnosisSeverity
    /// What the rule knew about the cause: reason codes, the attribute, the side, the timing.
    public var facts: DiagnosisFacts
    /// The peer the diagnosis is about, when it has one; nil when it was seen with several (`peerCount`).
    public var peer: BDAddr?
    /// How many different peers it was seen with (the first 32 are told apart).
    public var peerCount: Int
    var peers: [UInt64] = []
    /// The connections (numbers as in the summary) it was seen on, in order; at most `maxConnections`.
    public var connections: [Int] = []
    /// How many times it happened.
    public var count = 1
    public var firstRecord: Int
    public var lastRecord: Int
    /// The records that show it, the decisive ones first; at most `maxEvidence`.
    public var evidence: [Int]

    public static let maxConnections = 32
    public static let maxEvidence = 16

    public init(id: DiagnosisID, severity: DiagnosisSeverity? = nil, facts: DiagnosisFacts = DiagnosisFacts(), peer: BDAddr? = nil,
                connection: Int? = nil, evidence: [Int]) {
        self.id = id
        self.severity = severity ?? Diagnosis.severity(id, facts)
        self.facts = facts
        self.peer = peer
        self.peerCount = peer == nil ? 0 : 1
        if let p = peer { peers = [p.value] }
        if let c = connection { connections = [c] }
        // The decisive record (the first of the evidence) places the occurrence.
        self.firstRecord = evidence.first ?? 0
        self.lastRecord = evidence.first ?? 0
        self.evidence = Array(evidence.prefix(Diagnosis.maxEvidence))
    }

    /// The severity a rule's diagnosis has unless the rule says otherwise: the id's, or info for context (a
    /// benign reason in the facts).
    static func severity(_ id: DiagnosisID, _ facts: DiagnosisFacts) -> DiagnosisSeverity {
        facts.benign == nil ? id.severity : .info
    }

    /// Folds another occurrence of the same diagnosis into this one.
    mutating func merge(_ other: Diagnosis) {
        count += other.count
        if let p = other.peer { add(peer: p) }
        firstRecord = min(firstRecord, other.firstRecord)
        lastRecord = max(lastRecord, other.lastRecord)
        for c in other.connections { add(connection: c) }
        if let r = other.evidence.first { add(evidence: r) }
        if other.severity > severity { severity = other.severity }
        facts.absorb(other.facts)
    }

    /// Folds in one more occurrence, given by its parts (what `Diagnosis(…)` would be made of, with `record` its
    /// decisive record), without making a diagnosis and its lists for it.
    mutating func merge(occurrence record: Int, facts other: DiagnosisFacts, peer p: BDAddr?, connection c: Int?) {
        count += 1
        if let p { add(peer: p) }
        firstRecord = min(firstRecord, record)
        lastRecord = max(lastRecord, record)
        if let c { add(connection: c) }
        add(evidence: record)
        let s = Diagnosis.severity(id, other)
        if s > severity { severity = s }
        facts.absorb(other)
    }

    /// The same cause with another peer: counted, and the diagnosis names no single peer.
    private mutating func add(peer p: BDAddr) {
        guard !peers.contains(p.value) else { return }
        if peers.count < 32 { peers.append(p.value) }
        peerCount += 1
        peer = nil
    }

    private mutating func add(connection c: Int) {
        if !connections.contains(c) && connections.count < Diagnosis.maxConnections { connections.append(c) }
    }

    /// The first occurrence's evidence stays first; later ones add their decisive record.
    private mutating func add(evidence r: Int) {
        if !evidence.contains(r), evidence.count < Diagnosis.maxEvidence { evidence.append(r) }
    }
}

public enum DiagnosisSeverity: Int, Sendable, Comparable, CaseIterable {
    case info = 0, warning = 1, error = 2

    public static func < (a: DiagnosisSeverity, b: DiagnosisSeverity) -> Bool { a.rawValue < b.rawValue }

    /// JSON's `severity` and `--fail-on`'s values.
    public var name: String {
        switch self {
        case .info: return "info"
        case .warning: return "warning"
        case .error: return "error"
        }
    }

    public init?(name: String) {
        guard let s = DiagnosisSeverity.allCases.first(where: { $0.name == name }) else { return nil }
        self = s
    }
}

/// The stable ids of the diagnoses (JSON `id`).
public enum DiagnosisID: String, Sendable, CaseIterable {
    // Link
    case linkLost = "link_lost"
    case peerRestarted = "peer_restarted"
    case connectionNotEstablished = "connection_not_established"
    case procedureTimeout = "procedure_timeout"
    case connectionParametersRejected = "connection_parameters_rejected"
    case reconnectLoop = "reconnect_loop"
    // Security
    case pairingRejectedByUser = "pairing_rejected_by_user"
    case pairingWrongPasskey = "pairing_wrong_passkey"
    case pairingUnsupported = "pairing_unsupported"
    case pairingTimeout = "pairing_timeout"
    case pairingFailed = "pairing_failed"
    case bondLost = "bond_lost"
    case encryptionFailed = "encryption_failed"
    case insufficientSecurity = "insufficient_security"
    case weakSecurity = "weak_security"
    // GATT
    case attTimeout = "att_timeout"
    case staleGATTCache = "stale_gatt_cache"
    case subscriptionFailed = "subscription_failed"
    case attributeNotPermitted = "attribute_not_permitted"
    case applicationError = "application_error"
    case attError = "att_error"
    // Controller
    case controllerReset = "controller_reset"
    case commandRejected = "command_rejected"
    case flowControlStall = "flow_control_stall"
    case interference
    // Capture
    case captureIncomplete = "capture_incomplete"
    // Classic
    case classicPairingIncomplete = "classic_pairing_incomplete"
    case l2capChannelNotConfigured = "l2cap_channel_not_configured"
    case audioSetupStalled = "audio_setup_stalled"
    case unbonded
    case stackRestarted = "stack_restarted"
    // LE Audio
    case cisNotEstablished = "cis_not_established"
    case aseOperationFailed = "ase_operation_failed"
    case isoDataLoss = "iso_data_loss"
    case bigSyncLost = "big_sync_lost"
    case bigSyncFailed = "big_sync_failed"
    case isoPathMissing = "iso_path_missing"
    // Added with the real-capture review (issue #36)
    case bluetoothOff = "bluetooth_off"
    case supervisionTimeoutShort = "supervision_timeout_short"
    // Audio streams decoded (issue #40): present only in runs that add the audio layer.
    case audioDropout = "audio_dropout"
    case audioDecodeError = "audio_decode_error"
    case audioConfigMismatch = "audio_config_mismatch"
    case audioSilentStream = "audio_silent_stream"

    /// The severity a diagnosis of this id has unless the rule lowers it.
    public var severity: DiagnosisSeverity {
        switch self {
        case .peerRestarted, .connectionParametersRejected, .reconnectLoop, .weakSecurity, .attributeNotPermitted,
             .applicationError, .attError, .commandRejected, .l2capChannelNotConfigured, .flowControlStall, .interference,
             .isoDataLoss, .isoPathMissing, .supervisionTimeoutShort, .audioDropout, .audioConfigMismatch, .audioSilentStream:
            return .warning
        case .captureIncomplete, .unbonded, .bluetoothOff:
            return .info
        default:
            return .error
        }
    }
}

/// What the capture could not show about an absence (a response never seen), which lowers a diagnosis to info.
public enum CaptureLimit: Sendable, Equatable {
    /// A sniffer can miss packets: the response may have been sent and lost on the air.
    case snifferMayHaveMissed
    /// The link was encrypted and the sniffer could not decrypt it: responses may be among the undecrypted PDUs.
    case undecrypted(pdus: Int)
    /// A fragment of the frame was lost: the record where the frame could not be completed.
    case lostFragment(record: Int)
}

/// Why what a rule saw is context rather than a fault: the local host's own doing, an optional feature, or a
/// normal state the trace shows. A diagnosis with one is `info`, and its explanation says why.
public enum Benign: Sendable, Equatable, Hashable {
    /// A vendor-specific command (OGF 0x3F): hosts probe for vendor features the controller may lack.
    case vendorCommand
    /// Unknown HCI Command or Unsupported Feature: an optional feature the controller does not have.
    case optionalFeature
    /// Unknown Connection Identifier: the connection closed before the command reached the controller.
    case racedDisconnect
    /// A cancel command with nothing left to cancel.
    case nothingToCancel
    /// The same command had just succeeded (at `record`): the host sent it twice.
    case duplicate(record: Int)
    /// An A2DP stream opened and not started: phones open the stream when the headset connects and start it
    /// when something plays.
    case streamOpenNotStarted
    /// The request was pending when the link went down (closed by the local host, or lost: that is the link's
    /// diagnosis); only an answer missing for the full 30 s on a live link is an ATT timeout.
    case linkClosedFirst
    /// The peer's client used handle 0x0000, which no attribute has, and the local server refused it as it must.
    case peerUsedHandleZero
}

/// Why a pairing or an encrypted link is weak.
public enum Weakness: Sendable, Equatable, Hashable {
    /// LE legacy pairing: the TK can be found from a sniffed pairing. `cracked`: bletrace found it here.
    case legacyPairing(method: PairingMethod?, cracked: Bool)
    /// Just Works, although both sides' IO capabilities allowed an authenticated method, or MITM was asked for.
    case justWorksDespiteMITM(mitmRequested: Bool)
    /// An encryption key shorter than 16 bytes.
    case keySize(Int)
    /// LE Secure Connections with the specification's debug key pair: anyone can decrypt the link.
    case debugKey
    /// Encryption started after a pairing that never completed (no public keys, no DHKey check).
    case encryptionWithoutPairing
    /// A Pairing Response that went on with a maximum key size outside 7–16 bytes (its own, or the request's).
    case invalidKeySize(Int)
    /// A distributed key of all zeros ("LTK", "IRK" or "CSRK").
    case zeroKey(String)
}

/// What kind of capture a file is, for saying why it lacks something: a host's snoop log (btsnoop, as Android
/// writes it), a radio sniffer's capture, or another host-side HCI capture (PacketLogger, btmon, pcap of HCI).
public enum CaptureSource: Sendable, Equatable, Hashable {
    case snoopLog, sniffer, hostCapture

    public init(format: CaptureFormat, linkType: Int) {
        if LinkType.isSniffer(linkType) { self = .sniffer } else { self = format == .btsnoop ? .snoopLog : .hostCapture }
    }
}

/// What is wrong with a capture itself.
public enum CaptureProblem: Sendable, Equatable, Hashable {
    /// The file ends in damage or is truncated: reading stopped there.
    case damaged(reason: String)
    /// Records the capture cut short (payloads not logged), and what kind of capture cut them.
    case filtered(records: Int, by: CaptureSource)
    /// Timestamps go backwards at this record (by `micros`).
    case timeBackwards(micros: Int64)
    /// Timestamps jump forward by more than a day at this record.
    case timeJump(micros: Int64)
    /// Connections already open when the capture began.
    case alreadyOpen(connections: Int)
    /// A sniffer lost packets: bad CRCs, L2CAP frames never completed.
    case snifferLoss(badCRC: Int, unfinishedFrames: Int)
}

/// What went wrong with an isochronous stream or group (the LE Audio diagnoses); the status or reason, where
/// there is one, is in `DiagnosisFacts.reason`.
public enum ISOProblem: Sendable, Equatable, Hashable {
    /// LE Create CIS answered with a failed CIS Established (or Command Status), or never answered.
    case cisFailed(handle: UInt16, answered: Bool)
    /// SDUs lost on a stream: sequence numbers skipped, SDUs the controller flagged lost or possibly invalid.
    case dataLoss(handle: UInt16, outgoing: Bool, missing: Int, flaggedLost: Int, invalid: Int, sdus: Int)
    /// A BIG synchronisation or a periodic advertising sync lost.
    case bigSyncLost(big: UInt8)
    case periodicSyncLost(sync: UInt16)
    /// LE BIG Create Sync failed or never answered; a periodic advertising sync failed or never established; a
    /// periodic sync that never reported a BIGInfo (no BIG found) and was not used for one.
    case bigSyncFailed(big: UInt8, answered: Bool)
    case periodicSyncFailed(address: BDAddr, answered: Bool)
    case noBIGInfo(sync: UInt16)
    /// A CIS or BIS with no ISO data path (its setup failed: `reason`), or an HCI data path no data used.
    case pathMissing(handle: UInt16, setupFailed: Bool)
    case pathWithoutData(handle: UInt16, output: Bool)
    /// An ASE Control Point operation answered with a non-zero response code for an ASE.
    case aseOperation(opcode: UInt8, ase: UInt8, code: UInt8, reason: UInt8)

    /// The kind, without its numbers (grouping: the same kind on several streams is one diagnosis).
    var kind: Int {
        switch self {
        case .cisFailed: return 0
        case .dataLoss: return 1
        case .bigSyncLost: return 2
        case .periodicSyncLost: return 3
        case .bigSyncFailed: return 4
        case .periodicSyncFailed: return 5
        case .noBIGInfo: return 6
        case .pathMissing: return 7
        case .pathWithoutData: return 8
        case let .aseOperation(op, _, code, _): return 9 + Int(op) << 8 + Int(code) << 16
        }
    }
}

/// The typed facts of a diagnosis; renderers make its title, explanation and advice from them. Each rule
/// fills the ones that apply; the rest stay nil.
public struct DiagnosisFacts: Sendable, Equatable {
    /// An HCI status or disconnect reason, an SMP Pairing Failed reason, an ATT error code or an L2CAP result.
    public var reason: UInt8?
    /// An ATT request opcode, an HCI command opcode or an LL control opcode.
    public var opcode: UInt16?
    /// The attribute handle and where it sits in the peer's database.
    public var handle: UInt16?
    public var location: GATTLocation?
    /// An ATT error code's meaning in its service, where the service defines it (ANCS's 0xA0–0xA3).
    public var serviceError: String?
    /// True when the local host sent the decisive PDU (Pairing Failed, the request), false for the peer.
    public var byLocal: Bool?
    /// The connection's parameters when it matters: interval (1.25 ms units) and supervision timeout (10 ms units).
    public var interval: Int?
    public var timeout: Int?
    /// Microseconds since the peer was last heard before the decisive record.
    public var silenceMicros: Int64?
    /// A sniffed link lost: how long the central kept transmitting after the peripheral's last packet (in
    /// `micros`), and the peripheral's longest silence before that (the least supervision margin it had).
    public var longestSilenceMicros: Int64?
    /// RSSI at the first and last reading on the link (HCI Read RSSI or the sniffer's).
    public var rssiFirst: Int?
    public var rssiLast: Int?
    /// A duration that matters (pairing left waiting, time until the peer advertised again).
    public var micros: Int64?
    /// Both sides' pairing features, for a pairing whose requirements did not match.
    public var initiator: PairingFeatures?
    public var responder: PairingFeatures?
    public var weakness: Weakness?
    /// Legacy pairing cracked here: microseconds the search took, when it was a search.
    public var crackMicros: Int64?
    public var problem: CaptureProblem?
    /// An L2CAP PSM (channel refused or never configured), and the result that refused it.
    public var psm: UInt16?
    public var result: UInt16?
    /// The step an AVDTP setup reached (its last signal id), or 0xFF for a synchronous (SCO/eSCO) link.
    public var stage: UInt8?
    /// How many failures (reconnect loop), how many requests (insufficient security), …
    public var number: Int?
    /// How many distinct attributes (insufficient security on several handles).
    public var attributes: Int?
    /// Pairing: the method the features chose, and the last SMP PDU code before it stopped.
    public var method: PairingMethod?
    /// What the capture could not show (lowers an absence diagnosis to info).
    public var limit: CaptureLimit?
    /// Interference: the channels whose packet error rate stands out, and each one's rate in per mille.
    public var channels: [Int]?
    public var channelPerMille: [Int]?
    /// An isochronous stream's or group's problem (the LE Audio diagnoses).
    public var iso: ISOProblem?
    /// An audio stream's problem (the decoded-audio diagnoses).
    public var audio: AudioProblem?
    /// True when a later event on the same connection shows that the cause was dealt with (not used for grouping).
    public var recovered = false
    /// Why this is context rather than a fault (the diagnosis is then info).
    public var benign: Benign?

    public init() {}

    /// Keeps the facts of the first occurrence, filling what it lacked from a later one.
    mutating func absorb(_ o: DiagnosisFacts) {
        if silenceMicros == nil { silenceMicros = o.silenceMicros }
        if rssiFirst == nil { rssiFirst = o.rssiFirst; rssiLast = o.rssiLast }
        if location == nil { location = o.location }
        if let n = o.number { number = (number ?? 0) + n }
        if let n = o.attributes { attributes = max(attributes ?? 0, n) }
    }

    /// The facts that make two occurrences different diagnoses (beside id and peer).
    var groupKey: GroupKey {
        // An attribute is told by its UUIDs where discovery named it (the same characteristic on many peers
        // is one cause), else by its handle.
        let attribute = location.flatMap { l in l.descriptor?.uuid ?? l.characteristic?.uuid ?? l.service?.uuid }
        return GroupKey(reason: reason, opcode: opcode, handle: attribute == nil ? handle : nil, attribute: attribute, byLocal: byLocal,
                        weakness: weakness, problem: problem.map(CaptureProblemKind.init), psm: psm, stage: stage, iso: iso?.kind,
                        audio: audio?.key, benign: benign.map(BenignKind.init))
    }

    struct GroupKey: Hashable {
        var reason: UInt8?
        var opcode: UInt16?
        var handle: UInt16?
        var attribute: BLEUUID?
        var byLocal: Bool?
        var weakness: Weakness?
        var problem: CaptureProblemKind?
        var psm: UInt16?
        var stage: UInt8?
        var iso: Int?
        var audio: Int?
        var benign: BenignKind?
    }
}

/// A benign reason's kind, without its record (equal reasons group).
enum BenignKind: Hashable {
    case vendorCommand, optionalFeature, racedDisconnect, nothingToCancel, duplicate,
         streamOpenNotStarted, linkClosedFirst, peerUsedHandleZero

    init(_ b: Benign) {
        switch b {
        case .vendorCommand: self = .vendorCommand
        case .optionalFeature: self = .optionalFeature
        case .racedDisconnect: self = .racedDisconnect
        case .nothingToCancel: self = .nothingToCancel
        case .duplicate: self = .duplicate
        case .streamOpenNotStarted: self = .streamOpenNotStarted
        case .linkClosedFirst: self = .linkClosedFirst
        case .peerUsedHandleZero: self = .peerUsedHandleZero
        }
    }
}

/// A capture problem's kind, without its numbers (they are counted, not compared).
enum CaptureProblemKind: Hashable {
    case damaged, filtered, timeBackwards, timeJump, alreadyOpen, snifferLoss

    init(_ p: CaptureProblem) {
        switch p {
        case .damaged: self = .damaged
        case .filtered: self = .filtered
        case .timeBackwards: self = .timeBackwards
        case .timeJump: self = .timeJump
        case .alreadyOpen: self = .alreadyOpen
        case .snifferLoss: self = .snifferLoss
        }
    }
}
