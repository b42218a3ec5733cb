import Foundation
import Crypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the files to triage and the captures in each.
///
/// Files: a path given is a file, a directory (walked recursively, in name order; names starting with a dot
/// are skipped; a symbolic link to a directory is followed, each directory walked once, so a link loop ends),
/// or a glob pattern (`*`, `?`, `[…]`, for shells that pass it unexpanded). What a walk leaves out that is
/// not hidden (a symbolic link to nothing, a directory already walked or that cannot be listed) is listed
/// in `skipped`, for the caller to say. Captures: a file is one capture, except an Android bugreport (zip or text) holding
/// several Bluetooth logs: each log is its own capture.
///
/// Content hash: SHA-256 of the file's bytes as stored (a gzip file's compressed bytes, a whole zip); for a log
/// inside a bugreport, SHA-256 of the file's hash (hex), a NUL byte and the log's name, so each log of one
/// bugreport has its own.
public enum TriageInputs {
    public struct Found: Sendable {
        public var files: [String]
        /// Paths that name nothing and patterns that match nothing (a usage error).
        public var missing: [String]
        /// What a directory walk found and left out, with why ("a symbolic link to nothing").
        public var skipped: [(path: String, reason: String)] = []
    }

    /// Expands `paths` into regular files, each once (by its real path), leaving out `exclude` (the store's
    /// own files).
    public static func files(_ paths: [String], exclude: [String] = []) -> Found {
        var out: [String] = []
        var missing: [String] = []
        var seen = Set<String>()
        var walker = Walker()
        let excluded = Set(exclude.compactMap(realPath))
        func add(_ p: String) {
            let key = realPath(p) ?? p
            guard !excluded.contains(key), seen.insert(key).inserted else { return }
            out.append(p)
        }
        for p in paths {
            switch kind(p) {
            case .file: add(p)
            case .directory: walker.walk(p).forEach(add)
            case .other: add(p)   // a device or FIFO: reading it tells
            case .none:
                if p.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" }) {
                    let matches = expand(pattern: p)
                    if matches.isEmpty { missing.append(p) }
                    for m in matches {
                        switch kind(m) {
                        case .directory: walker.walk(m).forEach(add)
                        case .none: break
                        default: add(m)
                        }
                    }
                } else {
                    missing.append(p)
                }
            }
        }
        return Found(files: out, missing: missing, skipped: walker.skipped)
    }

    enum Kind { case file, directory, other }

    static func kind(_ p: String) -> Kind? {
        var st = stat()
        guard stat(p, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    static func realPath(_ p: String) -> String? {
        guard let r = realpath(p, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }

    /// Walks directories: each once (by its real path), whether reached directly or through a link.
    struct Walker {
        var walked = Set<String>()
        var skipped: [(path: String, reason: String)] = []

        /// Regular files under a directory, recursively, sorted by path; hidden names skipped.
        mutating func walk(_ dir: String) -> [String] {
            var out: [String] = []
            guard walked.insert(TriageInputs.realPath(dir) ?? dir).inserted else {
                skipped.append((dir, "a folder already searched (a symbolic link to it, or a link loop)"))
                return out
            }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else {
                skipped.append((dir, "a folder that cannot be listed"))
                return out
            }
            let base = dir.hasSuffix("/") ? dir : dir + "/"
            for name in names.sorted() where !name.hasPrefix(".") {
                let p = base + name
                var st = stat()
                guard lstat(p, &st) == 0 else { continue }
                switch st.st_mode & S_IFMT {
                case S_IFDIR: out += walk(p)
                case S_IFREG: out.append(p)
                case S_IFLNK:
                    switch TriageInputs.kind(p) {
                    case .file: out.append(p)
                    case .directory: out += walk(p)
                    case .other: skipped.append((p, "a symbolic link to neither a file nor a folder"))
                    case nil: skipped.append((p, "a symbolic link to nothing"))
                    }
                default: break
                }
            }
            return out
        }
    }

    static func expand(pattern: String) -> [String] {
        var g = glob_t()
        defer { globfree(&g) }
        guard glob(pattern, 0, nil, &g) == 0 else { return [] }
        var out: [String] = []
        for i in 0..<Int(g.gl_pathc) {
            if let p = g.gl_pathv[i] { out.append(String(cString: p)) }
        }
        return out.sorted()
    }

    // MARK: captures in a file

    /// The captures `path` holds, with their content hashes. A file that cannot be read is one unit that
    /// fails (its hash then is of its path: there are no bytes to hash).
    public static func units(of path: String) -> [TriageUnit] {
        let fileHash: String
        let head: [UInt8]
        do {
            (fileHash, head) = try hashFile(path)
        } catch {
            let h = unreadableHash(path)
            return [TriageUnit(path: path, sha256: h, fileSHA256: h, openError: "cannot read \(path): \(error)")]
        }
        // A capture bletrace reads directly: one unit, nothing to list.
        if head.isEmpty || CaptureFile.detect(head[...]) != nil {
            return [TriageUnit(path: path, sha256: fileHash, fileSHA256: fileHash)]
        }
        // A container (gzip, bugreport zip or text) or something else: open it to see what it holds.
        let logs: [ContainedLog]
        do {
            logs = try InputOpener.open(path: path).logs
        } catch let e as CaptureError where e.isTruncation {
            return [TriageUnit(path: path, sha256: fileHash, fileSHA256: fileHash)] // analysed as far as it goes
        } catch let e as CaptureError {
            return [TriageUnit(path: path, sha256: fileHash, fileSHA256: fileHash, openError: e.description)]
        } catch {
            return [TriageUnit(path: path, sha256: fileHash, fileSHA256: fileHash, openError: "\(error)")]
        }
        if logs.isEmpty { return [TriageUnit(path: path, sha256: fileHash, fileSHA256: fileHash)] }
        return logs.map { l in
            TriageUnit(path: path, log: logs.count > 1 ? l.index : nil, member: l.name,
                       sha256: captureHash(fileSHA256: fileHash, member: l.name), fileSHA256: fileHash)
        }
    }

    /// The hash a file that cannot be read is stored under: of its path, as there are no bytes to hash.
    public static func unreadableHash(_ path: String) -> String {
        hex(SHA256.hash(data: Array(("unreadable\0" + path).utf8)))
    }

    /// The content hash of a log inside a container.
    public static func captureHash(fileSHA256: String, member: String) -> String {
        hex(SHA256.hash(data: Array((fileSHA256 + "\0" + member).utf8)))
    }

    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// SHA-256 of a file (streamed, 1 MiB at a time) and its first 4096 bytes.
    static func hashFile(_ path: String) throws -> (String, [UInt8]) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ReadError(description: String(cString: strerror(errno))) }
        defer { close(fd) }
        var hasher = SHA256()
        var head: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ReadError(description: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            if head.count < 4096 { head += buf[0..<min(n, 4096 - head.count)] }
            buf.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        return (hex(hasher.finalize()), head)
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in digest {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
