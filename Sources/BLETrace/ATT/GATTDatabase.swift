/// A service as discovery showed it.
public struct GATTService: Sendable, Equatable {
    public var start: UInt16
    public var end: UInt16
    /// Nil when only the declaration's handle is known (Find Information).
    public var uuid: BLEUUID?
    public var primary: Bool
}

/// An include declaration (Core 5.4 Vol 3 Part G 3.2).
public struct GATTInclude: Sendable, Equatable {
    public var handle: UInt16
    public var start: UInt16
    public var end: UInt16
    /// Present only for 16-bit service UUIDs (128-bit ones must be read separately).
    public var uuid: BLEUUID?
}

/// A characteristic declaration (Core 5.4 Vol 3 Part G 3.3.1).
public struct GATTCharacteristic: Sendable, Equatable {
    public var handle: UInt16
    /// Nil when the declaration's value was never seen (derived from Find Information).
    public var properties: UInt8?
    public var valueHandle: UInt16
    public var uuid: BLEUUID?
}

/// A descriptor: an attribute after a characteristic's value, before the next declaration.
public struct GATTDescriptor: Sendable, Equatable {
    public var handle: UInt16
    public var uuid: BLEUUID?
}

/// What an attribute handle belongs to.
public struct GATTLocation: Sendable, Equatable {
    public enum Role: String, Sendable {
        case serviceDeclaration = "service_declaration"
        case include
        case characteristicDeclaration = "characteristic_declaration"
        case value
        case descriptor
        case unknown
    }
    public var service: GATTService?
    public var characteristic: GATTCharacteristic?
    public var descriptor: GATTDescriptor?
    public var role: Role

    public var isEmpty: Bool { service == nil && characteristic == nil && descriptor == nil }
}

/// A `GATTLocation` shared by reference: the database keeps one per handle it has looked up, and every ATT event
/// about that handle points at it instead of copying the service, characteristic and descriptor into itself.
public final class GATTLocationRef: Sendable {
    public let location: GATTLocation
    public init(_ location: GATTLocation) { self.location = location }
    /// The location of a handle whose server has no database.
    static let unknown = GATTLocationRef(GATTLocation(role: .unknown))
}

/// The attribute database of one GATT server, rebuilt from discovery PDUs. Bounded by construction: every
/// table is keyed by a 16-bit handle, so no peer holds more than 65,535 attributes of each kind.
public struct GATTDatabase: Sendable {
    /// The server: a peer's address (or `handle-0x…` when unknown), or "local".
    public var device: String
    /// Where the content came from: "capture" or the path of a `--gatt` file.
    public var source: String
    public private(set) var services: [UInt16: GATTService] = [:]
    public private(set) var includes: [UInt16: GATTInclude] = [:]
    public private(set) var characteristics: [UInt16: GATTCharacteristic] = [:]
    /// Attribute types from Find Information (handle → type).
    public private(set) var types: [UInt16: BLEUUID] = [:]
    /// Per handle: the location looked up, and the generation it was looked up in. An entry older than the
    /// database is checked again when used, and kept when discovery left it as it was (no new reference made).
    /// Handles below `lowHandles` (a server's attributes nearly always are) by index, without hashing; the rest in
    /// `cacheHigh`.
    var cacheLow: [CachedLocation?] = []
    var cacheHigh: [UInt16: CachedLocation] = [:]
    static let lowHandles = 1024
    struct CachedLocation {
        var ref: GATTLocationRef
        var generation: Int
    }
    /// The ordered lists, valid while their flag is set. A change clears the flags and keeps the storage, so that
    /// discovery (a change per response) rebuilds the lists in place rather than allocating them again.
    var sortedServices: [GATTService] = []
    var sortedCharacteristics: [GATTCharacteristic] = []
    var servicesSorted = false
    var characteristicsSorted = false

    public init(device: String, source: String = "capture") {
        self.device = device
        self.source = source
    }

    public var isEmpty: Bool { services.isEmpty && characteristics.isEmpty && types.isEmpty && includes.isEmpty }

    /// Incremented by every change.
    public private(set) var generation = 0

