/// The text timeline: one line per event, then the summary.
public final class TextRenderer: EventSink {
    let out: OutputWriter
    var origin: Timestamp?
    public var showSummary = true
    public var showEvents = true

    public init(out: OutputWriter) { self.out = out }

    public func begin(_ capture: CaptureInfo) {}

    public func event(_ e: TraceEvent) {
        guard showEvents else { return }
        if origin == nil { origin = e.timestamp }
        let rel = e.timestamp.micros - (origin?.micros ?? 0)
        out.write(Fmt.pad(String(e.record), 7))
        out.write(" ")
        out.write(Fmt.pad(Fmt.seconds(micros: rel), 13))
        out.write(" ")
        out.write(e.direction.marker)
        out.write(" ")
        if let h = e.handle { out.write(Hex.hex(h, width: 4)) } else { out.write("      ") }
        out.write(" ")
        if e.malformed != nil && !e.summary.hasPrefix("Malformed") { out.write("MALFORMED ") }
        out.write(e.summary)
        out.write(byte: 0x0A)
    }

    public func end(_ summary: Summary) {
        if showSummary {
            if showEvents { out.write(byte: 0x0A) }
            for line in SummaryRender.text(summary) {
                out.write(line)
                out.write(byte: 0x0A)
            }
        }
        out.flush()
    }
}

/// Fields common to every event in JSON.
enum EventJSON {
    static func fields(_ e: TraceEvent) -> Fields {
        var f = Fields()
        f.items.reserveCapacity(8 + e.layers.count)
        f.add("record", e.record)
        f.add("time", e.timestamp.iso8601)
        f.add("direction", e.direction.jsonName)
        f.add("kind", e.kind.rawValue)
        if let h = e.handle { f.add("handle", Int(h)) }
        if let c = e.connection { f.add("connection", c) }
        f.add("summary", e.summary)
        if let m = e.malformed { f.add("malformed", m) }
        for (name, layer) in e.layers { f.add(name, layer) }
        return f
    }
}

/// One JSON document: `{"schema": "bletrace/1", "events": [...], "capture": {...}, "summary": {...}}`.
/// Events stream out as they are decoded; the capture facts that need the whole file follow them.
public final class JSONRenderer: EventSink {
    let out: OutputWriter
    var count = 0
    public init(out: OutputWriter) { self.out = out }

    public func begin(_ capture: CaptureInfo) {
        out.write("{\"schema\":\"bletrace/1\",\"events\":[\n")
    }

    public func event(_ e: TraceEvent) {
        if count > 0 { out.write(",\n") }
        count += 1
        JSONOut.object(EventJSON.fields(e), to: out)
    }

    public func end(_ summary: Summary) {
        out.write("\n],\"capture\":")
        JSONOut.object(SummaryRender.captureFields(summary), to: out)
        out.write(",\"summary\":")
        JSONOut.object(SummaryRender.summaryFields(summary), to: out)
        out.write("}\n")
        out.flush()
    }
}

/// JSON Lines: one event per line, then one line `{"kind": "summary", "capture": …, "summary": …}`.
public final class JSONLinesRenderer: EventSink {
    let out: OutputWriter
    public init(out: OutputWriter) { self.out = out }

    public func begin(_ capture: CaptureInfo) {}

    public func event(_ e: TraceEvent) {
        JSONOut.object(EventJSON.fields(e), to: out)
        out.write(byte: 0x0A)
    }

    public func end(_ summary: Summary) {
        out.write("{\"kind\":\"summary\",\"capture\":")
        JSONOut.object(SummaryRender.captureFields(summary), to: out)
        out.write(",\"summary\":")
        JSONOut.object(SummaryRender.summaryFields(summary), to: out)
        out.write("}\n")
        out.flush()
    }
}
