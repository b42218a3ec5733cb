/// Replaces what identifies people and devices with stable pseudonyms, so a report can go on a public
/// ticket: Bluetooth addresses, device names, serial numbers, iBeacon (and AltBeacon) UUIDs, and the text
/// of ANCS notifications. The same original always gets the same pseudonym, in every format and on both
/// sides of a diff (share one `Redactor`).
///
/// Pseudonyms: addresses become `00:00:00:00:00:01`, `…:02` (still valid addresses); names `name-1`,
/// serial numbers `serial-1`, beacon UUIDs `00000000-0000-0000-0000-000000000001`, ANCS text `text-1`.
///
/// Hex payloads: inside every hex field (advertising data, HCI parameters, ATT values, …) the bytes of a
/// known original are overwritten in place: an address in either byte order by its pseudonym's bytes, a
/// beacon UUID likewise, and a name, serial number or text by as many bytes of its pseudonym padded with
/// `*`. Lengths inside the blobs therefore still add up. The same forms are replaced inside summary
/// strings (colon, contiguous and spaced hex, either case). Names shorter than three characters are only
/// replaced where a whole field equals them.
public final class Redactor {
    public enum Kind: String, Sendable { case address, name, serial, beacon, text, key }

    var pseudonyms: [String: String] = [:]
    /// Every pseudonym handed out: an address found in text that is one of them is not learned again.
    var issued = Set<String>()
    /// Addresses already learned (or found to be pseudonyms): learning one again costs a set lookup.
    var seenAddresses = Set<UInt64>()
    var counters: [Kind: Int] = [:]
    /// Patterns of at least 3 bytes, indexed by their first 3 bytes (longest first), with a bit per hash of
    /// those prefixes in front of the index for fast rejection.
    struct PatternTable {
        struct Pattern {
            let bytes: [UInt8]
            let replacement: [UInt8]
        }
        private(set) var patterns: [Pattern] = []
        var index: [UInt32: [Int]] = [:]
        var bloom = [UInt64](repeating: 0, count: 1024)

        var isEmpty: Bool { patterns.isEmpty }

        @inline(__always) static func key(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 { UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c) }
        @inline(__always) static func bloomBit(_ k: UInt32) -> Int { Int((k &* 2_654_435_761) >> 16) & 0xFFFF }

        mutating func add(_ pattern: [UInt8], _ replacement: [UInt8]) {
            guard pattern.count >= 3 else { return }
            let k = PatternTable.key(pattern[0], pattern[1], pattern[2])
            var list = index[k] ?? []
            if list.contains(where: { patterns[$0].bytes == pattern }) { return }
            patterns.append(Pattern(bytes: pattern, replacement: replacement))
            list.append(patterns.count - 1)
            list.sort { patterns[$0].bytes.count > patterns[$1].bytes.count }
            index[k] = list
            let bit = PatternTable.bloomBit(k)
            bloom[bit >> 6] |= 1 << UInt64(bit & 63)
        }

        /// The patterns that may start with these three bytes, longest first.
        @inline(__always) func candidates(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> [Int]? {
            let k = PatternTable.key(a, b, c)
            let bit = PatternTable.bloomBit(k)
            guard bloom[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return nil }
            return index[k]
        }
    }
    /// Text patterns: lowercased UTF-8.
    var textTable = PatternTable()
    /// Byte patterns with same-length replacements.
    var byteTable = PatternTable()
    /// Whole-field matches for short names (lowercased).
    var exact: [String: String] = [:]
    /// The originals learned (lowercased canonical text), for tests and reports.
    public private(set) var originals: [(kind: Kind, value: String)] = []

    public init() {}

    static let ancsDataSource = "22EAC6E9-24D6-4BB5-BE44-B36ACE7C7BFB"

    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    func pseudonym(_ kind: Kind, _ key: String) -> (String, Int, Bool) {
        let k = kind.rawValue + "|" + key
        if let p = pseudonyms[k] { return (p, 0, false) }
        let n = (counters[kind] ?? 0) + 1
        counters[kind] = n
        let p: String
        switch kind {
        case .address: p = BDAddr(UInt64(n)).description
        case .beacon: p = "00000000-0000-0000-0000-" + String(Hex.string(Redactor.be(UInt64(n), 6)).uppercased())
        default: p = "\(kind.rawValue)-\(n)"
        }
        pseudonyms[k] = p
        issued.insert(p)
        return (p, n, true)
    }

