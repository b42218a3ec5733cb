/// What the HTML report's charts need, collected as events stream past and bounded: RSSI per advertising
/// device, bytes per connection and direction over time, notification rates per characteristic, ATT latencies,
/// battery readings, and the connection timeline's markers.
final class HTMLCollector {
    static let maxDevices = 64, rssiPoints = 400
    static let maxConnections = 64, maxCharacteristics = 32, maxMarkers = 100, maxBatteryDevices = 16

    struct Marker {
        enum Kind: String { case update, mtu, pairing, encryption, error, disconnect }
        var kind: Kind
        var micros: Int64
        var record: Int
        var text: String
    }

    struct Traffic {
        var sent: BucketSeries
        var received: BucketSeries
        var first: Int64
        var last: Int64
    }

    struct Notified {
        var connection: Int
        var handle: UInt16
        var name: String
        var rate: BucketSeries
    }

    var origin: Int64?
    var last: Int64 = 0
    var rssi: [String: Downsampler] = [:]
    var rssiOrder: [String] = []
    var rssiReports: [String: Int] = [:]
    var traffic: [Int: Traffic] = [:]
    var notified: [Int: Notified] = [:]
    var notifiedOrder: [Int] = []
    var latency = LatencySample()
    var battery: [String: Downsampler] = [:]
    var batteryOrder: [String] = []
    var markers: [Int: [Marker]] = [:]
    /// The connections whose traffic a sniffer saw (their directions are the central's and the peripheral's).
    var sniffed: Set<Int> = []
    /// The time of the first event of each connection.
    var firstSeen: [Int: Int64] = [:]
    static let maxFirstSeen = 4096
    var redactor: Redactor?

    func add(_ e: TraceEvent, connectionKey: (Int) -> String?) {
        let t = e.timestamp.micros
        if origin == nil { origin = t }
        last = max(last, t)
        let x = Double(t - (origin ?? t)) / 1_000_000
        switch e.body {
        case let .adv(a):
            for r in a.reports {
                guard let v = r.rssi, v != 127 else { continue }
                let key = r.address.description
                if rssi[key] == nil {
                    guard rssiOrder.count < HTMLCollector.maxDevices else { continue }
                    rssi[key] = Downsampler(capacity: HTMLCollector.rssiPoints)
                    rssiOrder.append(key)
                }
                rssi[key]!.add(x: x, y: Double(v))
            }
        case let .att(a):
            if case let .answers(link)? = a.transaction, a.opcode != 0x1E, let l = link.latencyMicros { latency.add(l) }
            if let c = e.connection {
                switch a.pdu {
                case let .notification(h, _)?, let .indication(h, _)?:
                    let key = c << 16 | Int(h)
                    if notified[key] == nil, notifiedOrder.count < HTMLCollector.maxCharacteristics {
                        var name = "#\(c) " + TextBytes.string { GATTContextRender.writeHandle(h, a.location, into: &$0) }
                        if let r = redactor { name = r.redact(name) }
                        // Its rate counts from the connection's first event, as its throughput does.
                        notified[key] = Notified(connection: c, handle: h, name: name, rate: BucketSeries(origin: firstSeen[c] ?? t))
                        notifiedOrder.append(key)
                    }
                    notified[key]?.rate.add(at: t, 1)
                case let .errorResponse(op, _, code)?:
                    if !SequenceRecorder.endsDiscovery(op, code) { mark(c, .error, e) }
                default: break
                }
                if a.attMTU != nil, a.response != nil || a.request == nil { mark(c, .mtu, e) }
                if let d = a.decodedValue, case let .battery(b)? = d.fact, let device = connectionKey(c) {
                    if battery[device] == nil, batteryOrder.count < HTMLCollector.maxBatteryDevices {
                        battery[device] = Downsampler(capacity: HTMLCollector.rssiPoints)
                        batteryOrder.append(device)
                    }
                    battery[device]?.add(x: x, y: Double(b.percent))
                }
            }
        case let .smp(s):
            if let c = e.connection {
                switch s.pdu {
                case .pairingRequest?, .pairingFailed?: mark(c, .pairing, e)
                default: break
                }
            }
        case let .hciEvent(h):
            if let c = e.connection, let change = h.change {
                switch change {
                case .updated: mark(c, .update, e)
                case .encryption: mark(c, .encryption, e)
                case .closed: mark(c, .disconnect, e)
                case .opened: break
                }
            }
        case let .linkLayer(l):
            // A sniffer sees the link layer, not the host's HCI events: encryption starts and the link ends here.
            if let c = e.connection, case let .control(p) = l.content {
                switch p.effect {
                case .startEncryption?: mark(c, .encryption, e)
                case .update?: mark(c, .update, e)
                case .terminate?: mark(c, .disconnect, e)
                default: break
                }
            }
        default: break
        }
        if let c = e.connection, firstSeen[c] == nil, firstSeen.count < HTMLCollector.maxFirstSeen { firstSeen[c] = t }
        if let c = e.connection, let bytes = HTMLCollector.dataBytes(e) {
            if traffic[c] == nil {
                guard traffic.count < HTMLCollector.maxConnections else { return }
                // Each connection's chart covers its own lifetime: its buckets count from its first event.
                let o = firstSeen[c] ?? t
                traffic[c] = Traffic(sent: BucketSeries(origin: o), received: BucketSeries(origin: o), first: t, last: t)
            }
            if e.acl == nil { sniffed.insert(c) }
            if e.direction == .hostToController { traffic[c]!.sent.add(at: t, Double(bytes)) }
            else { traffic[c]!.received.add(at: t, Double(bytes)) }
            traffic[c]!.last = t
        } else if let c = e.connection, traffic[c] != nil {
            traffic[c]!.last = t
        }
    }

    /// A connection's span in µs (the connection timeline's bar, the rate charts' x axis): from its opening,
    /// else its first data, to its close; still open at the end, to the last record; closed at no known time,
    /// to its last data. `x` is nil for a connection the summary does not list.
    func span(_ x: Connection?, id: Int) -> (start: Int64, end: Int64) {
        let a = x?.openedAt?.micros ?? traffic[id]?.first ?? origin ?? 0
        let b = x?.closedAt?.micros ?? (x != nil && x?.closedRecord == nil ? last : traffic[id]?.last ?? last)
        return (a, max(a, b))
    }

    /// The data bytes an event carried on its link: the ACL data length, or a sniffed data PDU's payload length
    /// (not a retransmission, a control or an empty PDU).
    static func dataBytes(_ e: TraceEvent) -> Int? {
        if let acl = e.acl { return Int(acl.length) }
        var facts = e.radio
        var mic = 0
        if case let .linkLayer(l) = e.body {
            switch l.content {
            case .encrypted, .micFailure: facts = l.radio; mic = 4
            case .fragment, .problem, .notFollowed: facts = l.radio
            default: return nil
            }
        }
        guard let d = facts?.data, d.header.llid != 3, d.header.length > 0 else { return nil }
        // A decrypted PDU's length on the air counts its MIC.
        return max(0, d.header.length - (d.decrypted ? 4 : mic))
    }

    func mark(_ c: Int, _ kind: Marker.Kind, _ e: TraceEvent) {
        guard (markers[c]?.count ?? 0) < HTMLCollector.maxMarkers else { return }
        var text = EventText.string(e)
        if let r = redactor { text = r.redact(text) }
        if text.count > 160 { text = String(text.prefix(159)) + "…" }
        markers[c, default: []].append(Marker(kind: kind, micros: e.timestamp.micros, record: e.record, text: text))
    }
}
