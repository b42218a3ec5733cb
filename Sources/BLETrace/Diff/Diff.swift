/// One semantic difference between two captures.
public struct DiffItem: Sendable, Equatable {
    /// Categories, most important first; the order of the report.
    public enum Category: String, Sendable, CaseIterable, Comparable {
        // First: what went wrong, and why, in one capture and not the other.
        case diagnoses
        case devices
        case advertising
        case connections
        case pairing
        case classic
        // Values before the database: a changed identity string (a firmware revision) explains what follows it.
        case values
        case gatt
        case errors
        case procedures
        case timing
        // Last: advertisers never connected that one side saw and the other did not (radio surroundings).
        case ambient

        public var title: String {
            switch self {
            case .diagnoses: return "Diagnoses"
            case .devices: return "Devices"
            case .advertising: return "Advertising"
            case .connections: return "Connections"
            case .pairing: return "Pairing"
            case .classic: return "BR/EDR links"
            case .gatt: return "GATT database"
            case .values: return "Characteristic values"
            case .errors: return "ATT errors"
            case .procedures: return "GATT procedures"
            case .timing: return "Timing"
            case .ambient: return "Other devices (advertisers never connected)"
            }
        }

        var rank: Int { Category.allCases.firstIndex(of: self) ?? 0 }
        public static func < (a: Category, b: Category) -> Bool { a.rank < b.rank }
    }

    public var category: Category
    /// What the difference is about: a device, a connection, a server's database.
    public var subject: String
    /// The difference in words.
    public var text: String
    /// The value in A and in B, when the difference is a changed value.
    public var a: String?
    public var b: String?
    public var recordA: Int?
    public var recordB: Int?

    public var fields: Fields {
        var f = Fields()
        f.add("category", category.rawValue)
        f.add("subject", subject)
        f.add("text", text)
        if let a { f.add("a", a) }
        if let b { f.add("b", b) }
        if let r = recordA { f.add("record_a", r) }
        if let r = recordB { f.add("record_b", r) }
        return f
    }

    /// "text: a → b (records 12, 14)".
    public var line: String {
        var s = text
        if a != nil || b != nil { s += ": " + (a ?? "(none)") + " → " + (b ?? "(none)") }
        let recs = [recordA.map { "A record \($0)" }, recordB.map { "B record \($0)" }].compactMap { $0 }
        if !recs.isEmpty { s += " (" + recs.joined(separator: ", ") + ")" }
        return s
    }
}

/// What `diff` leaves out and how large a timing change must be to count.
public struct DiffOptions: Sendable {
    /// Names to ignore: categories (`devices`, `advertising`, `connections`, `pairing`, `classic`, `gatt`, `values`,
    /// `errors`, `procedures`, `timing`, `ambient`) and finer ones: `rssi`, `manufacturer-data`, `tx-power`, `names`,
    /// `handles` (GATT attributes that only moved), `mtu`, `setup`, `latency`.
    public var ignore: Set<String> = []
    /// A timing change counts when it is at least this many microseconds…
    public var timingThresholdMicros: Int64 = 50_000
    /// …and the slower is at least this many times the faster.
    public var timingRatio: Double = 2.0
    /// RSSI means further apart than this (dB) count as a change.
    public var rssiThreshold: Double = 10
    public init() {}

    public static let ignorable = DiffItem.Category.allCases.map(\.rawValue)
        + ["rssi", "manufacturer-data", "tx-power", "names", "handles", "mtu", "setup", "latency", "throughput", "per"]

    func skip(_ name: String) -> Bool { ignore.contains(name) }
}

/// Compares two digests into ordered differences, most important first.
public struct Diff {
    public let a: CaptureDigest
    public let b: CaptureDigest
    public let options: DiffOptions
    public private(set) var items: [DiffItem] = []
    /// Device key in A → device key in B (same address, or a private address recognised by name and services).
    public private(set) var deviceMap: [String: String] = [:]

