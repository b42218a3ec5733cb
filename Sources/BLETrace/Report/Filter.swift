/// Which events `analyze` shows. Filters only choose what is rendered: every record is still decoded, so
/// connections, GATT databases and the summary are built from the whole capture.
public struct EventFilter: Sendable {
    /// Addresses (`AA:BB:CC:DD:EE:FF`) or advertised names (case-insensitive; a shortened name matches the
    /// names it abbreviates); an event matches when it belongs to a connection with the device, is an
    /// advert from it, or names its address. A name is known from the first advert that carries it on.
    public var devices: [String] = []
    public var connections: Set<Int> = []
    /// Seconds since the first record.
    public var from: Double?
    public var to: Double?
    public var records: ClosedRange<Int>?
    /// `hci`, `adv`, `att`, `smp`, `l2cap` (also signaling and ACL fragments), or any event kind.
    public var layers: Set<String> = []

    public init() {}

    public var isEmpty: Bool {
        devices.isEmpty && connections.isEmpty && from == nil && to == nil && records == nil && layers.isEmpty
    }

    /// "100-200", "100-" or "-200", or a single record "150".
    public static func parseRecords(_ s: String) -> ClosedRange<Int>? {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 1, let n = Int(parts[0]), n >= 1 { return n...n }
        guard parts.count == 2 else { return nil }
        let lo = parts[0].isEmpty ? 1 : Int(parts[0])
        let hi = parts[1].isEmpty ? Int.max : Int(parts[1])
        guard let a = lo, let b = hi, a >= 1, a <= b else { return nil }
        return a...b
    }

    public static let layerNames = ["hci", "adv", "att", "smp", "l2cap"]

    static func layer(of kind: EventKind) -> String {
        switch kind {
        case .hciCommand, .hciEvent: return "hci"
        case .acl, .l2cap, .signaling: return "l2cap"
        default: return kind.rawValue
        }
    }
}

/// Passes on the events an `EventFilter` selects; the summary always.
public final class FilterSink: EventSink {
    public let filter: EventFilter
    let next: EventSink
    /// The pipeline, for the peers of connections (set once the analyzer exists).
    public weak var pipeline: Pipeline?
    var addresses = Set<BDAddr>()
    var names = Set<String>()
    var origin: Timestamp?
    /// Called with the first record's time, shown or not: renderers measure relative time from it.
    public var onFirst: ((Timestamp) -> Void)?

    public init(filter: EventFilter, next: EventSink) {
        self.filter = filter
        self.next = next
        for d in filter.devices {
            if let a = BDAddr(string: d) { addresses.insert(a) } else { names.insert(d.lowercased()) }
        }
    }

    public func begin(_ capture: CaptureInfo) { next.begin(capture) }

    public func event(_ e: TraceEvent) {
        if origin == nil {
            origin = e.timestamp
            onFirst?(e.timestamp)
        }
        if matches(e) { next.event(e) }
    }

    public func end(_ summary: Summary) { next.end(summary) }

    func matches(_ e: TraceEvent) -> Bool {
        let f = filter
        if let r = f.records, !r.contains(e.record) { return false }
        if let o = origin {
            let t = Double(e.timestamp.micros - o.micros) / 1_000_000
            if let from = f.from, t < from { return false }
            if let to = f.to, t > to { return false }
        }
        if !f.layers.isEmpty && !f.layers.contains(EventFilter.layer(of: e.kind)) && !f.layers.contains(e.kind.rawValue) { return false }
        if !f.connections.isEmpty {
            guard let c = e.connection, f.connections.contains(c) else { return false }
        }
        if !f.devices.isEmpty && !matchesDevice(e) { return false }
        return true
    }

    func matchesDevice(_ e: TraceEvent) -> Bool {
        if case let .adv(adv) = e.body {
            var hit = false
            for (i, r) in adv.reports.enumerated() {
                let a = r.address
                let o = adv.outcome(i)
                if !names.isEmpty, !isPartial(o) {
                    for ad in ADSequence(AdvertisingBody.completeData(r, o)) where ad.malformed == nil && (ad.type == 0x08 || ad.type == 0x09) {
                        let n = ADDecode.utf8(ad.data).lowercased()
                        guard !n.isEmpty else { continue }
                        // A shortened name (AD type 0x08) matches the names it abbreviates.
                        if names.contains(n) || (ad.type == 0x08 && names.contains { $0.hasPrefix(n) }) { addresses.insert(a) }
                    }
                }
                if addresses.contains(a) { hit = true }
            }
            if hit { return true }
        }
        if let id = e.connection, let p = pipeline, let peer = p.connections.connection(id: id)?.peer, addresses.contains(peer) {
            return true
        }
        if case let .hciEvent(hci) = e.body {
            var hit = false
            hci.forEachAddress { if addresses.contains($0) { hit = true } }
            if hit { return true }
        }
        if case let .hciCommand(c) = e.body {
            var hit = false
            c.forEachAddress { if addresses.contains($0) { hit = true } }
            if hit { return true }
        }
        return false
    }

    func isPartial(_ o: ExtendedAdvertisingReassembler.Outcome) -> Bool {
        if case .partial = o { return true }
        return false
    }
}
