/// The message sequence of each connection, bounded, for the sequence charts of the HTML report and the
/// Mermaid diagrams of the Markdown report: ATT requests and responses (with the latency), notifications, SMP,
/// signaling, LL control, and the HCI commands and connection events about the connection. Runs of repeated
/// notifications or indications of one handle in one direction are one step with a count.
public final class SequenceRecorder {
    /// Where an arrow starts or ends. HCI captures show the local host, its controller and the peer; sniffer
    /// captures the central and the peripheral.
    public enum Lane: Int, Sendable {
        case host, controller, peer, central, peripheral

        public var title: String {
            switch self {
            case .host: return "Host"
            case .controller: return "Controller"
            case .peer: return "Peer"
            case .central: return "Central"
            case .peripheral: return "Peripheral"
            }
        }
    }

    public struct Step: Sendable {
        public var record: Int
        public var micros: Int64
        public var from: Lane
        public var to: Lane
        /// The event's text (redacted when a redactor was given), cut to `maxLabel` characters.
        public var label: String
        public var latencyMicros: Int64?
        /// 1, or the length of a run of repeated notifications.
        public var repeats = 1
        public var problem = false
        /// Handle and direction of a notification or indication, for collapsing runs.
        var runKey: Int?
        /// The full text of a run's first message: only messages with the same text (the same value) join it.
        var runText: String?
    }

    public struct Chart: Sendable {
        public var steps: [Step] = []
        public var sniffed = false
        /// Events of the sequence beyond the bound, and the first of their records.
        public var omitted = 0
        public var firstOmittedRecord: Int?
    }

    public let maxSteps: Int
    public let maxConnections: Int
    /// Characters of an arrow's text.
    public let maxLabel: Int
    public private(set) var charts: [Int: Chart] = [:]
    public private(set) var order: [Int] = []
    /// Set by the first packet seen with radio facts: the capture is a sniffer's (central and peripheral lanes).
    public private(set) var sniffedCapture = false

    public init(maxSteps: Int, maxConnections: Int, maxLabel: Int = 72) {
        self.maxSteps = maxSteps
        self.maxLabel = max(8, maxLabel)
        self.maxConnections = maxConnections
    }

    /// The lanes a chart uses, in order.
    public static func lanes(_ c: Chart) -> [Lane] { c.sniffed ? [.central, .peripheral] : [.host, .controller, .peer] }

    /// Takes the event into its connection's sequence if it is one of the messages shown.
    public func add(_ e: TraceEvent, redactor: Redactor? = nil) {
        // A sniffer capture's packets come with their radio facts (advertising first, before any connection).
        if !sniffedCapture {
            if e.radio != nil { sniffedCapture = true } else if case .linkLayer = e.body { sniffedCapture = true }
        }
        guard let c = e.connection, let (from, to, runKey) = SequenceRecorder.arrow(e, sniffed: sniffedCapture) else { return }
        if charts[c] == nil {
            guard order.count < maxConnections else { return }
            order.append(c)
            charts[c] = Chart(sniffed: sniffedCapture)
        }
        SequenceRecorder.add(e, into: &charts[c]!, from: from, to: to, runKey: runKey, maxSteps: maxSteps, maxLabel: maxLabel, redactor: redactor)
    }

    static func add(_ e: TraceEvent, into chart: inout Chart, from: Lane, to: Lane, runKey: Int?, maxSteps: Int, maxLabel: Int, redactor: Redactor?) {
        // Collapse: the same handle notified the same way, with the same value, as the previous step.
        let full = runKey == nil ? nil : SequenceRecorder.text(e, redactor: redactor)
        if let k = runKey, chart.omitted == 0, let last = chart.steps.indices.last, chart.steps[last].runKey == k,
           chart.steps[last].runText == full {
            chart.steps[last].repeats += 1
            return
        }
        guard chart.steps.count < maxSteps else {
            if chart.omitted == 0 { chart.firstOmittedRecord = e.record }
            chart.omitted += 1
            return
        }
        var latency: Int64?
        var problem = e.malformed != nil
        if case let .att(a) = e.body {
            if case let .answers(link)? = a.transaction { latency = link.latencyMicros }
            if case let .errorResponse(op, _, code)? = a.pdu, !SequenceRecorder.endsDiscovery(op, code) { problem = true }
            if case .unanswered? = a.transaction { problem = true }
        }
        if case let .smp(s) = e.body, case .pairingFailed? = s.pdu { problem = true }
        let label = SequenceRecorder.label(e, text: full ?? SequenceRecorder.text(e, redactor: redactor), maxLabel: maxLabel)
        chart.steps.append(Step(record: e.record, micros: e.timestamp.micros, from: from, to: to, label: label,
                                latencyMicros: latency, problem: problem, runKey: runKey, runText: full))
    }

