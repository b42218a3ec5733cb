#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the MCP server's tools ask of a capture, each answered with the same JSON the command line prints for
/// the same question: the summary (`analyze --format json --summary-only`), a page of events (`--format jsonl`
/// with the filters), one record, the devices, the GATT databases, a diff, a triage store's report.
public enum CaptureQueries {
    /// `analyze PATH --format json --summary-only`.
    public static func summary(_ q: CaptureQuery) throws(OptionError) -> QueryAnswer {
        var run = AnalyzeRun()
        run.format = .json
        run.summaryOnly = true
        run.singleThread = true
        run.options = q.options
        run.redact = q.redact
        let out = OutputWriter()
        let result = try analyze(run, q, out)
        out.flush()
        return QueryAnswer(json: trimmed(out.captured), damage: q.damage(result.summary, covering: "the output covers the"))
    }

    /// One page of `analyze PATH --format jsonl` with `filter`: the events from `offset` on (counted after the
    /// filter), at most `limit` of them and about `maxBytes`, and how many the filter shows in all.
    public static func events(_ q: CaptureQuery, filter: EventFilter, offset: Int, limit: Int,
                              maxBytes: Int) throws(OptionError) -> EventPage {
        var run = AnalyzeRun()
        run.format = .jsonl
        run.singleThread = true
        run.options = q.options
        run.redact = q.redact
        run.filter = filter
        let pager = LinePager(offset: offset, limit: limit, maxBytes: maxBytes)
        let out = OutputWriter(consumer: { pager.take($0) })
        let result = try analyze(run, q, out)
        out.flush()
        pager.finish()
        // The last line is the summary, not an event.
        let total = max(0, pager.count - 1)
        pager.dropLine(at: total)
        return EventPage(lines: pager.lines, offset: offset, total: total, notes: result.filterNotes,
                         damage: q.damage(result.summary, covering: "the output covers the"))
    }

    /// Record `number` fully decoded: its events (as `analyze --records N --format jsonl`) and its bytes as
    /// captured, in hex (left out when redacting: the bytes hold the addresses).
    public static func record(_ q: CaptureQuery, number: Int) throws(OptionError) -> QueryAnswer {
        guard number >= 1 else { throw OptionError("--records: '\(number)' is not a record range such as 100-200") }
        var filter = EventFilter()
        filter.records = number...number
        let page = try events(q, filter: filter, offset: 0, limit: 10_000, maxBytes: Int.max)
        let opened = try q.open()
        var found: Record? = nil
        var seen = 0
        do {
            while let r = try opened.reader.next() {
                seen = r.number
                if r.number == number {
                    found = r
                    break
                }
            }
        } catch {
            if page.damage == nil { throw OptionError("\(q.path): \(error)") }
        }
        guard let r = found else {
            throw OptionError("\(q.path): no record \(number): the capture holds \(seen) record\(seen == 1 ? "" : "s")")
        }
        let out = OutputWriter()
        out.write("{\"record\":")
        out.write(int: r.number)
        out.write(",\"time\":\"")
        out.write(iso8601: r.timestamp)
        out.write("\",\"direction\":\"" + r.direction.jsonName + "\",\"packet\":\"" + r.kind.jsonName + "\",\"length\":")
        out.write(int: r.data.count)
        if let o = r.originalLength {
            out.write(",\"original_length\":")
            out.write(int: o)
        }
        if q.redact {
            out.write(",\"raw\":null,\"raw_withheld\":\"redacted: the bytes hold addresses and names\"")
        } else {
            out.write(",\"raw\":\"")
            out.append { b in
                for byte in r.data {
                    b.append(hexDigit(byte >> 4))
                    b.append(hexDigit(byte & 0x0F))
                }
            }
            out.write("\"")
        }
        out.write(",\"events\":[")
        for (i, l) in page.lines.enumerated() {
            if i > 0 { out.write(byte: 0x2C) }
            out.write(bytes: l)
        }
        out.write("]}")
        out.flush()
        return QueryAnswer(json: out.captured, damage: page.damage)
    }

    /// `devices PATH --format json`.
    public static func devices(_ q: CaptureQuery) throws(OptionError) -> QueryAnswer {
        try listing(q, covering: "the list covers the") { opened, out in
            Listings.devices(opened, path: q.path, format: .json, options: q.options, redact: q.redact, out: out)
        }
    }

