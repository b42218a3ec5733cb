/// A decoded ATT PDU: the typed body of its event. It holds facts only (the parsed PDU with its values as
/// slices of the record, the GATT location of the handle it is about, the transaction it belongs to, the value
/// a dissector decoded); names and text are made by the renderer (`Report/Layers/ATTEventRender.swift`) when
/// something prints them.
public struct ATTEvent: Sendable {
    public enum Content: Sendable {
        /// A frame with no opcode byte.
        case empty
        /// A PDU whose parameters did not fit its opcode's layout: the opcode, why, and the whole PDU.
        case malformed(opcode: UInt8, reason: String, data: ArraySlice<UInt8>)
        case pdu(ATTPDU)
    }

    public var content: Content
    /// The bearer's CID: 0x0004, or an EATT channel's.
    public var bearer: UInt16
    /// True when the peer is the GATT server of this PDU's database (false: the local host serves it).
    public var peerIsServer = true
    /// The attribute handle the PDU is about: its own, or (for a response) its request's.
    public var handle: UInt16?
    /// Where `handle` sits in the server's database as known when the PDU was decoded: the database's entry,
    /// shared by reference.
    public var locationRef: GATTLocationRef?
    /// Where `handle` sits in the server's database as known when the PDU was decoded.
    public var location: GATTLocation? {
        get { locationRef?.location }
        set { locationRef = newValue.map(GATTLocationRef.init) }
    }
    /// The value the PDU carries (or, for an Error Response, the service's error code), as a dissector decoded it.
    public var decoded: Dissection?
    /// Where the PDU stands in its transaction: the request it answers, the response it got, or why neither.
    public var transaction: ATTTransaction?
    /// Exchange MTU Response answering a request: the ATT_MTU the two MTUs give.
    public var attMTU: UInt16?
    /// EATT (a PDU handed over by the LE signaling layer): bytes that followed the SDU in its K-frame.
    public var eattBeyond: Int32?
    /// The rarer facts: per-entry locations and values of multi-value PDUs, long values, executed writes.
    public var extra: ATTExtra?
    /// The names of a `--uuids` file the run used (shared, not copied): the renderer names UUIDs with them,
    /// also when it runs outside the analysis (a background renderer's thread).
    public var userNames: [BLEUUID: String]?

    public init(_ content: Content, bearer: UInt16) {
        self.content = content
        self.bearer = bearer
    }

    public var kind: EventKind { .att }

    /// A response: the request it answers, and the time since it.
    public var request: ATTLink? {
        get { if case let .answers(l)? = transaction { return l }; return nil }
        set { transaction = newValue.map { .answers($0) } }
    }

    /// A request: its response and the time to it, filled in once the response is seen.
    public var response: ATTLink? {
        get { if case let .answeredBy(l)? = transaction { return l }; return nil }
        set { transaction = newValue.map { .answeredBy($0) } }
    }

    /// A response or confirmation that answers no pending request.
    public var unexpected: ATTUnexpected? {
        get { if case let .unexpected(u)? = transaction { return u }; return nil }
        set { transaction = newValue.map { .unexpected($0) } }
    }

    /// A request or indication that got no answer, filled in once that is known.
    public var unanswered: ATTUnanswered? {
        get { if case let .unanswered(u)? = transaction { return u }; return nil }
        set { transaction = newValue.map { .unanswered($0) } }
    }

    /// A Read By Type Request's attribute type, for its response.
    public var requestType: BLEUUID? { extra?.requestType }
    /// A Read Multiple (Variable) Request's handles, for its response.
    public var requestHandles: [UInt16]? { extra?.requestHandles }

    /// The PDU, when it parsed.
    public var pdu: ATTPDU? {
        if case let .pdu(p) = content { return p }
        return nil
    }

    /// The opcode, when there is one.
    public var opcode: UInt8? {
        switch content {
        case .empty: return nil
        case let .malformed(op, _, _): return op
        case let .pdu(p): return p.opcode
        }
    }

    /// True for PDUs a GATT client sends (JSON `role`).
    public var fromClient: Bool { ATTNames.sentByClient(opcode ?? 0) }

    /// True when `malformedReason` is set.
    var isMalformed: Bool {
        if case .pdu = content { return false }
        return true
    }

    public var malformedReason: String? {
        switch content {
        case .empty: return "empty ATT PDU"
        case let .malformed(_, reason, _): return reason
        case .pdu: return nil
        }
    }

    /// The attribute value the PDU carries, reassembled when it is a long one (JSON `long_value`, else `value`).
    public var fullValue: ArraySlice<UInt8>? {
        if let l = extra?.longValue { return l.bytes[...] }
        return pdu?.value
    }

    /// The decoded value the `att` layer shows (JSON `att.decoded`): the PDU's, or the reassembled long value's.
    public var decodedValue: Dissection? { decoded ?? extra?.longValue?.decoded }

    /// Where the handle sits, when the event shows it (JSON `gatt`): known and not empty.
    public var gattLocation: GATTLocation? {
        guard handle != nil, let l = location, !l.isEmpty else { return nil }
        return l
    }

