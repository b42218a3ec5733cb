#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An option the user gave that cannot be used, in the one line the command line prints after "bletrace: "
/// (the MCP server answers a tool call with the same line).
public struct OptionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension EventFilter {
    /// The filter `analyze` builds from its options, checked the same way wherever it is given
    /// (`--device`, `--connection 1,2`, `--from`/`--to` seconds, `--records 100-200`, `--layer att,-flow`).
    public static func checked(devices: [String] = [], connections: String? = nil, from: Double? = nil,
                               to: Double? = nil, records: String? = nil, layers: String? = nil) throws(OptionError) -> EventFilter {
        var f = EventFilter()
        f.devices = devices
        if let c = connections {
            for part in c.split(separator: ",") {
                var word = part
                while word.first == " " { word = word.dropFirst() }
                while word.last == " " { word = word.dropLast() }
                guard let n = Int(word), n >= 1 else { throw OptionError("--connection: '\(part)' is not a connection number") }
                f.connections.insert(n)
            }
        }
        for (name, value) in [("--from", from), ("--to", to)] {
            guard let v = value else { continue }
            guard v.isFinite, v >= 0 else {
                throw OptionError("\(name): \(v) is not a time: give seconds since the first record (0 or more)")
            }
        }
        if let a = from, let b = to, a > b {
            throw OptionError("--from \(a) is after --to \(b): the time window would select nothing")
        }
        f.from = from
        f.to = to
        if let r = records {
            guard let range = EventFilter.parseRecords(r) else {
                throw OptionError("--records: '\(r)' is not a record range such as 100-200")
            }
            f.records = range
        }
        if let l = layers, case let .failure(e) = f.parseLayers(l) {
            throw OptionError("--layer: '\(e.word)' is not one of \(EventFilter.layerNames.joined(separator: ", ")) or an event kind (a leading - leaves a layer out)")
        }
        return f
    }
}

extension KeyOptions {
    /// `--keys FILE` and `--ltk [ADDRESS=]HEX` (repeatable), checked.
    public static func checked(file: String?, ltks: [String]) throws(OptionError) -> KeyOptions {
        var k = KeyOptions()
        if let path = file {
            guard let bytes = SmallFile.read(path) else { throw OptionError("\(path): cannot read the keys file") }
            do {
                try KeyFile.parse(bytes, into: &k)
            } catch {
                throw OptionError("\(path): \(error)")
            }
        }
        for spec in ltks {
            do {
                try k.add(ltk: spec)
            } catch {
                throw OptionError("\(error)")
            }
        }
        return k
    }
}

extension DiffOptions {
    /// `diff --ignore a,b` and `--timing-threshold MS`, checked.
    public static func checked(ignore: String?, timingThresholdMillis: Double) throws(OptionError) -> DiffOptions {
        // A day at most: beyond, no change counts, and a larger number must not reach a trapping conversion.
        guard timingThresholdMillis.isFinite, timingThresholdMillis >= 0, timingThresholdMillis <= 86_400_000 else {
            throw OptionError("--timing-threshold: \(timingThresholdMillis) is not a number of milliseconds (0 to 86400000)")
        }
        var options = DiffOptions()
        options.timingThresholdMicros = Int64(timingThresholdMillis * 1000)
        guard let i = ignore else { return options }
        for raw in i.split(separator: ",") {
            var word = raw
            while word.first == " " { word = word.dropFirst() }
            while word.last == " " { word = word.dropLast() }
            let part = word.lowercased()
            if part.isEmpty { continue }
            guard DiffOptions.ignorable.contains(part) else {
                throw OptionError("--ignore: '\(part)' is not one of \(DiffOptions.ignorable.joined(separator: ", "))")
            }
            options.ignore.insert(part)
        }
        // Leaving out every category would report "No differences" without comparing anything.
        if DiffItem.Category.allCases.allSatisfy({ options.ignore.contains($0.rawValue) }) {
            throw OptionError("--ignore: every category is left out, so nothing would be compared")
        }
        return options
    }
}

/// Reads a small file (a keys, UUID or GATT file) whole; nil when it cannot be read or passes 64 MiB.
public enum SmallFile {
    public static func read(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buf.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
            if n > 0 { out.append(contentsOf: buf[0..<n]) }
            if n < buf.count { break }
            if out.count > 64 << 20 { return nil }
        }
        return out
    }
}
