import Foundation

/// Where a typed value writes its JSON shape: members of objects, list items and scalars. A layer's JSON is
/// written once against this protocol; `JSONBytes` puts it straight into the output buffer, `FieldsBuilder`
/// makes a `Fields` tree of it (tests, tools, and field-by-field processing such as redaction).
public protocol FieldSink {
    /// Starts a member of the current object; its value follows. The project's own member names are static
    /// strings of plain ASCII: JSON copies their bytes as they are, without looking for characters to escape.
    mutating func key(_ k: StaticString)
    /// Starts a member whose name is made at run time (field trees, names from a table): escaped as needed.
    mutating func key(name k: String)
    mutating func int(_ v: Int)
    mutating func double(_ v: Double)
    mutating func bool(_ v: Bool)
    mutating func string(_ v: String)
    /// A string value from the project's own static names (plain ASCII, nothing to escape): JSON copies its bytes.
    mutating func string(static v: StaticString)
    /// A string given as UTF-8 bytes.
    mutating func string(utf8 v: ArraySlice<UInt8>)
    /// A string member whose UTF-8 bytes `write` appends, left out when it writes none (JSON makes them on a
    /// buffer it keeps; the default makes a buffer of its own).
    mutating func field(_ k: StaticString, writing write: (inout TextBytes) -> Void)
    /// Bytes, written as lowercase hex without separators.
    mutating func hex(_ v: ArraySlice<UInt8>)
    /// A device address as a string value (JSON writes its 17 bytes in place; the default makes the String).
    mutating func address(_ a: BDAddr)
    /// A UUID as a string value in its short or canonical form (JSON writes the digits in place).
    mutating func uuid(_ u: BLEUUID)
    /// A field tree value whose compact JSON is already made (`JSONOut.write(v, into:)`): JSON copies the bytes,
    /// other sinks take the tree.
    mutating func value(_ v: FieldValue, json: [UInt8])
    /// A string value from a table of names made once (`JSONName`): JSON copies its quoted bytes.
    mutating func name(_ n: JSONName)
    /// A `uuid` member and, when the UUID has a name in its GATT role, a `name` member.
    mutating func uuidAndName(_ u: BLEUUID, role: GATTNameRole)
    /// The `gatt` member of a location that says something (`GATTContextRender.writeMember`; JSON copies it from
    /// the output's memo).
    mutating func gattMember(_ location: GATTLocation)
    /// `gattMember` of a location given as the database's shared entry (JSON finds it in its memo by reference).
    mutating func gattMember(ref: GATTLocationRef)
    mutating func null()
    mutating func beginObject()
    mutating func endObject()
    mutating func beginList()
    mutating func endList()
}

extension FieldSink {
    public mutating func address(_ a: BDAddr) { string(a.description) }
    public mutating func uuid(_ u: BLEUUID) { string(u.description) }
    public mutating func value(_ v: FieldValue, json: [UInt8]) { value(v) }
    public mutating func name(_ n: JSONName) { string(n.string) }
    public mutating func gattMember(_ location: GATTLocation) {
        object("gatt") { GATTContextRender.writeFields(location, into: &$0) }
    }
    public mutating func gattMember(ref: GATTLocationRef) { gattMember(ref.location) }
    public mutating func uuidAndName(_ u: BLEUUID, role: GATTNameRole) {
        field("uuid", uuid: u)
        if let n = role.name(u) { field("name", n) }
    }

