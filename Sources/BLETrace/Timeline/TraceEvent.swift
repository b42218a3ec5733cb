/// What layer an event belongs to; also its `kind` in JSON.
public enum EventKind: String, Sendable, CaseIterable {
    case hciCommand = "hci_command"
    case hciEvent = "hci_event"
    case acl
    case sco
    case iso
    case l2cap
    case att
    case smp
    case signaling
    case adv
    case linkLayer = "link_layer"
    case vendor
    case note
    case malformed
}

extension EventKind {
    /// `rawValue` as static bytes (the JSON writer copies them without looking at a String).
    var jsonName: StaticString {
        switch self {
        case .hciCommand: return "hci_command"
        case .hciEvent: return "hci_event"
        case .acl: return "acl"
        case .sco: return "sco"
        case .iso: return "iso"
        case .l2cap: return "l2cap"
        case .att: return "att"
        case .smp: return "smp"
        case .signaling: return "signaling"
        case .adv: return "adv"
        case .linkLayer: return "link_layer"
        case .vendor: return "vendor"
        case .note: return "note"
        case .malformed: return "malformed"
        }
    }

    /// Position in `allCases`.
    var index: Int {
        switch self {
        case .hciCommand: return 0
        case .hciEvent: return 1
        case .acl: return 2
        case .sco: return 3
        case .iso: return 4
        case .l2cap: return 5
        case .att: return 6
        case .smp: return 7
        case .signaling: return 8
        case .adv: return 9
        case .linkLayer: return 10
        case .vendor: return 11
        case .note: return 12
        case .malformed: return 13
        }
    }
}

/// One event of the timeline: the record's facts (number, time, direction, connection), the transport it
/// came over (ACL and L2CAP headers) and a typed `body`. Names and text are made from it by the renderers
/// (`EventText`, `EventJSON`), only when something prints them.
public struct TraceEvent: Sendable {
    public var record: Int
    public var timestamp: Timestamp
    public var direction: Direction
    /// The connection handle the packet belongs to, where it has one.
    public var handle: UInt16?
    /// The connection's sequence number in this capture (1, 2, …); a reused handle gets a new one.
    public var connection: Int?
    /// The sniffer's link-layer packet that carried this event's L2CAP frame or advertising PDU (sniffer
    /// captures): shown first, as the `sniffer` and `ll` layers.
    public var radio: LinkLayerFacts?
    /// The ACL data header, for events decoded from ACL data.
    public var acl: ACLHeader?
    /// The L2CAP basic header of a complete frame, for events decoded from one.
    public var l2cap: L2CAPHeader?
    /// Something odd about how the frame arrived (fragments left over), shown after the body.
    public var warning: String?
    /// Set when the capture kept fewer bytes than the packet had and the body was still decoded.
    public var cut: CutShort?
    /// What the packet is, decoded.
    public var body: EventBody

    public init(record: Int, timestamp: Timestamp, direction: Direction, body: EventBody, handle: UInt16? = nil,
                connection: Int? = nil) {
        self.record = record
        self.timestamp = timestamp
        self.direction = direction
        self.handle = handle
        self.connection = connection
        self.body = body
    }

    public var kind: EventKind { body.kind }

    /// Moves the body out, leaving `EventBody.empty` in its place: its bytes are moved, nothing is retained. A
    /// match on a body still in an event copies the whole body first (`Chain.finished`); a match on one taken
    /// out does not.
    @inline(__always) mutating func takeBody() -> EventBody {
        moveOut(&body, leaving: .empty)
    }

    /// Why the packet could not be decoded, if it could not.
    public var malformed: String? { body.malformedReason }

    /// The one-line text of the timeline, as the text renderer writes it (made on each use).
    public var summary: String { EventText.string(self) }

    /// The event's layers as JSON shows them, as a field tree (made on each use: for tests and tools; the
    /// renderers write the typed values directly).
    public var layers: [(String, Fields)] { EventJSON.layerFields(self) }

