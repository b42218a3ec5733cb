/// The text timeline: one line per event, then the summary.
public final class TextRenderer: EventSink, RedactableOutput {
    let out: OutputWriter
    /// `out`'s store, held here: each line is written into it without the store being retained and released
    /// (read through `out`, it was, for every line).
    let store: ByteStore
    /// `--redact`: each event's text is redacted as it is written.
    @exclusivity(unchecked) public var redactor: Redactor?
    /// Relative times count from here: the first event's time unless set (filters set the first record's).
    @exclusivity(unchecked) public var origin: Timestamp?
    @exclusivity(unchecked) var previous: Timestamp?
    @exclusivity(unchecked) public var showSummary = true
    @exclusivity(unchecked) public var showEvents = true
    /// Only the printed timeline reads event summaries.
    public var readsSummaries: Bool { showEvents }
    @exclusivity(unchecked) public var style: TextStyle
    /// Width of the prefix (record, time, direction, handle) that continuation lines are indented by.
    var indent: Int { style.time == .absolute ? TextRenderer.absolutePrefix : TextRenderer.relativePrefix }
    static let relativePrefix = 7 + 1 + 13 + 1 + 1 + 1 + 6 + 1
    static let absolutePrefix = 7 + 1 + 27 + 1 + 1 + 1 + 6 + 1
    /// The fewest columns a wrapped line keeps for its text: a narrower width does not wrap.
    static let minimumRoom = 20

    /// The narrowest `--width` that wraps the timeline with this time column.
    public static func narrowestWidth(_ time: TextStyle.TimeMode) -> Int {
        (time == .absolute ? absolutePrefix : relativePrefix) + minimumRoom
    }
    /// The spaces that start a continuation line: the prefix's width and two more.
    var continuationIndent: String { style.time == .absolute ? TextRenderer.absoluteIndent : TextRenderer.relativeIndent }
    static let relativeIndent = String(repeating: " ", count: relativePrefix + 2)
    static let absoluteIndent = String(repeating: " ", count: absolutePrefix + 2)

    public init(out: OutputWriter, style: TextStyle = TextStyle()) {
        self.out = out
        self.store = out.store
        self.style = style
        scratch.memo = out.store.gattMemo
    }

    public func begin(_ capture: CaptureInfo) {}

    /// One timeline line as plain text (no colour, no wrapping), times relative to `origin`: for reports
    /// that quote the timeline.
    public static func plainLine(_ e: TraceEvent, origin: Timestamp, redactor: Redactor? = nil) -> String {
        let out = OutputWriter()
        let r = TextRenderer(out: out, style: TextStyle(color: false, time: .relative, width: 0))
        r.origin = origin
        r.redactor = redactor
        r.event(e)
        return String(out.text.dropLast())
    }

    public func event(_ e: TraceEvent) {
        guard showEvents else { return }
        var body = e.body
        render(e, body: &body)
    }

    /// The body taken out of the lent event, so that matching it copies nothing (`TraceEvent.takeBody`).
    public func event(taking e: inout TraceEvent) {
        guard showEvents else { return }
        var body = e.takeBody()
        render(e, body: &body)
    }