    static func be(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64(n - 1 - $0))) } }

    func addText(_ pattern: [UInt8], _ replacement: [UInt8]) {
        textTable.add(pattern.map(Redactor.lower), replacement)
    }

    func addBytes(_ pattern: [UInt8], _ replacement: [UInt8]) {
        byteTable.add(pattern, replacement)
    }

    /// Text, contiguous hex and spaced hex forms of `bytes` → those of `replacement`.
    func addHexForms(_ bytes: [UInt8], _ replacement: [UInt8]) {
        addText(Array(Hex.string(bytes).utf8), Array(Hex.string(replacement).utf8))
        addText(Array(Hex.spaced(bytes, limit: bytes.count).utf8), Array(Hex.spaced(replacement, limit: replacement.count).utf8))
        addBytes(bytes, replacement)
    }

    // MARK: Learning

    public func learnAddress(_ a: BDAddr) {
        guard seenAddresses.insert(a.value).inserted else { return }
        guard a.value != 0, a.value != 0xFFFF_FFFF_FFFF, !issued.contains(a.description) else { return }
        let (p, n, new) = pseudonym(.address, a.description)
        guard new else { return }
        originals.append((.address, a.description))
        addText(Array(a.description.utf8), Array(p.utf8))
        addText(Array(a.description.replacingOccurrences(of: ":", with: "-").utf8), Array(p.replacingOccurrences(of: ":", with: "-").utf8))
        let be = Redactor.be(a.value, 6), pbe = Redactor.be(UInt64(n), 6)
        addHexForms(be, pbe)
        addHexForms(be.reversed(), pbe.reversed())
    }

    /// Names, serial numbers and ANCS text.
    public func learnString(_ s: String, kind: Kind) {
        var trimmed = Substring(s)
        while let l = trimmed.last, l == " " || l == "\0" { trimmed = trimmed.dropLast() }
        while let f = trimmed.first, f == " " { trimmed = trimmed.dropFirst() }
        let v = String(trimmed)
        guard !v.isEmpty else { return }
        let (p, _, new) = pseudonym(kind, v.lowercased())
        guard new else { return }
        originals.append((kind, v))
        if v.utf8.count < 3 { exact[v.lowercased()] = p; return }
        let bytes = Array(v.utf8)
        addText(bytes, Array(p.utf8))
        // Markdown shows the name escaped ("ESP32\_LED") before the report's lines are redacted.
        let md = DiffRender.md(v)
        if md != v { addText(Array(md.utf8), Array(p.utf8)) }
        var filler = Array(p.utf8.prefix(bytes.count))
        while filler.count < bytes.count { filler.append(0x2A) }
        addHexForms(bytes, filler)
    }

    /// A link key (BR/EDR pairing): replaced by a key of the same length holding its pseudonym's number, in
    /// every hex form and as bytes.
    public func learnKey(_ key: ArraySlice<UInt8>) {
        guard key.count >= 3, key.contains(where: { $0 != 0 }) else { return }
        let bytes = Array(key)
        let (_, n, new) = pseudonym(.key, Hex.string(bytes))
        guard new else { return }
        originals.append((.key, Hex.string(bytes)))
        addHexForms(bytes, Redactor.be(UInt64(n), bytes.count))
    }

    public func learnBeacon(_ u: BLEUUID) {
        let text = u.description
        guard text.count == 36 else { return }
        let (p, _, new) = pseudonym(.beacon, text)
        guard new, let be = Hex.parse(text), let pbe = Hex.parse(p) else { return }
        originals.append((.beacon, text))
        addText(Array(text.utf8), Array(p.utf8))
        addHexForms(be, pbe)
        addHexForms(be.reversed(), pbe.reversed())
    }

    public var isEmpty: Bool { textTable.isEmpty && exact.isEmpty }

    // MARK: Redacting

    public func redact(_ s: String) -> String {
        if isEmpty || s.isEmpty { return s }
        if !exact.isEmpty, s.utf8.count < 3, let r = exact[s.lowercased()] { return r }
        var copy = s
        return copy.withUTF8 { redact(utf8: $0) } ?? s
    }

    /// The redacted text, or nil when nothing matched.
    func redact(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        var changed = false
        var i = 0
        let n = bytes.count
        while i < n {
            if i + 2 < n {
                if let list = textTable.candidates(Redactor.lower(bytes[i]), Redactor.lower(bytes[i + 1]), Redactor.lower(bytes[i + 2])) {
                    var matched = -1
                    for idx in list {
                        let p = textTable.patterns[idx].bytes
                        guard i + p.count <= n else { continue }
                        var j = 3
                        while j < p.count && Redactor.lower(bytes[i + j]) == p[j] { j += 1 }
                        if j == p.count { matched = idx; break }
                    }
                    if matched >= 0 {
                        if !changed { out.reserveCapacity(n); out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<i])); changed = true }
                        out.append(contentsOf: textTable.patterns[matched].replacement)
                        i += textTable.patterns[matched].bytes.count
                        continue
                    }
                }
            }
            if changed { out.append(bytes[i]) }
            i += 1
        }
        return changed ? String(decoding: out, as: UTF8.self) : nil
    }

    public func redact(bytes: [UInt8]) -> [UInt8] {
        guard !byteTable.isEmpty, bytes.count >= 3 else { return bytes }
        var out = bytes
        var i = 0
        while i + 2 < out.count {
            if let list = byteTable.candidates(out[i], out[i + 1], out[i + 2]) {
                var matched = -1
                for idx in list {
                    let p = byteTable.patterns[idx].bytes
                    if i + p.count <= out.count && out[i..<(i + p.count)].elementsEqual(p) { matched = idx; break }
                }
                if matched >= 0 {
                    let p = byteTable.patterns[matched]
                    out.replaceSubrange(i..<(i + p.bytes.count), with: p.replacement)
                    i += p.bytes.count
                    continue
                }
            }
            i += 1
        }
        return out
    }

    public func redact(_ v: FieldValue) -> FieldValue {
        switch v {
        case let .string(s): return .string(redact(s))
        case let .hex(b): return .hex(redact(bytes: b))
        case let .list(l): return .list(l.map { redact($0) })
        case let .object(o): return .object(redact(o))
        default: return v
        }
    }

    public func redact(_ f: Fields) -> Fields {
        var out = Fields()
        out.items = f.items.map { ($0.0, redact($0.1)) }
        return out
    }

    /// Redacts the text in `b` from `start` on, in place, as `redact(_: String)` would.
    public func redact(text b: inout [UInt8], from start: Int = 0) {
        guard !isEmpty, start < b.count else { return }
        if b.count - start < 3 {
            let s = String(decoding: b[start...], as: UTF8.self)
            let r = redact(s)
            if r != s { b.replaceSubrange(start..., with: r.utf8) }
            return
        }
        let r = b.withUnsafeBufferPointer { redact(utf8: UnsafeBufferPointer(rebasing: $0[start...])) }
        if let r { b.replaceSubrange(start..., with: r.utf8) }
    }

    /// `redact(text:from:)` on a line being built.
    public func redact(text b: inout TextBytes, from start: Int = 0) {
        guard !isEmpty, start < b.count else { return }
        b.withArray { redact(text: &$0, from: start) }
    }

    /// The address a pseudonym stands for is never shown; unknown addresses are learned on the spot.
    public func redact(address a: BDAddr) -> BDAddr {
        learnAddress(a)
        guard let p = pseudonyms["address|" + a.description], let b = BDAddr(string: p) else { return a }
        return b
    }

    public func redact(_ s: Summary) -> Summary {
        var r = s
        // A file name may hold a device's name too (Markdown, which redacts whole lines, always did this).
        r.capture.path = redact(s.capture.path)
        r.capture.containers = s.capture.containers.map { redact($0) }
        r.connections = s.connections.map { c in
            let x = Connection(id: c.id, handle: c.handle, implicit: c.implicit)
            x.peer = c.peer.map { redact(address: $0) }
            x.peerType = c.peerType; x.role = c.role; x.le = c.le
            x.interval = c.interval; x.latency = c.latency; x.timeout = c.timeout
            x.openedRecord = c.openedRecord; x.openedAt = c.openedAt; x.closedRecord = c.closedRecord; x.closedAt = c.closedAt
            x.disconnectReason = c.disconnectReason; x.encrypted = c.encrypted; x.updates = c.updates; x.opening = c.opening
            x.name = c.name.map { redact($0) }; x.profiles = c.profiles
            x.linkType = c.linkType; x.pairing = c.pairing; x.transportKnown = c.transportKnown
            return x
        }
        r.sections = s.sections.map { section in
            SummarySection(name: section.name, value: { self.redact(section.value) }, text: { section.text.map { self.redact($0) } })
        }
        r.warnings = s.warnings.map { redact($0) }
        let names = s.peerNames
        // Every name is made and redacted: the peers asked for are redacted addresses, which the names are not.
        r.peerNames = { _ in
            var out: [String: String] = [:]
            for (address, name) in names(nil) { out[self.redact(address)] = self.redact(name) }
            return out
        }
        // The renderers write diagnoses from their typed facts: the peer is the one identifying value they hold.
        r.diagnoses = s.diagnoses.map { d in
            var x = d
            x.peer = d.peer.map { redact(address: $0) }
            return x
        }
        return r
    }
}

