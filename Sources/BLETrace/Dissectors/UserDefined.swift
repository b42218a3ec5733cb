import Synchronization
import Yams

/// Names and simple decoders from a `--uuids` file (JSON or YAML):
///
/// ```yaml
/// uuids:
///   - uuid: 0000FFE0-0000-1000-8000-00805F9B34FB
///     name: Acme Sensor Service
///   - uuid: FFE1
///     name: Temperature
///     decode: {type: sint16, byte_order: little, scale: 0.01, unit: "°C"}
/// ```
///
/// `type` is `uint8`, `uint16`, `uint24`, `uint32`, `uint64`, `sint8`, `sint16`, `sint24`, `sint32`, `sint64`
/// (`int…` is accepted for `sint…`), `utf8` or `hex`; `byte_order` is `little` (the default) or `big`.
public struct UserDefinedUUIDs: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case integer(bytes: Int, signed: Bool)
        case utf8
        case hex
    }

    public struct Decoder: Sendable, Equatable {
        public var kind: Kind
        public var bigEndian = false
        public var scale: Double?
        public var unit: String?
    }

    public struct Entry: Sendable, Equatable {
        public var uuid: BLEUUID
        public var name: String?
        public var decoder: Decoder?
    }

    public var entries: [Entry] = []
    /// Where the definitions came from (the file's path).
    public var source: String = ""

    public init(entries: [Entry] = [], source: String = "") {
        self.entries = entries
        self.source = source
    }

    /// UUID → name, for naming attributes.
    public var names: [BLEUUID: String] {
        var out: [BLEUUID: String] = [:]
        for e in entries { if let n = e.name { out[e.uuid] = n } }
        return out
    }

    /// The dissector for the entries that have a decoder, or nil when none has.
    public var dissector: UserDefinedDissector? {
        var table: [BLEUUID: (String?, Decoder)] = [:]
        for e in entries { if let d = e.decoder { table[e.uuid] = (e.name, d) } }
        return table.isEmpty ? nil : UserDefinedDissector(table: table)
    }

    // MARK: Reading the file

    /// Parses JSON (when the text starts with `{`) or YAML.
    public static func parse(_ bytes: [UInt8], source: String) throws -> UserDefinedUUIDs {
        let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
        let tree: FieldValue
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            tree = try JSONParser.parse(bytes)
        } else {
            do {
                tree = try yaml(bytes)
            } catch {
                throw UUIDFileError(description: "YAML: \(error)")
            }
        }
        return try UserDefinedUUIDs(tree: tree, source: source)
    }

    /// A YAML document as a `FieldValue` tree.
    static func yaml(_ bytes: [UInt8]) throws -> FieldValue {
        fieldValue(try Yams.load(yaml: String(decoding: bytes, as: UTF8.self)))
    }

    /// A YAML document (as Yams loads it) as a `FieldValue` tree.
    static func fieldValue(_ v: Any?) -> FieldValue {
        switch v {
        case let s as String: return .string(s)
        case let b as Bool: return .bool(b)
        case let i as Int: return .int(i)
        case let d as Double: return .double(d)
        case let a as [Any]: return .list(a.map { fieldValue($0) })
        case let m as [String: Any]:
            var f = Fields()
            for k in m.keys.sorted() { f.add(k, fieldValue(m[k])) }
            return .object(f)
        case let m as [AnyHashable: Any]:
            var f = Fields()
            for (k, x) in m.sorted(by: { "\($0.key)" < "\($1.key)" }) { f.add("\(k)", fieldValue(x)) }
            return .object(f)
        default: return .null
        }
    }

    public init(tree: FieldValue, source: String) throws {
        self.source = source
        let list: [FieldValue]
        switch tree {
        case let .object(o):
            guard case let .list(l)? = o["uuids"] else { throw UserDefinedUUIDs.error("expected a \"uuids\" list") }
            list = l
        case let .list(l): list = l
        default: throw UserDefinedUUIDs.error("expected a \"uuids\" list")
        }
        for (i, item) in list.enumerated() {
            guard case let .object(o) = item else { throw UserDefinedUUIDs.error("entry \(i + 1) is not an object") }
            let text: String
            switch o["uuid"] {
            case let .string(s)?: text = s
            case let .int(n)?: text = String(n)   // YAML reads `uuid: 1800` as a number
            default: throw UserDefinedUUIDs.error("entry \(i + 1) has no \"uuid\"")
            }
            guard let u = BLEUUID(string: text) else { throw UserDefinedUUIDs.error("entry \(i + 1): \"\(text)\" is not a UUID") }
            var e = Entry(uuid: u, name: o["name"]?.stringValue, decoder: nil)
            if let d = o["decode"] { e.decoder = try UserDefinedUUIDs.decoder(d, entry: i + 1) }
            if e.name == nil && e.decoder == nil { throw UserDefinedUUIDs.error("entry \(i + 1) has neither \"name\" nor \"decode\"") }
            entries.append(e)
        }
    }

    static func error(_ reason: String) -> UUIDFileError { UUIDFileError(description: reason) }

    static func decoder(_ v: FieldValue, entry: Int) throws -> Decoder {
        let o: Fields
        switch v {
        case let .string(s): o = ["type": .string(s)]
        case let .object(x): o = x
        default: throw error("entry \(entry): \"decode\" must be a type name or an object")
        }
        guard let type = o["type"]?.stringValue?.lowercased() else { throw error("entry \(entry): \"decode\" has no \"type\"") }
        var d: Decoder
        switch type {
        case "utf8", "string", "utf8s": d = Decoder(kind: .utf8)
        case "hex", "bytes": d = Decoder(kind: .hex)
        default:
            let signed = type.hasPrefix("sint") || type.hasPrefix("int")
            let digits = type.drop(while: { !$0.isNumber })
            guard type.hasPrefix("uint") || signed, let bits = Int(digits), [8, 16, 24, 32, 64].contains(bits) else {
                throw error("entry \(entry): unknown type \"\(type)\" (uint8…uint64, sint8…sint64, utf8, hex)")
            }
            d = Decoder(kind: .integer(bytes: bits / 8, signed: signed))
        }
        switch o["byte_order"]?.stringValue?.lowercased() {
        case nil, "little", "le": break
        case "big", "be": d.bigEndian = true
        case let other?: throw error("entry \(entry): byte_order \"\(other)\" is not little or big")
        }
        switch o["scale"] {
        case nil: break
        case let .int(n)?: d.scale = Double(n)
        case let .double(x)?: d.scale = x
        default: throw error("entry \(entry): scale must be a number")
        }
        d.unit = o["unit"]?.stringValue
        return d
    }
}