    /// True when the capture cut the packet short and it is shown as what is left.
    var isFiltered: Bool {
        if case .filtered = body { return true }
        return false
    }

    public func layer(_ name: String) -> Fields? { layers.first(where: { $0.0 == name })?.1 }
}

/// The ACL data packet header (Core 5.4 Vol 4 Part E 5.4.2).
public struct ACLHeader: Sendable, Equatable {
    public var handle: UInt16
    public var boundary: UInt8
    public var broadcast: UInt8
    public var length: UInt16
}

/// The L2CAP basic header of a reassembled frame, with how it was reassembled.
public struct L2CAPHeader: Sendable, Equatable {
    public var cid: UInt16
    public var length: Int
    /// ACL packets the frame came in (1 when it was not fragmented).
    public var fragments: Int
    public var firstRecord: Int
    /// The PSM of the dynamic channel, when its opening was seen.
    public var psm: UInt16?
    /// The dynamic channel as one thing: its requester's source CID, whichever of its two CIDs this frame
    /// carried (when its opening was seen).
    public var channel: UInt16?
    /// The SDU length field of a K-frame that starts an SDU.
    public var sduLength: Int?
    /// A complete SDU no decoder takes.
    public var sdu: ArraySlice<UInt8>?

    public init(cid: UInt16, length: Int, fragments: Int, firstRecord: Int) {
        self.cid = cid
        self.length = length
        self.fragments = fragments
        self.firstRecord = firstRecord
    }
}

/// A packet the capture kept only part of, decoded anyway.
public struct CutShort: Sendable, Equatable {
    public var captured: Int
    public var original: Int
}

/// What an event carries. Each layer's decoder makes its case; renderers and consumers switch over it.
public enum EventBody: Sendable {
    /// An ACL packet that starts or continues an L2CAP frame not yet complete.
    case aclFragment(ACLFragment)
    /// An ACL packet the reassembler could not place.
    case aclProblem(ACLProblem)
    /// A complete L2CAP frame on a channel no decoder claims.
    case l2cap(L2CAPPayload)
    case sco(length: Int)
    case iso(ISOHeader)
    /// A vendor-specific record (not a vendor HCI command or event, which decode as HCI).
    case vendor(ArraySlice<UInt8>)
    /// A packet that could not be decoded: the layer, the reason and the bytes.
    case malformed(Malformed)
    /// A packet the capture cut short (Android's filtered snoop log, snap length), shown as what is left.
    case filtered(Filtered)
    case hciCommand(HCICommandBody)
    case hciEvent(HCIEventBody)
    /// Advertising reports (HCI LE advertising report events, sniffed advertising PDUs).
    case adv(AdvertisingBody)
    case att(ATTEvent)
    case smp(SMPBody)
    case signaling(SignalingBody)
    case linkLayer(LinkLayerBody)
    case note(NoteBody)
    /// What the record is while its layer's decoder has not made the body yet (nothing to show); also the
    /// placeholder while a body is changed in place.
    case pending(EventKind)

    /// A placeholder body while one is changed in place.
    static var empty: EventBody { .pending(.vendor) }

    // `kind` binds a case's payload only where the answer depends on it.
    public var kind: EventKind {
        switch self {
        case .aclFragment, .aclProblem: return .acl
        case .l2cap: return .l2cap
        case .sco: return .sco
        case .iso: return .iso
        case .vendor: return .vendor
        case let .malformed(m): return m.kind
        case let .filtered(f): return f.kind
        case let .pending(k): return k
        case let .hciCommand(x): return x.kind
        case let .hciEvent(x): return x.kind
        case .adv: return .adv
        case .att: return .att
        case .smp: return .smp
        case let .signaling(x): return x.kind
        case .linkLayer: return .linkLayer
        case .note: return .note
        }
    }

