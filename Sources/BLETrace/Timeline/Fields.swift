/// A decoded value as the reports show it: a small ordered JSON-like tree.
public enum FieldValue: Equatable, Sendable {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)
    /// Bytes, rendered as lowercase hex without separators.
    case hex([UInt8])
    case list([FieldValue])
    case object(Fields)
    case null
}

/// Ordered key/value pairs (JSON object with a stable key order).
public struct Fields: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    public var items: [(String, FieldValue)]

    public init() { items = [] }
    public init(dictionaryLiteral elements: (String, FieldValue)...) { items = elements }

    public static func == (a: Fields, b: Fields) -> Bool {
        a.items.count == b.items.count && zip(a.items, b.items).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    public var isEmpty: Bool { items.isEmpty }

    public subscript(key: String) -> FieldValue? {
        get { items.first(where: { $0.0 == key })?.1 }
        set {
            if let i = items.firstIndex(where: { $0.0 == key }) {
                if let v = newValue { items[i].1 = v } else { items.remove(at: i) }
            } else if let v = newValue {
                items.append((key, v))
            }
        }
    }

    /// Appends one pair. The first append makes room for eight, so a typical object is allocated once rather
    /// than regrown at 1, 2, 4 and 8 items.
    @inline(__always) mutating func append(_ key: String, _ value: FieldValue) {
        if items.capacity == 0 { items.reserveCapacity(8) }
        items.append((key, value))
    }

    public mutating func add(_ key: String, _ value: FieldValue) { append(key, value) }
    public mutating func add(_ key: String, _ value: Int) { append(key, .int(value)) }
    public mutating func add<T: FixedWidthInteger>(_ key: String, _ value: T) { append(key, .int(Int(value))) }
    public mutating func add(_ key: String, _ value: String) { append(key, .string(value)) }
    public mutating func add(_ key: String, _ value: Bool) { append(key, .bool(value)) }
    public mutating func add(_ key: String, hex value: ArraySlice<UInt8>) { append(key, .hex(Array(value))) }
    public mutating func add(_ key: String, hex value: [UInt8]) { append(key, .hex(value)) }
    public mutating func add(_ key: String, _ value: Fields) { append(key, .object(value)) }
}

extension FieldValue {
    public var intValue: Int? { if case let .int(v) = self { return v }; return nil }
    public var stringValue: String? { if case let .string(v) = self { return v }; return nil }
    public var objectValue: Fields? { if case let .object(v) = self { return v }; return nil }
}
