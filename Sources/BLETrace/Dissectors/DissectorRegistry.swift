/// A decoded attribute value: what a dissector returns. It writes its own JSON members and one line of text;
/// what the summary layers need from it is a typed `SummaryFact`.
public protocol DecodedValue: Sendable {
    /// The value's members of JSON `decoded` (after `dissector`, before `text`).
    func writeFields<S: FieldSink>(into s: inout S)
    /// One line for the timeline: "90%", "\"Acme\"".
    var text: String { get }
    /// `text` appended to a renderer's buffer. By default the string is made and copied; a value the timeline
    /// shows often writes its bytes directly and makes `text` from them (`TextBytes.string`).
    func writeText(into b: inout TextBytes)
    /// What the value tells the summary layers, when anything (`Dissection.fact`).
    var summaryFact: SummaryFact? { get }
    /// True when `summaryFact` holds even for a value with a problem.
    var factDespiteProblem: Bool { get }
    /// For an application error a service defines (an ATT Error Response decoded by the service's dissector): the
    /// service's short name and the error's name, "ANCS Unknown command"; nil for every other value.
    var serviceErrorName: String? { get }
}

extension DecodedValue {
    public var summaryFact: SummaryFact? { nil }
    public var factDespiteProblem: Bool { false }
    public func writeText(into b: inout TextBytes) { b.append(string: text) }
    public var serviceErrorName: String? { nil }
}

/// What a decoded value tells the summaries beside the timeline: the battery history, the identity cards and
/// the joined ANCS view each switch over it.
public enum SummaryFact: Sendable, Equatable {
    case battery(BatteryReading)
    case identity(IdentityItem)
    case ancs(ANCSEvent)
    /// A Sink or Source ASE value (ASCS): the ASE's id, direction, state, typed codec configuration (Codec
    /// Configured), CIG/CIS and QoS (QoS Configured), CIG/CIS and streaming contexts (Enabling, Streaming,
    /// Disabling). For the LE Audio stream view.
    case ase(ASEFact)
    /// An ASE Control Point notification (ASCS): the operation's opcode and each ASE's response and reason codes.
    case aseControlResponse(ASEControlResponse)
}

/// No value: a dissection that could not decode anything (its problem says why).
public struct NoValue: DecodedValue, Equatable {
    public init() {}
    public func writeFields<S: FieldSink>(into s: inout S) {}
    public var text: String { "" }
}

/// What a value dissector made of one attribute value.
public struct Dissection: Sendable {
    /// The dissector's name: `battery`, `device_information`, `ancs`, … (JSON `decoded.dissector`).
    public var dissector: String
    /// The decoded value.
    public var value: any DecodedValue
    /// Why the value does not fit its characteristic (wrong length, out of range, bad UTF-8), when it does not.
    /// The value is then shown raw next to whatever could be decoded.
    public var problem: String?

    public init(_ dissector: String, value: any DecodedValue, problem: String? = nil) {
        self.dissector = dissector
        self.value = value
        self.problem = problem
    }

    /// A value that could not be decoded at all: only the reason.
    public static func invalid(_ dissector: String, _ reason: String) -> Dissection {
        Dissection(dissector, value: NoValue(), problem: reason)
    }

    /// One line for the timeline: "90%", "Manufacturer Name \"Acme\"".
    public var text: String { value.text }

    /// The value's fields as a tree (JSON `decoded`, after `dissector`).
    public var fields: Fields { FieldsBuilder.object { value.writeFields(into: &$0) } }

    /// What the summary layers take from the value: its fact, when the value is valid (or the value says its fact
    /// holds despite the problem).
    public var fact: SummaryFact? {
        problem == nil || value.factDespiteProblem ? value.summaryFact : nil
    }

    /// Writes `decoded` as the JSON shows it: `dissector`, the value's fields, `text` (the one-line rendering)
    /// and `problem` when there is one.
    public func writeJSON<S: FieldSink>(into s: inout S) {
        s.field("dissector", dissector)
        value.writeFields(into: &s)
        // The text as the value writes it, not made into a string first.
        s.field("text", writing: { value.writeText(into: &$0) })
        if let p = problem { s.field("problem", p) }
    }

    /// `decoded` as a field tree (`writeJSON`).
    public var jsonFields: Fields { FieldsBuilder.object { writeJSON(into: &$0) } }

    /// `summaryText(raw:)` appended to a renderer's buffer: a valid value's line written by the value itself.
    public func writeSummaryText(raw: ArraySlice<UInt8>, into b: inout TextBytes) {
        if problem == nil { value.writeText(into: &b) } else { b.append(string: summaryText(raw: raw)) }
    }

    /// The timeline text: the decoded text, and the problem with the raw bytes when there is one.
    public func summaryText(raw: ArraySlice<UInt8>) -> String {
        guard let p = problem else { return text }
        let rawText = raw.isEmpty ? "(empty)" : Hex.spaced(raw, limit: 20)
        return (text.isEmpty ? "" : text + " ") + "[invalid: \(p)] " + rawText
    }
}