    /// A Characteristic declaration's value: properties, value handle, UUID (Core 5.4 Vol 3 Part G 3.3.1).
    public static func characteristicDeclaration(_ v: ArraySlice<UInt8>) -> (properties: UInt8, valueHandle: UInt16, uuid: BLEUUID)? {
        var c = ByteCursor(v)
        guard let p = try? c.u8(), let vh = try? c.u16le(), let u = BLEUUID(littleEndian: c.rest()) else { return nil }
        return (p, vh, u)
    }

    /// An Include declaration's value: the included service's handles and its 16-bit UUID when present.
    public static func includeDeclaration(_ v: ArraySlice<UInt8>) -> (start: UInt16, end: UInt16, uuid: BLEUUID?)? {
        var c = ByteCursor(v)
        guard let a = try? c.u16le(), let b = try? c.u16le() else { return nil }
        return (a, b, BLEUUID(littleEndian: c.rest()))
    }

    /// The (handle, value) pairs of a Read By Type Response that are attribute values rather than
    /// characteristic or include declarations the request asked for.
    public func readByTypeValues(_ body: (UInt16, ArraySlice<UInt8>) -> Void) {
        guard case let .pdu(.readByTypeResponse(entries)) = content else { return }
        let t = requestType?.uuid16
        for en in entries {
            if t == 0x2803, ATTEvent.characteristicDeclaration(en.value) != nil { continue }
            if t == 0x2802, ATTEvent.includeDeclaration(en.value) != nil { continue }
            body(en.handle, en.value)
        }
    }
}

/// Where an ATT PDU stands in its transaction (a PDU is a request or a response, never both).
public enum ATTTransaction: Sendable, Equatable {
    /// A response or confirmation: the request or indication it answers.
    case answers(ATTLink)
    /// A request or indication: its response or confirmation.
    case answeredBy(ATTLink)
    case unexpected(ATTUnexpected)
    case unanswered(ATTUnanswered)
}

/// The other record of a transaction, and the time between the two.
public struct ATTLink: Sendable, Equatable {
    public var record: Int
    /// Nil when the capture's time went backwards between the two (a negative time is not a latency).
    public var latencyMicros: Int64?
}

/// Why a response or confirmation answers nothing.
public enum ATTUnexpected: Sendable, Equatable {
    /// No request (or indication) was pending on the bearer.
    case nothingPending(indication: Bool)
    /// The pending request is another one: its opcode and record.
    case mismatch(requestOpcode: UInt8, record: Int)

    public var reason: String {
        switch self {
        case let .nothingPending(ind): return "no \(ind ? "indication" : "request") pending"
        case let .mismatch(op, record): return "does not answer the pending \(ATTNames.opcode(op)) (record \(record))"
        }
    }
}

/// Why a request or indication got no answer.
public enum ATTUnanswered: Sendable, Equatable {
    /// Another one came first on the same bearer: its record.
    case superseded(by: Int, indication: Bool)
    case timeout
    case connectionClosed
    case endOfCapture

    public var reason: String {
        switch self {
        case let .superseded(r, ind): return "a new \(ind ? "indication" : "request") (record \(r)) came before any response"
        case .timeout: return "no response within 30 s (ATT timeout)"
        case .connectionClosed: return "the connection closed before any response"
        case .endOfCapture: return "no response before the end of the capture"
        }
    }
}

/// One attribute of a multi-attribute PDU: its handle, where it sits, and its decoded value.
public struct ATTEntryFacts: Sendable {
    public var handle: UInt16
    public var location: GATTLocation
    public var decoded: Dissection?
    /// The entry's part of a Read Multiple Response (which carries no lengths of its own), once split.
    public var value: ArraySlice<UInt8>? = nil
}

/// A long value reassembled from Read Blob Responses.
public struct ATTLongValue: Sendable {
    public var bytes: [UInt8]
    public var offset: UInt16
    public var decoded: Dissection?
}

/// A value written by an Execute Write Request, from the queued Prepare Write Requests.
public struct ATTWrite: Sendable {
    public var handle: UInt16
    public var value: [UInt8]
    public var location: GATTLocation
    public var decoded: Dissection?
}

/// Facts only some PDUs have, kept out of line so that the common event stays small.
public final class ATTExtra: Sendable {
    /// Entries of a multi-attribute PDU whose handle was looked up, by the PDU's entry index: Read By Type
    /// Response values (not declarations), Read Multiple (Variable) Request handles (the first 8), Read Multiple
    /// Variable Response values with a known handle, Multiple Handle Value Notification entries.
    public let entries: [ATTEntryFacts]
    public let longValue: ATTLongValue?
    /// Execute Write Request that writes: the values written, in order of first handle.
    public let writes: [ATTWrite]?
    /// What of the request a response is read with: a Read By Type Request's attribute type, a Read Multiple
    /// (Variable) Request's handles.
    public let requestType: BLEUUID?
    public let requestHandles: [UInt16]?

    public init(entries: [ATTEntryFacts] = [], longValue: ATTLongValue? = nil, writes: [ATTWrite]? = nil,
                requestType: BLEUUID? = nil, requestHandles: [UInt16]? = nil) {
        self.entries = entries
        self.longValue = longValue
        self.writes = writes
        self.requestType = requestType
        self.requestHandles = requestHandles
    }
}
