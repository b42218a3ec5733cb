/// The one-line text of an event, made from its typed body: what the text timeline prints and JSON's
/// `summary`. Written into a byte buffer, so that a renderer reuses one buffer for every event.
public enum EventText {
    /// What a renderer needs besides the text, taken from the body in the same look (a look at the body copies
    /// it, so the text, the kind and the malformed reason come from one).
    public struct Facts {
        public var kind: EventKind
        /// Why the packet could not be decoded, if it could not (`TraceEvent.malformed`).
        public var malformed: String?
        /// Whether a link-layer body's radio PDU was on an advertising channel (nil for other bodies).
        public var linkLayerAdvertising: Bool?

        init(_ kind: EventKind, malformed: String? = nil, linkLayerAdvertising: Bool? = nil) {
            self.kind = kind
            self.malformed = malformed
            self.linkLayerAdvertising = linkLayerAdvertising
        }
    }

    /// Appends the event's text to `b` and returns the facts of its body.
    @discardableResult
    public static func write(_ e: TraceEvent, into b: inout TextBytes) -> Facts {
        var body = e.body
        return write(body: &body, e, into: &b)
    }

    /// The text of `body`, the event's body held apart from it (the writers read the event's other facts only);
    /// the body is matched as owned, without a copy, and is the same when this returns. A renderer lent the
    /// event takes the body out (`TraceEvent.takeBody`): a match on a body still in the event copies it first.
    static func write(body: inout EventBody, _ e: TraceEvent, into b: inout TextBytes) -> Facts {
        switch consume body {
        case let .aclFragment(f):
            b.append(string: f.start ? "ACL start fragment: " : "ACL continuation fragment: ")
            b.append(decimal: f.have)
            if f.expected >= 0 { b.append(string: " of "); b.append(decimal: f.expected) }
            b.append(string: " bytes of an L2CAP frame")
            writeNotes(e, into: &b)
            body = .aclFragment(f)
            return Facts(.acl)
        case let .aclProblem(p):
            b.append(string: "ACL: ")
            b.append(string: p.reason)
            writeNotes(e, into: &b)
            let facts = Facts(.acl, malformed: p.reason)
            body = .aclProblem(p)
            return facts
        case let .l2cap(p):
            b.append(string: "L2CAP ")
            if let psm = e.l2cap?.psm {
                b.append(string: "PSM ")
                SignalingBody.writePSM(psm, into: &b)
                b.append(UInt8(ascii: " "))
            }
            b.append(string: L2CAPText.channelName(e.l2cap?.cid ?? 0))
            b.append(string: p.noOpening ? " (no channel opening seen), " : ", ")
            b.append(decimal: p.payload.count)
            b.append(string: " bytes: ")
            b.append(spacedHex: p.payload, limit: 16)
            writeNotes(e, into: &b)
            body = .l2cap(p)
            return Facts(.l2cap)
        case let .sco(length):
            b.append(string: "SCO data, ")
            b.append(decimal: length)
            b.append(string: " bytes")
            writeNotes(e, into: &b)
            body = .sco(length: length)
            return Facts(.sco)
        case let .iso(h):
            ISOText.write(h, into: &b)
            writeNotes(e, into: &b)
            body = .iso(h)
            return Facts(.iso)
        case let .vendor(data):
            b.append(string: "Vendor packet, ")
            b.append(decimal: data.count)
            b.append(string: " bytes: ")
            b.append(spacedHex: data, limit: 16)
            writeNotes(e, into: &b)
            body = .vendor(data)
            return Facts(.vendor)
        case let .malformed(m):
            b.append(string: "Malformed ")
            b.append(string: m.layer)
            b.append(string: ": ")
            b.append(string: m.reason)
            b.append(string: " — ")
            b.append(spacedHex: m.data, limit: 24)
            writeNotes(e, into: &b)
            let facts = Facts(m.kind, malformed: m.reason)
            body = .malformed(m)
            return facts
        case let .filtered(f):
            b.append(string: f.layer)
            b.append(string: " filtered by the capture: ")
            b.append(decimal: f.data.count)
            b.append(string: " of ")
            b.append(decimal: f.original)
            b.append(string: " bytes kept — ")
            b.append(spacedHex: f.data, limit: 16)
            writeNotes(e, into: &b)
            let facts = Facts(f.kind)
            body = .filtered(f)
            return facts
        case let .pending(k):
            writeNotes(e, into: &b)
            body = .pending(k)
            return Facts(k)
        case let .att(x):
            let facts = write(x, e, into: &b)
            body = .att(x)
            return facts
        case let .hciCommand(x):
            let facts = write(x, e, into: &b)
            body = .hciCommand(x)
            return facts
        case let .hciEvent(x):
            let facts = write(x, e, into: &b)
            body = .hciEvent(x)
            return facts
        case let .adv(x):
            let facts = write(x, e, into: &b)
            body = .adv(x)
            return facts
        case let .smp(x):
            let facts = write(x, e, into: &b)
            body = .smp(x)
            return facts
        case let .signaling(x):
            let facts = write(x, e, into: &b)
            body = .signaling(x)
            return facts
        case let .linkLayer(x):
            var facts = write(x, e, into: &b)
            facts.linkLayerAdvertising = x.radio.advertising != nil
            body = .linkLayer(x)
            return facts
        case let .note(x):
            let facts = write(x, e, into: &b)
            body = .note(x)
            return facts
        }
    }

    /// A layer's body: its text, the frame's notes, then the text later records added.
    static func write<B: LayerBody>(_ x: B, _ e: TraceEvent, into b: inout TextBytes) -> Facts {
        x.writeText(e, into: &b)
        writeNotes(e, into: &b)
        x.writeLateText(e, into: &b)
        return Facts(x.kind, malformed: x.malformedReason)
    }

    /// What the frame's arrival adds after the body's text: reassembly, a warning, a capture that cut it short.
    static func writeNotes(_ e: TraceEvent, into b: inout TextBytes) {
        // The counts read alone: the header bound whole was copied (its SDU retained) for every event.
        if let fragments = e.l2cap?.fragments, fragments > 1, let first = e.l2cap?.firstRecord {
            b.append(string: " (reassembled from ")
            b.append(decimal: fragments)
            b.append(string: " fragments, records ")
            b.append(decimal: first)
            b.append(string: "–")
            b.append(decimal: e.record)
            b.append(UInt8(ascii: ")"))
        }
        if let w = e.warning {
            b.append(string: " [")
            b.append(string: w)
            b.append(UInt8(ascii: "]"))
        }
        if let c = e.cut {
            b.append(string: " [captured ")
            b.append(decimal: c.captured)
            b.append(string: " of ")
            b.append(decimal: c.original)
            b.append(string: " bytes]")
        }
    }

    /// The event's text as a string.
    public static func string(_ e: TraceEvent) -> String {
        var b = TextBytes(capacity: 128)
        write(e, into: &b)
        return b.string
    }
}