/// What a dissector knows about the value it is given.
public struct ValueContext {
    /// The UUID the dissector was chosen by: the characteristic's, or the descriptor's for a descriptor.
    public var uuid: BLEUUID
    /// The characteristic the value or descriptor belongs to, where known.
    public var characteristic: BLEUUID?
    /// True when the handle is a descriptor.
    public var isDescriptor: Bool
    /// The ATT opcode that carried the value.
    public var opcode: UInt8
    /// True when the GATT client sent the value (a write); false for reads, notifications and indications.
    public var fromClient: Bool
    public var handle: UInt16
    public var record: Int
    public var time: Timestamp
    /// The connection's number in the capture.
    public var connection: Int
    /// The GATT server the attribute lives on: the peer (by address), or the local host.
    public var device: DeviceKey
    /// State kept for this connection on behalf of stateful dissectors (ANCS, cycling speed and cadence).
    public let state: DissectorState

    public init(uuid: BLEUUID, characteristic: BLEUUID? = nil, isDescriptor: Bool = false, opcode: UInt8, fromClient: Bool,
                handle: UInt16 = 0, record: Int = 0, time: Timestamp = Timestamp(micros: 0), connection: Int = 0,
                device: DeviceKey = .local, state: DissectorState = DissectorState()) {
        self.uuid = uuid
        self.characteristic = characteristic
        self.isDescriptor = isDescriptor
        self.opcode = opcode
        self.fromClient = fromClient
        self.handle = handle
        self.record = record
        self.time = time
        self.connection = connection
        self.device = device
        self.state = state
    }

    /// True for a Read Response, Read Blob Response or Read Multiple (Variable) Response, or a Read By Type entry.
    public var isRead: Bool { opcode == 0x0B || opcode == 0x0D || opcode == 0x09 || opcode == 0x0F || opcode == 0x21 }
    /// True for a notification or indication.
    public var isPush: Bool { opcode == 0x1B || opcode == 0x1D || opcode == 0x23 }
}

/// Per-connection state for stateful dissectors: one object per type, made on first use.
public final class DissectorState {
    var slots: [ObjectIdentifier: AnyObject] = [:]
    public init() {}

    /// The connection's `T`, made by `make` the first time.
    public func get<T: AnyObject>(_ type: T.Type, _ make: () -> T) -> T {
        let key = ObjectIdentifier(type)
        if let s = slots[key] as? T { return s }
        let s = make()
        slots[key] = s
        return s
    }
}

/// A decoder for the values of some characteristics and descriptors.
public protocol ValueDissector: Sendable {
    /// JSON `decoded.dissector`.
    var name: String { get }
    /// The characteristic and descriptor UUIDs it understands.
    var uuids: [BLEUUID] { get }
    /// Decodes one value. Never traps; a value that does not fit returns a `Dissection` with `problem` set.
    func dissect(_ value: ArraySlice<UInt8>, _ context: ValueContext) -> Dissection
    /// Decodes an application error code (0x80–0x9F and beyond) this service defines, from an ATT Error
    /// Response about one of its characteristics; nil when the code is not the service's.
    func dissectError(_ code: UInt8, _ context: ValueContext) -> Dissection?
}

extension ValueDissector {
    public func dissectError(_ code: UInt8, _ context: ValueContext) -> Dissection? { nil }
}

/// UUID → dissector. Later additions replace earlier ones for the same UUID, so a `--uuids` file can
/// override a built-in decoder.
public struct DissectorRegistry: Sendable {
    /// The dissectors in the order they were added; every lookup gives a place in this list, and a dissector is
    /// called where the list keeps it (one handed out by `dissector(for:)` is a copy).
    var added: [any ValueDissector] = []
    /// UUID → place in `added`.
    var table: [BLEUUID: Int] = [:]
    /// For every 16-bit UUID, its dissector's place in `added` plus one (0: none): the usual lookup, one array
    /// read instead of hashing 128 bits. Used while the list fits a byte; `table` answers every lookup either way.
    var short: [UInt8] = []

    public init(_ dissectors: [any ValueDissector] = []) {
        for d in dissectors { add(d) }
    }

    public mutating func add(_ d: any ValueDissector) {
        for u in d.uuids { table[u] = added.count }
        added.append(d)
        guard added.count <= Int(UInt8.max) else {
            short = []
            return
        }
        if short.isEmpty && added.count == 1 { short = [UInt8](repeating: 0, count: 0x1_0000) }
        guard !short.isEmpty else { return }
        for u in d.uuids {
            if let s = u.uuid16 { short[Int(s)] = UInt8(added.count) }
        }
    }

    /// Where `uuid`'s dissector is in `added`, if one knows it.
    @inline(__always) func place(_ uuid: BLEUUID) -> Int? {
        if !short.isEmpty, let s = uuid.uuid16 {
            let i = Int(short[Int(s)])
            return i == 0 ? nil : i &- 1
        }
        return table[uuid]
    }

    public func dissector(for uuid: BLEUUID) -> (any ValueDissector)? { place(uuid).map { added[$0] } }

    /// Whether a dissector knows `uuid`.
    public func knows(_ uuid: BLEUUID) -> Bool { place(uuid) != nil }