    /// Frees the lookup memo and sorted lists (rebuilt on use); the content stays.
    mutating func dropCaches() {
        cacheLow = []
        cacheHigh = [:]
        sortedServices = []
        sortedCharacteristics = []
        servicesSorted = false
        characteristicsSorted = false
    }

    mutating func changed() {
        generation &+= 1
        servicesSorted = false
        characteristicsSorted = false
    }

    /// Room for a typical server's attributes on a table's first entry: discovery then fills each table without
    /// growing it one doubling at a time.
    static let typicalServices = 8
    static let typicalCharacteristics = 32
    static let typicalAttributes = 64

    // MARK: Discovery input

    public mutating func addService(start: UInt16, end: UInt16, uuid: BLEUUID?, primary: Bool) {
        guard end >= start else { return }
        var s = GATTService(start: start, end: end, uuid: uuid, primary: primary)
        if services.isEmpty { services.reserveCapacity(GATTDatabase.typicalServices) }
        // Stored and the old entry read in one lookup; an entry without a UUID keeps the one known.
        if let old = services.updateValue(s, forKey: start) {
            if s.uuid == nil, old.uuid != nil {
                s.uuid = old.uuid
                services[start] = s
            }
            if old == s { return }
        }
        generation &+= 1
        servicesSorted = false
    }

    public mutating func addInclude(_ i: GATTInclude) {
        if includes[i.handle] == i { return }
        includes[i.handle] = i
        generation &+= 1
    }

    public mutating func addCharacteristic(_ ch: GATTCharacteristic) {
        if characteristics.isEmpty { characteristics.reserveCapacity(GATTDatabase.typicalCharacteristics) }
        if characteristics.updateValue(ch, forKey: ch.handle) == ch { return }
        generation &+= 1
        characteristicsSorted = false
    }

    public mutating func addType(_ handle: UInt16, _ uuid: BLEUUID) {
        if types.isEmpty { types.reserveCapacity(GATTDatabase.typicalAttributes) }
        let old = types.updateValue(uuid, forKey: handle)
        if old == uuid { return }
        generation &+= 1
        // Only declarations order the lists (a descriptor's type, the usual answer, leaves them as they are): a
        // service declaration's type the services; a characteristic declaration's, or the type after one (its
        // value's), the characteristics.
        if GATTDatabase.declaresService(uuid) || old.map(GATTDatabase.declaresService) == true { servicesSorted = false }
        if uuid.uuid16 == 0x2803 || old?.uuid16 == 0x2803 || (handle > 0 && types[handle &- 1]?.uuid16 == 0x2803) {
            characteristicsSorted = false
        }
    }

    /// A primary or secondary service declaration's type.
    static func declaresService(_ u: BLEUUID) -> Bool { u.uuid16 == 0x2800 || u.uuid16 == 0x2801 }

    /// Feeds a discovery response, given the request it answers. Returns true when the database changed.
    @discardableResult
    public mutating func ingest(request: ATTPDU, response: ATTPDU) -> Bool {
        let before = generation
        // One switch per PDU, not one over the pair: a tuple of the two would be a copy of both.
        switch response {
        case let .readByGroupTypeResponse(entries):
            guard case let .readByGroupTypeRequest(_, _, type) = request, let t = type.uuid16, t == 0x2800 || t == 0x2801 else {
                return false
            }
            for e in entries { addService(start: e.handle, end: e.end, uuid: BLEUUID(littleEndian: e.value), primary: t == 0x2800) }
        case let .findByTypeValueResponse(entries):
            guard case let .findByTypeValueRequest(_, _, type, value) = request, type == 0x2800 || type == 0x2801 else { return false }
            let u = BLEUUID(littleEndian: value)
            for e in entries { addService(start: e.found, end: e.groupEnd, uuid: u, primary: type == 0x2800) }
        case let .readByTypeResponse(entries):
            guard case let .readByTypeRequest(_, _, type) = request else { return false }
            switch type.uuid16 {
            case 0x2803:
                for e in entries {
                    var c = ByteCursor(e.value)
                    guard let props = try? c.u8(), let vh = try? c.u16le() else { continue }
                    let u = BLEUUID(littleEndian: c.rest())
                    addCharacteristic(GATTCharacteristic(handle: e.handle, properties: props, valueHandle: vh, uuid: u))
                }
            case 0x2802:
                for e in entries {
                    var c = ByteCursor(e.value)
                    guard let s = try? c.u16le(), let en = try? c.u16le() else { continue }
                    let rest = c.rest()
                    addInclude(GATTInclude(handle: e.handle, start: s, end: en, uuid: rest.count == 2 ? BLEUUID(littleEndian: rest) : nil))
                }
            default:
                return false
            }
        case let .findInformationResponse(_, entries):
            guard case .findInformationRequest = request else { return false }
            for e in entries { addType(e.handle, e.uuid) }
        default:
            return false
        }
        return before != generation
    }

