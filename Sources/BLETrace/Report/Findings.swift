/// Something in a capture that a bug ticket should lead with: an ATT error, a request never answered, a
/// failed pairing, a malformed packet, a connection that failed or ended for a reason that means failure.
public struct Finding: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case connectionFailed = "connection_failed"
        case disconnect
        case pairingFailed = "pairing_failed"
        case encryptionFailed = "encryption_failed"
        case attError = "att_error"
        case unanswered = "unanswered_request"
        case malformed
        case l2cap

        /// Heading used in text and Markdown.
        public var title: String {
            switch self {
            case .connectionFailed: return "Connection failed"
            case .disconnect: return "Disconnect"
            case .pairingFailed: return "Pairing failed"
            case .encryptionFailed: return "Encryption failed"
            case .attError: return "ATT error"
            case .unanswered: return "Unanswered request"
            case .malformed: return "Malformed packet"
            case .l2cap: return "L2CAP problem"
            }
        }
    }

    public var kind: Kind
    public var record: Int
    public var connection: Int?
    public var text: String

    public var fields: Fields {
        var f = Fields()
        f.add("record", record)
        f.add("kind", kind.rawValue)
        if let c = connection { f.add("connection", c) }
        f.add("text", text)
        return f
    }

    /// "record 88, connection #1: ATT error: …"
    public var line: String {
        "record \(record)" + (connection.map { ", connection #\($0)" } ?? "") + ": \(kind.title): \(text)"
    }
}

/// Collects findings from the finished events as they stream past (so held requests arrive with their
/// `unanswered` reason), and lists them first in the summary.
public final class Findings: AnalysisLayer {
    /// Disconnect reasons that mean something went wrong (Core 5.4 Vol 1 Part F): authentication failure,
    /// PIN or key missing, connection (supervision) timeout, unspecified error, LL response timeout, instant
    /// passed, unacceptable connection parameters, MIC failure, connection failed to be established.
    public static let failureReasons: Set<UInt8> = [0x05, 0x06, 0x08, 0x1F, 0x22, 0x28, 0x3B, 0x3D, 0x3E]
    /// ATT requests used by discovery: an Attribute Not Found answer is their normal end, not an error.
    static let discoveryOpcodes: Set<Int> = [0x04, 0x06, 0x08, 0x10]
    static let maxListed = 1000

    @exclusivity(unchecked) public private(set) var list: [Finding] = []
    @exclusivity(unchecked) public private(set) var count = 0

    public init() {}

    /// The connections, to tell which ones have an unknown transport (held strongly: the tracker refers to no
    /// layer, and a weakly held object's retains take the slow path).
    var tracker: ConnectionTracker?

    weak var pipeline: Pipeline?
    var pipelineStats: CaptureStats? { pipeline?.stats }

    public func attach(to pipeline: Pipeline) {
        self.pipeline = pipeline
        tracker = pipeline.connections
    }

    /// Counts a finding, and lists it while the list has room. Its text is made only when it is listed: a capture
    /// with thousands of ATT errors makes the first thousand texts, not all.
    func add(_ kind: Finding.Kind, _ e: TraceEvent, _ text: @autoclosure () -> String) {
        // ACL data on a handle whose transport is unknown (a vendor pseudo-handle) is not known to be what it
        // decodes as: it raises no findings.
        if e.acl != nil, let id = e.connection, let c = tracker?.connection(id: id), !c.transportKnown { return }
        count += 1
        if list.count < Findings.maxListed { list.append(Finding(kind: kind, record: e.record, connection: e.connection, text: text())) }
    }

    /// A finished event on its own (the chain lends the body's payload to the per-kind readers below instead).
    public func observe(_ e: TraceEvent) {
        switch e.body {
        case let .att(a): att(a, e)
        case let .smp(x): smp(x, e)
        case let .hciEvent(h): hciEvent(h, e)
        case let .adv(x): adv(x, e)
        case let .signaling(x): signaling(x, e)
        case let .aclProblem(p): aclProblem(p, e)
        case let .malformed(m): malformed(m, e)
        case let .linkLayer(l): linkLayer(l, e)
        default: other(e)
        }
    }

    // Most events (adverts, reads, notifications) make no finding and cost one look at their payload.

    func att(_ a: ATTEvent, _ e: TraceEvent) {
        if let m = a.malformedReason { add(.malformed, e, "att: \(m)") }
        if observeATT(a, e), let w = e.warning { add(.l2cap, e, w) }
    }

    func smp(_ smp: SMPBody, _ e: TraceEvent) {
        if let m = smp.malformedReason { add(.malformed, e, "smp: \(m)") }
        // Only a Pairing Failed goes on to the frame's warning.
        guard case let .pdu(.pairingFailed(reason)) = smp.content else { return }
        let by = e.direction == .hostToController ? "sent by the local host" : e.direction == .controllerToHost ? "sent by the peer" : ""
        add(.pairingFailed, e, SMPNames.failReason(reason) + (by.isEmpty ? "" : " (\(by))"))
        other(e)
    }