    /// One timeline line for `e`, whose body is `body` (held apart from it).
    func render(_ e: TraceEvent, body: inout EventBody) {
        if origin == nil { origin = e.timestamp }
        let color = style.color
        let time = style.time, origin = self.origin, previous = self.previous
        // The prefix, straight into the writer's store.
        let b = store
        if color { b.put(string: ANSI.dim) }
        b.putRecordNumber(e.record, width: 7)
        b.put(0x20)
        switch time {
        case .relative: b.putSeconds(e.timestamp.micros - (origin?.micros ?? 0), width: 13)
        case .delta: b.putSeconds(e.timestamp.micros - (previous?.micros ?? e.timestamp.micros), width: 13)
        case .absolute: b.putISO8601(e.timestamp)
        }
        if color { b.put(string: ANSI.reset) }
        b.put(0x20)
        if color { b.put(string: e.direction == .hostToController ? ANSI.blue : e.direction == .controllerToHost ? ANSI.green : ANSI.dim) }
        b.put(e.direction.markerByte)
        if color { b.put(string: ANSI.reset) }
        b.put(0x20)
        if let h = e.handle { b.putHex(UInt64(h), width: 4) } else { b.put("      ") }
        b.put(0x20)
        self.previous = e.timestamp
        scratch.removeAll()
        let facts = EventText.write(body: &body, e, into: &scratch)
        // A malformed event's text starts with MALFORMED unless it already says so ("Malformed ATT: …").
        let bodyStart = facts.malformed != nil && !scratch.starts(with: TextRenderer.malformedPrefix) ? TextRenderer.malformedMark.count : 0
        if bodyStart > 0 { scratch.prepend(TextRenderer.malformedMark) }
        if let r = redactor { r.redact(text: &scratch, from: bodyStart) }
        // Printable ASCII has no control character to escape (the usual line: one scan instead of two), and
        // neither has text of simple scalars only (arrows, dashes, Latin letters), which wraps by bytes too.
        let (printable, simple) = scratch.withBytes { TextRenderer.classify(UnsafeBufferPointer(rebasing: $0[bodyStart...])) }
        if !simple { SafeText.escape(&scratch, from: bodyStart) }
        let tint = color ? TextRenderer.tint(facts, scratch) : nil
        if let t = tint { out.write(t) }
        writeWrapped(indentWithTint: tint, printable: printable, simple: simple)
        if tint != nil { out.write(ANSI.reset) }
        out.write(byte: 0x0A)
        out.flushIfFull()
    }

    static let malformedPrefix = Array("Malformed".utf8)
    static let malformedMark = Array("MALFORMED ".utf8)
    /// The current event's text.
    @exclusivity(unchecked) var scratch = TextBytes()

    /// Writes `scratch`, breaking at spaces so that no line passes `style.width` columns. `printable` and
    /// `simple`: what the caller found the text to be (printable ASCII; simple scalars only), when it looked.
    func writeWrapped(indentWithTint tint: String?, printable: Bool? = nil, simple: Bool = false) {
        let room = style.width - indent
        if style.width == 0 || room < TextRenderer.minimumRoom || scratch.count <= room {
            // At most one column per UTF-8 byte: short enough without counting characters.
            scratch.withBytes { store.put($0) }
            return
        }
        if scratch.withBytes({ writeWrappedSimple($0, room: room, tint: tint, printable: printable, simple: simple) }) { return }
        writeWrappedCharacters(scratch.string, room: room, tint: tint)
    }

    /// `writeWrapped` for any text, counting Characters.
    func writeWrappedCharacters(_ text: String, room: Int, tint: String?) {
        if text.count <= room {
            out.write(text)
            return
        }
        var line = Substring(text)
        var first = true
        while !line.isEmpty {
            if !first {
                if tint != nil { out.write(ANSI.reset) }
                out.write(byte: 0x0A)
                out.write(continuationIndent)
                if let t = tint { out.write(t) }
            }
            let limit = first ? room : room - 2
            if line.count <= limit {
                out.write(String(line))
                break
            }
            let window = line.prefix(limit)
            var cut = window.lastIndex(of: " ") ?? window.endIndex
            if cut == line.startIndex { cut = window.endIndex }
            out.write(String(line[line.startIndex..<cut]))
            line = line[cut...].drop(while: { $0 == " " })
            first = false
        }
    }

    /// `writeWrapped` on bytes, for text in which every Unicode scalar is a character of its own (see
    /// `isSimple`): printable ASCII and common punctuation, arrows, symbols and Latin letters. A character's
    /// first byte is the one that is not a UTF-8 continuation byte. Returns false, having written nothing,
    /// for any other text.
    func writeWrappedSimple(_ text: String, room: Int, tint: String?) -> Bool {
        var text = text
        return text.withUTF8 { writeWrappedSimple($0, room: room, tint: tint) }
    }

