/// A decoded SMP PDU: the typed body of its event. Names and text are made by the renderer
/// (`Report/Layers/SMPBodyRender.swift`) from the PDU and the pairing facts known when it was decoded.
public struct SMPBody: Sendable {
    public enum Content: Sendable {
        /// A frame with no code byte.
        case empty
        /// A PDU whose parameters did not parse: its code, why, and the whole PDU.
        case malformed(code: UInt8, reason: String, data: ArraySlice<UInt8>)
        case pdu(SMPPDU)
    }

    public var content: Content
    /// Pairing Response: the Pairing Request it answers, when the capture showed it.
    public var request: PairingFeatures?
    /// Key distribution PDUs: which side of the pairing sent the key.
    public var from: PairingSide?

    public init(_ content: Content, request: PairingFeatures? = nil, from: PairingSide? = nil) {
        self.content = content
        self.request = request
        self.from = from
    }

    /// Pairing Response after a Pairing Request: the association model the two derive.
    public var method: PairingMethodChoice? {
        guard let q = request, case let .pdu(.pairingResponse(r)) = content else { return nil }
        let m = PairingMethodTable.method(initiator: q, responder: r)
        return PairingMethodChoice(method: m.method, secureConnections: m.secureConnections, detail: m.detail)
    }

    public var kind: EventKind { .smp }

    /// The PDU, when it parsed.
    public var pdu: SMPPDU? {
        if case let .pdu(p) = content { return p }
        return nil
    }

    public var malformedReason: String? {
        switch content {
        case .empty: return "empty SMP PDU"
        case let .malformed(_, reason, _): return reason
        case .pdu: return nil
        }
    }
}

/// Which side of a pairing sent a PDU: the one that sent the Pairing Request is the initiator.
public enum PairingSide: UInt8, Sendable {
    case initiator, responder, unknown

    public var name: String {
        switch self {
        case .initiator: return "initiator"
        case .responder: return "responder"
        case .unknown: return "unknown side"
        }
    }
}

/// The association model, and for Passkey Entry who displays and who types (`PairingMethodTable`).
public struct PairingMethodChoice: Sendable, Equatable {
    public var method: PairingMethod
    public var secureConnections: Bool
    public var detail: String?
}
