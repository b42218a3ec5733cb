/// A beacon a device advertised (without the RSSI of any one report).
public enum SeenBeacon: Sendable, Equatable {
    case ibeacon(IBeacon)
    case eddystone(Eddystone)
    case altbeacon(AltBeacon)

    public var fields: Fields {
        var f: Fields
        let kind: String
        switch self {
        case let .ibeacon(b): f = b.fields; kind = "ibeacon"
        case let .eddystone(b): f = b.fields; kind = "eddystone"
        case let .altbeacon(b): f = b.fields; kind = "altbeacon"
        }
        f.items.insert(("type", .string(kind)), at: 0)
        return f
    }

    public var text: String {
        switch self {
        case let .ibeacon(b): return b.text
        case let .eddystone(b): return b.text
        case let .altbeacon(b): return b.text
        }
    }
}

/// Every advertiser of the capture, per address and address type, with what its reports said; plus the
/// devices the capturing host connected to. Scan responses count towards the device that sent them, so
/// what a device puts in its advert and in its scan response ends up merged.
public final class DeviceInventory: AnalysisLayer {
    public struct Key: Hashable, Sendable {
        public var address: BDAddr
        public var addressType: AddressType

        /// The address (48 bits) and its type's code (9 bits) as one word, different for different keys.
        var word: UInt64 { address.value | UInt64(addressType.code) << 48 }

        /// The word: one hash step for each report's lookup.
        public func hash(into h: inout Hasher) {
            h.combine(word)
        }
    }

    public struct Device: Sendable {
        public var address: BDAddr
        public var addressType: AddressType
        /// The AD data of the last advertising report and of the last scan response, when short enough to keep.
        var lastAdvert = ADMemo()
        var lastScanResponse = ADMemo()
        public var firstSeen: Timestamp?
        public var firstRecord: Int?
        public var lastSeen: Timestamp?
        public var lastRecord: Int?
        /// Advertising reports, scan responses included.
        public var reports = 0
        public var scanResponses = 0
        public var rssiMin: Int?
        public var rssiMax: Int?
        var rssiSum = 0
        var rssiCount = 0
        /// Distinct names (shortened and complete), first seen first; kept as bytes until rendered.
        var nameBytes: [[UInt8]] = []
        public var services: [BLEUUID] = []
        public var solicited: [BLEUUID] = []
        public var companies: [UInt16] = []
        public var txPowers: [Int] = []
        public var appearance: UInt16?
        public var connectable = false
        public var wantsANCS = false
        public var beacons: [SeenBeacon] = []
        /// The most recent Eddystone telemetry frame (its counters change with every frame).
        public var telemetry: Eddystone?
        /// Connections of the capturing host to this device (ids from the connection tracker).
        public var connections: [Int] = []
        /// Set when one of the per-device lists hit its cap and later values were not kept.
        public var capped = false
        /// A BR/EDR device: found by an inquiry, or the peer of a BR/EDR connection.
        public var bredr = false
        /// BR/EDR: the Class of Device from an inquiry result.
        public var classOfDevice: UInt32?
        /// BR/EDR: inquiry results naming the device.
        public var inquiryResponses = 0
        /// Resolvable private addresses this device was seen under (resolved with its IRK).
        public var resolvedFrom: [BDAddr] = []

        init(address: BDAddr, addressType: AddressType) {
            self.address = address
            self.addressType = addressType
        }

        public var names: [String] { nameBytes.map { String(decoding: $0, as: UTF8.self) } }
        public var rssiMean: Double? { rssiCount == 0 ? nil : Double(rssiSum) / Double(rssiCount) }
        public var connected: Bool { !connections.isEmpty }
    }

    public static let maxDevices = 100_000
    static let maxNames = 8
    static let maxUUIDs = 64
    static let maxCompanies = 16
    static let maxTxPowers = 8
    static let maxBeacons = 8

    @exclusivity(unchecked) var list: [Device] = []
    @exclusivity(unchecked) var index: [Key: Int] = [:]
    /// The slots of recent keys, direct-mapped by the key's word (`UInt64.max`: empty): a device advertising again
    /// is found without hashing its key. Slots never move (the list only grows).
    @exclusivity(unchecked) var recentWords = [UInt64](repeating: .max, count: 256)
    @exclusivity(unchecked) var recentSlots = [Int32](repeating: 0, count: 256)
    /// Reports from devices first seen after `maxDevices` were already listed; not inventoried.
    @exclusivity(unchecked) public private(set) var overflowReports = 0
    @exclusivity(unchecked) var tracker: ConnectionTracker?
    /// How many devices the text summary of `analyze` lists; nil lists all.
    @exclusivity(unchecked) public var textLimit: Int? = 50

