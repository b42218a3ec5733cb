/// Who a `--device` filter means, resolved from everything the capture says about a device rather than
/// from the event at hand: the addresses that advertised one of the names (a shortened name matches the
/// names it abbreviates), that answered an inquiry with it or whose remote name it is, and the connections
/// to those addresses or whose peer's Device Name read gave it. Fed every event (before any other filter
/// looks at it), and, when the capture can be read twice, every event of a first pass: then a name read
/// late in a connection selects the connection's earlier events too.
public final class DeviceResolver {
    /// Addresses given, and names given (lowercased).
    let givenAddresses: Set<BDAddr>
    let names: Set<String>
    public private(set) var addresses: Set<BDAddr>
    public private(set) var connections = Set<Int>()
    /// The given devices (as typed) that matched something.
    public private(set) var found = Set<String>()
    let given: [String]

    public init(devices: [String]) {
        given = devices
        var a = Set<BDAddr>(), n = Set<String>()
        for d in devices {
            if let x = BDAddr(string: d) { a.insert(x) } else { n.insert(d.lowercased()) }
        }
        givenAddresses = a
        addresses = a
        names = n
    }

    /// The given devices that matched nothing so far.
    public var unmatched: [String] {
        given.filter { d in
            if let a = BDAddr(string: d) { return !found.contains(a.description) }
            return !found.contains(d.lowercased())
        }
    }

    func name(_ n: String, shortened: Bool) -> String? {
        let l = n.lowercased()
        guard !l.isEmpty else { return nil }
        if names.contains(l) { return l }
        if shortened, let full = names.first(where: { $0.hasPrefix(l) }) { return full }
        return nil
    }

    func add(_ a: BDAddr, name: String) {
        addresses.insert(a)
        found.insert(name)
    }

    func names(in data: ArraySlice<UInt8>, _ body: (String, Bool) -> Void) {
        for ad in ADSequence(data) where ad.malformed == nil && (ad.type == 0x08 || ad.type == 0x09) {
            body(ADDecode.utf8(ad.data), ad.type == 0x08)
        }
    }

    /// Learns from one event; `pipeline` gives the peers and names of connections.
    public func observe(_ e: TraceEvent, pipeline: Pipeline?) {
        switch e.body {
        case let .adv(adv) where !names.isEmpty:
            for (i, r) in adv.reports.enumerated() {
                let o = adv.outcome(i)
                if case .partial = o { continue }
                names(in: AdvertisingBody.completeData(r, o)) { n, short in
                    if let m = name(n, shortened: short) { add(r.address, name: m) }
                }
            }
        case let .hciEvent(h) where !names.isEmpty:
            if case let .classic(c) = h.params {
                switch c {
                case let .remoteNameComplete(0, a, raw):
                    if let m = name(String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self), shortened: false) { add(a, name: m) }
                case let .inquiryResult(list):
                    for r in list { if let eir = r.eir { names(in: eir) { n, short in if let m = name(n, shortened: short) { add(r.address, name: m) } } } }
                default: break
                }
            }
        case let .att(a) where !names.isEmpty && a.peerIsServer:
            // The peer's own Device Name (read, notified or listed by Read By Type).
            guard let id = e.connection else { break }
            for d in Redactor.dissections(a) {
                if let s = d.value as? StringValue, s.key == "device_name", let m = name(s.value, shortened: false) {
                    connections.insert(id)
                    found.insert(m)
                    if let p = pipeline?.connections.connection(id: id)?.peer { addresses.insert(p) }
                }
            }
        default:
            break
        }
        if let id = e.connection, !connections.contains(id), let c = pipeline?.connections.connection(id: id) {
            if let p = c.peer, addresses.contains(p) { connections.insert(id) }
            else if let n = c.name, let m = name(n, shortened: false) {
                connections.insert(id)
                found.insert(m)
                if let p = c.peer { addresses.insert(p) }
            }
        }
        if !givenAddresses.isEmpty { noteGivenAddresses(e, pipeline: pipeline) }
    }

    /// Marks a given address as found when an event is about it.
    func noteGivenAddresses(_ e: TraceEvent, pipeline: Pipeline?) {
        func see(_ a: BDAddr) { if givenAddresses.contains(a) { found.insert(a.description) } }
        switch e.body {
        case let .adv(adv): for r in adv.reports { see(r.address) }
        case let .hciEvent(h): h.forEachAddress(see)
        case let .hciCommand(c): c.forEachAddress(see)
        default: break
        }
        if let id = e.connection, let p = pipeline?.connections.connection(id: id)?.peer { see(p) }
    }

    /// After a whole pass: every connection to a resolved address.
    public func finish(_ summary: Summary) {
        for c in summary.connections {
            if let p = c.peer, addresses.contains(p) { connections.insert(c.id) }
        }
    }

    /// Whether the event concerns the device: an advert from it, an event of one of its connections, or
    /// an HCI packet naming its address.
    public func matches(_ e: TraceEvent, pipeline: Pipeline?) -> Bool {
        if case let .adv(adv) = e.body, adv.reports.contains(where: { addresses.contains($0.address) }) { return true }
        if let id = e.connection {
            if connections.contains(id) { return true }
            if let p = pipeline?.connections.connection(id: id)?.peer, addresses.contains(p) { return true }
        }
        var hit = false
        if case let .hciEvent(h) = e.body { h.forEachAddress { if addresses.contains($0) { hit = true } } }
        if case let .hciCommand(c) = e.body { c.forEachAddress { if addresses.contains($0) { hit = true } } }
        return hit
    }
}

extension DeviceResolver {
    /// The resolver as a tap on `pipeline`'s chain (a first pass), reading connections from that pipeline.
    public func tap(on pipeline: Pipeline) -> EventTap { ResolverTap(self, pipeline) }

    final class ResolverTap: EventTap {
        let resolver: DeviceResolver
        weak var pipeline: Pipeline?
        init(_ r: DeviceResolver, _ p: Pipeline) { resolver = r; pipeline = p }
        func event(_ e: TraceEvent) { resolver.observe(e, pipeline: pipeline) }
    }
}