    public init(_ a: CaptureDigest, _ b: CaptureDigest, options: DiffOptions = DiffOptions()) {
        self.a = a
        self.b = b
        self.options = options
        compare()
        // Stable: categories in order of importance, each in the order found.
        items = items.enumerated().sorted { ($0.element.category, $0.offset) < ($1.element.category, $1.offset) }.map(\.element)
    }

    public var isEmpty: Bool { items.isEmpty }

    mutating func add(_ c: DiffItem.Category, _ subject: String, _ text: String, a: String? = nil, b: String? = nil,
                      recordA: Int? = nil, recordB: Int? = nil) {
        guard !options.skip(c.rawValue) else { return }
        items.append(DiffItem(category: c, subject: subject, text: text, a: a, b: b, recordA: recordA, recordB: recordB))
    }

    mutating func compare() {
        matchDevices()
        compareDiagnoses()
        compareDevices()
        let removedPaths = compareDatabases()
        compareLinks(removedPaths: removedPaths)
        compareClassic()
        compareValues()
        compareErrors()
        compareLatencyPercentiles()
    }

    /// Diagnoses found on one side only, or found on both a different number of times. The peer of A's is
    /// matched to B's device (the same address, or a private address recognised by name and services).
    mutating func compareDiagnoses() {
        func key(_ d: Diagnosis, inA: Bool) -> String {
            let p = d.peer.map { inA ? mapped($0.description) : $0.description } ?? ""
            return d.id.rawValue + "|" + p + "|" + String(describing: d.facts.groupKey)
        }
        let inB = Dictionary(b.diagnoses.map { (key($0, inA: false), $0) }, uniquingKeysWith: { x, _ in x })
        let inA = Dictionary(a.diagnoses.map { (key($0, inA: true), $0) }, uniquingKeysWith: { x, _ in x })
        for d in a.diagnoses {
            let k = key(d, inA: true)
            if let e = inB[k] {
                if e.count != d.count {
                    add(.diagnoses, d.id.rawValue, "\(d.severity.name): \(DiagnosisText.title(d)): count changed", a: String(d.count), b: String(e.count),
                        recordA: d.firstRecord, recordB: e.firstRecord)
                }
            } else {
                add(.diagnoses, d.id.rawValue, "only in A: \(d.severity.name): \(DiagnosisText.title(d))" + (d.count > 1 ? " (\(d.count) times)" : ""),
                    recordA: d.firstRecord)
            }
        }
        for d in b.diagnoses where inA[key(d, inA: false)] == nil {
            add(.diagnoses, d.id.rawValue, "only in B: \(d.severity.name): \(DiagnosisText.title(d))" + (d.count > 1 ? " (\(d.count) times)" : ""),
                recordB: d.firstRecord)
        }
    }

    /// The B key of an A server/device key.
    func mapped(_ key: String) -> String { deviceMap[key] ?? key }

    /// Devices reported as present on one side only: what hangs off them (connections, databases,
    /// errors) is explained by that line and not listed again.
    func onlyInA(_ key: String) -> Bool { a.device(key) != nil && deviceMap[key] == nil }
    func onlyInB(_ key: String) -> Bool { b.device(key) != nil && !deviceMap.values.contains(key) }

    // MARK: Devices and advertising

    mutating func matchDevices() {
        let bKeys = Set(b.devices.map(\.address))
        var used = Set<String>()
        for d in a.devices where bKeys.contains(d.address) {
            deviceMap[d.address] = d.address
            used.insert(d.address)
        }
        // Private addresses change: pair the rest by name and services when that is unambiguous.
        func bySignature(_ list: [CaptureDigest.Device], excluding: Set<String>) -> [String: [String]] {
            var out: [String: [String]] = [:]
            for d in list where !excluding.contains(d.address) && d.isPrivate && !d.signature.isEmpty {
                out[d.signature, default: []].append(d.address)
            }
            return out
        }
        let sa = bySignature(a.devices, excluding: Set(deviceMap.keys))
        let sb = bySignature(b.devices, excluding: used)
        for (sig, list) in sa where list.count == 1 {
            if let other = sb[sig], other.count == 1 { deviceMap[list[0]] = other[0] }
        }
    }

