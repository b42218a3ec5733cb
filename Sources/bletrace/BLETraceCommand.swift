import ArgumentParser
import BLETrace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct BLETraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bletrace",
        abstract: "Offline Bluetooth Low Energy trace analyzer.",
        discussion: """
        Reads btsnoop (Android, btmon), Apple PacketLogger, pcap and pcapng captures and decodes HCI, \
        L2CAP, ATT/GATT, SMP and advertising into a timeline.

        Exit status: 0 success, 1 differences found (diff), 2 input errors (the output then holds \
        everything decoded before the damage).
        """,
        version: BLETraceVersion.string,
        subcommands: [Analyze.self, Devices.self],
        defaultSubcommand: nil
    )
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl
}

/// Writes a one-line error to standard error.
func reportError(_ message: String) {
    let line = "bletrace: " + message + "\n"
    var s = line
    s.withUTF8 { buf in _ = write(2, buf.baseAddress, buf.count) }
}

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode a capture into an annotated timeline and a summary.",
        discussion: """
        Examples:
          bletrace analyze capture.pcap
          bletrace analyze btsnoop_hci.log --format json | jq '.events[] | select(.kind == "att")'
          bletrace analyze trace.pklg --format jsonl > events.jsonl
        """
    )

    @Argument(help: "The capture file (btsnoop, PacketLogger .pklg, pcap or pcapng; detected from its content).")
    var file: String

    @Option(name: .shortAndLong, help: "Output format: text, json or jsonl.")
    var format: OutputFormat = .text

    @Flag(name: .long, help: "Print only the summary, not the timeline (text format).")
    var summaryOnly = false

    func run() throws {
        let reader: RecordReader
        do {
            reader = try CaptureFile.open(path: file)
        } catch let e as CaptureError {
            reportError("\(file): \(e.description)")
            throw ExitCode(2)
        }
        let out = OutputWriter(fd: 1)
        let sink: EventSink
        switch format {
        case .text:
            let t = TextRenderer(out: out)
            t.showEvents = !summaryOnly
            sink = t
        case .json: sink = JSONRenderer(out: out)
        case .jsonl: sink = JSONLinesRenderer(out: out)
        }
        let analyzer = Analyzer(sink: sink)
        let summary = analyzer.run(reader, path: file)
        if let e = summary.error {
            reportError("\(file): \(e.description); output above covers the \(summary.stats.records) record\(summary.stats.records == 1 ? "" : "s") before it")
            throw ExitCode(2)
        }
    }
}
