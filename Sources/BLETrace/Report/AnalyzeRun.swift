/// What `bletrace analyze` does, as a library call: the renderer for the format, `--redact` (a first pass
/// learns every identifying value, then the renderer redacts as it writes), the filters (resolved over the
/// whole capture when a device is given by name) and the sinks chained in front of the renderer.
public struct AnalyzeRun {
    public enum Format: String, Sendable, CaseIterable { case text, json, jsonl, markdown, html, junit, sarif }

    public var format: Format = .text
    public var summaryOnly = false
    /// HTML: timeline events shown.
    public var htmlEvents = 2000
    /// Markdown: the most characters the report may take (nil: no limit).
    public var maxChars: Int? = ReportBudget.defaultLimit
    /// No second thread for formatting text, JSON and JSON Lines.
    public var singleThread = false
    public var style = TextStyle()
    public var options = DecodeOptions()
    public var filter = EventFilter()
    public var redact = false
    /// JUnit: the least severe diagnosis that fails a test case (`--fail-on`).
    public var failOn: DiagnosisSeverity = .error
    /// Collect the records the filters select (`Result.selection`), for `--write-capture`.
    public var selectRecords = false
    /// Text: runs of the same event folded into one line (`CollapseSink`).
    public var collapse = false
    /// A redactor that has already learned this capture (`Redactor.learn(capture:)`), to render several
    /// formats from one first pass; with it, `redact` needs no first pass of its own.
    public var learnedRedactor: Redactor?
    /// Called with the read position during the last pass, for a plain file.
    public var progress: ((Int) -> Void)?
    /// Whether the second thread may be used (the command checks the core count).
    public var background = false
    /// `--audio`: decode the audio streams (libsbc), adding the `audio` section and the audio diagnoses.
    public var audio = false

    public init() {}

    public struct Result {
        public var summary: Summary
        /// Notes for standard error: a filter that selected nothing, an `--ltk` key the capture had no use for.
        public var filterNotes: [String]
        /// The records the filters selected, when `selectRecords` and a filter is set (nil: every record).
        public var selection: RecordSelection?
        /// The redactor the run used (`redact`), to redact what else is written from the same capture.
        public var redactor: Redactor?
    }

    /// A first pass is needed to redact (names learned late must be replaced where they first show) and to
    /// resolve a device given by name over the whole capture.
    public var needsFirstPass: Bool {
        (redact && learnedRedactor == nil) || filter.devices.contains { BDAddr(string: $0) == nil }
    }

    /// Runs the analysis and writes to `out`. `open` opens the capture afresh: it is called twice when
    /// `needsFirstPass`.
    public func run(open: () throws -> OpenedCapture, path: String, out: OutputWriter) throws -> Result {
        let redactor = learnedRedactor ?? (redact ? Redactor() : nil)
        let resolver = DeviceResolver(devices: filter.devices)
        if needsFirstPass {
            let first = try open()
            let resolving = filter.devices.isEmpty ? nil : resolver
            let s: Summary
            if let r = redactor, learnedRedactor == nil {
                s = r.learn(capture: first.reader, path: path, containers: first.containers, options: options, resolving: resolving)
            } else {
                // Only resolving a device: a plain pass, no learning.
                let a = Analyzer(options: options, sink: nil)
                if let resolving { a.chain.taps = [resolving.tap(on: a.pipeline)] }
                s = a.run(first.reader, path: path, containers: first.containers)
            }
            resolver.finish(s)
        }
        let opened = try open()
        var sink: EventSink
        let renderer: EventSink & RedactableOutput
        var markdown: MarkdownRenderer? = nil
        var textRenderer: TextRenderer? = nil
        var html: HTMLRenderer? = nil
        switch format {
        case .text:
            let t = TextRenderer(out: out, style: style)
            t.showEvents = !summaryOnly
            textRenderer = t
            renderer = t
        case .json:
            let j = JSONRenderer(out: out)
            j.showEvents = !summaryOnly
            renderer = j
        case .jsonl:
            let j = JSONLinesRenderer(out: out)
            j.showEvents = !summaryOnly
            renderer = j
        case .markdown:
            let m = MarkdownRenderer(out: out)
            m.showEvents = !summaryOnly
            m.filtered = !filter.isEmpty
            m.budget = ReportBudget(limit: maxChars)
            markdown = m
            renderer = m
        case .html:
            let h = HTMLRenderer(out: out, maxEvents: htmlEvents)
            h.showEvents = !summaryOnly
            html = h
            renderer = h
        case .junit:
            renderer = CIReportRenderer(out: out, kind: .junit, failOn: failOn)
        case .sarif:
            renderer = CIReportRenderer(out: out, kind: .sarif)
        }
        sink = renderer
        // Formatting on a second thread: only for a plain renderer that shares nothing with the pipeline
        // (filters read the pipeline's state while events flow) or with a sink in front of it (the collapsed
        // timeline writes its folded lines into the text renderer itself). The text timeline gains from it now that
        // its formatting is about 40 % of the work (at 14 % the hand-over cost more than it saved; docs/performance.md,
        // twenty-first step).
        if let r = redactor {
            let s = RedactingSink(redactor: r, next: renderer)
            // The first pass learned everything; learning again as events flow would change nothing.
            s.learning = false
            sink = s
        } else if background && !singleThread && filter.isEmpty && !summaryOnly
                    && (format == .json || format == .jsonl || (format == .text && !collapse)) {
            sink = BackgroundSink(next: sink)
        }
        if collapse, let t = textRenderer, !summaryOnly {
            sink = CollapseSink(next: sink, output: t)
        }
        var filterSink: FilterSink? = nil
        if !filter.isEmpty {
            let f = FilterSink(filter: filter, next: sink, resolver: resolver)
            f.onFirst = { t in
                textRenderer?.origin = t
                markdown?.origin = t
                html?.origin = t
            }
            if style.time == .delta, let t = textRenderer { f.onHidden = { t.previous = $0 } }
            if selectRecords { f.selection = RecordSelection() }
            filterSink = f
            sink = f
        }
        // Text and JSON with `--summary-only` read no event: none is handed to them (a filter still reads them).
        let readsEvents = !(summaryOnly && [.text, .json, .jsonl].contains(format) && filterSink == nil)
        let analyzer = Analyzer(options: options, sink: sink, events: readsEvents)
        filterSink?.pipeline = analyzer.pipeline
        // Before the renderers are attached: they take the layers as they are then.
        if audio { analyzer.addAudio(A2DPAudio.Options(decode: true)) }
        if let m = markdown { analyzer.attach(m) }
        if let h = html { analyzer.attach(h) }
        // Progress for a plain file only: a container's read position says nothing about its size.
        if let p = progress, opened.containers.isEmpty { analyzer.progress = p }
        let summary = analyzer.run(opened.reader, path: path, containers: opened.containers)
        let notes = (filterSink?.notes(summary) ?? []) + options.keys.notes(after: analyzer.pipeline)
        return Result(summary: summary, filterNotes: notes, selection: filterSink?.selection,
                      redactor: redactor)
    }
}