    mutating func compareDevices() {
        let matchedB = Set(deviceMap.values)
        // Devices on one side only: connected ones one line each; advertisers never connected (other people's
        // phones and beacons) one collapsed line after every other difference.
        let onlyA = a.devices.filter { deviceMap[$0.address] == nil }, onlyB = b.devices.filter { !matchedB.contains($0.address) }
        for d in onlyA where !d.connections.isEmpty { add(.devices, d.label, "device only in A, connected") }
        for d in onlyB where !d.connections.isEmpty { add(.devices, d.label, "device only in B, connected") }
        let ambientA = onlyA.filter(\.connections.isEmpty), ambientB = onlyB.filter(\.connections.isEmpty)
        if !ambientA.isEmpty || !ambientB.isEmpty {
            func some(_ l: [CaptureDigest.Device], _ side: String) -> String? {
                guard !l.isEmpty else { return nil }
                let shown = l.prefix(5).map(\.label).joined(separator: ", ")
                return "\(l.count) only in \(side) (\(shown)\(l.count > 5 ? ", …" : ""))"
            }
            add(.ambient, "\(ambientA.count + ambientB.count) device\(ambientA.count + ambientB.count == 1 ? "" : "s")",
                [some(ambientA, "A"), some(ambientB, "B")].compactMap { $0 }.joined(separator: "; "))
        }
        for da in a.devices {
            guard let kb = deviceMap[da.address], let db = b.device(kb) else { continue }
            let subject = da.address == db.address ? da.label : "\(da.label) = \(db.label) in B"
            if (da.reports > 0) != (db.reports > 0) {
                add(.advertising, subject, da.reports > 0 ? "advertised only in A" : "advertised only in B")
                continue
            }
            guard da.reports > 0 else { continue }
            func list(_ l: [String]) -> String { l.isEmpty ? "(none)" : l.joined(separator: ", ") }
            func differ(_ x: [String], _ y: [String]) -> Bool { Set(x) != Set(y) }
            if !options.skip("names"), differ(da.names, db.names) { add(.advertising, subject, "local name", a: list(da.names.map { "\"\($0)\"" }), b: list(db.names.map { "\"\($0)\"" })) }
            if differ(da.services, db.services) { add(.advertising, subject, "advertised services", a: list(da.services), b: list(db.services)) }
            if differ(da.solicited, db.solicited) { add(.advertising, subject, "solicited services", a: list(da.solicited), b: list(db.solicited)) }
            if !options.skip("manufacturer-data"), differ(da.manufacturerData, db.manufacturerData) {
                add(.advertising, subject, "manufacturer data", a: list(da.manufacturerData), b: list(db.manufacturerData))
            }
            if differ(da.beacons, db.beacons) { add(.advertising, subject, "beacon identity", a: list(da.beacons), b: list(db.beacons)) }
            if !options.skip("tx-power"), Set(da.txPower) != Set(db.txPower) {
                add(.advertising, subject, "TX power", a: list(da.txPower.map { "\($0) dBm" }), b: list(db.txPower.map { "\($0) dBm" }))
            }
            if da.appearance != db.appearance {
                add(.advertising, subject, "appearance", a: da.appearance.map { ADDecode.appearanceName(UInt16(truncatingIfNeeded: $0)) },
                    b: db.appearance.map { ADDecode.appearanceName(UInt16(truncatingIfNeeded: $0)) })
            }
            if da.connectable != db.connectable { add(.advertising, subject, "connectable", a: "\(da.connectable)", b: "\(db.connectable)") }
            if !options.skip("rssi"), let x = da.rssiMean, let y = db.rssiMean, abs(x - y) > options.rssiThreshold {
                add(.advertising, subject, "mean RSSI", a: Diff.dbm(x), b: Diff.dbm(y))
            }
        }
    }

    static func dbm(_ v: Double) -> String { Fmt.fixed(Int((v * 10).rounded()), scale: 10) + " dBm" }

    // MARK: GATT databases

