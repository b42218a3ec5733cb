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

/// One line of the timeline: a decoded packet (or note) with its layer's fields.
public struct TraceEvent: Sendable {
    public var record: Int
    public var timestamp: Timestamp
    public var direction: Direction
    public var kind: EventKind
    /// The connection handle the packet belongs to, where it has one.
    public var handle: UInt16?
    /// The connection's sequence number in this capture (1, 2, …); a reused handle gets a new one.
    public var connection: Int?
    /// One-line human summary (the text timeline).
    public var summary: String
    /// Layer name → decoded fields, in output order ("hci", "l2cap", "att", "gatt", …).
    public var layers: [(String, Fields)]
    /// Why the packet could not be decoded, if it could not.
    public var malformed: String?

    public init(record: Int, timestamp: Timestamp, direction: Direction, kind: EventKind, handle: UInt16? = nil,
                connection: Int? = nil, summary: String, layers: [(String, Fields)] = [], malformed: String? = nil) {
        self.record = record
        self.timestamp = timestamp
        self.direction = direction
        self.kind = kind
        self.handle = handle
        self.connection = connection
        self.summary = summary
        self.layers = layers
        self.malformed = malformed
    }

    public func layer(_ name: String) -> Fields? { layers.first(where: { $0.0 == name })?.1 }
}
