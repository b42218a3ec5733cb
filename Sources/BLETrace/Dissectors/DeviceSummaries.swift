/// Battery history per GATT server, from Battery Level (and Battery Level Status) reads and notifications:
/// summary section `battery`.
public final class BatteryHistoryLayer: AnalysisLayer {
    public struct History: Sendable, Equatable {
        /// The GATT server; its text (`device`) is made when shown.
        public var key: DeviceKey
        public var device: String { key.description }
        public var first: Int
        public var last: Int
        public var min: Int
        public var max: Int
        public var count: Int
        public var firstRecord: Int
        public var lastRecord: Int

        mutating func add(_ p: Int, record: Int) {
            last = p
            min = Swift.min(min, p)
            max = Swift.max(max, p)
            count += 1
            lastRecord = record
        }
    }

    /// Each device's history in order of its first reading, and where each device's is.
    let list = InPlaceArray<History>()
    @exclusivity(unchecked) var slots: [DeviceKey: Int] = [:]
    /// The device of the last reading and its slot (readings come in runs from one device).
    @exclusivity(unchecked) var last: (device: DeviceKey, slot: Int)?
    static let maxDevices = 10_000

    public var histories: [String: History] {
        Dictionary(list.elements.map { ($0.device, $0) }, uniquingKeysWith: { a, _ in a })
    }

    public init() {}

    public func attach(to pipeline: Pipeline) {}

    func value(_ fact: SummaryFact?, _ ctx: ValueContext) {
        guard !ctx.fromClient, case let .battery(r)? = fact else { return }
        add(r.percent, device: ctx.device, record: ctx.record)
    }

    func add(_ p: Int, device: DeviceKey, record: Int) {
        if let l = last, l.device == device {
            list[l.slot].add(p, record: record)
        } else if let i = slots[device] {
            list[i].add(p, record: record)
            last = (device, i)
        } else if list.count < BatteryHistoryLayer.maxDevices {
            slots[device] = list.count
            last = (device, list.count)
            list.append(History(key: device, first: p, last: p, min: p, max: p, count: 1, firstRecord: record, lastRecord: record))
        }
    }

    public func summary() -> SummarySection? {
        guard !list.isEmpty else { return nil }
        let all = { [self] in list.elements }
        return SummarySection(name: "battery", value: {
            .object(["devices": .list(all().map { h in
                .object(["device": .string(h.device), "first": .int(h.first), "last": .int(h.last), "min": .int(h.min),
                         "max": .int(h.max), "count": .int(h.count), "first_record": .int(h.firstRecord),
                         "last_record": .int(h.lastRecord)])
            })])
        }, text: {
            let list = all()
            return ["  Battery:"] + list.prefix(SummaryRender.textListed).map { h in
                "    \(h.device): \(h.first)% → \(h.last)% (min \(h.min)%, max \(h.max)%, \(h.count) reading\(h.count == 1 ? "" : "s"))"
            } + SummaryRender.more(list.count)
        })
    }
}

/// One identity card per GATT server: device name, appearance, and the Device Information strings, System ID
/// and PnP ID it served: summary section `identity`.
public final class IdentityLayer: AnalysisLayer {
    public struct Card: Sendable, Equatable {
        public var device: String
        /// JSON key → string (device_name, manufacturer_name, model_number, …), first value kept per key.
        public var strings: [(String, String)] = []
        public var appearance: UInt16?
        public var pnp: PnPID?
        public var systemID: SystemID?

        public static func == (a: Card, b: Card) -> Bool {
            a.device == b.device && a.appearance == b.appearance && a.pnp == b.pnp && a.systemID == b.systemID
                && a.strings.map { $0.0 + "=" + $0.1 } == b.strings.map { $0.0 + "=" + $0.1 }
        }

        public func string(_ key: String) -> String? { strings.first(where: { $0.0 == key })?.1 }

        /// The latest value wins: a device may be renamed during the capture.
        mutating func set(_ key: String, _ value: String) {
            if let i = strings.firstIndex(where: { $0.0 == key }) { strings[i].1 = value; return }
            // A device's card usually holds several strings: room for them at once.
            if strings.isEmpty { strings.reserveCapacity(8) }
            strings.append((key, value))
        }
    }

    /// The cards in the order their devices were first seen, where each device's is, and the device of the last
    /// value with its slot (values come in runs from one server).
    @exclusivity(unchecked) var list: [Card] = []
    @exclusivity(unchecked) var slots: [DeviceKey: Int] = [:]
    @exclusivity(unchecked) var last: (device: DeviceKey, slot: Int)?
    public var cards: [String: Card] {
        Dictionary(list.map { ($0.device, $0) }, uniquingKeysWith: { a, _ in a })
    }
    static let maxDevices = 10_000
    static let keyOrder = ["device_name", "manufacturer_name", "model_number", "serial_number", "hardware_revision",
                           "firmware_revision", "software_revision"]

    public init() {}

    public func attach(to pipeline: Pipeline) {}

    func value(_ d: Dissection, _ fact: SummaryFact?, _ ctx: ValueContext) {
        guard !ctx.fromClient, d.problem == nil, case let .identity(item)? = fact else { return }
        add(item, device: ctx.device)
    }