    /// Compares each server's database; returns the paths present on one side only, per B server key and
    /// per A server key (steps and values about them are explained by this difference).
    mutating func compareDatabases() -> Set<String> {
        var explained = Set<String>()
        for ka in a.databaseOrder {
            let kb = mapped(ka)
            guard let ea = a.databases[ka], let eb = b.databases[kb] else {
                if a.databases[ka]?.isEmpty == false, !onlyInA(ka) { add(.gatt, a.label(ka), "GATT database discovered only in A") }
                continue
            }
            let subject = a.label(ka)
            let ia = Dictionary(ea.map { ($0.path, $0) }, uniquingKeysWith: { x, _ in x })
            let ib = Dictionary(eb.map { ($0.path, $0) }, uniquingKeysWith: { x, _ in x })
            func parentReported(_ path: String, _ set: Set<String>) -> Bool {
                var p = Substring(path)
                while let slash = p.lastIndex(of: "/") {
                    p = p[..<slash]
                    if set.contains(String(p)) { return true }
                }
                return false
            }
            var removed = Set<String>(), added = Set<String>()
            for e in ea where ib[e.path] == nil {
                explained.insert("A|\(ka)|\(e.path)")
                if parentReported(e.path, removed) { removed.insert(e.path); continue }
                removed.insert(e.path)
                add(.gatt, subject, "\(e.kind.rawValue) \(GATTPaths.label(e.path)) (\(e.path)) only in A, at \(Hex.hex(e.handle, width: 4))")
            }
            for e in eb where ia[e.path] == nil {
                explained.insert("B|\(kb)|\(e.path)")
                if parentReported(e.path, added) { added.insert(e.path); continue }
                added.insert(e.path)
                add(.gatt, subject, "\(e.kind.rawValue) \(GATTPaths.label(e.path)) (\(e.path)) only in B, at \(Hex.hex(e.handle, width: 4))")
            }
            // Properties, and handles that moved without anything added or removed before them.
            var previous: (a: UInt16, b: UInt16)? = nil
            var sinceChange = false
            let bOnly = eb.filter { ia[$0.path] == nil }.map(\.handle)
            var merged: [(GATTPaths.Entry, Bool)] = []   // entries of A in handle order, and whether B has them
            for e in ea { merged.append((e, ib[e.path] != nil)) }
            for (e, common) in merged {
                guard common, let o = ib[e.path] else { sinceChange = true; continue }
                // An attribute only B has, between the previous common one and this, explains a shift too.
                if let prev = previous, bOnly.contains(where: { $0 > prev.b && $0 < o.handle }) { sinceChange = true }
                if e.kind == .characteristic, e.properties != o.properties, let pa = e.properties, let pb = o.properties {
                    add(.gatt, subject, "properties of \(GATTPaths.label(e.path)) (\(e.path))",
                        a: ATTNames.properties(pa).joined(separator: ", "), b: ATTNames.properties(pb).joined(separator: ", "))
                }
                if e.kind == .service, e.primary != o.primary {
                    add(.gatt, subject, "service \(GATTPaths.label(e.path)) (\(e.path)) kind", a: e.primary == true ? "primary" : "secondary",
                        b: o.primary == true ? "primary" : "secondary")
                }
                let deltaNow = Int(o.handle) - Int(e.handle)
                let deltaBefore = previous.map { Int($0.b) - Int($0.a) } ?? 0
                if deltaNow != deltaBefore, !sinceChange, !options.skip("handles") {
                    add(.gatt, subject, "\(e.kind.rawValue) \(GATTPaths.label(e.path)) (\(e.path)) moved, with what follows it",
                        a: Hex.hex(e.handle, width: 4), b: Hex.hex(o.handle, width: 4))
                }
                previous = (e.handle, o.handle)
                sinceChange = false
            }
        }
        for kb in b.databaseOrder where !a.databaseOrder.contains(where: { mapped($0) == kb && a.databases[$0] != nil }) {
            if b.databases[kb]?.isEmpty == false, !onlyInB(kb) { add(.gatt, b.label(kb), "GATT database discovered only in B") }
        }
        return explained
    }

    // MARK: Connections, pairing, procedures, setup time