    // MARK: Lookup

    /// Services ordered by start handle.
    public mutating func orderedServices() -> [GATTService] {
        if servicesSorted { return sortedServices }
        sortedServices.removeAll(keepingCapacity: true)
        sortedServices.append(contentsOf: services.values)
        // Service declarations seen only through Find Information.
        for (h, t) in types where (t.uuid16 == 0x2800 || t.uuid16 == 0x2801) && services[h] == nil {
            sortedServices.append(GATTService(start: h, end: h, uuid: nil, primary: t.uuid16 == 0x2800))
        }
        sortedServices.sort { $0.start < $1.start }
        // A service known only from Find Information ends before the next one starts.
        for i in sortedServices.indices
        where sortedServices[i].end == sortedServices[i].start && services[sortedServices[i].start] == nil {
            sortedServices[i].end = i + 1 < sortedServices.count ? sortedServices[i + 1].start &- 1 : 0xFFFF
        }
        servicesSorted = true
        return sortedServices
    }

    /// Characteristics ordered by declaration handle, including those derived from Find Information
    /// (a 0x2803 declaration is immediately followed by its value, Core 5.4 Vol 3 Part G 3.3).
    public mutating func orderedCharacteristics() -> [GATTCharacteristic] {
        if characteristicsSorted { return sortedCharacteristics }
        sortedCharacteristics.removeAll(keepingCapacity: true)
        sortedCharacteristics.append(contentsOf: characteristics.values)
        for (h, t) in types where t.uuid16 == 0x2803 && characteristics[h] == nil && h < 0xFFFF {
            sortedCharacteristics.append(GATTCharacteristic(handle: h, properties: nil, valueHandle: h + 1, uuid: types[h + 1]))
        }
        sortedCharacteristics.sort { $0.handle < $1.handle }
        characteristicsSorted = true
        return sortedCharacteristics
    }

    /// How many services `orderedServices` lists, without ordering them.
    public var serviceCount: Int {
        var n = services.count
        for (h, t) in types where (t.uuid16 == 0x2800 || t.uuid16 == 0x2801) && services[h] == nil { n += 1 }
        return n
    }

    /// How many characteristics `orderedCharacteristics` lists, without ordering them.
    public var characteristicCount: Int {
        var n = characteristics.count
        for (h, t) in types where t.uuid16 == 0x2803 && characteristics[h] == nil && h < 0xFFFF { n += 1 }
        return n
    }

    /// The service, characteristic and descriptor `handle` belongs to. Memoized until the database changes.
    public mutating func locate(_ handle: UInt16) -> GATTLocation { locateRef(handle).location }

    /// `locate`, as the database's shared entry for the handle.
    public mutating func locateRef(_ handle: UInt16) -> GATTLocationRef {
        let h = Int(handle)
        let cached = h < GATTDatabase.lowHandles ? (h < cacheLow.count ? cacheLow[h] : nil) : cacheHigh[handle]
        if let c = cached, c.generation == generation { return c.ref }
        let ref: GATTLocationRef
        if let c = cached {
            // Looked up before a change: the same reference while the location is the same.
            let location = compute(handle)
            ref = location == c.ref.location ? c.ref : GATTLocationRef(location)
        } else {
            ref = GATTLocationRef(compute(handle))
        }
        let entry = CachedLocation(ref: ref, generation: generation)
        if h < GATTDatabase.lowHandles {
            if cacheLow.isEmpty { cacheLow.reserveCapacity(GATTDatabase.typicalCharacteristics) }
            while cacheLow.count <= h { cacheLow.append(nil) }
            cacheLow[h] = entry
        } else {
            cacheHigh[handle] = entry
        }
        return ref
    }

