/// A name from one of the static tables (an opcode's, an event's) as JSON writes it: its quoted, escaped bytes,
/// made once. The JSON writer copies the bytes in without looking at them again; other sinks (the field tree, the
/// redacting sink) get the name as a string. The bytes are kept for the life of the process (the tables are
/// made once), so a name is a plain value: reading one out of its table retains and releases nothing.
public struct JSONName: @unchecked Sendable {
    /// The name's UTF-8 bytes, then the same name quoted and escaped as JSON.
    let bytes: UnsafeBufferPointer<UInt8>
    /// How many of `bytes` are the name itself.
    let nameCount: Int

    public init(_ name: String) {
        var quoted: [UInt8] = []
        JSONOut.string(name, into: &quoted)
        let raw = Array(name.utf8)
        let p = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: raw.count + quoted.count)
        _ = p.initialize(from: raw + quoted)
        bytes = UnsafeBufferPointer(p)
        nameCount = raw.count
    }

    /// The quoted, escaped JSON string.
    var json: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[nameCount...]) }

    /// The name.
    public var string: String { String(decoding: UnsafeBufferPointer(rebasing: bytes[..<nameCount]), as: UTF8.self) }

    /// The names of the 256 codes a one-byte table names, made once per table.
    static func table(_ name: (UInt8) -> String) -> [JSONName] {
        (0...255).map { JSONName(name(UInt8($0))) }
    }
}

extension FieldSink {
    /// A member whose value is a name made once (`JSONName`).
    @inline(__always) public mutating func field(_ k: StaticString, _ n: JSONName) { key(k); name(n) }
}

/// The names the JSON of every event of its kind carries, made once.
enum JSONNames {
    static let attOpcodes = JSONName.table(ATTNames.opcode)
    static let attClient = JSONName("client")
    static let attServer = JSONName("server")
    static let hciEvents = JSONName.table(HCIText.eventName)
    static let leSubevents = JSONName.table(HCIText.subeventName)
}