    mutating func compareLinks(removedPaths: Set<String>) {
        var byPeerA: [String: [CaptureDigest.Link]] = [:], byPeerB: [String: [CaptureDigest.Link]] = [:]
        var orderA: [String] = []
        for l in a.links {
            if byPeerA[l.peer] == nil { orderA.append(l.peer) }
            byPeerA[l.peer, default: []].append(l)
        }
        var orderB: [String] = []
        for l in b.links {
            if byPeerB[l.peer] == nil { orderB.append(l.peer) }
            byPeerB[l.peer, default: []].append(l)
        }
        var seenB = Set<String>()
        for peer in orderA {
            let kb = mapped(peer)
            seenB.insert(kb)
            let la = byPeerA[peer] ?? [], lb = byPeerB[kb] ?? []
            if onlyInA(peer) { continue }
            for i in 0..<max(la.count, lb.count) {
                if i >= lb.count {
                    add(.connections, a.label(peer), "connection #\(la[i].id) only in A", recordA: la[i].openedRecord)
                    continue
                }
                if i >= la.count {
                    add(.connections, a.label(peer), "connection #\(lb[i].id) only in B", recordB: lb[i].openedRecord)
                    continue
                }
                compareLink(la[i], lb[i], removedPaths: removedPaths)
            }
        }
        for peer in orderB where !seenB.contains(peer) && !onlyInB(peer) {
            for l in byPeerB[peer] ?? [] {
                add(.connections, b.label(peer), "connection #\(l.id) only in B", recordB: l.openedRecord)
            }
        }
    }

    static func params(_ p: (interval: Int, latency: Int, timeout: Int)?) -> String? {
        guard let p else { return nil }
        return "interval \(Fmt.interval1250(p.interval)), latency \(p.latency), timeout \(Fmt.timeout10(p.timeout))"
    }

    static func ms(_ us: Int64) -> String { Fmt.fixed(Int(us / 10), scale: 100) + " ms" }

    /// Packets a sniffed link needs on both sides before its packet error rate is compared.
    static let perMinimumPackets = 100

    /// A packet error rate changed by 5 points or more and at least doubled (or halved).
    static func perChanged(_ x: Double, _ y: Double) -> Bool {
        let lo = min(x, y), hi = max(x, y)
        return hi - lo >= 0.05 && hi >= 2 * lo
    }

    static func percent(_ x: Double) -> String { Fmt.fixed(Int((x * 1000).rounded()), scale: 10) + " %" }

    /// Peak throughput changed by half or more, and by 8 kbit/s at least (a few packets more are no change).
    static func throughputChanged(_ x: Int, _ y: Int) -> Bool {
        let lo = min(x, y), hi = max(x, y)
        return hi - lo >= 8_000 && Double(hi) >= 1.5 * Double(max(lo, 1))
    }

    func slower(_ x: Int64, _ y: Int64) -> Bool {
        let lo = min(x, y), hi = max(x, y)
        return hi - lo >= options.timingThresholdMicros && Double(hi) >= options.timingRatio * Double(max(lo, 1))
    }