    /// `printable`: whether `u` is all printable ASCII, when the caller already knows; `simple`: true when the
    /// caller found every scalar simple.
    func writeWrappedSimple(_ u: UnsafeBufferPointer<UInt8>, room: Int, tint: String?, printable: Bool? = nil,
                            simple: Bool = false) -> Bool {
        do {
            let ascii = printable ?? ByteScan.printableASCII(u)
            guard ascii || simple || TextRenderer.allSimple(u) else { return false }
            let indentWidth = indent &+ 2
            // The whole wrapped text, straight into the writer's store.
            let b = store
            var start = 0
            var first = true
            let space = UInt8(ascii: " ")
            // The bytes from `start` up to `plainEnd` are ASCII, a character each (found when first needed).
            var plainEnd = -1
            while start < u.count {
                if !first {
                    if tint != nil { b.put(string: ANSI.reset) }
                    b.put(0x0A)
                    b.put(repeating: 0x20, count: indentWidth)
                    if let t = tint { b.put(string: t) }
                }
                let limit = first ? room : room - 2
                // The end of the first `limit` characters (in ASCII text, the first `limit` bytes).
                var end = start
                if plainEnd < start && !ascii && u.count &- start > limit {
                    plainEnd = ByteScan.first(ByteScan.nonASCII, in: u, from: start)
                }
                if ascii || u.count &- start <= limit || start &+ limit <= plainEnd {
                    // ASCII: a byte a character. Any text: what is left fits when its bytes do.
                    end = min(u.count, start + limit)
                } else {
                    // The ASCII run, a byte a character, then the characters counted.
                    end = plainEnd
                    var chars = plainEnd &- start
                    // Eight bytes at a time while the characters starting in them stay short of `limit`
                    // (a character starts at every byte that is not a continuation byte, 10xxxxxx)...
                    if let raw = u.baseAddress.map(UnsafeRawPointer.init) {
                        while end &+ 8 <= u.count {
                            let w = raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)
                            let starts = 8 &- (w & ~(w << 1) & ByteScan.high).nonzeroBitCount
                            guard chars &+ starts < limit else { break }
                            chars &+= starts
                            end &+= 8
                        }
                    }
                    // ...past the rest of a character the last word cut, then one character at a time.
                    while end < u.count && u[end] & 0xC0 == 0x80 { end += 1 }
                    while end < u.count && chars < limit {
                        end += 1
                        while end < u.count && u[end] & 0xC0 == 0x80 { end += 1 }
                        chars += 1
                    }
                }
                if end == u.count {
                    b.put(UnsafeBufferPointer(rebasing: u[start...]))
                    break
                }
                // The last space among them, else a hard cut after them.
                var cut = ByteScan.lastIndex(of: space, in: u, from: start, to: end) ?? end
                if cut == start { cut = end }
                b.put(UnsafeBufferPointer(rebasing: u[start..<cut]))
                start = cut
                while start < u.count && u[start] == space { start += 1 }
                first = false
            }
            return true
        }
    }

    /// Scalars that always make a character on their own (none of them extends or joins a neighbour, and
    /// none is a control character): printable ASCII, Latin-1 and Latin Extended-A/B letters and signs,
    /// general punctuation (dashes, quotes, ellipsis; not the invisible format characters), arrows and
    /// mathematical operators.
    static func isSimple(_ s: UInt32) -> Bool {
        switch s {
        case 0x20...0x7E, 0xA0...0x24F, 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x22FF: return true
        default: return false
        }
    }

    /// Whether the text is all printable ASCII, and whether every scalar of it `isSimple` (printable text is): one
    /// pass, the scalars decoded only from the first byte that is not printable ASCII.
    static func classify(_ u: UnsafeBufferPointer<UInt8>) -> (printable: Bool, simple: Bool) {
        // Everything before the first byte that is not printable ASCII is: the scalars are decoded from there.
        let i = ByteScan.first(ByteScan.notPrintableASCII, in: u)
        if i == u.count { return (true, true) }
        return (false, allSimple(u, from: i))
    }

    /// True when every scalar of the UTF-8 text from `start` (the start of a character) `isSimple` (decoded here:
    /// all of them take one to three bytes).
    static func allSimple(_ u: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Bool {
        var i = start
        while i < u.count {
            // Past printable ASCII to the next byte that is not, sixteen bytes a test.
            i = ByteScan.first(ByteScan.notPrintableASCII, in: u, from: i)
            guard i < u.count else { break }
            let b = u[i]
            if b < 0x80 {
                guard b >= 0x20 && b < 0x7F else { return false }
                i += 1
            } else if b & 0xE0 == 0xC0, i + 1 < u.count {
                guard isSimple(UInt32(b & 0x1F) << 6 | UInt32(u[i + 1] & 0x3F)) else { return false }
                i += 2
            } else if b & 0xF0 == 0xE0, i + 2 < u.count {
                guard isSimple(UInt32(b & 0x0F) << 12 | UInt32(u[i + 1] & 0x3F) << 6 | UInt32(u[i + 2] & 0x3F)) else { return false }
                i += 3
            } else {
                return false
            }
        }
        return true
    }

    static let alarming = ["failed", "Error Response", "Pairing Failed"].map { Array($0.utf8) }

    static func tint(_ facts: EventText.Facts, _ text: borrowing TextBytes) -> String? {
        if facts.malformed != nil { return ANSI.red }
        if alarming.contains(where: { text.contains(bytes: $0) }) { return ANSI.red }
        switch facts.kind {
        case .att: return ANSI.cyan
        case .smp: return ANSI.magenta
        case .signaling, .l2cap: return ANSI.yellow
        case .note, .vendor: return ANSI.dim
        default: return nil
        }
    }

    public func end(_ summary: Summary) {
        if showSummary {
            if showEvents { out.write(byte: 0x0A) }
            for line in SummaryRender.text(summary) {
                if style.color && line == "Summary" { out.write(ANSI.bold + line + ANSI.reset) } else { out.write(SafeText.escaped(line)) }
                out.write(byte: 0x0A)
            }
        }
        out.flush()
    }
}