    /// An arrow's text (`text`, see `text(_:redactor:)`) cut to `maxLabel` characters.
    static func label(_ e: TraceEvent, text whole: String, maxLabel: Int) -> String {
        var text = whole
        guard text.count > maxLabel else { return text }
        // An error keeps its name: the text is cut before it ("Error Response: Read Request handle 0x001D …:
        // Read Not Permitted").
        var tail = ""
        if case let .att(a) = e.body, case let .errorResponse(_, _, code)? = a.pdu {
            let name = ": " + a.errorName(code)
            if text.hasSuffix(name), name.count < maxLabel / 2 {
                tail = name
                text.removeLast(name.count)
            }
        }
        // Cut at a space near the limit, so no word (or address, 17 characters) is shown cut short, and
        // without the comma or colon before it.
        var cut = text.prefix(maxLabel - 1 - tail.count)
        if cut.count < text.count {
            if let space = cut.lastIndex(of: " "), cut.distance(from: space, to: cut.endIndex) <= 20 { cut = cut[..<space] }
            while let last = cut.last, last == "," || last == ":" || last == ";" { cut = cut.dropLast() }
            return String(cut) + "…" + tail
        }
        return text + tail
    }

    /// The event's text for an arrow, whole: redacted, without the note about its request or response, and
    /// without the "ATT " of ATT PDUs.
    static func text(_ e: TraceEvent, redactor: Redactor?) -> String {
        var text = EventText.string(e)
        if let r = redactor { text = r.redact(text) }
        if text.hasSuffix("]"), let cut = text.range(of: " [", options: .backwards) { text = String(text[..<cut.lowerBound]) }
        if text.hasPrefix("ATT ") { text.removeFirst(4) }
        return text
    }

    /// The arrow an event makes, and for notifications and indications the key of its run; nil for events the
    /// sequence leaves out (advertising, buffers, fragments, other HCI events).
    static func arrow(_ e: TraceEvent, sniffed: Bool) -> (Lane, Lane, Int?)? {
        let outgoing = e.direction == .hostToController
        let air: (Lane, Lane) = sniffed ? (outgoing ? (.central, .peripheral) : (.peripheral, .central))
                                        : (outgoing ? (.host, .peer) : (.peer, .host))
        switch e.body {
        case let .att(a):
            var run: Int?
            switch a.pdu {
            case let .notification(h, _)?: run = Int(h) << 2 | (outgoing ? 1 : 0)
            case let .indication(h, _)?: run = Int(h) << 2 | 2 | (outgoing ? 1 : 0)
            default: break
            }
            return (air.0, air.1, run)
        case .smp, .signaling:
            return (air.0, air.1, nil)
        case let .linkLayer(l):
            if case .control = l.content { return (air.0, air.1, nil) }
            return nil
        case let .hciEvent(h):
            guard h.change != nil else { return nil }
            return (.controller, .host, nil)
        case .hciCommand:
            return (.host, .controller, nil)
        case .malformed:
            return e.acl != nil || e.l2cap != nil ? (air.0, air.1, nil) : nil
        default:
            return nil
        }
    }

    /// An Attribute Not Found answer to a discovery request: the normal end of discovery, not a problem.
    static func endsDiscovery(_ requestOpcode: UInt8, _ code: UInt8) -> Bool {
        code == 0x0A && Findings.discoveryOpcodes.contains(Int(requestOpcode))
    }

    /// "15.30 ms": a latency for an arrow.
    public static func latencyText(_ micros: Int64) -> String {
        Fmt.fixed(Int(micros / 10), scale: 100) + " ms"
    }
}
