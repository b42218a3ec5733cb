import ArgumentParser
import Foundation
import BLETrace

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl, markdown, html, junit, sarif
}

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Decode a capture into an annotated timeline and a summary.",
        discussion: """
        Examples:
          bletrace analyze capture.pcap
          bletrace analyze btsnoop_hci.log --format json \\
              | jq '.events[] | select(.kind == "att")'
          bletrace analyze trace.pklg --format jsonl > events.jsonl
          bletrace analyze bugreport-2026-11-22.zip --list-logs
          bletrace analyze bugreport.zip --log 2 --time absolute
          bletrace analyze sensor.btsnoop --uuids acme-uuids.yaml
          zcat capture.log.gz | bletrace analyze - --summary-only
          bletrace analyze capture.log --format markdown --redact > report.md
          bletrace analyze capture.log --format html > report.html
          bletrace analyze capture.log --format junit --fail-on warning > junit.xml
          bletrace analyze capture.log --format sarif > bletrace.sarif
          bletrace analyze ubertooth.pcap --ltk 7f62c053f104a5bbe68b1d896a2ed49c
          bletrace analyze capture.log --device Thermo-42 --layer att,smp \\
              --from 10 --to 20
        """
    )

    @OptionGroup var input: InputOptions

    @Option(name: .shortAndLong, help: "Output format: text, json, jsonl, markdown (a report for a bug ticket), html (a self-contained report with charts), junit (a test case per diagnosis id, failing at --fail-on, default error) or sarif (SARIF 2.1.0 for code-scanning views); see docs/ci.md.")
    var format: OutputFormat = .text

    @Option(name: .long, help: "Timeline events shown in the HTML report (html format).")
    var htmlEvents = 2000

    @Flag(name: .long, help: "Decode the audio streams (A2DP SBC, through libsbc when installed; A2DP AAC frames are counted, not decoded): adds the summary's audio section and the audio diagnoses (audio_dropout, audio_decode_error, audio_config_mismatch, audio_silent_stream).")
    var audio = false

    @Flag(name: .long, help: "Print only the summary, not the timeline: in JSON no events, in JSON Lines only the summary line, in Markdown no timeline excerpts.")
    var summaryOnly = false

    @Option(name: .long, parsing: .unconditional, help: "Markdown: the most characters the report may take; timeline excerpts are cut first, and the report says what it cut (0: no limit).")
    var maxChars: Int = ReportBudget.defaultLimit

    @Flag(name: .long, help: "Text: fold runs of the same event (same kind, handle and attribute; or two such kinds alternating, as a stream and its completed packets) into one line with a count and record range. With `--layer -flow` the timeline to attach to a ticket.")
    var collapse = false

    @Flag(name: .long, help: "Decode and write on one thread. By default text, json and jsonl are formatted on a second thread while decoding goes on, when the machine has more than one core (not with --collapse, filters or --redact).")
    var singleThread = false

    @OptionGroup var text: TextOptions

    @Option(name: .long, help: "A GATT database from `bletrace gatt --format json`, for devices whose discovery the capture lacks.")
    var gatt: String?

    @Option(name: .long, help: "Names and value decoders for vendor UUIDs, from a JSON or YAML file (see docs/json.md).")
    var uuids: String?

    @OptionGroup(title: KeyOptionGroup.title) var keys: KeyOptionGroup

    @Flag(name: .long, help: "Replace addresses, device names, serial numbers, beacon UUIDs, ANCS text and keys with stable pseudonyms.")
    var redact = false

    @Option(name: .long, help: ArgumentHelp("Also write the records the filters select to this file, as a capture Wireshark opens: btsnoop for HCI captures, pcap for sniffer captures; a name ending in .pcapng writes pcapng with the diagnoses and findings as packet comments (frame.comment); redacted with --redact.", valueName: "file"))
    var writeCapture: String?

    @Option(name: .long, help: "Exit with status 1 when a diagnosis of this severity or worse is found: error or warning (for test rigs and CI; 2 still means the capture could not be read).")
    var failOn: FailOn?

    @OptionGroup(title: "Filters (what is shown; everything is still decoded)") var filters: FilterOptions

    func run() throws {
        try text.validateWidth()
        guard maxChars >= 0 else {
            reportError("--max-chars: \(maxChars) is not a number of characters (0 for no limit)")
            throw ExitCode(2)
        }
        if collapse && format != .text {
            reportError("--collapse: folds the text timeline; \(format.rawValue) keeps every event (filter them with --layer)")
            throw ExitCode(2)
        }
        var run = AnalyzeRun()
        run.collapse = collapse
        run.maxChars = maxChars > 0 ? maxChars : nil
        if let g = gatt { run.options.gatt = try loadGATT(g) }
        if let u = uuids { run.options.uuids = try loadUUIDs(u) }
        run.options.keys = try keys.make()
        run.filter = try filters.make()
        run.format = AnalyzeRun.Format(rawValue: format.rawValue) ?? .text
        run.summaryOnly = summaryOnly
        run.audio = audio
        run.htmlEvents = htmlEvents
        run.singleThread = singleThread
        run.style = text.style
        run.redact = redact
        run.failOn = failOn?.severity ?? .error
        run.background = ProcessInfo.processInfo.activeProcessorCount > 1
        let bar = ProgressBar(total: input.fileSize, quiet: input.quiet)
        if let b = bar { run.progress = { b.update($0) } }
        let extract = try writeCapture.map { try CaptureFileOutput(path: $0, input: input.file) }
        run.selectRecords = extract != nil
        let out = OutputWriter(fd: 1)
        let result = try input.withReopenableInput(twice: run.needsFirstPass || extract != nil) { open in
            let r = try run.run(open: open, path: input.file, out: out)
            try extract?.write(try open(), result: r, quiet: input.quiet)
            return r
        }
        AnalysisKept.untilExit(result)
        bar?.finish()
        try checkOutput(out)
        let summary = result.summary
        if !input.quiet { for n in result.filterNotes { reportError("note: " + n) } }
        if let e = summary.error {
            reportError("\(input.file): \(e.description); the output covers the \(summary.stats.records) record\(summary.stats.records == 1 ? "" : "s") before it")
            throw ExitCode(2)
        }
        if let f = failOn, let worst = summary.diagnoses.first(where: { $0.severity >= f.severity }) {
            if !input.quiet {
                let n = summary.diagnoses.filter { $0.severity >= f.severity }.count
                reportError("--fail-on \(f.rawValue): \(n) diagnos\(n == 1 ? "is" : "es") at or above \(f.rawValue), first \(worst.id.rawValue) at record \(worst.firstRecord)")
            }
            throw ExitCode(1)
        }
    }
}