    func hciEvent(_ hci: HCIEventBody, _ e: TraceEvent) {
        switch hci.params {
        case let .disconnectionComplete(status, h, reason):
            guard status == 0, Findings.failureReasons.contains(reason) else { return }
            add(.disconnect, e, "handle \(Hex.hex(h, width: 4)) disconnected: \(HCIText.status(reason)) (\(Hex.hex(reason, width: 2)))")
        case let .connectionComplete(status, _, a, _, _):
            connectionFailed(status, a, e)
        case let .le(sub, .connectionComplete(c)) where sub == 0x01 || sub == 0x0A:
            connectionFailed(c.status, c.peer, e)
        case let .encryptionChange(status, h, _, _) where hci.code == 0x08, let .encryptionKeyRefresh(status, h):
            guard status != 0 else { return }
            add(.encryptionFailed, e, "handle \(Hex.hex(h, width: 4)): \(HCIText.status(status)) (\(Hex.hex(status, width: 2)))")
        default:
            return
        }
    }

    func adv(_ x: AdvertisingBody, _ e: TraceEvent) {
        // The reason is made only for a finding that is listed.
        if x.isMalformed { add(.malformed, e, x.malformedReason(after: "adv: ") ?? "adv: ") }
        other(e)
    }

    func signaling(_ x: SignalingBody, _ e: TraceEvent) {
        if let m = x.malformedReason { add(.malformed, e, "\(x.kind.rawValue): \(m)") }
        other(e)
    }

    func aclProblem(_ p: ACLProblem, _ e: TraceEvent) {
        add(.malformed, e, "acl: \(p.reason)")
        other(e)
    }

    func malformed(_ m: Malformed, _ e: TraceEvent) {
        add(.malformed, e, "\(m.kind.rawValue): \(m.reason)")
        other(e)
    }

    func linkLayer(_ ll: LinkLayerBody, _ e: TraceEvent) {
        if case let .problem(reason, _) = ll.content {
            add(.l2cap, e, e.warning ?? reason)
            return
        }
        other(e)
    }

    /// Any other event: its frame's warning.
    @inline(__always) func other(_ e: TraceEvent) {
        if let w = e.warning { add(.l2cap, e, w) }
    }

    /// The ATT findings of an event; false when the event can make no other (no PDU, or a discovery's end).
    func observeATT(_ a: ATTEvent, _ e: TraceEvent) -> Bool {
        // The PDU's cases matched in place, binding only their numbers: a PDU bound whole is a copy of it.
        guard case .pdu = a.content else { return false }
        // What the finding is about, written only for the events that make one, into the text being made (a
        // string made by concatenation cost several thousand instructions).
        func target(_ b: inout TextBytes) { GATTContextRender.writeTarget(handle: a.handle, a.handle == nil ? nil : a.location, into: &b) }
        if case let .pdu(.errorResponse(req, _, code)) = a.content {
            if code == 0x0A && Findings.discoveryOpcodes.contains(Int(req)) { return false }
            add(.attError, e, TextBytes.string { b in
                b.append(string: ATTNames.opcode(req))
                b.append(UInt8(ascii: " "))
                target(&b)
                b.append(string: ": ")
                b.append(string: a.errorName(code))
                b.append(string: " (")
                b.append(hex: UInt64(code), width: 2)
                b.append(UInt8(ascii: ")"))
            })
        }
        if let why = a.unanswered?.reason {
            add(.unanswered, e, TextBytes.string { b in
                b.append(string: ATTNames.opcode(a.opcode ?? 0))
                let n = b.count
                b.append(UInt8(ascii: " "))
                target(&b)
                // No target: the name alone.
                if b.count == n &+ 1 { b.removeSubrange(n...) }
                b.append(string: ": ")
                b.append(string: why)
            })
        }
        return true
    }

    /// A connection complete event that reports a failure: the peer (when the event names one) and the status.
    func connectionFailed(_ status: UInt8, _ peer: BDAddr, _ e: TraceEvent) {
        // 0x02 (Unknown Connection Identifier) is how a cancelled LE Create Connection ends: the host's choice.
        guard status != 0, status != 0x02 else { return }
        add(.connectionFailed, e, (peer.value == 0 ? "" : "to \(peer): ") + "\(HCIText.status(status)) (\(Hex.hex(status, width: 2)))")
    }

    public func summary() -> SummarySection? {
        return SummarySection(name: "findings", value: { [self] in
            var f = Fields()
            f.add("count", count)
            f.add("list", .list(list.map { .object($0.fields) }))
            f.add("groups", .list(Findings.groups(list, peer: peerName).map { .object($0.fields) }))
            return .object(f)
        }, text: { [self] in Findings.text(list, count: count, peer: peerName, malformedCounted: (pipelineStats?.malformed ?? 0) > 0) })
    }