    mutating func compareLink(_ la: CaptureDigest.Link, _ lb: CaptureDigest.Link, removedPaths: Set<String>) {
        let subject = "connection #\(la.id)" + (la.id == lb.id ? "" : " (#\(lb.id) in B)") + " to \(a.label(la.peer))"
        if la.role != lb.role { add(.connections, subject, "local role", a: la.role, b: lb.role) }
        if let x = Diff.params(la.initial), let y = Diff.params(lb.initial), x != y {
            add(.connections, subject, "parameters at connection", a: x, b: y, recordA: la.openedRecord, recordB: lb.openedRecord)
        }
        let ua = la.updates.map { Diff.params($0)! }, ub = lb.updates.map { Diff.params($0)! }
        if ua != ub {
            add(.connections, subject, "parameter updates", a: ua.isEmpty ? "none" : ua.joined(separator: "; "), b: ub.isEmpty ? "none" : ub.joined(separator: "; "))
        }
        // Only an exchange sets ATT_MTU; without one both sides use the default 23, which is no difference.
        if !options.skip("mtu"), la.attMTU != lb.attMTU {
            func mtu(_ v: Int?) -> String { v.map(String.init) ?? "23 (default, no MTU exchange)" }
            add(.connections, subject, "ATT_MTU", a: mtu(la.attMTU), b: mtu(lb.attMTU))
        }
        if la.encrypted != lb.encrypted { add(.connections, subject, "encrypted", a: "\(la.encrypted)", b: "\(lb.encrypted)") }
        if la.disconnectReason != lb.disconnectReason {
            func r(_ v: Int?) -> String { v.map { HCIText.status(UInt8(truncatingIfNeeded: $0)) + " (\(Hex.hex($0, width: 2)))" } ?? "still open" }
            add(.connections, subject, "disconnect reason", a: r(la.disconnectReason), b: r(lb.disconnectReason))
        }

        for i in 0..<max(la.pairings.count, lb.pairings.count) {
            guard i < la.pairings.count, i < lb.pairings.count else {
                if i < la.pairings.count { add(.pairing, subject, "pairing only in A: " + Diff.pairingText(la.pairings[i]), recordA: la.pairings[i].record) }
                else { add(.pairing, subject, "pairing only in B: " + Diff.pairingText(lb.pairings[i]), recordB: lb.pairings[i].record) }
                continue
            }
            let p = la.pairings[i], q = lb.pairings[i]
            func f(_ s: String?) -> String { s ?? "unknown" }
            if p.pairing != q.pairing { add(.pairing, subject, "pairing type", a: f(p.pairing), b: f(q.pairing), recordA: p.record, recordB: q.record) }
            if p.method != q.method { add(.pairing, subject, "pairing method", a: f(p.method), b: f(q.method), recordA: p.record, recordB: q.record) }
            if p.io != q.io { add(.pairing, subject, "IO capabilities", a: f(p.io), b: f(q.io), recordA: p.record, recordB: q.record) }
            if p.keySize != q.keySize { add(.pairing, subject, "key size", a: f(p.keySize.map(String.init)), b: f(q.keySize.map(String.init))) }
            if p.bonding != q.bonding { add(.pairing, subject, "bonding", a: f(p.bonding.map { "\($0)" }), b: f(q.bonding.map { "\($0)" })) }
            if p.outcome != q.outcome { add(.pairing, subject, "pairing outcome", a: p.outcome, b: q.outcome, recordA: p.record, recordB: q.record) }
        }

        // Traffic one side could not decrypt hides its procedures: say so once, instead of listing the other
        // side's steps as extra.
        if (la.undecoded > 0) != (lb.undecoded > 0) {
            let (side, n, other) = la.undecoded > 0 ? ("A", la.undecoded, lb.steps.count) : ("B", lb.undecoded, la.steps.count)
            let unlisted = other == 0 ? "" : " (\(other) step\(other == 1 ? "" : "s") on the other side not listed)"
            add(.procedures, subject, "encrypted and not decoded in \(side) (\(n) data PDU\(n == 1 ? "" : "s")): "
                + "its GATT procedures cannot be compared\(unlisted); --ltk or --keys decrypts it")
        } else {
            compareSteps(la, lb, subject: subject, removedPaths: removedPaths)
        }
        if !options.skip("setup"), let x = la.setupMicros, let y = lb.setupMicros, slower(x, y) {
            add(.timing, subject, "connection setup time", a: Diff.ms(x), b: Diff.ms(y), recordA: la.openedRecord, recordB: lb.openedRecord)
        }
        if !options.skip("latency"), let x = la.txLatencyP95, let y = lb.txLatencyP95, slower(x, y) {
            add(.timing, subject, "TX latency to completion p95", a: LinkStatistics.ms(x) + " ms", b: LinkStatistics.ms(y) + " ms")
        }
        if !options.skip("throughput") {
            for (name, x, y) in [("peak throughput tx", la.peakTx, lb.peakTx), ("peak throughput rx", la.peakRx, lb.peakRx)] {
                guard let x, let y, Diff.throughputChanged(x, y) else { continue }
                add(.timing, subject, name, a: LinkStatistics.rate(x), b: LinkStatistics.rate(y))
            }
        }
        if !options.skip("per"), let x = la.per, let y = lb.per, la.radioPackets >= Diff.perMinimumPackets,
           lb.radioPackets >= Diff.perMinimumPackets, Diff.perChanged(x, y) {
            add(.timing, subject, "packet error rate (sniffer)", a: Diff.percent(x), b: Diff.percent(y))
        }
    }