    /// `gatt PATH --format json`.
    public static func gatt(_ q: CaptureQuery) throws(OptionError) -> QueryAnswer {
        try listing(q, covering: "the database covers the") { opened, out in
            Listings.gatt(opened, path: q.path, format: .json, options: q.options, redact: q.redact, out: out)
        }
    }

    private static func listing(_ q: CaptureQuery, covering: String,
                                _ write: (OpenedCapture, OutputWriter) -> Summary) throws(OptionError) -> QueryAnswer {
        let opened = try q.open()
        let out = OutputWriter()
        let s = write(opened, out)
        out.flush()
        return QueryAnswer(json: trimmed(out.captured), damage: q.damage(s, covering: covering))
    }

    /// `diff A B --format json`; both sides redacted with one redactor when either asks for it.
    public static func diff(_ a: CaptureQuery, _ b: CaptureQuery, options: DiffOptions) throws(OptionError) -> QueryAnswer {
        let redactor = a.redact || b.redact ? Redactor() : nil
        var damage: [String] = []
        func digest(_ q: CaptureQuery) throws(OptionError) -> CaptureDigest {
            let opened = try q.open()
            let (d, summary) = CaptureDigest.make(opened.reader, path: q.path, containers: opened.containers,
                                                  options: q.options, observer: redactor)
            redactor?.learn(summary: summary)
            if let line = q.damage(summary, covering: "compared the") { damage.append(line) }
            return d
        }
        let da = try digest(a)
        let db = try digest(b)
        let diff = Diff(da, db, options: options)
        let out = OutputWriter()
        JSONOut.object(DiffRender.json(diff, redact: { v in redactor?.redact(v) ?? v }), to: out)
        out.flush()
        return QueryAnswer(json: out.captured, damage: damage.isEmpty ? nil : damage.joined(separator: "; "))
    }

    /// `triage --db STORE --report --format json`, the store opened read-only. `redactedOnly`: a store that
    /// holds captures as they were (not `--redact`) is refused.
    public static func triageReport(store db: String, redactedOnly: Bool) throws(OptionError) -> QueryAnswer {
        let shown = TriageStores.displayName(db)
        if !TriageStores.isPostgres(db) && access(db, F_OK) != 0 {
            throw OptionError("--db \(db): no such store (run bletrace triage with captures first)")
        }
        do {
            let store = try TriageStores.open(db, readOnly: true)
            defer { store.close() }
            try store.prepare(redacted: false, check: false)
            if redactedOnly, try store.meta()["redacted"] != "1" {
                throw OptionError("\(shown) holds captures that are not redacted; this server shows redacted data only (--redact)")
            }
            let out = OutputWriter()
            TriageRender.write(TriageReport(try store.load()), format: .json, to: out)
            out.flush()
            return QueryAnswer(json: trimmed(out.captured))
        } catch let e as OptionError {
            throw e
        } catch let e as TriageStoreError {
            throw OptionError(e.description)
        } catch {
            throw OptionError("\(shown): \(error)")
        }
    }

    private static func analyze(_ run: AnalyzeRun, _ q: CaptureQuery, _ out: OutputWriter) throws(OptionError) -> AnalyzeRun.Result {
        do {
            return try run.run(open: { () throws -> OpenedCapture in try q.open() }, path: q.path, out: out)
        } catch let e as OptionError {
            throw e
        } catch {
            throw OptionError("\(q.path): \(error)")
        }
    }

    /// The document without the newline the command line ends it with.
    private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        var b = bytes
        while b.last == 0x0A { b.removeLast() }
        return b
    }

    @inline(__always) private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }
}

/// A page of events: each a JSON object as `analyze --format jsonl` prints it.
public struct EventPage: Sendable {
    public var lines: [[UInt8]]
    public var offset: Int
    /// Events the filter shows in the whole capture.
    public var total: Int
    /// The notes the command line prints on standard error (a filter that selected nothing, …).
    public var notes: [String]
    public var damage: String?

    /// Where the next page starts; nil after the last.
    public var nextOffset: Int? { offset + lines.count < total ? offset + lines.count : nil }
}