    mutating func compute(_ handle: UInt16) -> GATTLocation {
        let svcs = orderedServices()
        var service: GATTService? = nil
        if let i = lastIndex(svcs, atMost: handle, key: { $0.start }), svcs[i].end >= handle { service = svcs[i] }
        var loc = GATTLocation(service: service, characteristic: nil, descriptor: nil, role: .unknown)
        if let s = service, s.start == handle { loc.role = .serviceDeclaration; return loc }
        if let inc = includes[handle] {
            loc.role = .include
            _ = inc
            return loc
        }
        let chars = orderedCharacteristics()
        guard let i = lastIndex(chars, atMost: handle, key: { $0.handle }) else {
            if let t = types[handle], t.uuid16 != 0x2800, t.uuid16 != 0x2801 {
                loc.descriptor = GATTDescriptor(handle: handle, uuid: t)
                loc.role = .descriptor
            }
            return loc
        }
        let ch = chars[i]
        if let s = service, ch.handle < s.start { return loc } // the nearest characteristic is in an earlier service
        // Outside every service discovery found (past the last one's end handle, or in a gap): no discovery covered
        // the handle, so it is nobody's descriptor. Without any service known, characteristics alone decide.
        if service == nil && !svcs.isEmpty && !svcs.contains(where: { $0.start <= handle && $0.end >= handle }) { return loc }
        var end: UInt16 = service?.end ?? 0xFFFF
        if i + 1 < chars.count, chars[i + 1].handle &- 1 < end { end = chars[i + 1].handle &- 1 }
        if let next = svcs.first(where: { $0.start > ch.handle }), next.start &- 1 < end { end = next.start &- 1 }
        guard handle <= end else { return loc }
        loc.characteristic = ch
        if handle == ch.handle { loc.role = .characteristicDeclaration }
        else if handle == ch.valueHandle { loc.role = .value }
        else if handle > ch.valueHandle {
            loc.descriptor = GATTDescriptor(handle: handle, uuid: types[handle])
            loc.role = .descriptor
        }
        return loc
    }

    func lastIndex<T>(_ list: [T], atMost h: UInt16, key: (T) -> UInt16) -> Int? {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if key(list[mid]) <= h { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : lo - 1
    }

    /// Descriptors of a characteristic: attributes after its value handle up to the next declaration.
    public mutating func descriptors(of ch: GATTCharacteristic) -> [GATTDescriptor] {
        var out: [GATTDescriptor] = []
        for (h, t) in types.sorted(by: { $0.key < $1.key }) where h > ch.valueHandle {
            let l = locate(h)
            guard l.characteristic?.handle == ch.handle, l.role == .descriptor else { continue }
            out.append(GATTDescriptor(handle: h, uuid: t))
        }
        return out
    }

    /// Adds everything from `other` that this database does not have.
    public mutating func merge(_ other: GATTDatabase) {
        for (k, v) in other.services where services[k] == nil { services[k] = v }
        for (k, v) in other.includes where includes[k] == nil { includes[k] = v }
        for (k, v) in other.characteristics where characteristics[k] == nil { characteristics[k] = v }
        for (k, v) in other.types where types[k] == nil { types[k] = v }
        changed()
    }
}

// MARK: Export, import and text

extension GATTDatabase {
    static func uuidFields(_ u: BLEUUID?, _ f: inout Fields, nameKind: (UInt16) -> String?) {
        guard let u else { f.add("uuid", .null); return }
        f.add("uuid", u.description)
        if let n = GATTNaming.name(u, kind: nameKind) { f.add("name", n) }
    }

