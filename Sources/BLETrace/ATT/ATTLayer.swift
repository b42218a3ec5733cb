/// ATT and GATT: decodes CID 0x0004 (and EATT bearers handed over by the LE signaling layer), links
/// responses to requests, tracks the MTU, rebuilds each server's database from discovery, and names the
/// service, characteristic and descriptor every PDU touches.
public final class ATTLayer: ChannelDecoder, AnalysisLayer {
    /// ATT transaction timeout (Core 5.4 Vol 3 Part F 3.3.3).
    public static let timeoutMicros: Int64 = 30_000_000
    /// Bound on the number of GATT servers kept.
    public static let maxDatabases = 4096
    /// Bound on the problems listed in the summary (all are counted).
    static let maxListed = 1000

    /// The consumers of the values the dissectors decode (the chain's: `Chain.standard`), a constant.
    let values: AttributeValueConsumers
    let loaded: GATTDatabaseSet?
    /// Each GATT server's database in order of first use, at a dense slot; `serverSlots` finds a server's
    /// slot by its key (the peer's address, or the local host), `serverKeys` names each slot.
    @exclusivity(unchecked) var servers: [GATTDatabase] = []
    @exclusivity(unchecked) var serverKeys: [String] = []
    @exclusivity(unchecked) var serverSlots: [DeviceKey: Int] = [:]
    /// The slot of the local host's database ("local"), once it has one.
    @exclusivity(unchecked) var localSlot: Int?


    /// When the earliest pending request (kept in its connection's `ConnState.pending`) times out.
    @exclusivity(unchecked) var nextDeadline: Int64 = .max

    /// Per-connection state.
    final class ConnState {
        @exclusivity(unchecked) var clientMTU: UInt16?
        @exclusivity(unchecked) var serverMTU: UInt16?
        @exclusivity(unchecked) var mtuRecord: Int?
        @exclusivity(unchecked) var pdus = 0
        /// The requests and indications waiting for their answers, at most one per bearer, side and kind.
        @exclusivity(unchecked) var pending: [(key: PendingKey, request: Pending)] = []
        func pendingIndex(_ key: PendingKey) -> Int? {
            var i = 0
            while i < pending.count {
                if pending[i].key == key { return i }
                i += 1
            }
            return nil
        }
        /// Read Blob reassembly: handle and bytes so far, per server side.
        @exclusivity(unchecked) var blob: [Bool: (handle: UInt16, bytes: [UInt8])] = [:]
        /// Queued Prepare Write Requests, per server side.
        @exclusivity(unchecked) var prepared: [Bool: [(handle: UInt16, offset: UInt16, value: [UInt8])]] = [:]
        /// State of stateful value dissectors (ANCS, cycling speed and cadence).
        @exclusivity(unchecked) var values = DissectorState()
        /// The server's database key for this connection's peer (nil before it is needed), the peer it was made
        /// for, and the database's slot once it has one: kept while the peer stays the same. Three fields, not one
        /// optional tuple: reading a part of the tuple copied all of it, key included.
        @exclusivity(unchecked) var peerKey: DeviceKey?
        @exclusivity(unchecked) var keyPeer: BDAddr?
        @exclusivity(unchecked) var peerSlot: Int?
        /// Remembers the peer's database slot, once the peer has its key.
        func remember(slot s: Int) { if peerKey != nil { peerSlot = s } }
        /// Handle lookups of `DescribeContext`, one memo per server side: the peer's, and the local host's.
        @exclusivity(unchecked) var peerLocated = LocateMemo()
        @exclusivity(unchecked) var localLocated = LocateMemo()
        var mtu: Int {
            guard let c = clientMTU, let s = serverMTU else { return ATTLayer.minimumMTU }
            return Int(min(c, s))
        }

        /// Made ready for another connection: what it knew is forgotten, the storage it grew is kept. The lookup
        /// memos stay as they are: an entry is keyed by the server's slot and the layer's generation, so it is right
        /// on any connection to that server, and is not found on others.
        func reset() {
            clientMTU = nil
            serverMTU = nil
            mtuRecord = nil
            pdus = 0
            pending.removeAll(keepingCapacity: true)
            if !blob.isEmpty { blob.removeAll(keepingCapacity: true) }
            if !prepared.isEmpty { prepared.removeAll(keepingCapacity: true) }
            // A dissector's state may still be lent out: a new one, not the old one emptied.
            if !values.slots.isEmpty { values = DissectorState() }
            peerKey = nil
            keyPeer = nil
            peerSlot = nil
        }
    }
    @exclusivity(unchecked) var conns: [Int: ConnState] = [:]
    /// States of closed connections, reset, for the next connections (`closeConnection`, `connState`): a
    /// connection's state and its two lookup memos are made a few times a capture, not once per connection.
    @exclusivity(unchecked) var spareStates: [ConnState] = []
    static let maxSpareStates = 4
    /// The state `connState` returned last, and its connection: consecutive PDUs are mostly on one connection.
    @exclusivity(unchecked) var lastState: (id: Int, state: ConnState)?