    /// IRKs: the user's, and those SMP events distributed.
    @exclusivity(unchecked) var options = KeyOptions()
    @exclusivity(unchecked) var smpIdentities = IdentityKeys()
    weak var pipeline: Pipeline?

    public init() {}

    func ringIRKs() -> [(irk: [UInt8], identity: BDAddr?, record: Int)] { pipeline?.linkLayerIfUsed?.ring.irks ?? [] }

    public func attach(to pipeline: Pipeline) {
        tracker = pipeline.connections
        self.pipeline = pipeline
        options = pipeline.options.keys
    }

    /// A finished SMP event: the identities it distributes.
    func smp(_ b: SMPBody) {
        if case let .pdu(p) = b.content {
            switch p {
            case .identityInformation, .identityAddressInformation: smpIdentities.take(p, from: b.from)
            default: break
            }
        }
    }

    /// A device found by an inquiry: its class, RSSI and what its extended inquiry response says.
    public func observe(inquiry r: InquiryResponse, record: Int, at time: Timestamp) {
        guard let i = slot(Key(address: r.address, addressType: .public)) else { return }
        list[i].add(inquiry: r, record: record, at: time)
    }

    /// The device's slot in the list, added when new; nil (and the report counted as overflow) when the list is
    /// full.
    func slot(_ key: Key) -> Int? {
        let word = key.word
        let m = Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> 56)
        if recentWords[m] == word { return Int(recentSlots[m]) }
        let i: Int
        if let j = index[key] {
            i = j
        } else {
            guard list.count < DeviceInventory.maxDevices else { overflowReports += 1; return nil }
            i = list.count
            list.append(Device(address: key.address, addressType: key.addressType))
            index[key] = i
        }
        recentWords[m] = word
        recentSlots[m] = Int32(truncatingIfNeeded: i)
        return i
    }

    public func observe(_ r: AdvertisingReport, record: Int, at time: Timestamp) {
        guard let i = slot(Key(address: r.address, addressType: r.addressType)) else { return }
        list[i].add(r, record: record, at: time)
    }

    /// The inventory: advertisers in order of first appearance, then connection peers never seen advertising.
    /// Made once after the last record (the summary's text, its JSON and the peer names all read it).
    public var devices: [Device] {
        guard summarized else { return makeDevices() }
        if let d = finalDevices { return d }
        let d = makeDevices()
        finalDevices = d
        return d
    }

    /// Set by `summary()`, called once after the last record: from then on the inventory no longer changes.
    @exclusivity(unchecked) var summarized = false
    @exclusivity(unchecked) var finalDevices: [Device]?

    func makeDevices() -> [Device] {
        var out = DeviceInventory.resolvePrivateAddresses(list, identityKeys())
        guard let tracker else { return out }
        var byAddress: [BDAddr: [Int]] = [:]
        byAddress.reserveCapacity(out.count)
        out.reserveCapacity(Swift.min(out.count + tracker.all.count, DeviceInventory.maxDevices))
        for (i, d) in out.enumerated() {
            byAddress[d.address, default: []].append(i)
            for a in d.resolvedFrom where a != d.address { byAddress[a, default: []].append(i) }
        }
        for c in tracker.all {
            guard let peer = c.peer else { continue }
            if let idx = byAddress[peer] {
                for i in idx { out[i].connected(to: c) }
            } else if out.count < DeviceInventory.maxDevices {
                var d = Device(address: peer, addressType: c.peerType ?? .public)
                d.connected(to: c)
                byAddress[peer] = [out.count]
                out.append(d)
            }
        }
        return out
    }

    public func summary() -> SummarySection? {
        summarized = true
        if list.isEmpty && overflowReports == 0 && devices.isEmpty { return nil }
        return SummarySection(name: "devices",
                              writer: SummaryWriter(json: { [self] in DeviceInventory.write(devices, overflowReports: overflowReports, into: &$0) },
                                                    tree: { [self] in DeviceInventory.write(devices, overflowReports: overflowReports, into: &$0) }),
                              text: { [self] in DeviceInventory.text(devices, overflowReports: overflowReports, limit: textLimit) })
    }

    // MARK: Rendering

    public static func fields(_ all: [Device], overflowReports: Int) -> Fields {
        FieldsBuilder.object { write(all, overflowReports: overflowReports, into: &$0) }
    }

    /// The inventory's members, against any sink (JSON output writes them without building a tree).
    static func write<S: FieldSink>(_ all: [Device], overflowReports: Int, into f: inout S) {
        f.field("count", all.count)
        f.field("connectable", all.filter(\.connectable).count)
        f.field("connected", all.filter(\.connected).count)
        f.field("overflow_reports", overflowReports)
        f.objects("devices", all) { f, d in
            write(d, into: &f)
        }
    }

    public static func fields(_ d: Device) -> Fields {
        FieldsBuilder.object { write(d, into: &$0) }
    }

    /// One device's members.
    static func write<S: FieldSink>(_ d: Device, into f: inout S) {
        f.field("address", address: d.address)
        f.field("address_type", d.addressType.name)
        f.field("first_seen", orNull: d.firstSeen?.iso8601)
        f.field("first_record", orNull: d.firstRecord)
        f.field("last_seen", orNull: d.lastSeen?.iso8601)
        f.field("last_record", orNull: d.lastRecord)
        f.field("reports", d.reports)
        f.field("scan_responses", d.scanResponses)
        if let lo = d.rssiMin, let hi = d.rssiMax, let mean = d.rssiMean {
            f.object("rssi") { f in
                f.field("min", lo)
                f.key("mean")
                f.double((mean * 10).rounded() / 10)
                f.field("max", hi)
            }
        } else {
            f.key("rssi")
            f.null()
        }
        f.list("names") { f in for n in d.names { f.string(n) } }
        f.list("services") { f in for u in d.services { f.uuid(u) } }
        f.list("solicited_services") { f in for u in d.solicited { f.uuid(u) } }
        // Each UUID's name once, in the order the UUIDs were first seen.
        var named: [BLEUUID] = []
        for u in d.services + d.solicited where u.name != nil && !named.contains(u) { named.append(u) }
        if !named.isEmpty {
            f.object("uuid_names") { f in for u in named { if let n = u.name { f.field(name: u.description, n) } } }
        }
        f.field("wants_ancs", d.wantsANCS)
        f.objects("manufacturers", d.companies) { f, c in
            f.field("company", Int(c))
            if let n = AssignedNumbers.companyName(c) { f.field("name", n) }
        }
        f.list("tx_power") { f in for p in d.txPowers { f.int(p) } }
        if let a = d.appearance {
            f.object("appearance") { f in
                f.field("value", Int(a))
                f.field("name", ADDecode.appearanceName(a))
            }
        }
        f.field("connectable", d.connectable)
        f.field("connected", d.connected)
        f.list("connections") { f in for c in d.connections { f.int(c) } }
        f.list("beacons") { f in for b in d.beacons { f.value(.object(b.fields)) } }
        if let t = d.telemetry { f.key("eddystone_tlm"); f.value(.object(t.fields)) }
        if d.capped { f.field("capped", true) }
        if !d.resolvedFrom.isEmpty { f.list("resolved_from") { f in for a in d.resolvedFrom { f.address(a) } } }
        if d.bredr {
            f.field("bredr", true)
            f.field("inquiry_responses", d.inquiryResponses)
        }
        if let c = d.classOfDevice {
            f.field("class_of_device", Int(c))
            f.field("major_device_class", ClassicNames.majorDeviceClass(c))
            if let m = ClassicNames.minorDeviceClass(c) { f.field("minor_device_class", m) }
            f.list("service_classes") { f in for n in ClassicNames.serviceClassNames(c) { f.string(n) } }
        }
    }

    public static func text(_ all: [Device], overflowReports: Int, limit: Int?) -> [String] {
        // A device that was connected to was connectable, whether or not the capture saw it advertise so.
        var connectable = 0, connected = 0
        for d in all {
            if d.connectable || d.connected { connectable += 1 }
            if d.connected { connected += 1 }
        }
        var lines = ["  Devices:     \(all.count) (\(connectable) connectable, \(connected) connected)"]
        // A cut list leads with the connected devices, so that the one the capture is about is never cut.
        var shown = 0
        if let limit {
            for d in all where d.connected && shown < limit {
                lines.append(contentsOf: text(d))
                shown += 1
            }
            for d in all where !d.connected && shown < limit {
                lines.append(contentsOf: text(d))
                shown += 1
            }
        } else {
            for d in all { lines.append(contentsOf: text(d)) }
            shown = all.count
        }
        if shown < all.count {
            lines.append("    … and \(all.count - shown) more (bletrace devices lists them all)")
        }
        if overflowReports > 0 {
            lines.append("    \(overflowReports) reports from devices beyond the first \(maxDevices) were not inventoried")
        }
        return lines
    }

    public static func text(_ d: Device) -> [String] {
        var head = "    \(d.address) (\(d.addressType.name))"
        if d.bredr {
            head += ", BR/EDR"
            if let c = d.classOfDevice { head += " " + ClassicNames.classOfDevice(c) }
            if d.inquiryResponses > 0 { head += ", \(d.inquiryResponses) inquiry response\(d.inquiryResponses == 1 ? "" : "s")" }
        }
        if d.reports > 0 || d.inquiryResponses > 0 {
            if d.reports > 0 { head += ", \(d.reports) report\(d.reports == 1 ? "" : "s")" }
            if d.scanResponses > 0 { head += " (\(d.scanResponses) scan response\(d.scanResponses == 1 ? "" : "s"))" }
            if let lo = d.rssiMin, let hi = d.rssiMax, let mean = d.rssiMean {
                head += ", RSSI \(lo)/\(Fmt.fixed(Int((mean * 10).rounded()), scale: 10))/\(hi) dBm (min/mean/max)"
            }
            if let a = d.firstRecord, let b = d.lastRecord { head += ", records \(a)–\(b)" }
        } else if !d.bredr {
            head += ", never seen advertising"
        }
        var parts: [String] = []
        if !d.names.isEmpty { parts.append("name " + d.names.map { "\"\($0)\"" }.joined(separator: ", ")) }
        if d.connectable { parts.append("connectable") }
        if d.connected {
            let shown = d.connections.prefix(10).map { "#\($0)" }.joined(separator: ", ")
            parts.append("connected (" + shown + (d.connections.count > 10 ? ", … \(d.connections.count) in all" : "") + ")")
        }
        if !d.services.isEmpty { parts.append("services " + d.services.map(\.shortName).joined(separator: " ")) }
        if !d.solicited.isEmpty { parts.append("solicits " + d.solicited.map(\.shortName).joined(separator: " ")) }
        if d.wantsANCS { parts.append("wants ANCS") }
        if !d.companies.isEmpty {
            parts.append("manufacturer " + d.companies.map { AssignedNumbers.companyName($0) ?? Hex.hex($0, width: 4) }.joined(separator: ", "))
        }
        if !d.txPowers.isEmpty { parts.append("tx power " + d.txPowers.map { "\($0)" }.joined(separator: ", ") + " dBm") }
        if let a = d.appearance { parts.append("appearance \(ADDecode.appearanceName(a))") }
        if !d.resolvedFrom.isEmpty {
            parts.append("seen under resolvable private address" + (d.resolvedFrom.count == 1 ? " " : "es ")
                         + d.resolvedFrom.map(\.description).joined(separator: ", ") + " (resolved with its IRK)")
        }
        var lines = [head]
        if !parts.isEmpty { lines.append("      " + parts.joined(separator: "; ")) }
        for b in d.beacons { lines.append("      " + b.text) }
        if let t = d.telemetry { lines.append("      " + t.text) }
        return lines
    }
}