    @inline(__always) public mutating func field(_ k: StaticString, _ v: Int) { key(k); int(v) }
    @inline(__always) public mutating func field<T: FixedWidthInteger>(_ k: StaticString, _ v: T) { key(k); int(Int(v)) }
    @inline(__always) public mutating func field(_ k: StaticString, _ v: String) { key(k); string(v) }
    @inline(__always) public mutating func field(_ k: StaticString, static v: StaticString) { key(k); string(static: v) }
    public mutating func string(static v: StaticString) { string(v.description) }
    public mutating func field(_ k: StaticString, writing write: (inout TextBytes) -> Void) {
        var b = TextBytes()
        write(&b)
        if !b.isEmpty { key(k); string(utf8: b.array[...]) }
    }
    @inline(__always) public mutating func field(_ k: StaticString, _ v: Bool) { key(k); bool(v) }
    /// A member that is null when `v` is nil.
    @inline(__always) public mutating func field(_ k: StaticString, orNull v: Int?) { key(k); if let v { int(v) } else { null() } }
    @inline(__always) public mutating func field(_ k: StaticString, orNull v: String?) { key(k); if let v { string(v) } else { null() } }
    @inline(__always) public mutating func field(_ k: StaticString, hex v: ArraySlice<UInt8>) { key(k); hex(v) }
    @inline(__always) public mutating func field(_ k: StaticString, hex v: [UInt8]) { key(k); hex(v[...]) }
    /// A device address as its string ("AA:BB:CC:DD:EE:FF").
    @inline(__always) public mutating func field(_ k: StaticString, address a: BDAddr) { key(k); address(a) }
    /// A UUID as its string ("180F", or the canonical 36 characters).
    @inline(__always) public mutating func field(_ k: StaticString, uuid u: BLEUUID) { key(k); uuid(u) }

    /// Members whose names are made at run time (escaped as needed).
    @inline(__always) public mutating func field(name k: String, _ v: Int) { key(name: k); int(v) }
    @inline(__always) public mutating func field<T: FixedWidthInteger>(name k: String, _ v: T) { key(name: k); int(Int(v)) }
    @inline(__always) public mutating func field(name k: String, _ v: String) { key(name: k); string(v) }
    @inline(__always) public mutating func field(name k: String, _ v: Bool) { key(name: k); bool(v) }
    @inline(__always) public mutating func field(name k: String, hex v: ArraySlice<UInt8>) { key(name: k); hex(v) }

    /// A member whose value is an object written by `body`.
    @inline(__always) public mutating func object(_ k: StaticString, _ body: (inout Self) -> Void) {
        key(k)
        beginObject()
        body(&self)
        endObject()
    }

    /// A member named at run time whose value is an object written by `body`.
    @inline(__always) public mutating func object(name k: String, _ body: (inout Self) -> Void) {
        key(name: k)
        beginObject()
        body(&self)
        endObject()
    }

    /// A member named at run time whose value is a list written by `body`.
    @inline(__always) public mutating func list(name k: String, _ body: (inout Self) -> Void) {
        key(name: k)
        beginList()
        body(&self)
        endList()
    }

    /// A member whose value is a list written by `body`.
    @inline(__always) public mutating func list(_ k: StaticString, _ body: (inout Self) -> Void) {
        key(k)
        beginList()
        body(&self)
        endList()
    }

    /// A member whose value is a list of objects, one for each of `items`, whose members `body` writes.
    @inline(__always) public mutating func objects<C: Sequence>(_ k: StaticString, _ items: C, _ body: (inout Self, C.Element) -> Void) {
        key(k)
        beginList()
        for x in items {
            beginObject()
            body(&self, x)
            endObject()
        }
        endList()
    }

    /// A field tree value (for parts not yet typed).
    public mutating func value(_ v: FieldValue) {
        switch v {
        case let .int(i): int(i)
        case let .double(d): double(d)
        case let .string(s): string(s)
        case let .bool(b): bool(b)
        case let .hex(b): hex(b[...])
        case let .list(items):
            beginList()
            for x in items { value(x) }
            endList()
        case let .object(f):
            beginObject()
            members(f)
            endObject()
        case .null: null()
        }
    }

    /// The pairs of `f` as members of the current object.
    public mutating func members(_ f: Fields) {
        for (k, v) in f.items {
            key(name: k)
            value(v)
        }
    }
}