/// Why a `--uuids` file was refused.
public struct UUIDFileError: Error, CustomStringConvertible, Equatable {
    public var description: String
}

/// Names from a `--uuids` file, in force while an analysis runs (see `Analyzer.run`). Bind them with `with`.
public enum UserUUIDNames {
    @TaskLocal public static var current: [BLEUUID: String]? = nil

    /// Set when names are first bound in the process, never cleared: until then a lookup skips the task-local
    /// read, which costs more than the rest of naming a UUID (every GATT name on the timeline asks).
    @available(macOS 15.0, *)
    static let everBound = Atomic<Bool>(false)

    /// Runs `body` with `names` in force (nil: none).
    public static func with<R>(_ names: [BLEUUID: String]?, _ body: () throws -> R) rethrows -> R {
        if names != nil, #available(macOS 15.0, *) { everBound.store(true, ordering: .relaxed) }
        return try $current.withValue(names, operation: body)
    }

    /// The names bound (a run with `--uuids`), nil when none: what is made from names and remembered across runs
    /// is remembered with them.
    @inline(__always) static var bound: [BLEUUID: String]? {
        if #available(macOS 15.0, *), !everBound.load(ordering: .relaxed) { return nil }
        return current
    }

    @inline(__always) static func name(_ u: BLEUUID) -> String? { bound?[u] }
}

