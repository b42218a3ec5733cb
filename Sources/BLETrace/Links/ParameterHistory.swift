/// A link's connection parameter requests and what became of them: who asked (the local host with LE Connection
/// Update, the peer with an L2CAP Connection Parameter Update Request or through its link layer, which the
/// controller reports as LE Remote Connection Parameter Request), what was asked, the answer, and the parameters
/// LE Connection Update Complete applied.
public struct ParameterStep: Sendable, Equatable {
    public enum Asker: String, Sendable {
        /// The local host: LE Connection Update.
        case localHost = "local_host"
        /// The peer over L2CAP: Connection Parameter Update Request.
        case peerL2CAP = "peer_l2cap"
        /// The peer's link layer: LE Remote Connection Parameter Request.
        case peerLinkLayer = "peer_link_layer"
        /// Nobody seen asking: an LE Connection Update Complete alone (the central's controller, or a request the
        /// capture lacks).
        case unseen
    }

    public enum Outcome: Sendable, Equatable {
        case pending
        /// The request was answered yes (L2CAP result 0, or the host's reply to the controller).
        case accepted(record: Int)
        /// Answered no: the L2CAP result, or the host's negative reply with its reason.
        case rejected(record: Int, reason: Int)
        /// LE Connection Update Complete: the parameters in force from then on.
        case applied(record: Int, interval: Int, latency: Int, timeout: Int)
        /// LE Connection Update Complete, or the command's status, with an error.
        case failed(record: Int, status: UInt8)
    }

    public var record: Int
    public var asker: Asker
    public var intervalMin: Int?
    public var intervalMax: Int?
    public var latency: Int?
    public var timeout: Int?
    public var outcome: Outcome = .pending

    /// Still waiting for the update to complete.
    var open: Bool {
        switch outcome {
        case .pending, .accepted: return true
        default: return false
        }
    }
}

extension LinkStatistics {
    static let maxSteps = 64

    /// Appends a request to the link of `e`, bounded.
    func ask(_ step: ParameterStep, _ e: TraceEvent, handle: UInt16) {
        guard let i = linkIndex(handle: handle, e), links[i].parameters.count < LinkStatistics.maxSteps else { return }
        links[i].parameters.append(step)
    }

    /// Settles the link's latest open request, or records an update nobody was seen asking for.
    func settle(_ outcome: ParameterStep.Outcome, _ e: TraceEvent, handle: UInt16, applied: Bool) {
        guard let i = linkIndex(handle: handle, e) else { return }
        if let k = links[i].parameters.lastIndex(where: \.open) {
            // An answer settles a pending request; the completion settles a pending or accepted one.
            if applied || links[i].parameters[k].outcome == .pending { links[i].parameters[k].outcome = outcome }
        } else if applied, links[i].parameters.count < LinkStatistics.maxSteps {
            links[i].parameters.append(ParameterStep(record: e.record, asker: .unseen, outcome: outcome))
        }
    }

    /// LE signaling on an ACL frame (CID 0x0005): the peer's request, or the answer to it.
    func signaling(_ e: TraceEvent, handle: UInt16) {
        guard case let .signaling(s) = e.body, let c = s.command else { return }
        switch c {
        case let .connectionParameterUpdateRequest(minI, maxI, latency, timeout):
            let asker: ParameterStep.Asker = e.direction == .hostToController ? .localHost : .peerL2CAP
            ask(ParameterStep(record: e.record, asker: asker, intervalMin: Int(minI), intervalMax: Int(maxI), latency: Int(latency),
                              timeout: Int(timeout)), e, handle: handle)
        case let .connectionParameterUpdateResponse(result):
            settle(result == 0 ? .accepted(record: e.record) : .rejected(record: e.record, reason: Int(result)), e, handle: handle, applied: false)
        default:
            break
        }
    }

    /// HCI commands about parameters: LE Connection Update, and the host's answers to the peer's link layer.
    func command(_ c: HCICommandBody, _ e: TraceEvent) {
        switch c.params {
        case let .connectionUpdate(h, minI, maxI, latency, timeout):
            // After an accepted L2CAP request the host carries it out: the same request, not a new one.
            if let i = linkIndex(handle: h, e), let last = links[i].parameters.last, case .accepted = last.outcome { return }
            ask(ParameterStep(record: e.record, asker: .localHost, intervalMin: Int(minI), intervalMax: Int(maxI), latency: Int(latency),
                              timeout: Int(timeout)), e, handle: h)
        case let .other(p) where c.opcode == 0x2020 || c.opcode == 0x2021:
            var cur = ByteCursor(p)
            guard let h = try? cur.u16le() else { return }
            if c.opcode == 0x2020 {
                settle(.accepted(record: e.record), e, handle: h & 0x0FFF, applied: false)
            } else {
                _ = try? cur.u16le()
                settle(.rejected(record: e.record, reason: Int((try? cur.u8()) ?? 0)), e, handle: h & 0x0FFF, applied: false)
            }
        default:
            break
        }
    }

    /// LE Connection Update Complete and LE Remote Connection Parameter Request.
    func parameterEvent(_ ev: HCIEventBody, _ e: TraceEvent) {
        guard case let .le(_, meta) = ev.params else { return }
        switch meta {
        case let .connectionUpdate(status, h, interval, latency, timeout):
            let outcome: ParameterStep.Outcome = status == 0
                ? .applied(record: e.record, interval: Int(interval), latency: Int(latency), timeout: Int(timeout))
                : .failed(record: e.record, status: status)
            settle(outcome, e, handle: h, applied: true)
        case let .remoteConnectionParameterRequest(h, minI, maxI, latency, timeout):
            ask(ParameterStep(record: e.record, asker: .peerLinkLayer, intervalMin: Int(minI), intervalMax: Int(maxI), latency: Int(latency),
                              timeout: Int(timeout)), e, handle: h)
        default:
            break
        }
    }
}
