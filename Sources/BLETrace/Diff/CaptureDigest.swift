/// A compact semantic summary of one capture, built by one analysis pass with no sink: what `diff`
/// compares. Everything in it is keyed by stable identity (addresses, UUID paths), never by record
/// positions; handles are kept only to report that something moved.
public struct CaptureDigest {
    public struct Device: Sendable {
        public var address: String
        public var addressType: AddressType
        public var reports: Int
        public var names: [String]
        public var services: [String]
        public var solicited: [String]
        /// Manufacturer data (company ID little-endian, then payload) as hex, distinct values.
        public var manufacturerData: [String]
        public var beacons: [String]
        public var txPower: [Int]
        public var appearance: Int?
        public var connectable: Bool
        public var rssiMean: Double?
        public var connections: [Int]
        /// The services among `services` that say what product this is: not the 16-bit UUIDs the SIG assigns to
        /// member companies (0xFC00–0xFEFF: Google's FE9F, Apple's, Eddystone's FEAA), which every phone or
        /// beacon of that company advertises.
        public var productServices: [String] = []

        /// Name and services: how a device that changed its resolvable private address is recognised. Empty
        /// (no match) for a device with neither a name nor a product service.
        public var signature: String {
            guard !names.isEmpty || !productServices.isEmpty else { return "" }
            return names.sorted().joined(separator: ",") + "|" + productServices.sorted().joined(separator: ",")
        }

        /// Whether `u` is a 16-bit UUID assigned to a member company.
        public static func isMemberService(_ u: BLEUUID) -> Bool {
            guard let v = u.uuid16 else { return false }
            return (0xFC00...0xFEFF).contains(v)
        }

        /// "C4:7C:8D:6A:11:22 (Thermo-42)".
        public var label: String { address + (names.first.map { " (\($0))" } ?? "") }

        /// Random addresses that change (resolvable and non-resolvable private).
        public var isPrivate: Bool {
            switch addressType {
            case .resolvablePrivate, .nonResolvablePrivate: return true
            default: return false
            }
        }
    }

    public struct Pairing: Sendable, Equatable {
        public var record: Int
        public var pairing: String?
        public var method: String?
        public var io: String?
        public var keySize: Int?
        public var bonding: Bool?
        public var outcome: String
    }

    public struct Step: Sendable {
        public var record: Int
        public var key: String
        public var text: String
        public var latencyMicros: Int64?
        public var error: Int?
        /// The UUID path the step is about, when it is about one attribute.
        public var path: String?
    }

    public struct Link: Sendable {
        public var id: Int
        /// The peer's address (the device key), or `handle-0x…`.
        public var peer: String
        public var role: String?
        public var openedRecord: Int?
        public var initial: (interval: Int, latency: Int, timeout: Int)?
        public var final: (interval: Int, latency: Int, timeout: Int)?
        public var updates: [(interval: Int, latency: Int, timeout: Int)]
        public var disconnectReason: Int?
        public var encrypted: Bool
        public var attMTU: Int?
        public var setupMicros: Int64?
        public var pairings: [Pairing]
        public var steps: [Step]
        /// Encrypted data PDUs a sniffer captured but nothing decrypted: the connection's ATT is not seen.
        public var undecoded = 0
        /// The link statistics: TX latency to completion (p95) and the fullest 1-second window each way.
        public var txLatencyP95: Int64?
        public var peakTx: Int?
        public var peakRx: Int?
        /// A sniffed link's packet error rate (bad CRCs over packets on its data channels) and its packet count.
        public var per: Double?
        public var radioPackets = 0
    }

    public struct Value: Sendable {
        public var record: Int
        public var bytes: [UInt8]
        public var text: String
    }

    public struct ATTError: Sendable {
        public var record: Int
        public var server: String
        public var path: String
        public var request: String
        public var code: Int
        public var key: String { "\(path)|\(request)|\(code)" }
    }

    public var file: String
    public var format: String
    public var records: Int
    public var complete: Bool
    public var devices: [Device] = []
    /// The capture's diagnoses, errors first.
    public var diagnoses: [Diagnosis] = []
    public var links: [Link] = []
    /// BR/EDR links (ACL and synchronous), compared by `Diff.compareClassic`.
    public var classic: [ClassicLinkDigest] = []
    /// GATT database per server (device address, `handle-0x…` or `local`), as UUID-path entries.
    public var databases: [String: [GATTPaths.Entry]] = [:]
    public var databaseOrder: [String] = []
    /// Latest value reported by each server, per UUID path.
    public var values: [String: [String: Value]] = [:]
    public var errors: [ATTError] = []
    /// Every request/response latency, sorted.
    public var latencies: [Int64] = []

    /// Reads a capture through the standard chain and the activity log. `observer` sees every event
    /// (the redactor learns from it).
    public static func make(_ reader: RecordReader, path: String, containers: [String] = [], options: DecodeOptions = DecodeOptions(),
                            observer: EventTap? = nil) -> (CaptureDigest, Summary) {
        let analyzer = Analyzer(options: options, sink: nil)
        let log = analyzer.addActivityLog()
        let undecoded = UndecodedCounter()
        analyzer.chain.taps = (observer.map { [$0] } ?? []) + [undecoded]
        let summary = analyzer.run(reader, path: path, containers: containers)
        var digest = CaptureDigest(summary: summary, layers: analyzer.layers, log: log)
        for i in digest.links.indices { digest.links[i].undecoded = undecoded.counts[digest.links[i].id] ?? 0 }
        return (digest, summary)
    }

