/// What the redactor learns, and from where. Names and strings come from the typed values that carry them
/// (advertised and EIR names, Device Name and Serial Number reads however they were read, Device
/// Information strings, `--uuids` strings, remote names, connection names); addresses from every string the
/// output shows, found by pattern (`AddressScan`), so that free text such as PacketLogger notes is covered.
extension Redactor: EventTap {
    /// A first pass's event: learned (`learn(_:)`).
    public func event(_ e: TraceEvent) { learn(e) }

    /// Learns the identifying values of an event: any address in its strings, local names, beacon UUIDs,
    /// the strings its attribute values decoded to, and the text of ANCS Data Source notifications.
    public func learn(_ e: TraceEvent) {
        var sink = LearningFieldSink(self)
        EventJSON.writeLayers(e, into: &sink)
        switch e.body {
        case let .hciCommand(h):
            if case let .classic(.linkKeyReply(_, key)) = h.params { learnKey(key) }
        case let .hciEvent(h):
            if case let .classic(c) = h.params {
                switch c {
                case let .linkKeyNotification(_, key, _): learnKey(key)
                case let .remoteNameComplete(0, _, name): learnString(String(decoding: name, as: UTF8.self), kind: .name)
                default: break
                }
            }
        case let .att(a):
            learn(att: a)
        default:
            break
        }
    }

    func learn(att a: ATTEvent) {
        for d in Redactor.dissections(a) { learn(value: d.value) }
        // A Read By Type Response of Device Name or Serial Number String, whether or not the database knew
        // the handles.
        if let t = a.requestType?.uuid16, t == 0x2A00 || t == 0x2A25 {
            a.readByTypeValues { _, v in
                learnString(String(decoding: v.prefix(while: { $0 != 0 }), as: UTF8.self), kind: t == 0x2A00 ? .name : .serial)
            }
        }
        let gatt = a.gattLocation
        let ch = gatt?.characteristic?.uuid?.description
        let value = a.fullValue.map { Array($0) }
        switch ch {
        case "2A00"?, "2A25"?:
            if let v = value, gatt?.role == .value {
                learnString(String(decoding: v.prefix(while: { $0 != 0 }), as: UTF8.self), kind: ch == "2A00" ? .name : .serial)
            }
        case Redactor.ancsDataSource?:
            if let v = value {
                // Printable runs: attribute values, possibly split over several notifications.
                var run: [UInt8] = []
                for b in v + [0] {
                    if b >= 0x20 && b < 0x7F { run.append(b); continue }
                    if run.count >= 3 { learnString(String(decoding: run, as: UTF8.self), kind: .text) }
                    run = []
                }
            }
            if let d = a.decodedValue?.jsonFields { strings(in: .object(d)) { self.learnString($0, kind: .text) } }
        default:
            break
        }
    }

    /// Every dissection an ATT event carries: its own value's, a long value's, each entry's of a
    /// multi-attribute PDU, and each value an Execute Write wrote.
    static func dissections(_ a: ATTEvent) -> [Dissection] {
        var out: [Dissection] = []
        if let d = a.decoded { out.append(d) }
        if let x = a.extra {
            if let d = x.longValue?.decoded { out.append(d) }
            for en in x.entries { if let d = en.decoded { out.append(d) } }
            for w in x.writes ?? [] { if let d = w.decoded { out.append(d) } }
        }
        return out
    }

    /// Strings a value decoded to: Device Name (a name), Serial Number (a serial), other strings and
    /// `--uuids` strings (text). What names a product rather than a person stays: Characteristic User
    /// Descriptions (the firmware's labels, "Temperature") and the Device Information revisions, model and
    /// manufacturer names (a diff of two redacted captures must still show "firmware 1.4.2 → 1.4.3").
    func learn(value v: any DecodedValue) {
        switch v {
        case let s as StringValue:
            switch s.key {
            case "device_name": learnString(s.value, kind: .name)
            case "serial_number": learnString(s.value, kind: .serial)
            case "user_description", "firmware_revision", "hardware_revision", "software_revision", "model_number",
                 "manufacturer_name": break
            default: learnString(s.value, kind: .text)
            }
        case let d as DescribedValue:
            learn(value: d.inner)
        case let u as UserValue:
            if case let .utf8(b) = u.reading, let s = DissectorText.utf8(b) { learnString(s, kind: .text) }
        default:
            break
        }
    }

    func strings(in v: FieldValue, _ body: (String) -> Void) {
        switch v {
        case let .string(s): body(s)
        case let .list(l): for x in l { strings(in: x, body) }
        case let .object(o): for (_, x) in o.items { strings(in: x, body) }
        default: break
        }
    }

    /// Addresses inside a string (every string the output shows passes here when learned from).
    func learnAddresses(inText s: String) {
        if s.utf8.count == 17, let a = BDAddr(string: s) { learnAddress(a); return }
        guard s.utf8.count >= 12 else { return }
        for a in AddressScan.addresses(in: s) { learnAddress(a) }
    }

    /// Fields that hold keys (SMP key distribution, the encryption summary, the CSIS SIRK and the BASS
    /// Broadcast_Code and Bad_Code). (Compared one by one: cheaper than hashing every member name the learner sees.)
    @inline(__always) static func isKeyField(_ key: String) -> Bool {
        key == "ltk" || key == "stk" || key == "irk" || key == "csrk" || key == "sirk" || key == "broadcast_code"
            || key == "bad_code"
    }