    func add(_ item: IdentityItem, device: DeviceKey) {
        let i: Int
        if let l = last, l.device == device {
            i = l.slot
        } else if let known = slots[device] {
            i = known
        } else {
            guard list.count < IdentityLayer.maxDevices else { return }
            i = list.count
            slots[device] = i
            list.append(Card(device: device.description))
        }
        last = (device, i)
        switch item {
        case let .string(key, value): list[i].set(key, value)
        case let .appearance(a): list[i].appearance = a
        case let .pnp(p): list[i].pnp = p
        case let .systemID(s): list[i].systemID = s
        }
    }

    /// The cards, in the order their devices were first seen.
    var allCards: [Card] { list }

    public func summary() -> SummarySection? {
        guard !list.isEmpty else { return nil }
        let all = { [self] in allCards }
        return SummarySection(name: "identity", writer: SummaryWriter(json: { IdentityLayer.write(all(), into: &$0) },
                                                                      tree: { IdentityLayer.write(all(), into: &$0) }),
                              text: {
            // A card whose only string is empty (a Device Name read as "") says nothing: no line. Only the cards
            // listed are described; the rest are counted.
            let list = all().filter(IdentityLayer.saysSomething)
            guard !list.isEmpty else { return [] }
            return ["  Identity:"] + list.prefix(SummaryRender.textListed).map { "    \($0.device): " + IdentityLayer.describe($0).parts.joined(separator: ", ") }
                + SummaryRender.more(list.count)
        })
    }

    /// The section's members: a `devices` list of the cards.
    static func write<S: FieldSink>(_ cards: [Card], into f: inout S) {
        f.objects("devices", cards) { f, c in
            write(c, into: &f)
        }
    }

    /// Whether `facts(c)` has any part: a non-empty string of `keyOrder`, an appearance, a PnP ID or a System ID.
    static func saysSomething(_ c: Card) -> Bool {
        if c.appearance != nil || c.pnp != nil || c.systemID != nil { return true }
        return keyOrder.contains { c.string($0).map { !$0.isEmpty } ?? false }
    }

    /// One fact of a card: a title for a table row, its value, and its words in the text summary's line
    /// ("serial 1234", "appearance Thermometer").
    public struct Part: Sendable, Equatable {
        public var title: String
        public var value: String
        public var text: String
    }

    /// A card's JSON fields and the parts of its text line.
    static func describe(_ c: Card) -> (fields: Fields, parts: [String]) {
        let (f, parts) = facts(c)
        return (f, parts.map(\.text))
    }

    /// The cards with something to say, in the order their devices were first seen.
    public var described: [(device: String, parts: [Part])] {
        list.map { ($0.device, IdentityLayer.facts($0).parts) }.filter { !$0.parts.isEmpty }
    }

    /// A card's JSON fields and its parts, shared by the text line and the HTML report's table.
    static func facts(_ c: Card) -> (fields: Fields, parts: [Part]) {
        var parts: [Part] = []
        let f = FieldsBuilder.object { parts = write(c, into: &$0, parts: true) }
        return (f, parts)
    }

    /// A card's members, against any sink (JSON output writes them without building a tree), and with `parts`,
    /// the parts of its text line.
    @discardableResult
    static func write<S: FieldSink>(_ c: Card, into f: inout S, parts wanted: Bool = false) -> [Part] {
        f.field("device", c.device)
        var parts: [Part] = []
        func part(_ title: @autoclosure () -> String, _ value: @autoclosure () -> String, _ prefix: String?) {
            guard wanted else { return }
            let v = value()
            parts.append(Part(title: title(), value: v, text: prefix.map { $0 + " " + v } ?? v))
        }
        for key in IdentityLayer.keyOrder {
            guard let v = c.string(key) else { continue }
            f.field(name: key, v)
            if v.isEmpty { continue }
            switch key {
            case "device_name": part("Device name", "\"\(v)\"", nil)
            case "manufacturer_name": part("Manufacturer", v, nil)
            case "model_number": part("Model", v, nil)
            case "serial_number": part("Serial number", v, "serial")
            case "hardware_revision": part("Hardware revision", v, "hardware")
            case "firmware_revision": part("Firmware revision", v, "firmware")
            default: part("Software revision", v, "software")
            }
        }
        if let a = c.appearance {
            f.object("appearance") { af in
                af.field("value", Int(a))
                if let n = AssignedNumbers.appearance(a) {
                    af.field("category", n.category)
                    if let s = n.subcategory { af.field("subcategory", s) }
                    part("Appearance", n.category + (n.subcategory.map { ": " + $0 } ?? ""), "appearance")
                } else {
                    part("Appearance", Hex.hex(a, width: 4), "appearance")
                }
            }
        }
        if let p = c.pnp {
            f.object("pnp_id") { p.writeMembers(into: &$0) }
            part("PnP ID", p.text, "PnP")
        }
        if let s = c.systemID {
            s.writeFields(into: &f)
            part("System ID", "OUI " + DeviceInformationDissector.ouiText(s.oui), "System ID")
        }
        return parts
    }
}