    public init(summary: Summary, layers: [AnalysisLayer], log: ActivityLog) {
        file = summary.capture.path
        format = summary.capture.format.rawValue
        records = summary.stats.records
        complete = summary.error == nil
        diagnoses = summary.diagnoses
        let inventory = layers.compactMap { $0 as? DeviceInventory }.first
        let att = layers.compactMap { $0 as? ATTLayer }.first
        let smp = layers.compactMap { $0 as? SMPLayer }.first

        for d in inventory?.devices ?? [] {
            let key = DeviceInventory.Key(address: d.address, addressType: d.addressType)
            devices.append(Device(address: d.address.description, addressType: d.addressType, reports: d.reports, names: d.names,
                                  services: d.services.map(\.description), solicited: d.solicited.map(\.description),
                                  manufacturerData: (log.manufacturerData[key] ?? []).map { Hex.string($0) },
                                  beacons: d.beacons.map(\.text), txPower: d.txPowers, appearance: d.appearance.map { Int($0) },
                                  connectable: d.connectable, rssiMean: d.rssiMean, connections: d.connections,
                                  productServices: d.services.filter { !Device.isMemberService($0) }.map(\.description)))
        }

        let mtus = att?.seenMTU ?? [:]
        let linkStats = layers.compactMap { $0 as? LinkStatistics }.first
        let sniffed = layers.compactMap { $0 as? LinkLayerSummary }.first?.pipeline?.linkLayerIfUsed?.linkOrder ?? []
        for c in summary.connections where c.le {
            var link = Link(id: c.id, peer: ATTLayer.deviceKey(c), role: c.role.map { HCIText.role($0) }, openedRecord: c.openedRecord,
                            initial: log.initialParameters[c.id], final: nil, updates: c.updates.map { ($0.interval, $0.latency, $0.timeout) },
                            disconnectReason: c.disconnectReason.map { Int($0) }, encrypted: c.encrypted,
                            attMTU: mtus[c.id].flatMap { $0.client != nil || $0.server != nil ? $0.mtu : nil }, setupMicros: log.setupMicros[c.id], pairings: [], steps: [])
            if let i = c.interval, let l = c.latency, let t = c.timeout { link.final = (i, l, t) }
            if let s = linkStats?.link(c.id) {
                link.txLatencyP95 = s.latency.percentile(95)
                link.peakTx = s.tx.throughput.peakBitsPerSecond
                link.peakRx = s.rx.throughput.peakBitsPerSecond
            }
            if let l = sniffed.first(where: { $0.connection?.id == c.id }), let channels = l.channels {
                let packets = channels.reduce(0) { $0 + $1.packets }
                link.radioPackets = packets
                if packets > 0 { link.per = Double(channels.reduce(0) { $0 + $1.crcBad }) / Double(packets) }
            }
            for a in smp?.attempts ?? [] where a.connection == c.id {
                var io: String? = nil
                if let q = a.request, let r = a.response {
                    io = SMPNames.ioCapability(q.ioCapability) + "/" + SMPNames.ioCapability(r.ioCapability)
                }
                link.pairings.append(Pairing(record: a.startRecord, pairing: a.secureConnections.map { $0 ? "LE Secure Connections" : "legacy" },
                                             method: a.method?.rawValue, io: io,
                                             keySize: a.request.flatMap { q in a.response.map { Int(min(q.maxKeySize, $0.maxKeySize)) } },
                                             bonding: a.request.flatMap { q in a.response.map { q.bonding && $0.bonding } },
                                             outcome: a.outcome))
            }
            for p in log.procedure(c.id) {
                let path = p.step.handle.map { log.path(p.step.server, $0) }
                link.steps.append(Step(record: p.step.record, key: p.key, text: p.text, latencyMicros: p.step.latencyMicros,
                                       error: p.step.error, path: path))
            }
            links.append(link)
        }

        classic = ClassicLinkDigest.make(summary, layers: layers)
        if let att {
            for key in att.databaseOrder {
                guard let p = log.paths(key) else { continue }
                databases[key] = p.entries
                databaseOrder.append(key)
            }
        }
        for (server, handle) in log.valueOrder {
            guard let t = log.values[server]?[handle] else { continue }
            let path = log.path(server, handle)
            values[server, default: [:]][path] = Value(record: t.latest.record, bytes: t.latest.value, text: t.latest.text)
        }
        for e in log.errors {
            // Attribute Not Found is how discovery ends, not a failure.
            if e.code == 0x0A && Findings.discoveryOpcodes.contains(e.requestOpcode) { continue }
            let path = e.handle.map { log.path(e.server, $0) } ?? "?"
            errors.append(ATTError(record: e.record, server: e.server, path: path,
                                   request: ATTNames.opcode(UInt8(truncatingIfNeeded: e.requestOpcode)), code: e.code))
        }
        latencies = log.latencies.sorted()
    }

    /// Nearest-rank percentile of the latencies (nil when there are none).
    public func percentile(_ p: Int) -> Int64? {
        guard !latencies.isEmpty else { return nil }
        let rank = max(1, (p * latencies.count + 99) / 100)
        return latencies[min(rank, latencies.count) - 1]
    }

    public func device(_ address: String) -> Device? { devices.first { $0.address == address } }

    /// The label of a device key, with its name when it advertised one.
    public func label(_ key: String) -> String {
        if key == "local" { return "local host" }
        return device(key)?.label ?? key
    }
}

/// Counts the link-layer PDUs of each connection that stayed encrypted (no key).
final class UndecodedCounter: EventTap {
    var counts: [Int: Int] = [:]
    func event(_ e: TraceEvent) {
        if let c = e.connection, case let .linkLayer(l) = e.body, case .encrypted = l.content { counts[c, default: 0] += 1 }
    }
}