/// Fields common to every event in JSON.
enum EventJSON {
    /// `"capture": {…}, "summary": {…}}` and a newline: the end of a JSON document or of the JSON Lines summary line.
    static func writeCaptureAndSummary(_ summary: Summary, to out: OutputWriter) {
        out.write("\"capture\":")
        JSONOut.object(SummaryRender.captureFields(summary), to: out)
        out.write(",\"summary\":{")
        // Member by member and list item by list item: each part is built, written and dropped in turn.
        for (i, (key, member)) in SummaryRender.summaryMembers(summary).enumerated() {
            if i > 0 { out.write(byte: UInt8(ascii: ",")) }
            JSONOut.string(key, to: out)
            out.write(byte: UInt8(ascii: ":"))
            switch member {
            case let .value(make):
                JSONOut.write(make(), to: out)
            case let .list(count, item):
                out.write(byte: UInt8(ascii: "["))
                for j in 0..<count {
                    if j > 0 { out.write(byte: UInt8(ascii: ",")) }
                    JSONOut.write(item(j), to: out)
                }
                out.write(byte: UInt8(ascii: "]"))
            case let .written(w):
                var j = JSONBytes(writingInto: out.store)
                w.write(into: &j)
                out.flushIfFull()
            case let .writtenList(count, item):
                out.write(byte: UInt8(ascii: "["))
                for i in 0..<count {
                    if i > 0 { out.write(byte: UInt8(ascii: ",")) }
                    var j = JSONBytes(writingInto: out.store)
                    item(i).write(into: &j)
                    out.flushIfFull()
                }
                out.write(byte: UInt8(ascii: "]"))
            }
        }
        out.write(byte: UInt8(ascii: "}"))
        out.write("}\n")
        out.flush()
    }

    /// The `direction` member: host and controller for HCI captures; on a sniffer's radio, where there is no
    /// local host, the link's sides, and `none` for advertising channel PDUs (broadcast, no direction).
    static func direction(_ e: TraceEvent) -> String {
        var advertising: Bool? = nil
        if e.radio == nil, case let .linkLayer(l) = e.body { advertising = l.radio.advertising != nil }
        return direction(e, linkLayerAdvertising: advertising)
    }