    public var malformedReason: String? {
        switch self {
        case let .aclProblem(p): return p.reason
        case let .malformed(m): return m.reason
        // Each case by name: an existential of a body this large would be a heap box per call. HCI, link-layer
        // and note bodies are never malformed (their decoders make a `.malformed` body instead).
        case let .adv(x): return x.malformedReason
        case let .att(x): return x.malformedReason
        case let .smp(x): return x.malformedReason
        case let .signaling(x): return x.malformedReason
        default: return nil
        }
    }
}

public struct ACLFragment: Sendable, Equatable {
    public var start: Bool
    /// Bytes of the frame collected so far.
    public var have: Int
    /// The frame's length from its L2CAP header, or -1 while the header itself is incomplete.
    public var expected: Int
}

public struct ACLProblem: Sendable, Equatable {
    public var reason: String
    public var data: ArraySlice<UInt8>
}

public struct L2CAPPayload: Sendable, Equatable {
    public var payload: ArraySlice<UInt8>
    /// A dynamic channel whose opening the capture does not show.
    public var noOpening = false
}

/// An HCI ISO data packet's headers (Core 5.4 Vol 4 Part E 5.4.5): handle, packet boundary and time stamp
/// flags, the data length; and for the first fragment or a complete SDU its time stamp (when flagged), packet
/// sequence number, SDU length and packet status flag. Parsed by `ISOData`.
public struct ISOHeader: Sendable, Equatable {
    public var handle: UInt16
    public var length: UInt16
    /// 0 first fragment of an SDU, 1 continuation, 2 a complete SDU, 3 last fragment.
    public var boundary: UInt8 = 2
    /// µs, in the controller's clock.
    public var timestamp: UInt32?
    public var sequence: UInt16?
    public var sduLength: UInt16?
    /// 0 valid data, 1 possibly invalid (errors), 2 lost (controller to host only).
    public var status: UInt8?
    /// The SDU bytes this packet carries.
    public var dataLength = 0

    public init(handle: UInt16, length: UInt16) {
        self.handle = handle
        self.length = length
    }

    /// The packet starts an SDU (first fragment or complete).
    public var startsSDU: Bool { boundary == 0 || boundary == 2 }
}

public struct Malformed: Sendable {
    /// The kind the event would have had.
    public var kind: EventKind
    /// The layer that failed, as text names it: "HCI command", "ACL", …
    public var layer: String
    public var reason: String
    public var data: ArraySlice<UInt8>
}

public struct Filtered: Sendable {
    public var kind: EventKind
    public var layer: String
    public var data: ArraySlice<UInt8>
    public var original: Int
}

/// A layer's typed event body. The decoder makes it; its text and JSON are written by the renderers'
/// extensions in `Report/` (names come from static tables there), only when something prints them.
public protocol LayerBody: Sendable {
    var kind: EventKind { get }
    /// Why the packet could not be decoded, if it could not.
    var malformedReason: String? { get }
    /// The body's part of the event's one-line text (before the frame's notes).
    func writeText(_ e: TraceEvent, into b: inout TextBytes)
    /// Text after the frame's notes, made from what later records added ("[response at record 9]").
    func writeLateText(_ e: TraceEvent, into b: inout TextBytes)
    /// The body's layers, as members of the event's JSON object (after `acl` and `l2cap`).
    func writeLayers<S: FieldSink>(_ e: TraceEvent, into s: inout S)
}

extension LayerBody {
    public var malformedReason: String? { nil }
    public func writeLateText(_ e: TraceEvent, into b: inout TextBytes) {}
}

/// Moves `value` out, leaving `placeholder` in its place: the bytes are moved, nothing is retained. For values of
/// address-only types (the event and its bodies, which hold a `Dissection`'s existential), where neither a match
/// on a value in place nor the `consume` operator avoids a copy.
@inline(__always) func moveOut<T>(_ value: inout T, leaving placeholder: T) -> T {
    withUnsafeMutablePointer(to: &value) { p in
        let v = p.move()
        p.initialize(to: placeholder)
        return v
    }
}