    /// Procedures: align the steps; a missing or extra step is one line. Steps about attributes that one
    /// database lacks are explained by the GATT difference.
    mutating func compareSteps(_ la: CaptureDigest.Link, _ lb: CaptureDigest.Link, subject: String, removedPaths: Set<String>) {
        let kb = mapped(la.peer)
        func explainedA(_ s: CaptureDigest.Step) -> Bool { s.path.map { removedPaths.contains("A|\(la.peer)|\($0)") } ?? false }
        func explainedB(_ s: CaptureDigest.Step) -> Bool { s.path.map { removedPaths.contains("B|\(kb)|\($0)") } ?? false }
        let pairs = Diff.align(la.steps.map(\.key), lb.steps.map(\.key))
        var listed = 0
        // A run of the same step on one side (a Write Command sent 13 times) is one line with a count and its records.
        var run: (inA: Bool, text: String, count: Int, first: Int, last: Int)? = nil
        func flush() {
            guard let r = run else { return }
            run = nil
            listed += 1
            guard listed <= 50 else { return }
            let side = r.inA ? "A" : "B"
            let text = "only in \(side): " + r.text + (r.count > 1 ? " (\(r.count) times, \(side) records \(r.first)–\(r.last))" : "")
            if r.count > 1 { add(.procedures, subject, text) }
            else if r.inA { add(.procedures, subject, text, recordA: r.first) }
            else { add(.procedures, subject, text, recordB: r.first) }
        }
        func step(_ s: CaptureDigest.Step, inA: Bool) {
            if let r = run, r.inA == inA, r.text == s.text {
                run?.count += 1
                run?.last = s.record
                return
            }
            flush()
            run = (inA, s.text, 1, s.record, s.record)
        }
        for (i, j) in pairs {
            switch (i, j) {
            case let (i?, nil):
                let s = la.steps[i]
                if explainedA(s) { continue }
                step(s, inA: true)
            case let (nil, j?):
                let s = lb.steps[j]
                if explainedB(s) { continue }
                step(s, inA: false)
            case let (i?, j?):
                flush()
                let s = la.steps[i], t = lb.steps[j]
                if !options.skip("latency"), let x = s.latencyMicros, let y = t.latencyMicros, slower(x, y) {
                    add(.timing, subject, "response time of \(s.text)", a: Diff.ms(x), b: Diff.ms(y), recordA: s.record, recordB: t.record)
                }
            default: break
            }
        }
        flush()
        if listed > 50 { add(.procedures, subject, "… and \(listed - 50) more steps that differ") }
    }

    static func pairingText(_ p: CaptureDigest.Pairing) -> String {
        [p.pairing, p.method, p.outcome].compactMap { $0 }.joined(separator: ", ")
    }