extension DeviceInventory.Device {
    mutating func add(_ r: AdvertisingReport, record: Int, at time: Timestamp) {
        reports += 1
        if r.scanResponse { scanResponses += 1 }
        if firstRecord == nil { firstRecord = record; firstSeen = time }
        lastRecord = record
        lastSeen = time
        if let v = r.rssi { addRSSI(v) }
        if r.connectable { connectable = true }
        if let tx = r.txPower { addTx(tx) }
        // The same data again adds nothing (every fact is a set, and bounded): most devices repeat theirs several
        // times a second.
        if let m = ADMemo(r.data) {
            if r.scanResponse {
                if m == lastScanResponse { return }
                lastScanResponse = m
            } else {
                if m == lastAdvert { return }
                lastAdvert = m
            }
        }
        addAD(r.data)
    }

    mutating func add(inquiry r: InquiryResponse, record: Int, at time: Timestamp) {
        bredr = true
        inquiryResponses += 1
        classOfDevice = r.classOfDevice
        if firstRecord == nil { firstRecord = record; firstSeen = time }
        lastRecord = record
        lastSeen = time
        if let v = r.rssi { addRSSI(Int(v)) }
        if let eir = r.eir { addAD(eir) }
    }

    /// A connection of the capturing host to this device; a BR/EDR one adds its remote name.
    mutating func connected(to c: Connection) {
        connections.append(c.id)
        guard !c.le else { return }
        bredr = true
        if let n = c.name, !n.isEmpty, !nameBytes.contains(where: { $0.elementsEqual(n.utf8) }) {
            if nameBytes.count < DeviceInventory.maxNames { nameBytes.append(Array(n.utf8)) } else { capped = true }
        }
    }

