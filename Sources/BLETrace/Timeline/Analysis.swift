/// A stage of the chain beyond HCI (ATT/GATT, SMP, device inventory, …), which may add a section to the
/// summary. `Chain` names every one and calls it; a layer registers nothing itself.
public protocol AnalysisLayer: AnyObject {
    /// Called once when the chain is bound to its pipeline: keep it to read connections and held events.
    func attach(to pipeline: Pipeline)
    /// Called once after the last record.
    func summary() -> SummarySection?
}

/// One named part of the summary, in JSON and text form. Both forms are made when asked for, so a run that
/// prints text never builds the JSON tree of a large summary, and JSON output builds one section at a time.
public struct SummarySection {
    public var name: String
    let makeValue: () -> FieldValue
    let makeText: () -> [String]
    /// The section's members written against a sink, when the layer writes them that way (JSON output then
    /// writes them without building the tree).
    let writer: SummaryWriter?
    /// The section as JSON (built on each use).
    public var value: FieldValue { makeValue() }
    /// The section's text lines (built on each use).
    public var text: [String] { makeText() }

    public init(name: String, value: FieldValue, text: [String]) {
        self.name = name
        self.makeValue = { value }
        self.makeText = { text }
        self.writer = nil
    }

    /// A section whose forms are built only when read. The closures run after the last record, once per read.
    public init(name: String, value: @escaping () -> FieldValue, text: @escaping () -> [String]) {
        self.name = name
        self.makeValue = value
        self.makeText = text
        self.writer = nil
    }

    /// A section whose JSON object is written by `writer` (its value is the tree `writer` builds).
    public init(name: String, writer: SummaryWriter, text: @escaping () -> [String]) {
        self.name = name
        self.makeValue = { writer.value }
        self.makeText = text
        self.writer = writer
    }
}

/// The members of one summary object, written against a `FieldSink`, kept as the two sinks that read them
/// (a closure cannot be generic): JSON output writes them straight into its buffer, and `value` builds the tree
/// (tests, Markdown, tools). Both closures call the same generic function.
public struct SummaryWriter {
    let json: (inout JSONBytes) -> Void
    let tree: (inout FieldsBuilder) -> Void

    public init(json: @escaping (inout JSONBytes) -> Void, tree: @escaping (inout FieldsBuilder) -> Void) {
        self.json = json
        self.tree = tree
    }

    /// The object as a tree.
    public var value: FieldValue { .object(FieldsBuilder.object(tree)) }

    /// The object, braces and members, into `j`.
    func write(into j: inout JSONBytes) {
        j.beginObject()
        json(&j)
        j.endObject()
    }
}

/// What is known about the capture file itself.
public struct CaptureInfo {
    public var path: String
    public var format: CaptureFormat
    public var linkType: Int
    /// How the capture was unwrapped (gzip, bugreport zip and entry, …), outermost first.
    public var containers: [String] = []
}

/// The end-of-capture summary.
public struct Summary {
    public var capture: CaptureInfo
    public var stats: CaptureStats
    /// The connections kept for the summary (the first `ConnectionTracker.maxListed`).
    public var connections: [Connection]
    /// Every connection seen; more than `connections.count` on very long captures.
    public var connectionCount: Int
    public var sections: [SummarySection]
    public var warnings: [String]
    /// Set when reading stopped early on damage.
    public var error: CaptureError?
    /// The causes found, errors first (also the `diagnoses` section).
    public var diagnoses: [Diagnosis] = []
    /// The peers' names by address, made when a renderer asks: each GATT server's Device Name, then the first
    /// name each device advertised (which wins). `only`: the peers the renderer shows (nil: every one), so that a
    /// summary that lists a few connections does not name every device of the capture.
    public var peerNames: (_ only: Set<BDAddr>?) -> [String: String] = { _ in [:] }
}

/// Receives the timeline as it is decoded.
public protocol EventSink: AnyObject {
    func begin(_ capture: CaptureInfo)
    func event(_ e: TraceEvent)
    /// An event the sink may change or keep: the analysis drops it after the call. A renderer takes the body out
    /// to match it without a copy; a sink that keeps events moves it. By default, `event(_:)`.
    func event(taking e: inout TraceEvent)
    func end(_ summary: Summary)
    /// Whether the sink reads events' one-line text (informational: decoders never build text, renderers do).
    var readsSummaries: Bool { get }
}