/// Compact JSON into a `ByteStore`, with the commas placed as values arrive. Member names are static and
/// copied as they are; copies of a `JSONBytes` write into the same store.
public struct JSONBytes: FieldSink {
    public let store: ByteStore
    /// One bit per open container, set for lists.
    var lists: UInt64 = 0
    var depth = 0
    /// True until the current container has its first item.
    var first = true
    /// Whether the current container is a list (its bit in `lists`): read by every value, set when a container
    /// opens or closes.
    var inList = false

    /// A fresh store.
    public init() { store = ByteStore() }

    /// Writes one value at the end of `store` (the output writer's: a summary's parts).
    public init(writingInto store: ByteStore) { self.store = store }

    /// Continues an object whose opening brace (and perhaps some members) is already in `store`.
    public init(continuingObjectIn store: ByteStore, empty: Bool) {
        self.store = store
        depth = 1
        first = empty
    }

    /// Everything written (tests and small documents).
    public var bytes: [UInt8] { store.bytes }

    /// The bit of the container at `level` (containers past 64 deep share the last bit). Shifts that mask their
    /// count and wrapping arithmetic: no checks on the path of every member and item.
    @inline(__always) static func bit(_ level: Int) -> UInt64 { 1 &<< UInt64(truncatingIfNeeded: min(level, 63)) }

    @inline(__always) mutating func item() {
        if inList {
            if !first { store.put(UInt8(ascii: ",")) }
            first = false
        }
    }

    @inline(__always) public mutating func key(_ k: StaticString) {
        assert(k.withUTF8Buffer { !ByteScan.needsJSONEscape($0) }, "a member name that needs escaping")
        store.putMemberName(k, comma: !first)
        first = false
    }

    public mutating func key(name k: String) {
        if !first { store.put(UInt8(ascii: ",")) }
        first = false
        store.putJSONString(k)
        store.put(UInt8(ascii: ":"))
    }

    @inline(__always) public mutating func int(_ v: Int) { item(); store.putDecimal(v) }
    public mutating func double(_ v: Double) { item(); store.put(string: v.isFinite ? String(v) : "null") }
    public mutating func bool(_ v: Bool) { item(); store.put(v ? "true" : "false") }
    public mutating func string(_ v: String) { item(); store.putJSONString(v) }
    public mutating func string(static v: StaticString) {
        assert(v.withUTF8Buffer { !ByteScan.needsJSONEscape($0) }, "a static name that needs escaping")
        item()
        store.put(UInt8(ascii: "\""))
        store.put(v)
        store.put(UInt8(ascii: "\""))
    }
    public mutating func string(utf8 v: ArraySlice<UInt8>) { item(); v.withUnsafeBufferPointer { store.putJSONString($0) } }
    /// The bytes made on the store's scratch buffer (no array made per member), then escaped into the store.
    public mutating func field(_ k: StaticString, writing write: (inout TextBytes) -> Void) {
        store.scratch.removeAll()
        write(&store.scratch)
        guard !store.scratch.isEmpty else { return }
        key(k)
        store.scratch.withBytes { store.putJSONString($0) }
    }
    public mutating func null() { item(); store.put("null") }
    /// An address never needs escaping: quotes around its 17 bytes.
    public mutating func address(_ a: BDAddr) {
        item()
        store.putQuotedAddress(a)
    }

    public mutating func value(_ v: FieldValue, json: [UInt8]) {
        item()
        store.put(json)
    }

    public mutating func name(_ n: JSONName) {
        item()
        store.put(n.json)
    }

    /// The members' bytes as the output's memo keeps them (a capture names few UUIDs, each in many events).
    public mutating func uuidAndName(_ u: BLEUUID, role: GATTNameRole) {
        if !first { store.put(UInt8(ascii: ",")) }
        first = false
        store.putUUIDAndName(u, role: role)
    }

    /// A UUID never needs escaping: quotes around its hex digits.
    public mutating func uuid(_ u: BLEUUID) {
        item()
        store.put(UInt8(ascii: "\""))
        u.withText { store.put($0) }
        store.put(UInt8(ascii: "\""))
    }

