import BLETrace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the whole server holds to, whatever a tool call asks: redaction forced on, the folders it may read,
/// and the most bytes one answer carries (larger results come in pages).
public struct ServerPolicy: Sendable {
    /// Every answer redacted (`bletrace mcp --redact`), whether or not a call asks.
    public var redact = false
    /// Folders whose files may be read (real paths, symbolic links resolved); empty: any file.
    public var roots: [String] = []
    /// The most bytes of JSON one answer carries.
    public var maxBytes = 262_144

    public init(redact: Bool = false, roots: [String] = [], maxBytes: Int = 262_144) {
        self.redact = redact
        self.roots = roots
        self.maxBytes = maxBytes
    }

    /// The real path of each root, or the one-line error for one that is not a folder.
    public static func resolveRoots(_ given: [String]) throws(OptionError) -> [String] {
        var out: [String] = []
        for g in given {
            var st = stat()
            guard let real = realPath(g), stat(real, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
                throw OptionError("--root \(g): no such folder")
            }
            out.append(real)
        }
        return out
    }

    /// Checks a path a tool was given: never standard input (it carries the protocol), and inside a root
    /// when the server has roots.
    func check(_ path: String, what: String = "capture") throws(OptionError) {
        guard path != "-" else {
            throw OptionError("-: standard input carries the MCP messages; give the \(what)'s path")
        }
        guard !roots.isEmpty else { return }
        // A path that does not resolve is left to the opener, which says what the command line says.
        guard let real = Self.realPath(path) else { return }
        guard roots.contains(where: { real == $0 || real.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else {
            throw OptionError("\(path): outside the folders this server reads (bletrace mcp --root)")
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