extension EventSink {
    public var readsSummaries: Bool { true }
    public func event(taking e: inout TraceEvent) { event(e) }
}

/// Reads a capture through the pipeline and its chain into a sink.
public final class Analyzer {
    public let pipeline: Pipeline
    let sink: EventSink?

    /// `sink` receives every event unless `events` is false (it then gets only the capture's facts and the
    /// summary); pass nil to collect only the summary.
    public init(options: DecodeOptions = DecodeOptions(), sink: EventSink?, events: Bool = true) {
        self.sink = sink
        self.pipeline = Pipeline(options: options, chain: .standard(options), lendingTo: events ? sink : nil)
    }

    /// The chain's parts, in summary order.
    public var layers: [AnalysisLayer] { pipeline.chain.layers }
    public var chain: Chain { pipeline.chain }

    /// Adds the decoded-audio stage (`bletrace audio`, `analyze --audio`) over the chain's A2DP streams, before any
    /// record.
    @discardableResult
    public func addAudio(_ options: A2DPAudio.Options = A2DPAudio.Options()) -> A2DPAudio? {
        if let a = chain.a2dpAudio { return a }
        guard let a2dp = chain.signaling?.a2dp else { return nil }
        let a = A2DPAudio(a2dp: a2dp, options: options)
        a.attach(to: pipeline)
        chain.a2dpAudio = a
        return a
    }

    /// Adds the activity log (Markdown, HTML, `diff`) at its place in the chain, before any record.
    @discardableResult
    public func addActivityLog() -> ActivityLog {
        if let log = chain.activity { return log }
        let log = ActivityLog(att: chain.att)
        log.attach(to: pipeline)
        chain.activity = log
        return log
    }

    /// Decodes every record. A damaged file ends the run with `summary.error` set; what came before is kept.
    /// Called every 16,384 records with the reader's byte position (progress bars).
    @exclusivity(unchecked) public var progress: ((Int) -> Void)?

    /// Names from `--uuids` apply to everything the run prints, the summary included.
    @discardableResult
    public func run(_ reader: RecordReader, path: String, containers: [String] = []) -> Summary {
        if let names = pipeline.options.uuids?.names, !names.isEmpty {
            return UserUUIDNames.with(names) { runAll(reader, path: path, containers: containers) }
        }
        return runAll(reader, path: path, containers: containers)
    }

    /// Hands every record of `reader` to the pipeline (with progress reports when asked for).
    @inline(__always) func readAll<R: RecordReader>(_ reader: R) throws {
        if let report = progress {
            var n = 0
            while let r = try reader.next() {
                pipeline.process(r)
                n += 1
                if n & 0x3FFF == 0 { report(reader.position) }
            }
        } else {
            while let r = try reader.next() { pipeline.process(r) }
        }
    }

    func runAll(_ reader: RecordReader, path: String, containers: [String]) -> Summary {
        let info = CaptureInfo(path: path, format: reader.format, linkType: reader.linkType, containers: containers)
        sink?.begin(info)
        var failure: CaptureError? = nil
        do {
            // The readers of the usual formats by their own type, so that the loop calls `next()` directly (through
            // the protocol, each record went through a witness and came back as a copied optional).
            switch reader {
            case let r as BTSnoopReader: try readAll(r)
            case let r as PcapReader: try readAll(r)
            case let r as PacketLoggerReader: try readAll(r)
            default: try readAll(reader)
            }
        } catch let e as CaptureError {
            failure = e
        } catch {
            failure = .readFailed(record: pipeline.stats.records + 1, offset: -1, reason: "\(error)")
        }
        let warnings = pipeline.finish()
        let engine = chain.diagnosis
        engine?.see(chain)
        engine?.damaged(failure, filtered: pipeline.stats.filtered, source: CaptureSource(format: info.format, linkType: info.linkType))
        var summary = Summary(capture: info, stats: pipeline.stats, connections: pipeline.connections.all,
                              connectionCount: pipeline.connections.total,
                              sections: layers.compactMap { $0.summary() }, warnings: warnings, error: failure)
        summary.diagnoses = engine?.diagnoses ?? []
        summary.peerNames = { [chain] only in PeerNames.make(identity: chain.identity, inventory: chain.inventory, only: only) }
        sink?.end(summary)
        return summary
    }
}