    mutating func addRSSI(_ v: Int) {
        rssiMin = Swift.min(rssiMin ?? v, v)
        rssiMax = Swift.max(rssiMax ?? v, v)
        rssiSum += v
        rssiCount += 1
    }

    /// Names, services, solicitations, TX power, appearance, manufacturers and beacons of AD (or EIR) data.
    mutating func addAD(_ data: ArraySlice<UInt8>) {
        for ad in ADSequence(data) where ad.malformed == nil {
            let d = ad.data
            switch ad.type {
            case 0x08, 0x09:
                var end = d.endIndex
                while end > d.startIndex && d[end - 1] == 0 { end -= 1 }
                let name = d[d.startIndex..<end]
                if name.isEmpty || nameBytes.contains(where: { $0.elementsEqual(name) }) { break }
                if nameBytes.count < DeviceInventory.maxNames { nameBytes.append(Array(name)) } else { capped = true }
            case 0x02...0x07:
                if !Self.addUUIDs(d, size: ad.type <= 0x03 ? 2 : ad.type <= 0x05 ? 4 : 16, to: &services) { capped = true }
            case 0x14, 0x15, 0x1F:
                if !Self.addUUIDs(d, size: ad.type == 0x14 ? 2 : ad.type == 0x1F ? 4 : 16, to: &solicited) { capped = true }
                if ad.type == 0x15 && solicited.contains(ADDecode.ancs) { wantsANCS = true }
            case 0x0A:
                if d.count == 1, let p = d.first { addTx(Int(Int8(bitPattern: p))) }
            case 0x19:
                var c = ByteCursor(d)
                if d.count == 2, let v = try? c.u16le() { appearance = v }
            case 0xFF:
                var c = ByteCursor(d)
                guard let company = try? c.u16le() else { break }
                if !companies.contains(company) {
                    if companies.count < DeviceInventory.maxCompanies { companies.append(company) } else { capped = true }
                }
                let rest = c.rest()
                if let b = IBeacon.dissect(company: company, data: rest).beacon { addBeacon(.ibeacon(b)) }
                else if let b = AltBeacon.dissect(company: company, data: rest).beacon { addBeacon(.altbeacon(b)) }
            case 0x16:
                var c = ByteCursor(d)
                guard let u = try? c.u16le(), let b = Eddystone.dissect(serviceUUID: u, data: c.rest()).beacon else { break }
                switch b.frame {
                case .tlm, .encryptedTLM: telemetry = b
                default: addBeacon(.eddystone(b))
                }
            default:
                break
            }
        }
    }