/// A renderer that redacts what it writes: the text of each event, and each string and byte value of its
/// JSON (`RedactingFieldSink`), as it writes them.
public protocol RedactableOutput: AnyObject {
    var redactor: Redactor? { get set }
}

/// `--redact` for every format: hands the renderer `next` the redactor, so that it redacts each event as it
/// writes it, and redacts the summary before handing it on. With `learning` on, each event is learned from
/// before it is written (for input that cannot be read twice); otherwise the redactor should have learned
/// from a first pass.
public final class RedactingSink: EventSink {
    public let redactor: Redactor
    let next: EventSink & RedactableOutput
    public var learning = true

    public init(redactor: Redactor, next: EventSink & RedactableOutput) {
        self.redactor = redactor
        self.next = next
        next.redactor = redactor
    }

    public func begin(_ capture: CaptureInfo) { next.begin(capture) }

    public func event(_ e: TraceEvent) {
        if learning { redactor.learn(e) }
        next.event(e)
    }

    public func end(_ summary: Summary) {
        if learning { redactor.learn(summary: summary) }
        next.end(redactor.redact(summary))
    }
}

/// A field sink that redacts every string and byte value on its way to `inner` (keys and numbers pass as
/// they are): how the JSON renderers write a redacted event's layers.
public struct RedactingFieldSink<Inner: FieldSink>: FieldSink {
    public var inner: Inner
    let redactor: Redactor

    public init(inner: Inner, redactor: Redactor) {
        self.inner = inner
        self.redactor = redactor
    }

    public mutating func key(_ k: StaticString) { inner.key(k) }
    public mutating func key(name k: String) { inner.key(name: k) }
    public mutating func int(_ v: Int) { inner.int(v) }
    public mutating func double(_ v: Double) { inner.double(v) }
    public mutating func bool(_ v: Bool) { inner.bool(v) }
    public mutating func string(_ v: String) { inner.string(redactor.redact(v)) }
    public mutating func string(utf8 v: ArraySlice<UInt8>) { inner.string(redactor.redact(String(decoding: v, as: UTF8.self))) }
    public mutating func hex(_ v: ArraySlice<UInt8>) { inner.hex(redactor.redact(bytes: Array(v))[...]) }
    public mutating func null() { inner.null() }
    public mutating func beginObject() { inner.beginObject() }
    public mutating func endObject() { inner.endObject() }
    public mutating func beginList() { inner.beginList() }
    public mutating func endList() { inner.endList() }
}
