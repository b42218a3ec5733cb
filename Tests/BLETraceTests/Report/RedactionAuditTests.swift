import Foundation
import Testing
@testable import BLETrace

/// The redaction audit: for every bundled sample and every shared capture, every address and every decoded
/// string the unredacted JSON shows (names, serial numbers, Device Information and `--uuids` strings, remote
/// and connection names; values, not labels or vocabulary) must be absent from every `--redact` output:
/// text, JSON, JSON Lines, Markdown, `devices` (text and JSON), `gatt` (text and JSON) and `diff` against a
/// sample (text, Markdown, JSON). Everything runs in-process through the library, by the commands' own code,
/// one case per input; nothing is capped (about 110 s of CPU in a debug build, all captures).
///
/// What the audit does not ask: strings shorter than three bytes (the redactor replaces those only where a
/// whole field equals them, since "A" or "Mi" occur in any text), all-zero and broadcast addresses (not
/// identifying), Characteristic User Descriptions (the firmware's labels, such as "Temperature"), and the Device
/// Information strings that name a product rather than a person (manufacturer and model names, hardware,
/// firmware and software revisions: kept so that a redacted diff still shows a firmware change).
@Suite struct RedactionAuditTests {
    static var inputs: [String] {
        let samples = TestSupport.packageRoot.appendingPathComponent("samples")
        var out = ((try? FileManager.default.contentsOfDirectory(atPath: samples.path)) ?? []).sorted().map { samples.appendingPathComponent($0).path }
        if let shared = TestSupport.sharedCaptures {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: shared.path)) ?? []).sorted()
            out += names.filter { !$0.hasSuffix(".md") }.map { shared.appendingPathComponent($0).path }
        }
        return out
    }

    /// Keys whose string values are decoded strings (the rest are labels and vocabulary).
    static let stringKeys: Set<String> = ["local_name", "broadcast_name", "device_name", "serial_number"]

    /// Addresses and decoded strings, as an unredacted run shows them.
    final class Originals: EventTap {
        var addresses = Set<BDAddr>()
        var strings = Set<String>()

        func string(_ s: String) {
            var t = Substring(s)
            while let l = t.last, l == " " || l == "\0" { t = t.dropLast() }
            while let f = t.first, f == " " { t = t.dropFirst() }
            if t.utf8.count >= 3 { strings.insert(String(t)) }
        }

        func address(_ a: BDAddr) {
            if a.value != 0 && a.value != 0xFFFF_FFFF_FFFF { addresses.insert(a) }
        }

        func addresses(inText s: String) {
            guard s.utf8.count >= 17, s.contains(":") || s.contains("-") else { return }
            for m in s.matches(of: /[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2}){4}/) {
                if let a = BDAddr(string: String(m.output.0).replacingOccurrences(of: "-", with: ":")) { address(a) }
            }
        }

        func walk(_ f: Fields, userValue: Bool = false) {
            let user = f["dissector"]?.stringValue == "user"
            for (key, v) in f.items { walk(key, v, user: user) }
        }

        func walk(_ key: String, _ v: FieldValue, user: Bool) {
            switch v {
            case let .string(s):
                addresses(inText: s)
                if RedactionAuditTests.stringKeys.contains(key) || (user && key == "value") { string(s) }
            case let .object(o):
                walk(o)
            case let .list(l):
                for x in l {
                    if case let .string(s) = x, key == "names" { string(s) }
                    walk(key, x, user: user)
                }
            default:
                break
            }
        }

        func event(_ e: TraceEvent) {
            for (_, f) in e.layers { walk(f) }
            // A remote name is under the event's "name", beside its vocabulary.
            if case let .hciEvent(h) = e.body, case let .classic(.remoteNameComplete(0, a, name)) = h.params {
                address(a)
                string(String(decoding: name, as: UTF8.self))
            }
        }

        func summary(_ s: Summary) {
            walk(SummaryRender.summaryFields(s))
            for c in s.connections {
                if let p = c.peer { address(p) }
                if let n = c.name { string(n) }
            }
        }
    }

    /// One pass, as `--redact`'s first pass: the redactor learns, and the audit collects the originals from
    /// the same events (their unredacted JSON layers) and summary.
    static func learn(_ path: String) throws -> (Originals, Redactor) {
        let o = Originals()
        let r = Redactor()
        let opened = try InputOpener.open(path: path)
        let summary = r.learn(capture: opened.reader, path: path, containers: opened.containers, taps: [o])
        o.summary(summary)
        return (o, r)
    }

    /// Finds any of many byte patterns in output, ignoring ASCII case: patterns indexed by their first three
    /// (lowercased) bytes, with a bit per such prefix for a quick rejection.
    struct Matcher {
        var bits = [UInt64](repeating: 0, count: 1 << 18)
        var byPrefix: [UInt32: [[UInt8]]] = [:]
        var labels: [[UInt8]: String] = [:]
        /// Patterns made only of hex digits, found only where they are not part of a longer hex run (a
        /// model number "C60" is not leaked by the hex "8c602c").
        var hexOnly = Set<[UInt8]>()

        static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

            static func isHex(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) }

        mutating func add(_ form: String, label: String, wholeHex: Bool = false) {
            let p = Array(form.utf8).map(Matcher.lower)
            guard p.count >= 3 else { return }
            if wholeHex && p.allSatisfy(Matcher.isHex) { hexOnly.insert(p) }
            let k = UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
            bits[Int(k >> 6)] |= 1 << UInt64(k & 63)
            if labels[p] == nil { byPrefix[k, default: []].append(p) }
            labels[p] = label
        }

        /// The first few patterns found, with some context.
        func find(in out: [UInt8]) -> [String] {
            var hits: [String] = []
            let n = out.count
            guard n >= 3 else { return hits }
            var k = UInt32(Matcher.lower(out[0])) << 8 | UInt32(Matcher.lower(out[1]))
            for i in 0..<(n - 2) {
                k = (k << 8 | UInt32(Matcher.lower(out[i + 2]))) & 0xFF_FFFF
                guard bits[Int(k >> 6)] & (1 << UInt64(k & 63)) != 0, let list = byPrefix[k] else { continue }
                for p in list where i + p.count <= n {
                    var j = 3
                    while j < p.count && Matcher.lower(out[i + j]) == p[j] { j += 1 }
                    if j == p.count {
                        if hexOnly.contains(p) && ((i > 0 && Matcher.isHex(Matcher.lower(out[i - 1])))
                            || (i + p.count < n && Matcher.isHex(Matcher.lower(out[i + p.count])))) { continue }
                        let context = String(decoding: out[max(0, i - 40)..<min(n, i + p.count + 40)], as: UTF8.self)
                        hits.append("\(labels[p] ?? "?") in …\(context)…")
                        if hits.count >= 5 { return hits }
                    }
                }
            }
            return hits
        }
    }

    /// Every form in which an original could show: as written, with control characters escaped, as
    /// Markdown and JSON escape it; addresses also as contiguous hex in both byte orders and with dashes.
    static func matcher(_ o: Originals) -> Matcher {
        var m = Matcher()
        for a in o.addresses {
            let be = (0..<6).map { UInt8(truncatingIfNeeded: a.value >> (8 * UInt64(5 - $0))) }
            for f in [a.description, a.description.replacingOccurrences(of: ":", with: "-"), Hex.string(be), Hex.string(be.reversed())] {
                m.add(f, label: "address \(a)")
            }
        }
        for s in o.strings {
            let json = JSONOut.text(.string(s))
            for f in [s, SafeText.escaped(s), DiffRender.md(s), String(json.dropFirst().dropLast())] { m.add(f, label: "string \"\(s)\"", wholeHex: true) }
        }
        return m
    }

    /// Every `--redact` output of `path`, by name, from the commands' code with the redactor of one first
    /// pass (each command would make the same pass of its own).
    static func redactedOutputs(_ path: String, _ r: Redactor) throws -> [(String, [UInt8])] {
        var outs: [(String, [UInt8])] = []
        for format in AnalyzeRun.Format.allCases {
            var run = AnalyzeRun()
            run.format = format
            run.redact = true
            run.learnedRedactor = r
            run.style = TextStyle(color: false, time: .relative, width: 0)
            let out = OutputWriter()
            _ = try run.run(open: { try InputOpener.open(path: path) }, path: path, out: out)
            outs.append(("analyze \(format)", out.captured))
        }
        for format in Listings.Format.allCases {
            let d = OutputWriter()
            Listings.devices(try InputOpener.open(path: path), path: path, format: format, redact: true, learned: r, out: d)
            outs.append(("devices \(format)", d.captured))
            let g = OutputWriter()
            Listings.gatt(try InputOpener.open(path: path), path: path, format: format, redact: true, learned: r, out: g)
            outs.append(("gatt \(format)", g.captured))
        }
        // diff against a sample, as `bletrace diff --redact` does: one redactor for both sides (this one has
        // learned the capture already; it learns the sample).
        let sample = TestSupport.packageRoot.appendingPathComponent("samples/diff-good.btsnoop").path
        let a = try InputOpener.open(path: sample)
        let (da, sa) = CaptureDigest.make(a.reader, path: sample, observer: r)
        r.learn(summary: sa)
        let b = try InputOpener.open(path: path)
        let (db, _) = CaptureDigest.make(b.reader, path: path, containers: b.containers)
        let diff = Diff(da, db)
        let text = DiffRender.text(diff, redact: { r.redact($0) }).joined(separator: "\n")
            + DiffRender.markdown(diff, redact: { r.redact($0) }).joined(separator: "\n")
            + JSONOut.text(.object(DiffRender.json(diff, redact: { r.redact($0) })))
        outs.append(("diff", Array(text.utf8)))
        return outs
    }

    /// One case per input (cases run in parallel).
    @Test(arguments: RedactionAuditTests.inputs.map { ($0 as NSString).lastPathComponent })
    func noAddressOrDecodedStringSurvivesRedaction(input: String) throws {
        guard let path = RedactionAuditTests.inputs.first(where: { ($0 as NSString).lastPathComponent == input }) else { return }
        let o: Originals, r: Redactor
        do {
            (o, r) = try RedactionAuditTests.learn(path)
        } catch is CaptureError {
            return // not a capture bletrace reads (a pcap of another link type): no output to audit
        }
        let m = RedactionAuditTests.matcher(o)
        for (label, bytes) in try RedactionAuditTests.redactedOutputs(path, r) {
            let hits = m.find(in: bytes)
            #expect(hits.isEmpty, "\(input) \(label): \(hits.joined(separator: "; "))")
        }
    }

    /// The audit looks at something: the samples hold a dozen addresses and names.
    @Test func samplesHoldOriginalsToAudit() throws {
        var values = 0
        for path in RedactionAuditTests.inputs where path.contains("/samples/") {
            let (o, _) = try RedactionAuditTests.learn(path)
            values += o.addresses.count + o.strings.count
            if path.hasSuffix("gatt-session.btsnoop") {
                // Names are audited; Device Information's product strings are kept by --redact and not.
                #expect(o.strings.contains("Thermo-42") && !o.strings.contains("Acme Sensors"))
                #expect(o.addresses.contains(BDAddr(0xC4_7C_8D_6A_11_22)))
            }
        }
        #expect(values > 12)
    }

    /// The audit's own matcher finds what is there (else the audit could not fail).
    @Test func matcherFindsAnOriginalInAnyForm() {
        let o = Originals()
        o.address(BDAddr(0xC4_7C_8D_6A_11_22))
        o.string("Bd's A54")
        o.string("C60")
        let m = RedactionAuditTests.matcher(o)
        #expect(!m.find(in: Array("model \"C60\"".utf8)).isEmpty)
        #expect(m.find(in: Array("data 8c602c".utf8)).isEmpty)
        #expect(!m.find(in: Array("peer c4:7c:8d:6a:11:22 here".utf8)).isEmpty)
        #expect(!m.find(in: Array("hex 22116a8d7cc4".utf8)).isEmpty)
        #expect(!m.find(in: Array("\"Bd's A54\"".utf8)).isEmpty)
        #expect(m.find(in: Array("00:00:00:00:00:01 name-1".utf8)).isEmpty)
    }

    /// The reported leak of addresses in PacketLogger notes (the names read by Read By Type on the Syed
    /// capture are in the audit above).
    @Test(.enabled(if: TestSupport.sharedCaptures != nil))
    func addressesInNotes() throws {
        let root = try #require(TestSupport.sharedCaptures)
        var run = AnalyzeRun()
        run.redact = true
        let pklg = root.appendingPathComponent("havvk__even-g2-smart-classroom__tests__bt.pklg").path
        let notes = OutputWriter()
        _ = try run.run(open: { try InputOpener.open(path: pklg) }, path: pklg, out: notes)
        for a in ["80:96:98:42:54:B0", "44:09:DA:5C:4F:AF", "F0:85:B5:C3:77:E0"] { #expect(!notes.text.contains(a)) }
        #expect(notes.text.contains("Note: Address: 00:00:00:00:00:"))
    }
}