    /// The tree as JSON fields: `{"device", "source", "services": [{"start", "end", "uuid", "name", "primary",
    /// "includes": [...], "characteristics": [{"handle", "value_handle", "properties", "property_names", "uuid",
    /// "name", "descriptors": [{"handle", "uuid", "name"}]}]}]}`.
    public mutating func jsonFields() -> Fields {
        var f = Fields()
        f.add("device", device)
        f.add("source", source)
        var list: [FieldValue] = []
        let chars = orderedCharacteristics()
        let svcs = orderedServices()
        var placed = Set<UInt16>()
        for s in svcs {
            var sf = Fields()
            sf.add("start", Int(s.start))
            sf.add("end", Int(s.end))
            GATTDatabase.uuidFields(s.uuid, &sf, nameKind: AssignedNumbers.serviceName)
            sf.add("primary", s.primary)
            let incs = includes.values.filter { $0.handle >= s.start && $0.handle <= s.end }.sorted { $0.handle < $1.handle }
            sf.add("includes", .list(incs.map { i in
                var x = Fields()
                x.add("handle", Int(i.handle)); x.add("start", Int(i.start)); x.add("end", Int(i.end))
                GATTDatabase.uuidFields(i.uuid, &x, nameKind: AssignedNumbers.serviceName)
                return .object(x)
            }))
            var cl: [FieldValue] = []
            for ch in chars where ch.handle > s.start && ch.handle <= s.end {
                placed.insert(ch.handle)
                cl.append(.object(characteristicFields(ch)))
            }
            sf.add("characteristics", .list(cl))
            list.append(.object(sf))
        }
        f.add("services", .list(list))
        let orphans = chars.filter { !placed.contains($0.handle) }
        if !orphans.isEmpty {
            f.add("characteristics_outside_services", .list(orphans.map { .object(characteristicFields($0)) }))
        }
        return f
    }

    mutating func characteristicFields(_ ch: GATTCharacteristic) -> Fields {
        var cf = Fields()
        cf.add("handle", Int(ch.handle))
        cf.add("value_handle", Int(ch.valueHandle))
        if let p = ch.properties {
            cf.add("properties", Int(p))
            cf.add("property_names", .list(ATTNames.properties(p).map { .string($0) }))
        }
        GATTDatabase.uuidFields(ch.uuid, &cf, nameKind: AssignedNumbers.characteristicName)
        cf.add("descriptors", .list(descriptors(of: ch).map { d in
            var df = Fields()
            df.add("handle", Int(d.handle))
            GATTDatabase.uuidFields(d.uuid, &df, nameKind: AssignedNumbers.descriptorName)
            return .object(df)
        }))
        return cf
    }

    /// Rebuilds a database from `jsonFields()` output. Entries that do not have the expected shape are skipped.
    public static func from(json f: Fields, source: String) -> GATTDatabase? {
        guard let device = f["device"]?.stringValue, case let .list(svcs)? = f["services"] else { return nil }
        var db = GATTDatabase(device: device, source: source)
        func uuid(_ x: Fields) -> BLEUUID? { x["uuid"]?.stringValue.flatMap { BLEUUID(string: $0) } }
        func u16(_ x: Fields, _ k: String) -> UInt16? { x[k]?.intValue.flatMap { UInt16(exactly: $0) } }
        func chars(_ list: FieldValue?) {
            guard case let .list(items)? = list else { return }
            for case let .object(c) in items {
                guard let h = u16(c, "handle"), let vh = u16(c, "value_handle") else { continue }
                let p = c["properties"]?.intValue.flatMap { UInt8(exactly: $0) }
                db.addCharacteristic(GATTCharacteristic(handle: h, properties: p, valueHandle: vh, uuid: uuid(c)))
                if let u = uuid(c) { db.addType(vh, u) }
                db.addType(h, BLEUUID(UInt16(0x2803)))
                if case let .list(ds)? = c["descriptors"] {
                    for case let .object(d) in ds {
                        guard let dh = u16(d, "handle"), let du = uuid(d) else { continue }
                        db.addType(dh, du)
                    }
                }
            }
        }
        for case let .object(s) in svcs {
            guard let start = u16(s, "start"), let end = u16(s, "end") else { continue }
            let primary = s["primary"].map { $0 == .bool(true) } ?? true
            db.addService(start: start, end: end, uuid: uuid(s), primary: primary)
            if case let .list(incs)? = s["includes"] {
                for case let .object(i) in incs {
                    guard let h = u16(i, "handle"), let a = u16(i, "start"), let b = u16(i, "end") else { continue }
                    db.addInclude(GATTInclude(handle: h, start: a, end: b, uuid: uuid(i)))
                }
            }
            chars(s["characteristics"])
        }
        chars(f["characteristics_outside_services"])
        return db
    }

