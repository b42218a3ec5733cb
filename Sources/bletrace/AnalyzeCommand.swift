import ArgumentParser
import BLETrace

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl
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
        """
    )

    @OptionGroup var input: InputOptions

    @Option(name: .shortAndLong, help: "Output format: text, json or jsonl.")
    var format: OutputFormat = .text

    @Flag(name: .long, help: "Print only the summary, not the timeline (text format).")
    var summaryOnly = false

    @OptionGroup var text: TextOptions

    @Option(name: .long, help: "A GATT database from `bletrace gatt --format json`, for devices whose discovery the capture lacks.")
    var gatt: String?

    @Option(name: .long, help: "Names and value decoders for vendor UUIDs, from a JSON or YAML file (see docs/json.md).")
    var uuids: String?

    func run() throws {
        var options = DecodeOptions()
        if let g = gatt { options.gatt = try loadGATT(g) }
        if let u = uuids { options.uuids = try loadUUIDs(u) }
        let opened = try input.open()
        let out = OutputWriter(fd: 1)
        let sink: EventSink
        switch format {
        case .text:
            let t = TextRenderer(out: out, style: text.style)
            t.showEvents = !summaryOnly
            sink = t
        case .json: sink = JSONRenderer(out: out)
        case .jsonl: sink = JSONLinesRenderer(out: out)
        }
        let analyzer = Analyzer(options: options, sink: sink)
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
