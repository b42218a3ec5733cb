/// A raw attribute value that reads as text: printable ASCII, possibly ending in a line ending (a modem's or
/// an ELM327's "0149\r"). Renderers show its string with the ending escaped next to the hex.
enum TextValue {
    /// The value as a quoted string ("0149\r" with the CR written `\r`), or nil when it is not text.
    static func quoted<C: Collection>(_ v: C) -> String? where C.Element == UInt8 {
        var body = v.count
        for b in v.reversed() {
            guard b == 0x0D || b == 0x0A else { break }
            body -= 1
        }
        guard body > 0, v.prefix(body).allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        var s = "\"" + String(decoding: v.prefix(body), as: UTF8.self)
        for b in v.dropFirst(body) { s += b == 0x0D ? "\\r" : "\\n" }
        return s + "\""
    }
}