    /// `direction(_:)` given what the body's look found: whether a link-layer body's PDU was advertising.
    static func direction(_ e: TraceEvent, linkLayerAdvertising: Bool?) -> String {
        directionName(e, linkLayerAdvertising: linkLayerAdvertising).description
    }

    /// `direction(_:linkLayerAdvertising:)` as static bytes, for the JSON writer.
    static func directionName(_ e: TraceEvent, linkLayerAdvertising: Bool?) -> StaticString {
        let advertising: Bool
        if let radio = e.radio {
            advertising = radio.advertising != nil
        } else if let a = linkLayerAdvertising {
            advertising = a
        } else {
            return e.direction.jsonStaticName
        }
        switch e.direction {
        case .hostToController: return "central_to_peripheral"
        case .controllerToHost: return "peripheral_to_central"
        case .unknown: return advertising ? "none" : "unknown"
        }
    }

    static func fields(_ e: TraceEvent) -> Fields {
        var f = Fields()
        f.items.reserveCapacity(16)
        f.add("record", e.record)
        f.add("time", e.timestamp.iso8601)
        f.add("direction", EventJSON.direction(e))
        f.add("kind", e.kind.rawValue)
        if let h = e.handle { f.add("handle", Int(h)) }
        if let c = e.connection { f.add("connection", c) }
        f.add("summary", e.summary)
        if let m = e.malformed { f.add("malformed", m) }
        for (name, layer) in e.layers { f.add(name, layer) }
        return f
    }

    /// The event's layers as field trees (`TraceEvent.layers`).
    static func layerFields(_ e: TraceEvent) -> [(String, Fields)] {
        let f = FieldsBuilder.object { writeLayers(e, into: &$0) }
        return f.items.map { ($0.0, $0.1.objectValue ?? Fields()) }
    }

    /// Writes the event's layers as members of the event's object: `sniffer` and `ll` (`radio`), `acl`, `l2cap`,
    /// the body's, `warning`. The body is looked at once (a look at a body in place copies it); the transport
    /// layers get what they show of it.
    static func writeLayers<S: FieldSink>(_ e: TraceEvent, into s: inout S) {
        var body = e.body
        writeLayers(body: &body, e, into: &s)
    }

    /// `writeLayers` of `body`, the event's body held apart from it (see `EventText.write(body:_:into:)`).
    static func writeLayers<S: FieldSink>(body: inout EventBody, _ e: TraceEvent, into s: inout S) {
        switch consume body {
        case let .aclFragment(f):
            writeTransport(e, into: &s) { s in
                s.field("fragment", f.start ? "start" : "continuation")
                s.field("have", f.have)
                s.field("expected", f.expected)
            }
            body = .aclFragment(f)
        case let .aclProblem(p):
            writeTransport(e, into: &s) { $0.field("data", hex: p.data) }
            body = .aclProblem(p)
        case let .l2cap(p):
            writeTransport(e, payload: p.payload, into: &s)
            body = .l2cap(p)
        case let .sco(length):
            writeTransport(e, into: &s)
            s.object("sco") { $0.field("length", length) }
            body = .sco(length: length)
        case let .iso(h):
            writeTransport(e, into: &s)
            s.object("iso") { ISOText.writeFields(h, into: &$0) }
            body = .iso(h)
        case let .vendor(data):
            writeTransport(e, into: &s)
            s.object("vendor") { $0.field("data", hex: data) }
            body = .vendor(data)
        case let .malformed(m):
            writeTransport(e, into: &s)
            s.object("raw") { s in
                s.field("layer", m.layer)
                s.field("data", hex: m.data)
            }
            body = .malformed(m)
        case let .filtered(f):
            writeTransport(e, into: &s)
            s.object("filtered") { s in
                s.field("layer", f.layer)
                s.field("captured", f.data.count)
                s.field("original", f.original)
                s.field("data", hex: f.data)
            }
            body = .filtered(f)
        case let .pending(k):
            writeTransport(e, into: &s)
            body = .pending(k)
        case let .hciCommand(x):
            writeTransport(e, into: &s)
            x.writeLayers(e, into: &s)
            body = .hciCommand(x)
        case let .hciEvent(x):
            writeTransport(e, into: &s)
            x.writeLayers(e, into: &s)
            body = .hciEvent(x)
        case let .adv(x):
            writeTransport(e, into: &s)
            x.writeLayers(e, into: &s)
            body = .adv(x)
        case let .att(x):
            writeTransport(e, into: &s)
            x.writeLayers(e, into: &s)
            body = .att(x)
        case let .smp(x):
            writeTransport(e, into: &s)
            x.writeLayers(e, into: &s)
            body = .smp(x)
        case let .signaling(x):
            writeTransport(e, into: &s)
            x.writeLayers(e, into: &s)
            body = .signaling(x)
        case let .linkLayer(x):
            writeTransport(e, into: &s)
            x.writeLayers(e, into: &s)
            body = .linkLayer(x)
        case let .note(x):
            writeTransport(e, into: &s)
            x.writeLayers(e, into: &s)
            body = .note(x)
        }
        if let w = e.warning {
            s.object("warning") { $0.field("reason", w) }
        }
    }

