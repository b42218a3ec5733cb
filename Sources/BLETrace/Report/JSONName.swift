/// A name from one of the static tables (an opcode's, an event's) as JSON writes it: the field value and its
/// quoted, escaped bytes, made once. The JSON writer copies the bytes in without looking at them again; other
/// sinks (the field tree, the redacting sink) get the value.
public struct JSONName: Sendable {
    public let value: FieldValue
    public let json: [UInt8]

    public init(_ name: String) {
        value = .string(name)
        var b: [UInt8] = []
        JSONOut.string(name, into: &b)
        json = b
    }

    /// The names of the 256 codes a one-byte table names, made once per table.
    static func table(_ name: (UInt8) -> String) -> [JSONName] {
        (0...255).map { JSONName(name(UInt8($0))) }
    }
}

extension FieldSink {
    /// A member whose value is a name made once (`JSONName`).
    @inline(__always) public mutating func field(_ k: StaticString, _ n: JSONName) { key(k); value(n.value, json: n.json) }
}

/// The names the JSON of every event of its kind carries, made once.
enum JSONNames {
    static let attOpcodes = JSONName.table(ATTNames.opcode)
    static let attClient = JSONName("client")
    static let attServer = JSONName("server")
    static let hciEvents = JSONName.table(HCIText.eventName)
    static let leSubevents = JSONName.table(HCIText.subeventName)
}
