/// `analyze --format html`: one self-contained HTML page for a bug ticket: header and findings, the devices
/// with their RSSI over time, the connection timeline, a message sequence chart per connection, charts (ATT
/// latency, throughput, notification rates, battery), the GATT trees, identity cards and ANCS notifications,
/// and the first events of the timeline. Style and pictures are inline (SVG), nothing is fetched, and it reads
/// without JavaScript. Events stream past; only bounded chart data and timeline lines are kept.
public final class HTMLRenderer: EventSink, RedactableOutput {
    let out: OutputWriter
    /// The analysis layers (ATT, SMP, activity log), set after the analyzer is made.
    public var layers: [AnalysisLayer] = []
    /// The pipeline, for the connections as decoded (the summary's may be redacted copies).
    public weak var pipeline: Pipeline?
    /// `--redact`: every text of the page passes through it before it is escaped.
    public var redactor: Redactor? { didSet { collector.redactor = redactor } }
    /// Timeline lines shown from the start (`--html-events`).
    public var maxEvents: Int
    /// Beyond them, events worth seeing (errors, failures, malformed packets) are kept too, up to this many.
    public var maxMarked = 200
    /// Messages per connection in its sequence chart, and connections with a chart.
    public var maxSequence = 300
    /// `--summary-only`: no timeline section (and nothing links to it).
    public var showEvents = true
    /// Relative times count from here: the first event's time unless set (filters set the first record's).
    public var origin: Timestamp?

    let collector = HTMLCollector()
    lazy var sequences = SequenceRecorder(maxSteps: maxSequence, maxConnections: 32)
    struct Line {
        var record: Int
        var text: String
        var marked: Bool
    }
    var timeline: [Line] = []
    var marked = 0
    var eventsSeen = 0

    public init(out: OutputWriter, maxEvents: Int = 2000) {
        self.out = out
        self.maxEvents = max(0, maxEvents)
    }

    public func begin(_ capture: CaptureInfo) {}

    public func event(_ e: TraceEvent) {
        eventsSeen += 1
        if origin == nil { origin = e.timestamp }
        collector.add(e) { [pipeline] c in pipeline?.connections.connection(id: c)?.peerKey }
        sequences.add(e, redactor: redactor)
        guard showEvents else { return }
        let important = HTMLRenderer.important(e)
        if timeline.count < maxEvents {
            timeline.append(Line(record: e.record, text: TextRenderer.plainLine(e, origin: origin!, redactor: redactor), marked: important))
        } else if important && marked < maxMarked {
            marked += 1
            timeline.append(Line(record: e.record, text: TextRenderer.plainLine(e, origin: origin!, redactor: redactor), marked: true))
        }
    }

    /// Errors, failures and malformed packets: kept in the timeline beyond its first lines, and marked.
    static func important(_ e: TraceEvent) -> Bool {
        if e.malformed != nil { return true }
        switch e.body {
        case let .att(a):
            if case let .errorResponse(op, _, code)? = a.pdu, !SequenceRecorder.endsDiscovery(op, code) { return true }
            if case .unanswered? = a.transaction { return true }
        case let .smp(s):
            if case .pairingFailed? = s.pdu { return true }
        case let .hciEvent(h):
            if case let .closed(_, reason)? = h.change { return Findings.failureReasons.contains(reason) }
            if let s = h.status, s != 0, h.code != 0x0E { return true }
        default: break
        }
        return false
    }

    public func end(_ summary: Summary) {
        let page = HTMLPage(redactor: redactor)
        let file = summary.capture.path.split(separator: "/").last.map(String.init) ?? summary.capture.path
        out.write(HTMLPage.head(title: "bletrace report: " + page.t(file)))
        let att = layers.compactMap { $0 as? ATTLayer }.first
        let log = layers.compactMap { $0 as? ActivityLog }.first
        var contents: [(String, String)] = [("diagnoses", "Diagnosis"), ("findings", "Findings")]
        if HTMLDevices.has(summary) { contents.append(("devices", "Devices")) }
        if !summary.connections.isEmpty { contents.append(("connections", "Connections")) }
        contents.append(("charts", "Charts"))
        if att?.databaseOrder.isEmpty == false || summary.sections.contains(where: { ["identity", "ancs", "battery"].contains($0.name) }) {
            contents.append(("gatt", "GATT and values"))
        }
        if showEvents { contents.append(("timeline", "Timeline")) }
        out.write(HTMLHeader.header(summary, file: file, eventsSeen: eventsSeen, page: page))
        out.write(HTMLPage.contents(contents))
        let anchors = Set(timeline.map { $0.record })
        out.write(HTMLDiagnoses.card(summary, anchors: anchors, page: page))
        out.write(HTMLHeader.findings(summary, anchors: anchors, page: page))
        out.write(HTMLDevices.section(summary, collector: collector, page: page))
        if !summary.connections.isEmpty {
            out.write(HTMLConnections.section(summary, collector: collector, page: page))
            for c in summary.connections {
                out.write(HTMLConnections.details(c, summary: summary, log: log, att: att, smp: layers.compactMap { $0 as? SMPLayer }.first,
                                                   pipeline: pipeline, page: page))
                if let chart = sequences.charts[c.id] {
                    out.write(HTMLSequence.section(chart, connection: c, anchors: anchors, page: page))
                }
            }
        }
        out.write(HTMLCharts.section(collector, summary: summary, page: page))
        out.write(HTMLLinks.section(links: layers.compactMap { $0 as? LinkStatistics }.first, linkLayer: pipeline?.linkLayerIfUsed, origin: collector.origin, page: page))
        out.write(HTMLAudio.section(layers.compactMap { $0 as? AudioStreams }.first, iso: layers.compactMap { $0 as? ISOStreams }.first,
                                    origin: collector.origin, end: collector.last, page: page))
        out.write(HTMLAudioLevels.section(layers.compactMap { $0 as? A2DPAudio }.first, page: page))
        out.write(HTMLGATT.section(summary, att: att, log: log, identity: layers.compactMap { $0 as? IdentityLayer }.first, page: page))
        if showEvents { out.write(HTMLTimeline.section(timeline, shown: maxEvents, total: eventsSeen, page: page)) }
        if !summary.warnings.isEmpty {
            out.write("<h2 id=\"warnings\">Warnings</h2>\n<ul>" + summary.warnings.map { "<li>\(page.t($0))</li>" }.joined() + "</ul>\n")
        }
        out.write(HTMLPage.tail(version: BLETraceVersion.string))
        out.flush()
    }
}