    /// The layers before the body's: `sniffer` and `ll` (`radio`), then `acl` with what `aclExtra` adds (an
    /// ACL fragment's progress, a problem's bytes) and `l2cap` with the payload of a frame no decoder claims.
    @inline(__always)
    static func writeTransport<S: FieldSink>(_ e: TraceEvent, payload: ArraySlice<UInt8>? = nil, into s: inout S,
                                             aclExtra: (inout S) -> Void = { _ in }) {
        if let r = e.radio { r.writeLayers(into: &s) }
        if let a = e.acl {
            s.object("acl") { s in
                s.field("handle", Int(a.handle))
                s.field("packet_boundary", Int(a.boundary))
                s.field("broadcast", Int(a.broadcast))
                s.field("length", Int(a.length))
                aclExtra(&s)
            }
        }
        // The header read field by field: a copy of it would retain the SDU it may hold.
        if let cid = e.l2cap?.cid, let length = e.l2cap?.length {
            s.object("l2cap") { s in
                s.field("cid", Int(cid))
                s.field("length", length)
                if let fragments = e.l2cap?.fragments, fragments > 1 {
                    s.field("fragments", fragments)
                    s.field("first_record", e.l2cap?.firstRecord ?? 0)
                }
                if let p = payload { s.field("payload", hex: p) }
                if let psm = e.l2cap?.psm {
                    s.field("psm", Int(psm))
                    if let n = LESignalingNames.psm(psm) { s.field("psm_name", n) }
                }
                if let n = e.l2cap?.sduLength { s.field("sdu_length", n) }
                if let sdu = e.l2cap?.sdu { s.field("sdu", hex: sdu) }
            }
        }
    }

    /// Writes the same object as `fields(e)` straight into the output's store, without building it first;
    /// with a redactor, its text, strings and bytes redacted on the way.
    static func write(_ e: TraceEvent, to w: OutputWriter, redactor: Redactor? = nil) {
        var body = e.body
        write(body: &body, e, to: w, redactor: redactor)
    }