    /// Longest-common-subsequence alignment of two key lists: pairs of indices, nil where a step has no
    /// partner. Common prefix and suffix are matched first; a very large middle falls back to a greedy walk.
    static func align(_ x: [String], _ y: [String]) -> [(Int?, Int?)] {
        var out: [(Int?, Int?)] = []
        var lo = 0
        while lo < x.count, lo < y.count, x[lo] == y[lo] { out.append((lo, lo)); lo += 1 }
        var hx = x.count, hy = y.count
        var tail: [(Int?, Int?)] = []
        while hx > lo, hy > lo, x[hx - 1] == y[hy - 1] { hx -= 1; hy -= 1; tail.append((hx, hy)) }
        let n = hx - lo, m = hy - lo
        if n * m <= 4_000_000 {
            // lengths[i][j]: LCS of x[lo+i..<hx] and y[lo+j..<hy].
            var len = [Int32](repeating: 0, count: (n + 1) * (m + 1))
            if n > 0 && m > 0 {
                for i in stride(from: n - 1, through: 0, by: -1) {
                    for j in stride(from: m - 1, through: 0, by: -1) {
                        len[i * (m + 1) + j] = x[lo + i] == y[lo + j] ? len[(i + 1) * (m + 1) + j + 1] + 1
                            : max(len[(i + 1) * (m + 1) + j], len[i * (m + 1) + j + 1])
                    }
                }
            }
            var i = 0, j = 0
            while i < n || j < m {
                if i < n, j < m, x[lo + i] == y[lo + j] { out.append((lo + i, lo + j)); i += 1; j += 1 }
                else if j >= m || (i < n && len[(i + 1) * (m + 1) + j] >= len[i * (m + 1) + j + 1]) { out.append((lo + i, nil)); i += 1 }
                else { out.append((nil, lo + j)); j += 1 }
            }
        } else {
            var i = lo, j = lo
            while i < hx || j < hy {
                if i < hx, j < hy, x[i] == y[j] { out.append((i, j)); i += 1; j += 1 }
                else if i < hx { out.append((i, nil)); i += 1 }
                else { out.append((nil, j)); j += 1 }
            }
        }
        out.append(contentsOf: tail.reversed())
        return out
    }

    // MARK: Values and errors

    mutating func compareValues() {
        // Only values both sides saw: a value missing on one side is explained by the database, an error
        // or a procedure step, and is reported there.
        for ka in a.databaseOrder + a.values.keys.sorted() where a.values[ka] != nil {
            let kb = mapped(ka)
            guard let va = a.values[ka], let vb = b.values[kb] else { continue }
            for path in va.keys.sorted() {
                guard let x = va[path], let y = vb[path], x.bytes != y.bytes else { continue }
                add(.values, a.label(ka), GATTPaths.label(path) + " (\(path))", a: x.text, b: y.text, recordA: x.record, recordB: y.record)
            }
        }
        // databaseOrder and values.keys overlap: drop the repeats.
        var seen = Set<String>()
        items = items.filter { $0.category != .values || seen.insert($0.subject + "\u{0}" + $0.text).inserted }
    }

    mutating func compareErrors() {
        func counts(_ list: [CaptureDigest.ATTError], map: (String) -> String) -> ([String: Int], [String: CaptureDigest.ATTError], [String]) {
            var c: [String: Int] = [:], first: [String: CaptureDigest.ATTError] = [:], order: [String] = []
            for e in list {
                let k = map(e.server) + "|" + e.key
                if c[k] == nil { order.append(k); first[k] = e }
                c[k, default: 0] += 1
            }
            return (c, first, order)
        }
        let (ca, fa, oa) = counts(a.errors, map: { self.mapped($0) })
        let (cb, fb, ob) = counts(b.errors, map: { $0 })
        func text(_ e: CaptureDigest.ATTError) -> String {
            "\(e.request) of \(GATTPaths.label(e.path)): \(ATTNames.error(UInt8(truncatingIfNeeded: e.code))) (\(Hex.hex(e.code, width: 2)))"
        }
        for k in oa {
            let e = fa[k]!, n = ca[k]!, m = cb[k] ?? 0
            if onlyInA(e.server) { continue }
            if m == 0 { add(.errors, a.label(e.server), "only in A: " + text(e) + (n > 1 ? " ×\(n)" : ""), recordA: e.record) }
            else if n != m { add(.errors, a.label(e.server), text(e) + " count", a: "\(n)", b: "\(m)") }
        }
        for k in ob where ca[k] == nil {
            let e = fb[k]!, m = cb[k]!
            if onlyInB(e.server) { continue }
            add(.errors, b.label(e.server), "only in B: " + text(e) + (m > 1 ? " ×\(m)" : ""), recordB: e.record)
        }
    }

    // MARK: Timing

    mutating func compareLatencyPercentiles() {
        guard !options.skip("latency"), a.latencies.count >= 10, b.latencies.count >= 10 else { return }
        for p in [50, 90] {
            if let x = a.percentile(p), let y = b.percentile(p), slower(x, y) {
                add(.timing, "all connections", "response latency p\(p)", a: Diff.ms(x), b: Diff.ms(y))
            }
        }
    }
}