    public mutating func hex(_ v: ArraySlice<UInt8>) {
        item()
        store.putQuotedHex(v)
    }

    @inline(__always) mutating func open(_ byte: UInt8, list: Bool) {
        item()
        store.put(byte)
        let bit = JSONBytes.bit(depth)
        if list { lists |= bit } else { lists &= ~bit }
        depth &+= 1
        first = true
        inList = list
    }

    @inline(__always) mutating func close(_ byte: UInt8) {
        store.put(byte)
        depth &-= 1
        first = false
        inList = depth > 0 && lists & JSONBytes.bit(depth &- 1) != 0
    }

    @inline(__always) public mutating func beginObject() { open(UInt8(ascii: "{"), list: false) }
    @inline(__always) public mutating func endObject() { close(UInt8(ascii: "}")) }
    @inline(__always) public mutating func beginList() { open(UInt8(ascii: "["), list: true) }
    @inline(__always) public mutating func endList() { close(UInt8(ascii: "]")) }
}

/// Builds a `Fields` tree from what is written: the members written at the top level become `result`.
public struct FieldsBuilder: FieldSink {
    enum Container {
        case object(Fields, key: String?)
        case list([FieldValue], key: String?)
    }
    var stack: [Container] = []
    public private(set) var result = Fields()
    var pendingKey: String?

    public init() {}

    mutating func put(_ v: FieldValue) {
        guard let top = stack.popLast() else {
            if let k = pendingKey { result.add(k, v) }
            pendingKey = nil
            return
        }
        switch top {
        case .object(var f, let k):
            if let pk = pendingKey { f.add(pk, v) }
            stack.append(.object(f, key: k))
        case .list(var l, let k):
            l.append(v)
            stack.append(.list(l, key: k))
        }
        pendingKey = nil
    }

    public mutating func key(_ k: StaticString) { pendingKey = StaticNames.string(k) }
    public mutating func key(name k: String) { pendingKey = k }
    public mutating func int(_ v: Int) { put(.int(v)) }
    public mutating func double(_ v: Double) { put(.double(v)) }
    public mutating func bool(_ v: Bool) { put(.bool(v)) }
    public mutating func string(_ v: String) { put(.string(v)) }
    public mutating func string(utf8 v: ArraySlice<UInt8>) { put(.string(String(decoding: v, as: UTF8.self))) }
    public mutating func hex(_ v: ArraySlice<UInt8>) { put(.hex(Array(v))) }
    public mutating func null() { put(.null) }
    public mutating func beginObject() { stack.append(.object(Fields(), key: pendingKey)); pendingKey = nil }
    public mutating func beginList() { stack.append(.list([], key: pendingKey)); pendingKey = nil }

    public mutating func endObject() {
        guard case let .object(f, k)? = stack.popLast() else { return }
        pendingKey = k
        put(.object(f))
    }

    public mutating func endList() {
        guard case let .list(l, k)? = stack.popLast() else { return }
        pendingKey = k
        put(.list(l))
    }

    /// The object one `write` call makes with this builder.
    public static func object(_ write: (inout FieldsBuilder) -> Void) -> Fields {
        var b = FieldsBuilder()
        write(&b)
        return b.result
    }
}

/// The `String`s of static member names, made once each: a name of more than 15 bytes would otherwise be a new
/// heap string every time a field tree is built with it. The names are the source's literals, a bounded set.
enum StaticNames {
    final class Table: @unchecked Sendable {
        let lock = NSLock()
        var strings: [UInt: String] = [:]
    }

    static let table = Table()

    static func string(_ k: StaticString) -> String {
        guard k.hasPointerRepresentation, k.utf8CodeUnitCount > 15 else { return k.description }
        let id = UInt(bitPattern: k.utf8Start)
        table.lock.lock()
        defer { table.lock.unlock() }
        if let s = table.strings[id] { return s }
        let s = k.description
        table.strings[id] = s
        return s
    }
}
