/// Text that is safe to print: decoded strings come from the air and may hold control characters (an
/// advert name with ESC sequences would clear a terminal or set its title; CR or LF inside a name breaks a
/// Markdown table). Text and Markdown show them visibly instead: `\n`, `\r`, `\t`, `\x1b` for the other C0
/// controls and DEL, `\u009b` for the C1 controls (U+0080–U+009F, which some terminals obey too). JSON
/// escapes them on its own.
public enum SafeText {
    @inline(__always) static func needsEscape(_ b: UInt8) -> Bool { b < 0x20 || b == 0x7F }

    static let hexDigits = Array("0123456789abcdef".utf8)

    /// Escapes the control characters of `b` from `start` on, in place.
    public static func escape(_ b: inout [UInt8], from start: Int = 0) {
        guard start < b.count, let first = firstControl(b, from: start) else { return }
        var out = Array(b[0..<first])
        out.reserveCapacity(b.count + 8)
        var i = first
        while i < b.count {
            let c = b[i]
            if needsEscape(c) {
                out.append(0x5C)
                switch c {
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(UInt8(ascii: "x"))
                    out.append(hexDigits[Int(c >> 4)])
                    out.append(hexDigits[Int(c & 0x0F)])
                }
                i += 1
            } else if c == 0xC2, i + 1 < b.count, b[i + 1] >= 0x80, b[i + 1] <= 0x9F {
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hexDigits[Int(b[i + 1] >> 4)])
                out.append(hexDigits[Int(b[i + 1] & 0x0F)])
                i += 2
            } else {
                out.append(c)
                i += 1
            }
        }
        b = out
    }

    /// Where the first control character is, or nil. Eight bytes at a time: a word with no byte below 0x20, no
    /// 0x7F and no 0xC2 (the lead byte of a C1 control) is skipped whole; a word with one is looked at byte by byte.
    static func firstControl(_ b: [UInt8], from start: Int) -> Int? {
        b.withUnsafeBufferPointer { firstControl($0, from: start) }
    }

    static func firstControl(_ u: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = u.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let n = u.count
        var i = start
        while i < n {
            if i + 8 <= n {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if !(ByteScan.hasLess(w, 0x20) || ByteScan.has(w, 0x7F) || ByteScan.has(w, 0xC2)) {
                    i += 8
                    continue
                }
            }
            let c = u[i]
            if needsEscape(c) { return i }
            if c == 0xC2, i + 1 < n, u[i + 1] >= 0x80, u[i + 1] <= 0x9F { return i }
            i += 1
        }
        return nil
    }

    /// `escape` on a line being built: the bytes go through an array only when there is something to escape.
    public static func escape(_ b: inout TextBytes, from start: Int = 0) {
        guard start < b.count, b.withBytes({ firstControl($0, from: start) }) != nil else { return }
        b.withArray { escape(&$0, from: start) }
    }

    /// `s` with its control characters escaped.
    public static func escaped(_ s: String) -> String {
        var bytes = Array(s.utf8)
        guard firstControl(bytes, from: 0) != nil else { return s }
        escape(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A code span for a Markdown table cell: control characters escaped, backticks made quotes, and `|`
    /// escaped (GitHub splits cells at a bare `|` even inside a code span).
    public static func markdownCellCode(_ s: String) -> String {
        "`" + escaped(s).replacingAll("`", with: "'").replacingAll("|", with: "\\|") + "`"
    }
}