    public var count: Int { table.count }

    /// Decodes an ATT error code with the dissector of the characteristic the failed request was about.
    public func dissectError(_ code: UInt8, _ context: ValueContext) -> Dissection? {
        guard let i = place(context.uuid) else { return nil }
        return added[i].dissectError(code, context)
    }

    /// Every dissector bletrace has. A new service is one file with a `ValueDissector` and one line here.
    public static let builtIn: [any ValueDissector] = [
        BatteryDissector(), DeviceInformationDissector(), GAPDissector(), GATTServiceDissector(), DescriptorDissector(),
        ANCSDissector(), AppleMediaDissector(), BeaconConfigDissector(), HeartRateDissector(),
        CyclingSpeedCadenceDissector(), CyclingPowerDissector(),
        PACSDissector(), ASCSDissector(), BASSDissector(), VolumeControlDissector(), AudioInputControlDissector(),
        CSISDissector(), HearingAccessDissector(),
    ]

    public static let standard = DissectorRegistry(builtIn)

    /// Decodes `value` with the dissector for `context.uuid`, or returns nil when there is none.
    public func dissect(_ value: ArraySlice<UInt8>, _ context: ValueContext) -> Dissection? {
        guard let i = place(context.uuid) else { return nil }
        return added[i].dissect(value, context)
    }
}

/// Small helpers shared by the dissectors.
enum DissectorText {
    /// Strict UTF-8: the string, or nil when the bytes are not valid UTF-8. Trailing NULs are dropped.
    static func utf8(_ bytes: ArraySlice<UInt8>) -> String? {
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[end - 1] == 0 { end -= 1 }
        let body = bytes[bytes.startIndex..<end]
        guard isValidUTF8(body) else { return nil }
        return String(decoding: body, as: UTF8.self)
    }

    static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        var it = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &it) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// A UTF-8 string characteristic: `key` holds the text; bad UTF-8 is a problem, shown with the
    /// replacement character where the bytes break. The text is the quoted string (the event already names
    /// the characteristic).
    static func string(_ dissector: String, key: String, _ v: ArraySlice<UInt8>, identity: Bool = false) -> Dissection {
        if let s = utf8(v) {
            return Dissection(dissector, value: StringValue(key: key, value: s, identity: identity))
        }
        return Dissection(dissector, value: StringValue(key: key, value: String(decoding: v, as: UTF8.self), identity: false),
                          problem: "not valid UTF-8")
    }

    /// "1 extra byte" style suffix for over-long values, or nil.
    static func extra(_ c: ByteCursor) -> String? { extra(count: c.remaining) }

    /// `n` bytes left after a value: "1 unexpected byte after the value".
    static func extra(count n: Int) -> String? {
        n == 0 ? nil : "\(n) unexpected byte\(n == 1 ? "" : "s") after the value"
    }

    /// A fixed-length problem: "2 bytes, expected 1".
    static func length(_ got: Int, expected: Int) -> String {
        "\(got) byte\(got == 1 ? "" : "s"), expected \(expected)"
    }

    /// Names of the set bits of `value` from `names` (bit 0 first); unnamed set bits as "bit N".
    static func bits(_ value: Int, _ names: [String]) -> [String] {
        var out: [String] = []
        out.reserveCapacity(value.nonzeroBitCount)
        var v = value
        var i = 0
        while v != 0 && i < 64 {
            if v & 1 != 0 { out.append(i < names.count ? names[i] : "bit \(i)") }
            v >>= 1
            i += 1
        }
        return out
    }

    static func list(_ names: [String]) -> FieldValue { .list(names.map { .string($0) }) }
}


/// A UTF-8 string characteristic (Device Name, the Device Information strings, User Description): `key` holds
/// the text.
public struct StringValue: DecodedValue, Equatable {
    public var key: String
    public var value: String
    /// True when the string belongs on the device's identity card.
    public var identity: Bool

    public func writeFields<S: FieldSink>(into s: inout S) { s.field(name: key, value) }
    /// The quoted string (the event already names the characteristic).
    public var text: String { "\"" + value + "\"" }
    public func writeText(into b: inout TextBytes) {
        b.append(UInt8(ascii: "\""))
        b.append(string: value)
        b.append(UInt8(ascii: "\""))
    }
    public var summaryFact: SummaryFact? { identity ? .identity(.string(key: key, value: value)) : nil }
}

/// A descriptor's value with the characteristic it describes.
public struct DescribedValue: DecodedValue {
    public var inner: any DecodedValue
    public var characteristic: BLEUUID

    public func writeFields<S: FieldSink>(into s: inout S) {
        inner.writeFields(into: &s)
        s.field("characteristic", characteristic.description)
        if let n = GATTNaming.name(characteristic, kind: AssignedNumbers.characteristicName) { s.field("characteristic_name", n) }
    }
    public var text: String { inner.text }
    public var summaryFact: SummaryFact? { inner.summaryFact }
    public var factDespiteProblem: Bool { inner.factDespiteProblem }
    public var serviceErrorName: String? { inner.serviceErrorName }
}
