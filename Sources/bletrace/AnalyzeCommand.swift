import ArgumentParser
import Foundation
import BLETrace

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl, markdown, html
}

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode a capture into an annotated timeline and a summary.",
        discussion: """
        Examples:
          bletrace analyze capture.pcap
          bletrace analyze btsnoop_hci.log --format json | jq '.events[] | select(.kind == "att")'
          bletrace analyze trace.pklg --format jsonl > events.jsonl
          bletrace analyze bugreport-2026-11-22.zip --list-logs
          bletrace analyze bugreport.zip --log 2 --time absolute
          bletrace analyze sensor.btsnoop --uuids acme-uuids.yaml
          zcat capture.log.gz | bletrace analyze - --summary-only
          bletrace analyze capture.log --format markdown --redact > report.md
          bletrace analyze capture.log --format html > report.html
          bletrace analyze capture.log --device Thermo-42 --layer att,smp --from 10 --to 20
        """
    )

    @OptionGroup var input: InputOptions

    @Option(name: .shortAndLong, help: "Output format: text, json, jsonl, markdown (a report for a bug ticket) or html (a self-contained report with charts).")
    var format: OutputFormat = .text

    @Option(name: .long, help: "Timeline events shown in the HTML report (html format).")
    var htmlEvents = 2000

    @Flag(name: .long, help: "Print only the summary, not the timeline (text format).")
    var summaryOnly = false

    @Flag(name: .long, help: "Decode and write on one thread. By default json and jsonl are formatted on a second thread while decoding goes on, when the machine has more than one core.")
    var singleThread = false

    @OptionGroup var text: TextOptions

    @Option(name: .long, help: "A GATT database from `bletrace gatt --format json`, for devices whose discovery the capture lacks.")
    var gatt: String?

    @Option(name: .long, help: "Names and value decoders for vendor UUIDs, from a JSON or YAML file (see docs/json.md).")
    var uuids: String?

    @Flag(name: .long, help: "Replace addresses, device names, serial numbers, beacon UUIDs and ANCS text with stable pseudonyms.")
    var redact = false

    @OptionGroup(title: "Filters (what is shown; everything is still decoded)") var filters: FilterOptions

    func run() throws {
        var options = DecodeOptions()
        if let g = gatt { options.gatt = try loadGATT(g) }
        if let u = uuids { options.uuids = try loadUUIDs(u) }

        let filter = try filters.make()
        let redactor = redact ? Redactor() : nil
        if let r = redactor, input.file != "-" {
            // A first pass learns every identifying value, so even the first mention is replaced.
            let first = try input.open()
            let learner = Analyzer(options: options, sink: nil)
            learner.pipeline.eventObservers.append { r.learn($0) }
            let s = learner.run(first.reader, path: input.file, containers: first.containers)
            for section in s.sections { if case let .object(o) = section.value { r.learn(fields: o) } }
        }
        let opened = try input.open()
        let out = OutputWriter(fd: 1)
        var sink: EventSink
        var renderer: EventSink & RedactableOutput
        var markdown: MarkdownRenderer? = nil
        var textRenderer: TextRenderer? = nil
        var html: HTMLRenderer? = nil
        switch format {
        case .text:
            let t = TextRenderer(out: out, style: text.style)
            t.showEvents = !summaryOnly
            textRenderer = t
            renderer = t
        case .json: renderer = JSONRenderer(out: out)
        case .jsonl: renderer = JSONLinesRenderer(out: out)
        case .markdown:
            let m = MarkdownRenderer(out: out)
            markdown = m
            renderer = m
        case .html:
            let h = HTMLRenderer(out: out, maxEvents: htmlEvents)
            html = h
            renderer = h
        }
        sink = renderer
        // JSON formatting on a second thread: only for a plain renderer that shares nothing with the pipeline
        // (filters read the pipeline's state while events flow). The text timeline costs too little to format
        // to gain from it: handing events over cost more than it saved.
        // The redactor learns while events flow, so a redacting renderer stays on the decoding thread.
        if let r = redactor {
            sink = RedactingSink(redactor: r, next: renderer)
        } else if !singleThread && (format == .json || format == .jsonl) && filter.isEmpty
            && ProcessInfo.processInfo.activeProcessorCount > 1 {
            sink = BackgroundSink(next: sink)
        }
        var filterSink: FilterSink? = nil
        if !filter.isEmpty {
            let f = FilterSink(filter: filter, next: sink)
            f.onFirst = { t in
                textRenderer?.origin = t
                markdown?.origin = t
                html?.origin = t
            }
            filterSink = f
            sink = f
        }
        let analyzer = Analyzer(options: options, sink: sink)
        filterSink?.pipeline = analyzer.pipeline
        if let m = markdown {
            analyzer.add(ActivityLog(att: analyzer.layers.compactMap { $0 as? ATTLayer }.first))
            m.layers = analyzer.layers
            m.pipeline = analyzer.pipeline
        }
        if let h = html {
            analyzer.add(ActivityLog(att: analyzer.layers.compactMap { $0 as? ATTLayer }.first))
            h.layers = analyzer.layers
            h.pipeline = analyzer.pipeline
        }
        let bar = opened.containers.isEmpty ? ProgressBar(total: input.fileSize, quiet: input.quiet) : nil
        if let bar = bar { analyzer.progress = { bar.update($0) } }
        let summary = analyzer.run(opened.reader, path: input.file, containers: opened.containers)
        bar?.finish()
        if let e = summary.error {
            reportError("\(input.file): \(e.description); the output covers the \(summary.stats.records) record\(summary.stats.records == 1 ? "" : "s") before it")
            throw ExitCode(2)
        }
    }
}

/// `analyze` filters: which events are shown.
struct FilterOptions: ParsableArguments {
    @Option(name: .long, help: "Show only events of this device: an address or an advertised name (repeatable).")
    var device: [String] = []

    @Option(name: .long, help: "Show only events of these connections (numbers as in the summary: 1,2).")
    var connection: String?

    @Option(name: .long, help: "Show only events at or after this many seconds since the first record.")
    var from: Double?

    @Option(name: .long, help: "Show only events at or before this many seconds since the first record.")
    var to: Double?

    @Option(name: .long, help: "Show only these records: 100-200, 100-, -200 or 150.")
    var records: String?

    @Option(name: .long, help: "Show only these layers: hci, adv, att, smp, l2cap (comma-separated).")
    var layer: String?

    func make() throws -> EventFilter {
        var f = EventFilter()
        f.devices = device
        if let c = connection {
            for part in c.split(separator: ",") {
                guard let n = Int(part.trimmingSpaces), n >= 1 else {
                    reportError("--connection: '\(part)' is not a connection number")
                    throw ExitCode(2)
                }
                f.connections.insert(n)
            }
        }
        f.from = from
        f.to = to
        if let r = records {
            guard let range = EventFilter.parseRecords(r) else {
                reportError("--records: '\(r)' is not a record range such as 100-200")
                throw ExitCode(2)
            }
            f.records = range
        }
        if let l = layer {
            for part in l.split(separator: ",").map({ String($0.trimmingSpaces).lowercased() }) {
                guard EventFilter.layerNames.contains(part) || EventKind(rawValue: part) != nil else {
                    reportError("--layer: '\(part)' is not one of \(EventFilter.layerNames.joined(separator: ", "))")
                    throw ExitCode(2)
                }
                f.layers.insert(part)
            }
        }
        return f
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