/// `--fail-on`: the least severe diagnosis that fails the run.
enum FailOn: String, ExpressibleByArgument, CaseIterable {
    case error, warning

    var severity: DiagnosisSeverity { self == .error ? .error : .warning }
}

/// `analyze` filters: which events are shown.
struct FilterOptions: ParsableArguments {
    @Option(name: .long, help: "Show only events of this device: an address or a name (advertised, EIR, remote or Device Name; resolved over the whole capture). Repeatable.")
    var device: [String] = []

    @Option(name: .long, help: "Show only events of these connections (numbers as in the summary: 1,2).")
    var connection: String?

    @Option(name: .long, parsing: .unconditional, help: "Show only events at or after this many seconds since the first record.")
    var from: Double?

    @Option(name: .long, parsing: .unconditional, help: "Show only events at or before this many seconds since the first record.")
    var to: Double?

    @Option(name: .long, help: "Show only these records: 100-200, 100-, -200 or 150.")
    var records: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Show only these layers, or with a leading - all but them (comma-separated): hci, adv, att, smp, l2cap, classic, a2dp, media, iso, vendor, flow, ll, or an event kind.",
                                           discussion: "For a ticket, `--layer -flow,-media --collapse` keeps what matters readable."))
    var layer: String?

    func make() throws -> EventFilter {
        do {
            return try EventFilter.checked(devices: device, connections: connection, from: from, to: to,
                                           records: records, layers: layer)
        } catch {
            reportError(error.message)
            throw ExitCode(2)
        }
    }
}

/// The finished analysis, kept until the process exits: the exit returns its memory at once, where freeing its
/// connections, databases and diagnoses object by object cost about 36 instructions a record of the capture.
enum AnalysisKept {
    nonisolated(unsafe) static var result: AnalyzeRun.Result?

    static func untilExit(_ r: AnalyzeRun.Result) { result = r }
}
