/// A small JSON reader into `FieldValue` (for files bletrace itself wrote, such as GATT exports).
/// Numbers without a fraction or exponent become `.int`; strings are never turned into `.hex`.
public enum JSONParser {
    /// Nesting bound, so hostile input cannot exhaust the stack.
    static let maxDepth = 64

    public static func parse(_ text: [UInt8]) throws -> FieldValue {
        var p = State(bytes: text, i: 0)
        p.space()
        let v = try p.value(depth: 0)
        p.space()
        if p.i != text.count { throw p.error("unexpected text after the JSON value") }
        return v
    }

    struct State {
        let bytes: [UInt8]
        var i: Int

        func error(_ reason: String) -> ByteError { .invalid(offset: i, reason: "JSON: " + reason) }

        mutating func space() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func literal(_ word: String, _ v: FieldValue) throws -> FieldValue {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { throw error("unknown literal") }
            i += w.count
            return v
        }

        mutating func value(depth: Int) throws -> FieldValue {
            guard depth < JSONParser.maxDepth else { throw error("nested too deeply") }
            guard i < bytes.count else { throw error("unexpected end") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var f = Fields()
                space()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(f) }
                while true {
                    space()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("object key expected") }
                    let k = try string()
                    space()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("':' expected") }
                    i += 1
                    space()
                    f.add(k, try value(depth: depth + 1))
                    space()
                    guard i < bytes.count else { throw error("unexpected end") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(f) }
                    throw error("',' or '}' expected")
                }
            case UInt8(ascii: "["):
                i += 1
                var items: [FieldValue] = []
                space()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .list(items) }
                while true {
                    space()
                    items.append(try value(depth: depth + 1))
                    space()
                    guard i < bytes.count else { throw error("unexpected end") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .list(items) }
                    throw error("',' or ']' expected")
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return try number()
            }
        }

        mutating func number() throws -> FieldValue {
            let start = i
            var isInt = true
            while i < bytes.count {
                let b = bytes[i]
                if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") || b == UInt8(ascii: "-") { i += 1; continue }
                if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") || b == UInt8(ascii: "+") {
                    isInt = false; i += 1; continue
                }
                break
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            if isInt, let v = Int(text) { return .int(v) }
            if let d = Double(text) { return .double(d) }
            throw error("bad number")
        }

        mutating func hex4() throws -> UInt32 {
            guard i + 4 <= bytes.count else { throw error("short \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[i]
                let d: UInt8
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
                default: throw error("bad \\u escape")
                }
                v = v << 4 | UInt32(d)
                i += 1
            }
            return v
        }

        mutating func string() throws -> String {
            i += 1 // opening quote
            var out: [UInt8] = []
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                if b == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                if b != UInt8(ascii: "\\") { out.append(b); continue }
                guard i < bytes.count else { break }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar < 0xDC00, i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                        i += 2
                        let low = try hex4()
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low &- 0xDC00 & 0x3FF)
                    }
                    out.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
                default: out.append(e)
                }
            }
            throw error("unterminated string")
        }
    }
}