    mutating func addTx(_ v: Int) {
        if txPowers.contains(v) { return }
        if txPowers.count < DeviceInventory.maxTxPowers { txPowers.append(v) } else { capped = true }
    }

    mutating func addBeacon(_ b: SeenBeacon) {
        if beacons.contains(b) { return }
        if beacons.count < DeviceInventory.maxBeacons { beacons.append(b) } else { capped = true }
    }

    /// Adds the distinct UUIDs; false when the list was full and some were left out.
    static func addUUIDs(_ d: ArraySlice<UInt8>, size: Int, to list: inout [BLEUUID]) -> Bool {
        var kept = true
        var i = d.startIndex
        while i + size <= d.endIndex {
            if let u = BLEUUID(littleEndian: d[i..<(i + size)]), !list.contains(u) {
                if list.count < DeviceInventory.maxUUIDs { list.append(u) } else { kept = false }
            }
            i += size
        }
        return kept
    }
}

/// Up to 32 bytes of AD data packed into four words, kept without an allocation and compared exactly.
struct ADMemo: Equatable, Sendable {
    /// -1: nothing kept.
    var count = -1
    var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0

    init() {}

    /// nil when the data is longer than 32 bytes. Borrowed: a report's data passed as it was copied the whole report.
    init?(_ d: borrowing ArraySlice<UInt8>) {
        guard d.count <= 32 else { return nil }
        count = d.count
        // The bytes copied whole into four zeroed words (only compared, so byte order does not matter).
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { w in d.withUnsafeBytes { w.copyMemory(from: $0) } }
        (w0, w1, w2, w3) = words
    }
}
