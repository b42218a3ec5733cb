/// A PostgreSQL connection string as a user wrote it (a `postgresql://` URL or a libpq `key=value`
/// conninfo), read only far enough to keep its password out of everything bletrace prints: `masked` shows
/// the string with each password replaced by `***`, `passwords` lists them so that a server or libpq
/// message that echoes one can be scrubbed. The string itself goes to libpq unchanged, which also reads
/// `PGPASSWORD` and `~/.pgpass` (or `PGPASSFILE`) when it holds no password.
public enum PostgresConninfo {
    /// What a password is shown as.
    public static let mask = "***"

    /// Passwords shorter than this are not scrubbed from messages (replacing one letter would garble them).
    static let scrubbedLength = 4

    /// `s` with every password masked: the URL's `user:password@`, a `password=` query parameter, a
    /// conninfo `password = value` (quoted or not).
    public static func masked(_ s: String) -> String {
        isURL(s) ? maskedURL(s).text : maskedConninfo(s).text
    }

    /// The passwords `s` holds, as written and (URL) percent-decoded.
    public static func passwords(in s: String) -> [String] {
        let found = isURL(s) ? maskedURL(s).passwords : maskedConninfo(s).passwords
        var out: [String] = []
        for p in found + found.compactMap(percentDecoded) where !p.isEmpty && !out.contains(p) { out.append(p) }
        return out
    }

    /// `message` with every password of `conninfo` (long enough to be told apart from words) masked.
    public static func scrub(_ message: String, conninfo: String) -> String {
        var out = message
        for p in passwords(in: conninfo) where p.count >= scrubbedLength {
            out = out.replacingOccurrences(of: p, with: mask)
        }
        return out
    }

    static func isURL(_ s: String) -> Bool { s.hasPrefix("postgresql://") || s.hasPrefix("postgres://") }

    /// libpq's reading of a URL: the user information ends at the first `@` before any `/`; the password
    /// follows its first `:`. Query parameters are `&`-separated `key=value`.
    static func maskedURL(_ s: String) -> (text: String, passwords: [String]) {
        guard let scheme = s.range(of: "://") else { return (s, []) }
        var passwords: [String] = []
        var head = String(s[..<scheme.upperBound])
        var rest = Substring(s[scheme.upperBound...])
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        if let at = rest[..<slash].firstIndex(of: "@") {
            let info = rest[..<at]
            if let colon = info.firstIndex(of: ":") {
                let password = String(info[info.index(after: colon)...])
                if !password.isEmpty {
                    passwords.append(password)
                    head += info[...colon] + mask
                } else {
                    head += info
                }
            } else {
                head += info
            }
            rest = rest[at...]
        }
        guard let question = rest.firstIndex(of: "?") else { return (head + rest, passwords) }
        head += rest[...question]
        let params = rest[rest.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { param -> String in
            guard let eq = param.firstIndex(of: "="),
                  percentDecoded(String(param[..<eq])) == "password" else { return String(param) }
            let value = String(param[param.index(after: eq)...])
            if value.isEmpty { return String(param) }
            passwords.append(value)
            return String(param[...eq]) + mask
        }
        return (head + params.joined(separator: "&"), passwords)
    }

    /// libpq's reading of a conninfo: `key = value` pairs separated by white space; a value is a run of
    /// characters up to white space, or single-quoted; a backslash escapes the next character in both. A
    /// string that does not parse is masked from the point where it stops parsing, if it names a password.
    static func maskedConninfo(_ s: String) -> (text: String, passwords: [String]) {
        let c = Array(s)
        var out = ""
        var passwords: [String] = []
        var i = 0
        func isSpace(_ ch: Character) -> Bool { ch == " " || ch == "\t" || ch == "\n" || ch == "\r" }
        func copySpaces() { while i < c.count && isSpace(c[i]) { out.append(c[i]); i += 1 } }
        while true {
            copySpaces()
            guard i < c.count else { break }
            let keyStart = i
            while i < c.count && c[i] != "=" && !isSpace(c[i]) { i += 1 }
            let key = String(c[keyStart..<i])
            out += key
            copySpaces()
            guard i < c.count, c[i] == "=" else {
                // Not a conninfo libpq reads: hide the rest if it may hold a password.
                let rest = String(c[i...])
                return rest.contains("password") || key.contains("password") ? (out + mask, passwords) : (out + rest, passwords)
            }
            out.append("="); i += 1
            copySpaces()
            var raw = "", value = ""
            if i < c.count, c[i] == "'" {
                raw.append("'"); i += 1
                var closed = false
                while i < c.count {
                    if c[i] == "\\", i + 1 < c.count { raw.append(c[i]); raw.append(c[i + 1]); value.append(c[i + 1]); i += 2; continue }
                    if c[i] == "'" { raw.append("'"); i += 1; closed = true; break }
                    raw.append(c[i]); value.append(c[i]); i += 1
                }
                if !closed && key == "password" { return (out + mask, passwords + [value]) }
            } else {
                while i < c.count && !isSpace(c[i]) {
                    if c[i] == "\\", i + 1 < c.count { raw.append(c[i]); raw.append(c[i + 1]); value.append(c[i + 1]); i += 2; continue }
                    raw.append(c[i]); value.append(c[i]); i += 1
                }
            }
            if key == "password" && !value.isEmpty {
                passwords += [value, raw]
                out += mask
            } else {
                out += raw
            }
        }
        return (out, passwords)
    }

    /// `%XX` sequences decoded (UTF-8), or nil when the string has none or is not well-formed.
    static func percentDecoded(_ s: String) -> String? {
        guard s.contains("%") else { return s }
        var bytes: [UInt8] = []
        var u = Array(s.utf8)[...]
        while let b = u.first {
            u = u.dropFirst()
            if b == UInt8(ascii: "%") {
                guard u.count >= 2, let v = UInt8(String(decoding: u.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(v)
                u = u.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