    /// Bumped whenever a database or fallback changes what a handle lookup may return.
    @exclusivity(unchecked) var generation = 0

    // Counts for the summary.
    @exclusivity(unchecked) var pduCount = 0
    @exclusivity(unchecked) var transactions = 0
    @exclusivity(unchecked) var latencyTotal: Int64 = 0
    @exclusivity(unchecked) var latencyMax: Int64 = 0
    /// Transactions with a latency (time did not go backwards between request and response).
    @exclusivity(unchecked) var timed = 0
    @exclusivity(unchecked) var errors: [(record: Int, request: UInt8, handle: UInt16, code: UInt8)] = []
    /// Names of error codes a service defines (ANCS 0xA0–0xA3), learned from its dissector.
    @exclusivity(unchecked) var serviceErrorNames: [UInt8: String] = [:]

    /// The service's short name and the error's name, when a service's dissector decoded the Error Response.
    static func serviceErrorName(_ d: Dissection) -> String? { d.value.serviceErrorName }
    /// The smallest ATT_MTU, and the one in use until an exchange sets another (LE, Core 5.4 Vol 3 Part F 3.2.8).
    static let minimumMTU = 23
    @exclusivity(unchecked) var errorCount = 0
    @exclusivity(unchecked) var unanswered: [(record: Int, opcode: UInt8, why: ATTUnanswered)] = []
    @exclusivity(unchecked) var unansweredCount = 0
    @exclusivity(unchecked) var unexpected: [(record: Int, opcode: UInt8)] = []
    @exclusivity(unchecked) var unexpectedCount = 0

    /// Databases from `--gatt` used for servers whose discovery the capture does not show, by device.
    @exclusivity(unchecked) var fallbacks: [String: GATTDatabase] = [:]
    /// MTU per connection of the connections whose state was dropped, for the summary.
    @exclusivity(unchecked) var closedMTU: [Int: (client: UInt16?, server: UInt16?, mtu: Int)] = [:]

    /// Values sent before discovery named their handles, per server (`EarlyValues.swift`), and those named since.
    @exclusivity(unchecked) var early: [DeviceKey: [EarlyValue]] = [:]
    /// Lengths of whole values read, per server slot and handle: how a Read Multiple Response is split.
    @exclusivity(unchecked) var valueLengths: [[UInt16: Int]] = []
    @exclusivity(unchecked) var earlyNamed: [EarlyValueNamed] = []
    @exclusivity(unchecked) var earlyNamedCount = 0

    /// Names of a `--uuids` file, handed to every event for its renderer.
    @exclusivity(unchecked) var userNames: [BLEUUID: String]?

    /// The value dissectors: the built-in ones, then those of a `--uuids` file.
    public let registry: DissectorRegistry

    public init(options: DecodeOptions = DecodeOptions(), values: AttributeValueConsumers = AttributeValueConsumers()) {
        self.values = values
        self.loaded = options.gatt
        if let n = options.uuids?.names, !n.isEmpty { userNames = n }
        var r = DissectorRegistry.standard
        if let u = options.uuids?.dissector { r.add(u) }
        self.registry = r
    }

    /// The layer keeps no reference to the pipeline: each call that holds or releases events is lent it.
    public func attach(to pipeline: Pipeline) {}

    /// A connection closed: its pending requests end and its state goes.
    func connectionChanged(_ change: ConnectionChange, _ pipeline: Pipeline) {
        if case let .closed(handle, _) = change, let c = pipeline.connections.latest(handle) {
            closeConnection(c.id, pipeline)
        }
    }

    public func decode(_ frame: L2CAPFrame, connection: Connection, event: inout TraceEvent, in p: Pipeline) {
        decodeATT(frame.payload, connection: connection, bearer: frame.cid, event: &event, p)
    }
}