/// Decodes the values of characteristics a `--uuids` file describes.
public struct UserDefinedDissector: ValueDissector {
    public let name = "user"
    let table: [BLEUUID: (String?, UserDefinedUUIDs.Decoder)]
    public var uuids: [BLEUUID] { Array(table.keys) }

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        guard let (label, d) = table[ctx.uuid] else { return .invalid(name, "no decoder") }
        var value = UserValue(label: label, reading: .none, unit: d.unit)
        switch d.kind {
        case .utf8:
            guard DissectorText.utf8(v) != nil else { return Dissection(name, value: value, problem: "not valid UTF-8") }
            value.reading = .utf8(v)
        case .hex:
            value.reading = .bytes(v)
        case let .integer(n, signed):
            guard v.count == n else { return Dissection(name, value: value, problem: DissectorText.length(v.count, expected: n)) }
            var raw: UInt64 = 0
            if d.bigEndian {
                for b in v { raw = raw << 8 | UInt64(b) }
            } else {
                for (i, b) in v.enumerated() { raw |= UInt64(b) << (8 * UInt64(i)) }
            }
            if signed {
                let shift = UInt64(64 - 8 * n)
                value.reading = .integer(Int(Int64(bitPattern: raw << shift) >> Int64(shift)), scale: d.scale)
            } else if raw > UInt64(Int.max) {
                value.reading = .unsigned64(raw)
            } else {
                value.reading = .integer(Int(raw), scale: d.scale)
            }
        }
        return Dissection(name, value: value)
    }
}

/// A value decoded as a `--uuids` file says: the entry's name, what was read, and the unit.
public struct UserValue: DecodedValue, Equatable {
    public enum Reading: Sendable, Equatable {
        /// Nothing could be read (the problem says why).
        case none
        /// Valid UTF-8 (trailing NULs are dropped when rendered).
        case utf8(ArraySlice<UInt8>)
        case bytes(ArraySlice<UInt8>)
        /// An integer, multiplied by `scale` when rendered.
        case integer(Int, scale: Double?)
        /// An unsigned 64-bit integer above `Int.max` (never scaled).
        case unsigned64(UInt64)
    }
    public var label: String?
    public var reading: Reading
    public var unit: String?

    /// The scaled value and its text: decimals as the scale implies (0.01 → 2), at most 6.
    static func scaled(_ exact: Int, by s: Double) -> (value: Double, text: String) {
        let y = Double(exact) * s
        var decimals = 0, p = 1.0
        while decimals < 6, ((s * p).rounded() - s * p).magnitude > 1e-9 { decimals += 1; p *= 10 }
        let scaledInt = (y * p).rounded()
        guard scaledInt.isFinite, scaledInt.magnitude < 9e15 else { return (y, "\(y)") }
        var div = 1
        for _ in 0..<decimals { div *= 10 }
        return (scaledInt / p, Fmt.fixed(Int(scaledInt), scale: div))
    }

    public func writeFields<S: FieldSink>(into s: inout S) {
        if let l = label { s.field("name", l) }
        switch reading {
        case .none: break
        case let .utf8(v): s.field("value", DissectorText.utf8(v) ?? "")
        case let .bytes(v): s.field("value", hex: v)
        case let .unsigned64(x): s.field("value", String(x))
        case let .integer(x, nil): s.field("value", x)
        case let .integer(x, scale?):
            s.field("raw", x)
            s.key("value")
            s.double(UserValue.scaled(x, by: scale).value)
        }
    }

    public var text: String {
        let u = unit.map { " " + $0 } ?? ""
        switch reading {
        case .none: return ""
        case let .utf8(v): return "\"\(DissectorText.utf8(v) ?? "")\""
        case let .bytes(v): return Hex.string(v)
        case let .unsigned64(x): return String(x) + u
        case let .integer(x, nil): return String(x) + u
        case let .integer(x, scale?): return UserValue.scaled(x, by: scale).text + u
        }
    }
}