    static let noneText = "  Findings:    none"

    /// Identical findings (same kind and text, so the same attribute or reason), as one whatever the peer: 2,000
    /// sessions with the same ATT error are one line, as diagnoses are.
    public struct Group: Sendable, Equatable {
        public var kind: Finding.Kind
        public var text: String
        /// The peer, while all of the group's findings had the same one; nil once a second peer joined.
        public var peer: String?
        /// How many different peers.
        public var peerCount = 0
        public var count: Int
        public var firstRecord: Int
        public var lastRecord: Int
        /// The connections it was seen on (at most 32).
        public var connections: [Int]

        public var fields: Fields {
            var f = Fields()
            f.add("kind", kind.rawValue)
            f.add("text", text)
            f.add("peer", peer.map { .string($0) } ?? .null)
            f.add("count", count)
            f.add("first_record", firstRecord)
            f.add("last_record", lastRecord)
            f.add("connections", .list(connections.map { .int($0) }))
            return f
        }

        /// "records 12–480 (3×), connections #1, #2: ATT error: …"
        public var line: String {
            var s = count == 1 ? "record \(firstRecord)" : "records \(firstRecord)–\(lastRecord) (\(count)×)"
            if !connections.isEmpty { s += (connections.count == 1 ? ", connection " : ", connections ") + connections.map { "#\($0)" }.joined(separator: ", ") }
            if peerCount > 1 { s += ", \(peerCount) peers" }
            return s + ": \(kind.title): \(text)"
        }
    }

    /// The listed findings grouped, in order of first appearance. `peers` names each connection's peer.
    public static func groups(_ list: [Finding], peer: (Int) -> String?) -> [Group] {
        // Hashed by a fold of the text's bytes (hashing the text itself cost more than the rest of a finding's
        // grouping); told apart by the text.
        struct Key: Hashable {
            var kind: Finding.Kind
            var text: String
            func hash(into h: inout Hasher) {
                h.combine(kind)
                h.combine(ByteScan.fold(text))
            }
        }
        struct PeerKey: Hashable {
            var group: Int
            var peer: String
            func hash(into h: inout Hasher) {
                h.combine(group)
                h.combine(ByteScan.fold(peer))
            }
        }
        var out: [Group] = []
        var index: [Key: Int] = [:]
        // Each group's peers, told apart by group and peer (the list is bounded, so is this).
        var seen = Set<PeerKey>()
        for f in list {
            let p = f.connection.flatMap(peer)
            let key = Key(kind: f.kind, text: f.text)
            // (A lookup with a default through `inout` ran the dictionary's modify coroutine, whose frame was
            // allocated: one allocation a finding.)
            if let i = index[key] {
                out[i].count += 1
                out[i].lastRecord = max(out[i].lastRecord, f.record)
                if let c = f.connection, !out[i].connections.contains(c), out[i].connections.count < 32 { out[i].connections.append(c) }
                if let p, seen.insert(PeerKey(group: i, peer: p)).inserted {
                    out[i].peerCount += 1
                    out[i].peer = nil
                }
            } else {
                let i = out.count
                index[key] = i
                var g = Group(kind: f.kind, text: f.text, peer: p, count: 1, firstRecord: f.record, lastRecord: f.record,
                              connections: f.connection.map { [$0] } ?? [])
                if let p {
                    seen.insert(PeerKey(group: i, peer: p))
                    g.peerCount = 1
                }
                out.append(g)
            }
        }
        return out
    }

    func peerName(_ id: Int) -> String? { tracker?.connection(id: id)?.peer?.description }

    public static func text(_ list: [Finding], count: Int, limit: Int = 50, peer: (Int) -> String? = { _ in nil },
                            malformedCounted: Bool = false) -> [String] {
        guard count > 0 else {
            // Malformed packets on a vendor's pseudo-handle are counted (Malformed:) but are not findings.
            return [noneText + (malformedCounted ? " (no ATT errors, unanswered requests, failed pairings or failure disconnects)"
                                : " (no ATT errors, unanswered requests, failed pairings, malformed packets or failure disconnects)")]
        }
        let groups = groups(list, peer: peer)
        var lines = ["  Findings:    \(count)" + (groups.count < list.count ? " (\(groups.count) distinct)" : "")]
        for g in groups.prefix(limit) { lines.append("    " + g.line) }
        if groups.count > limit { lines.append("    … \(groups.count - limit) more (see the JSON summary)") }
        if count > list.count { lines.append("    … \(count - list.count) more not listed (the first \(list.count) are grouped above)") }
        return lines
    }
}