    /// The tree as indented text lines.
    public mutating func textLines(indent: String = "") -> [String] {
        var lines: [String] = []
        let chars = orderedCharacteristics()
        let svcs = orderedServices()
        lines.append("\(indent)Device \(device)\(source == "capture" ? "" : " (from \(source))"): \(svcs.count) service\(svcs.count == 1 ? "" : "s"), \(chars.count) characteristic\(chars.count == 1 ? "" : "s")")
        func ch(_ c: GATTCharacteristic, _ pad: String) {
            var line = "\(pad)Characteristic \(Hex.hex(c.handle, width: 4)), value \(Hex.hex(c.valueHandle, width: 4)): \(GATTNaming.label(c.uuid, kind: AssignedNumbers.characteristicName))"
            if let p = c.properties { line += " [\(ATTNames.properties(p).joined(separator: ", "))]" }
            lines.append(line)
            for d in descriptors(of: c) {
                lines.append("\(pad)  Descriptor \(Hex.hex(d.handle, width: 4)): \(GATTNaming.label(d.uuid, kind: AssignedNumbers.descriptorName))")
            }
        }
        var placed = Set<UInt16>()
        for s in svcs {
            lines.append("\(indent)  \(s.primary ? "Primary" : "Secondary") service \(Hex.hex(s.start, width: 4))–\(Hex.hex(s.end, width: 4)): \(GATTNaming.label(s.uuid, kind: AssignedNumbers.serviceName))")
            for i in includes.values.filter({ $0.handle >= s.start && $0.handle <= s.end }).sorted(by: { $0.handle < $1.handle }) {
                lines.append("\(indent)    Include \(Hex.hex(i.handle, width: 4)): service \(Hex.hex(i.start, width: 4))–\(Hex.hex(i.end, width: 4))" + (i.uuid.map { " \(GATTNaming.label($0, kind: AssignedNumbers.serviceName))" } ?? ""))
            }
            for c in chars where c.handle > s.start && c.handle <= s.end {
                placed.insert(c.handle)
                ch(c, indent + "    ")
            }
        }
        let orphans = chars.filter { !placed.contains($0.handle) }
        if !orphans.isEmpty {
            lines.append("\(indent)  Outside any discovered service:")
            for c in orphans { ch(c, indent + "    ") }
        }
        return lines
    }
}

/// Names for UUIDs by the role they play in a database.
public enum GATTNaming {
    /// The SIG name for the role (service, characteristic, descriptor), else any known name.
    public static func name(_ u: BLEUUID, kind: (UInt16) -> String?) -> String? {
        if let n = UserUUIDNames.name(u) { return n }
        if let s = u.uuid16, let n = kind(s) { return n }
        return u.name
    }

    /// "2A19 Battery Level", or the bare UUID, or "unknown UUID".
    public static func label(_ u: BLEUUID?, kind: (UInt16) -> String?) -> String {
        guard let u else { return "UUID not discovered" }
        if let n = name(u, kind: kind) { return "\(u.description) \(n)" }
        return u.description
    }
}

/// Databases loaded from a `bletrace gatt --format json` export, by device.
public struct GATTDatabaseSet: Sendable {
    public var databases: [String: GATTDatabase] = [:]
    public var order: [String] = []

    public init() {}

    public mutating func add(_ db: GATTDatabase) {
        if databases[db.device] == nil { order.append(db.device) }
        databases[db.device] = db
    }

    /// The database for `device`, or, when the file holds exactly one device, that one (a peer that
    /// changed its random address between captures).
    public func database(for device: String) -> GATTDatabase? {
        if let d = databases[device] { return d }
        if databases.count == 1, let only = databases.values.first, device != "local" { return only }
        return nil
    }

    /// Parses the JSON export: `{"schema": "bletrace-gatt/1", "devices": [...]}`.
    public static func parse(json text: [UInt8], source: String) throws -> GATTDatabaseSet {
        let v = try JSONParser.parse(text)
        guard case let .object(root) = v, case let .list(devices)? = root["devices"] else {
            throw ByteError.invalid(offset: 0, reason: "not a bletrace GATT export (no \"devices\" list)")
        }
        var set = GATTDatabaseSet()
        for case let .object(d) in devices {
            if let db = GATTDatabase.from(json: d, source: source) { set.add(db) }
        }
        return set
    }
}
