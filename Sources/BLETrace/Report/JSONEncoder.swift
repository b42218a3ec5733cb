/// Serializes `FieldValue` trees as compact JSON into an `OutputWriter`.
public enum JSONOut {
    public static func write(_ v: FieldValue, to w: OutputWriter) {
        switch v {
        case let .int(i): w.write(int: i)
        case let .double(d): w.write(d.isFinite ? String(d) : "null")
        case let .string(s): string(s, to: w)
        case let .bool(b): w.write(b ? "true" : "false")
        case let .hex(bytes):
            w.write(byte: UInt8(ascii: "\""))
            for b in bytes {
                w.write(byte: Hex.digits[Int(b >> 4)])
                w.write(byte: Hex.digits[Int(b & 0xF)])
            }
            w.write(byte: UInt8(ascii: "\""))
        case let .list(items):
            w.write(byte: UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { w.write(byte: UInt8(ascii: ",")) }
                write(item, to: w)
            }
            w.write(byte: UInt8(ascii: "]"))
        case let .object(f): object(f, to: w)
        case .null: w.write("null")
        }
    }

    public static func object(_ f: Fields, to w: OutputWriter) {
        w.write(byte: UInt8(ascii: "{"))
        for (i, (k, v)) in f.items.enumerated() {
            if i > 0 { w.write(byte: UInt8(ascii: ",")) }
            string(k, to: w)
            w.write(byte: UInt8(ascii: ":"))
            write(v, to: w)
        }
        w.write(byte: UInt8(ascii: "}"))
    }

    public static func string(_ s: String, to w: OutputWriter) {
        w.write(byte: UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            // Most strings need no escaping: copy them whole.
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                w.write(utf8: utf8)
                return
            }
            for b in utf8 {
                switch b {
                case UInt8(ascii: "\""): w.write(byte: UInt8(ascii: "\\")); w.write(byte: b)
                case UInt8(ascii: "\\"): w.write(byte: UInt8(ascii: "\\")); w.write(byte: b)
                case 0x0A: w.write(byte: UInt8(ascii: "\\")); w.write(byte: UInt8(ascii: "n"))
                case 0x0D: w.write(byte: UInt8(ascii: "\\")); w.write(byte: UInt8(ascii: "r"))
                case 0x09: w.write(byte: UInt8(ascii: "\\")); w.write(byte: UInt8(ascii: "t"))
                case 0..<0x20:
                    w.write("\\u00")
                    w.write(byte: Hex.digits[Int(b >> 4)])
                    w.write(byte: Hex.digits[Int(b & 0xF)])
                default: w.write(byte: b)
                }
            }
        }
        w.write(byte: UInt8(ascii: "\""))
    }

    /// A JSON text for a value (tests and small documents).
    public static func text(_ v: FieldValue) -> String {
        let w = OutputWriter()
        write(v, to: w)
        return w.text
    }
}