    /// `write(_:to:redactor:)` of `body`, the event's body held apart from it: the text and the layers each
    /// match it as owned, without a copy (a renderer lent the event takes the body out: `TraceEvent.takeBody`).
    static func write(body: inout EventBody, _ e: TraceEvent, to w: OutputWriter, redactor: Redactor?) {
        let b = w.store
        // The event's text first, made on the writer's scratch buffer (copied in below as a JSON string): the
        // same look at the body gives the kind, the malformed reason and what the direction needs.
        w.scratch.removeAll()
        let facts = EventText.write(body: &body, e, into: &w.scratch)
        if let r = redactor {
            r.redact(text: &w.scratch)
        }
        b.put("{\"record\":")
        b.putRecordNumber(e.record)
        b.put(",\"time\":\"")
        b.putISO8601(e.timestamp)
        b.put("\",\"direction\":\"")
        b.put(EventJSON.directionName(e, linkLayerAdvertising: facts.linkLayerAdvertising))
        b.put("\",\"kind\":\"")
        b.put(facts.kind.jsonName)
        b.put(UInt8(ascii: "\""))
        if let h = e.handle { b.put(",\"handle\":"); b.putDecimal(Int(h)) }
        if let c = e.connection { b.put(",\"connection\":"); b.putDecimal(c) }
        b.put(",\"summary\":")
        w.scratch.withBytes { b.putJSONString($0) }
        if let m = facts.malformed {
            b.put(",\"malformed\":")
            b.putJSONString(redactor.map { $0.redact(m) } ?? m)
        }
        if let r = redactor {
            var j = RedactingFieldSink(inner: JSONBytes(continuingObjectIn: b, empty: false), redactor: r)
            writeLayers(body: &body, e, into: &j)
        } else {
            var j = JSONBytes(continuingObjectIn: b, empty: false)
            writeLayers(body: &body, e, into: &j)
        }
        b.put(UInt8(ascii: "}"))
        w.flushIfFull()
    }
}

/// One JSON document: `{"schema": "bletrace/1", "events": [...], "capture": {...}, "summary": {...}}`.
/// Events stream out as they are decoded; the capture facts that need the whole file follow them. With
/// `showEvents` off (`--summary-only`) the document has no `events` member.
public final class JSONRenderer: EventSink, RedactableOutput {
    let out: OutputWriter
    /// `--redact`: each event's text, strings and bytes are redacted as they are written.
    @exclusivity(unchecked) public var redactor: Redactor?
    @exclusivity(unchecked) public var showEvents = true
    @exclusivity(unchecked) var count = 0
    public init(out: OutputWriter) { self.out = out }

    public func begin(_ capture: CaptureInfo) {
        out.write(showEvents ? "{\"schema\":\"bletrace/1\",\"events\":[\n" : "{\"schema\":\"bletrace/1\",")
    }

    public func event(_ e: TraceEvent) {
        guard showEvents else { return }
        var body = e.body
        render(e, body: &body)
    }

    public func event(taking e: inout TraceEvent) {
        guard showEvents else { return }
        var body = e.takeBody()
        render(e, body: &body)
    }

    func render(_ e: TraceEvent, body: inout EventBody) {
        if count > 0 { out.write(",\n") }
        count += 1
        EventJSON.write(body: &body, e, to: out, redactor: redactor)
    }

    public func end(_ summary: Summary) {
        if showEvents { out.write("\n],") }
        EventJSON.writeCaptureAndSummary(summary, to: out)
    }
}

/// JSON Lines: one event per line, then one line `{"kind": "summary", "capture": …, "summary": …}`.
public final class JSONLinesRenderer: EventSink, RedactableOutput {
    let out: OutputWriter
    /// `--redact`: each event's text, strings and bytes are redacted as they are written.
    @exclusivity(unchecked) public var redactor: Redactor?
    /// Off for `--summary-only`: the summary line alone.
    @exclusivity(unchecked) public var showEvents = true
    public init(out: OutputWriter) { self.out = out }

    public func begin(_ capture: CaptureInfo) {}

    public func event(_ e: TraceEvent) {
        guard showEvents else { return }
        var body = e.body
        render(e, body: &body)
    }

    public func event(taking e: inout TraceEvent) {
        guard showEvents else { return }
        var body = e.takeBody()
        render(e, body: &body)
    }

    func render(_ e: TraceEvent, body: inout EventBody) {
        EventJSON.write(body: &body, e, to: out, redactor: redactor)
        out.write(byte: 0x0A)
    }

    public func end(_ summary: Summary) {
        out.write("{\"kind\":\"summary\",")
        EventJSON.writeCaptureAndSummary(summary, to: out)
    }
}
