/// Serializes `FieldValue` trees as compact JSON into an `OutputWriter`.
public enum JSONOut {
    /// Writes lists and objects item by item, so that the writer can flush between them: a summary of a
    /// large capture must not be built up whole in the buffer. (An event is written in one piece.) Everything is
    /// put straight into the writer's store, with the same bytes `write(_:into:)` makes.
    public static func write(_ v: FieldValue, to w: OutputWriter) {
        let b = w.store
        switch v {
        case let .int(i): b.putDecimal(i)
        case let .double(d): b.put(string: d.isFinite ? String(d) : "null")
        case let .string(s): b.putJSONString(s)
        case let .bool(x): b.put(x ? "true" : "false")
        case let .hex(bytes): b.putQuotedHex(bytes[...])
        case let .list(items):
            b.put(UInt8(ascii: "["))
            var first = true
            for item in items {
                if !first { b.put(UInt8(ascii: ",")) }
                first = false
                write(item, to: w)
            }
            b.put(UInt8(ascii: "]"))
            w.flushIfFull()
        case let .object(f): object(f, to: w)
        case .null: b.put("null")
        }
    }

    public static func object(_ f: Fields, to w: OutputWriter) {
        let b = w.store
        b.put(UInt8(ascii: "{"))
        var first = true
        for (k, v) in f.items {
            if !first { b.put(UInt8(ascii: ",")) }
            first = false
            b.putJSONString(k)
            b.put(UInt8(ascii: ":"))
            write(v, to: w)
        }
        b.put(UInt8(ascii: "}"))
        w.flushIfFull()
    }

    public static func string(_ s: String, to w: OutputWriter) {
        w.store.putJSONString(s)
        w.flushIfFull()
    }

    static func write(_ v: FieldValue, into b: inout [UInt8]) {
        switch v {
        case let .int(i): b.append(decimal: i)
        case let .double(d): b.append(string: d.isFinite ? String(d) : "null")
        case let .string(s): string(s, into: &b)
        case let .bool(v): b.append(string: v ? "true" : "false")
        case let .hex(bytes):
            b.append(UInt8(ascii: "\""))
            for x in bytes {
                b.append(Hex.lower(Int(x >> 4)))
                b.append(Hex.lower(Int(x)))
            }
            b.append(UInt8(ascii: "\""))
        case let .list(items):
            b.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { b.append(UInt8(ascii: ",")) }
                write(item, into: &b)
            }
            b.append(UInt8(ascii: "]"))
        case let .object(f): object(f, into: &b)
        case .null: b.append(string: "null")
        }
    }

    static func object(_ f: Fields, into b: inout [UInt8]) {
        b.append(UInt8(ascii: "{"))
        for (i, (k, v)) in f.items.enumerated() {
            if i > 0 { b.append(UInt8(ascii: ",")) }
            string(k, into: &b)
            b.append(UInt8(ascii: ":"))
            write(v, into: &b)
        }
        b.append(UInt8(ascii: "}"))
    }

    static func string(_ s: String, into b: inout [UInt8]) {
        // Most strings need no escaping: copy them whole, straight from the string's own storage.
        let copied = s.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            if ByteScan.needsJSONEscape(utf8) { return false }
            b.append(UInt8(ascii: "\""))
            b.append(contentsOf: utf8)
            b.append(UInt8(ascii: "\""))
            return true
        }
        if copied != true { escaped(s.utf8, into: &b) }
    }

    /// A JSON string of UTF-8 bytes.
    static func string(utf8 v: ArraySlice<UInt8>, into b: inout [UInt8]) {
        let copied = v.withContiguousStorageIfAvailable { utf8 -> Bool in
            if ByteScan.needsJSONEscape(utf8) { return false }
            b.append(UInt8(ascii: "\""))
            b.append(contentsOf: utf8)
            b.append(UInt8(ascii: "\""))
            return true
        }
        if copied != true { escaped(v, into: &b) }
    }

    static func escaped<C: Sequence>(_ utf8: C, into b: inout [UInt8]) where C.Element == UInt8 {
        b.append(UInt8(ascii: "\""))
        for x in utf8 {
            switch x {
            case UInt8(ascii: "\""): b.append(UInt8(ascii: "\\")); b.append(x)
            case UInt8(ascii: "\\"): b.append(UInt8(ascii: "\\")); b.append(x)
            case 0x0A: b.append(UInt8(ascii: "\\")); b.append(UInt8(ascii: "n"))
            case 0x0D: b.append(UInt8(ascii: "\\")); b.append(UInt8(ascii: "r"))
            case 0x09: b.append(UInt8(ascii: "\\")); b.append(UInt8(ascii: "t"))
            case 0..<0x20:
                b.append(string: "\\u00")
                b.append(Hex.lower(Int(x >> 4)))
                b.append(Hex.lower(Int(x)))
            default: b.append(x)
            }
        }
        b.append(UInt8(ascii: "\""))
    }

    /// A JSON text for a value (tests and small documents).
    public static func text(_ v: FieldValue) -> String {
        let w = OutputWriter()
        write(v, to: w)
        return w.text
    }
}
