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
    /// Layers to show (`EventLayers.named`): an event is shown when it belongs to one of them (any, when empty)
    /// and to none of `hiddenLayers`.
    public var layers: EventLayers = []
    /// Layers to leave out (`--layer -flow`).
    public var hiddenLayers: EventLayers = []

    public init() {}

    public var isEmpty: Bool {
        devices.isEmpty && connections.isEmpty && from == nil && to == nil && records == nil && layers.isEmpty
            && hiddenLayers.isEmpty
    }

    /// Reads a `--layer` list: names to show, and names after `-` to leave out ("att,smp", "-flow,-vendor").
    /// Returns the word it does not know.
    public mutating func parseLayers(_ list: String) -> Result<Void, LayerError> {
        for raw in list.split(separator: ",") {
            var word = Substring(raw)
            while word.first == " " { word = word.dropFirst() }
            while word.last == " " { word = word.dropLast() }
            let hide = word.first == "-"
            if hide { word = word.dropFirst() }
            let name = word.lowercased()
            guard let l = EventLayers.named(name) else { return .failure(LayerError(word: String(raw))) }
            if hide { hiddenLayers.formUnion(l) } else { layers.formUnion(l) }
        }
        return .success(())
    }

    public struct LayerError: Error, Sendable {
        public var word: String
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

    /// The names `--layer` takes, for messages and `--help`.
    public static var layerNames: [String] { EventLayers.named.map(\.name) }
}

/// Passes on the events an `EventFilter` selects; the summary always. Every event reaches the device
/// resolver before any filter looks at it, so that filters compose: `--device NAME --layer att` selects the
/// device's ATT events although the adverts that name it are not shown.
public final class FilterSink: EventSink {
    public let filter: EventFilter
    let next: EventSink
    /// The pipeline, for the peers of connections (set once the analyzer exists).
    public weak var pipeline: Pipeline?
    /// Who `--device` means; share one with a first pass (`Redactor.learn(capture:observe:)`) to resolve
    /// names over the whole capture.
    public var resolver: DeviceResolver
    var origin: Timestamp?
    /// Events passed on.
    public private(set) var shown = 0
    /// Called with the first record's time, shown or not: renderers measure relative time from it.
    public var onFirst: ((Timestamp) -> Void)?
    /// Called with the time of each record the filters leave out: `--time delta` measures from the previous
    /// record of the capture, shown or not (the first row shown has its real delta, not 0).
    public var onHidden: ((Timestamp) -> Void)?
    /// Collects the records of the events passed on (`--write-capture`).
    public var selection: RecordSelection?

    public init(filter: EventFilter, next: EventSink, resolver: DeviceResolver? = nil) {
        self.filter = filter
        self.next = next
        self.resolver = resolver ?? DeviceResolver(devices: filter.devices)
    }

    public func begin(_ capture: CaptureInfo) { next.begin(capture) }

    public func event(_ e: TraceEvent) {
        if origin == nil {
            origin = e.timestamp
            onFirst?(e.timestamp)
        }
        if !filter.devices.isEmpty { resolver.observe(e, pipeline: pipeline) }
        // A sniffed packet whose direction comes from timing needs the packet before it on its connection.
        let before: Int? = e.radio?.data?.inferred == true ? e.connection.flatMap { previousOnConnection[$0] } : nil
        if selection != nil, let c = e.connection {
            if FilterSink.isContext(e) {
                keepContext(e.record, connection: c)
                if let b = before { keepContext(b, connection: c) }
            }
            if previousOnConnection.count < ConnectionTracker.maxListed || previousOnConnection[c] != nil { previousOnConnection[c] = e.record }
        }
        if matches(e) {
            shown += 1
            if let sel = selection {
                sel.insert(e.record)
                if let b = before { sel.insert(b) }
                if let c = e.connection, selectedConnections.count < ConnectionTracker.maxListed { selectedConnections.insert(c) }
            }
            next.event(e)
        } else {
            onHidden?(e.timestamp)
        }
    }

    public func end(_ summary: Summary) {
        // A capture cut from the middle decodes as it did whole only with the events that opened its connections.
        if let sel = selection {
            for id in selectedConnections {
                if let r = pipeline?.connections.connection(id: id)?.openedRecord { sel.insert(r) }
                for r in context[id] ?? [] { sel.insert(r) }
            }
        }
        next.end(summary)
    }

    /// The connections of the selected records (`selection`).
    var selectedConnections = Set<Int>()
    /// Per connection, the records a decoder needs to make sense of the rest (`isContext`), kept for the
    /// connections that turn out to be selected.
    var context: [Int: [Int]] = [:]
    /// The last record of each connection (`--write-capture` of sniffer captures).
    var previousOnConnection: [Int: Int] = [:]
    static let maxContext = 256

    func keepContext(_ record: Int, connection: Int) {
        guard context.count < ConnectionTracker.maxListed || context[connection] != nil else { return }
        if (context[connection]?.count ?? 0) < FilterSink.maxContext { context[connection, default: []].append(record) }
    }

    /// Pairing and the start of encryption: without them an extract's encrypted packets cannot be decrypted
    /// nor its keys found.
    static func isContext(_ e: TraceEvent) -> Bool {
        switch e.body {
        case .smp:
            return true
        case let .linkLayer(l):
            if case .control = l.content { return true }
            return false
        case let .hciEvent(ev):
            switch ev.params {
            case .encryptionChange, .encryptionKeyRefresh: return true
            case let .le(subevent, _): return subevent == 0x05 // LE Long Term Key Request
            default: return false
            }
        case let .hciCommand(c):
            return c.opcode == 0x2019 || c.opcode == 0x201A // LE Enable Encryption, LTK Request Reply
        default:
            return false
        }
    }

    func matches(_ e: TraceEvent) -> Bool {
        let f = filter
        if let r = f.records, !r.contains(e.record) { return false }
        if let o = origin {
            let t = Double(e.timestamp.micros - o.micros) / 1_000_000
            if let from = f.from, t < from { return false }
            if let to = f.to, t > to { return false }
        }
        if !f.layers.isEmpty || !f.hiddenLayers.isEmpty {
            let connections = pipeline?.connections
            let l = EventLayers.of(e) { id in
                guard let c = connections?.connection(id: id), c.transportKnown else { return nil }
                return !c.le
            }
            if !f.layers.isEmpty && l.isDisjoint(with: f.layers) { return false }
            if !l.isDisjoint(with: f.hiddenLayers) { return false }
        }
        if !f.connections.isEmpty {
            guard let c = e.connection, f.connections.contains(c) else { return false }
        }
        if !f.devices.isEmpty && !resolver.matches(e, pipeline: pipeline) { return false }
        return true
    }

    /// Notes for standard error after the run, when a filter selected nothing: a device nothing matched,
    /// a connection the capture does not have, or no event at all.
    public func notes(_ summary: Summary) -> [String] {
        var out: [String] = []
        for d in resolver.unmatched {
            out.append("--device \(d): no device of that \(BDAddr(string: d) == nil ? "name" : "address") in the capture")
        }
        for c in filter.connections.sorted() where c > summary.connectionCount {
            out.append("--connection \(c): the capture has \(summary.connectionCount) connection\(summary.connectionCount == 1 ? "" : "s")")
        }
        if shown == 0 { out.append("the filters selected no events (of \(summary.stats.records) record\(summary.stats.records == 1 ? "" : "s"))") }
        return out
    }
}