    /// A member's string value.
    func learn(string s: String, key: String) {
        learnAddresses(inText: s)
        if key == "local_name" || key == "broadcast_name" || key == "device_name" { learnString(s, kind: .name) }
        else if key == "serial_number" { learnString(s, kind: .serial) }
        else if Redactor.isKeyField(key), let k = Hex.parse(s) { learnKey(k[...]); learnKey(k.reversed()[...]) }
        else if key == "tk", s != "000000" { learnString(s, kind: .key) }
    }

    /// A member's bytes: keys an SMP PDU distributes.
    func learn(hex b: ArraySlice<UInt8>, key: String) {
        if Redactor.isKeyField(key) { learnKey(b); learnKey(Array(b.reversed())[...]) }
    }

    /// A string item of the list that is the value of `key`.
    func learn(listItem s: String, key: String?) {
        learnAddresses(inText: s)
        if key == "names" { learnString(s, kind: .name) }
    }

    static func isBeacon(_ key: String?) -> Bool { key == "ibeacon" || key == "altbeacon" }

    public func learn(fields f: Fields) {
        for (key, v) in f.items {
            switch v {
            case let .string(s):
                learn(string: s, key: key)
            case let .hex(b):
                learn(hex: b[...], key: key)
            case let .object(o):
                if Redactor.isBeacon(key), let u = o["uuid"]?.stringValue.flatMap({ BLEUUID(string: $0) }) { learnBeacon(u) }
                learn(fields: o)
            case let .list(items):
                for x in items {
                    if case let .object(o) = x { learn(fields: o) }
                    else if case let .string(s) = x { learn(listItem: s, key: key) }
                }
            default: break
            }
        }
    }

    /// What the summary shows: its sections' values, and each connection's peer and name.
    public func learn(summary s: Summary) {
        for section in s.sections { if case let .object(o) = section.value { learn(fields: o) } }
        for c in s.connections {
            if let p = c.peer { learnAddress(p) }
            if let n = c.name { learnString(n, kind: .name) }
        }
        for w in s.warnings { learnAddresses(inText: w) }
    }

    /// The first pass of `--redact`: decodes the whole capture with no output and learns every identifying
    /// value, so that even a name first read late in the capture is replaced where it first shows. Returns
    /// the pass's summary. `observe` sees each event too (the filters resolve devices in the same pass).
    @discardableResult
    public func learn(capture reader: RecordReader, path: String, containers: [String] = [],
                      options: DecodeOptions = DecodeOptions(), resolving resolver: DeviceResolver? = nil,
                      taps: [EventTap] = []) -> Summary {
        let learner = Analyzer(options: options, sink: nil)
        learner.chain.taps = [self] + (resolver.map { [$0.tap(on: learner.pipeline)] } ?? []) + taps
        let s = learner.run(reader, path: path, containers: containers)
        learn(summary: s)
        return s
    }
}

/// Learns from an event's fields as its renderer writes them, without building the field tree: the same
/// values `Redactor.learn(fields:)` learns from the tree (strings and keys by their member's name, string
/// items of a list by the list's name, a beacon's `uuid`), at a fraction of the cost.
struct LearningFieldSink: FieldSink {
    struct Container {
        /// The member name the container is the value of (nil for a list's item).
        var key: String?
        var isList: Bool
    }
    let redactor: Redactor
    var stack: [Container] = []
    var pending: String?

    init(_ redactor: Redactor) {
        self.redactor = redactor
        stack.reserveCapacity(8)
    }

    /// Where a scalar goes: a member of an object (its name), or an item of a list (the list's name).
    /// Members of the event's own object are layers, not values.
    mutating func take() -> (key: String, inList: Bool)? {
        defer { pending = nil }
        guard let top = stack.last else { return nil }
        if top.isList { return top.key.map { ($0, true) } ?? ("", true) }
        return pending.map { ($0, false) }
    }

    mutating func key(_ k: StaticString) { pending = StaticNames.string(k) }
    mutating func key(name k: String) { pending = k }
    mutating func int(_ v: Int) { pending = nil }
    mutating func double(_ v: Double) { pending = nil }
    mutating func bool(_ v: Bool) { pending = nil }
    mutating func null() { pending = nil }

    mutating func string(_ v: String) {
        guard let (key, inList) = take() else { return }
        if inList {
            redactor.learn(listItem: v, key: key)
            return
        }
        redactor.learn(string: v, key: key)
        if key == "uuid", stack.count >= 1, Redactor.isBeacon(stack[stack.count - 1].key), !stack[stack.count - 1].isList,
           let u = BLEUUID(string: v) {
            redactor.learnBeacon(u)
        }
    }

    mutating func string(utf8 v: ArraySlice<UInt8>) { string(String(decoding: v, as: UTF8.self)) }

    mutating func hex(_ v: ArraySlice<UInt8>) {
        guard let (key, inList) = take(), !inList else { return }
        redactor.learn(hex: v, key: key)
    }

    mutating func beginObject() {
        let inList = stack.last?.isList ?? false
        stack.append(Container(key: inList ? nil : pending, isList: false))
        pending = nil
    }

    mutating func endObject() { _ = stack.popLast() }

    mutating func beginList() {
        let inList = stack.last?.isList ?? false
        stack.append(Container(key: inList ? nil : pending, isList: true))
        pending = nil
    }

    mutating func endList() { _ = stack.popLast() }
}
