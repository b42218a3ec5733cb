import ArgumentParser
import Foundation
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
        Reads btsnoop (Android, btmon), Apple PacketLogger, pcap and pcapng captures (also gzip-compressed, \
        from standard input with '-', and Android bugreport zips or text) and decodes HCI, L2CAP, ATT/GATT, \
        SMP and advertising into a timeline.

        Exit status: 0 success, 1 differences found (diff) or a diagnosis at or above --fail-on's \
        severity (analyze, triage), 2 input errors (the output then holds everything decoded before the \
        damage).

        Examples:
          bletrace analyze btsnoop_hci.log
          bletrace analyze capture.log --format markdown --redact > report.md
          bletrace devices capture.pcap
          bletrace gatt capture.log --format json > db.json
          bletrace diff good.btsnoop bad.btsnoop

        Each command's help has more: bletrace help analyze

        Shell completion: bletrace --generate-completion-script bash|zsh|fish
        """,
        version: BLETraceVersion.string,
        // Every subcommand names itself (`commandName`): a name derived from the type's is made with
        // `String(describing:)`, whose protocol conformance lookups took about 1.5 million instructions a command
        // at every start (docs/performance.md, twenty-first step).
        subcommands: [Analyze.self, DiffCommand.self, Devices.self, Gatt.self, Audio.self, Triage.self, MCPCommand.self, MakeSamples.self, MakeCapture.self]
    )

    static func main() {
        // Writing to a closed pipe (`bletrace … | head`) must end quietly, not with a signal.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            // Usage errors exit with 2 like every other trouble (diff(1)'s convention), not EX_USAGE (64).
            let code = exitCode(for: error)
            if code == .validationFailure {
                var message = fullMessage(for: error) + "\n"
                message.withUTF8 { buf in _ = write(2, buf.baseAddress, buf.count) }
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// After a command wrote its output: a write that failed (a full disk, an I/O error; a closed pipe is no
/// failure) is one line on standard error and exit status 2, so that a script never takes an empty report for
/// a good one.
func checkOutput(_ out: OutputWriter) throws {
    out.flush()
    if let why = out.failureText {
        reportError("cannot write the output: \(why)")
        throw ExitCode(2)
    }
}

/// Writes a one-line message to standard error.
func reportError(_ message: String) {
    var s = "bletrace: " + message + "\n"
    s.withUTF8 { buf in _ = write(2, buf.baseAddress, buf.count) }
}

enum ColorMode: String, ExpressibleByArgument, CaseIterable { case auto, always, never }

extension TextStyle.TimeMode: ExpressibleByArgument {}

/// The capture to read, shared by every command that reads one.
struct InputOptions: ParsableArguments {
    @Argument(help: "The capture: btsnoop, PacketLogger, pcap or pcapng (detected from content), optionally gzip-compressed; an Android bugreport .zip or .txt; '-' for standard input.")
    var file: String

    @Option(name: .customLong("log"), help: "In a bugreport with several Bluetooth logs, decode log N (see --list-logs).")
    var log: Int?

    @Flag(name: .customLong("list-logs"), help: "List the Bluetooth logs inside a bugreport and exit.")
    var listLogs = false

    @Flag(name: .shortAndLong, help: "Print no notes or progress on standard error (errors still go there).")
    var quiet = false

    /// Opens the capture or exits with status 2 and a one-line error.
    func open() throws -> OpenedCapture { try open(path: file, notes: true) }

    /// Hands `body` a function that opens the capture, as many times as it needs when `twice`: standard input
    /// is then first copied to a temporary file (removed afterwards). The note on which bugreport log is
    /// decoded is printed once.
    func withReopenableInput<T>(twice: Bool, _ body: (() throws -> OpenedCapture) throws -> T) throws -> T {
        var path = file
        var spooled: String? = nil
        if twice && file == "-" {
            do {
                let s = try InputOpener.spoolStandardInput()
                spooled = s
                path = s
            } catch let e as CaptureError {
                reportError("\(file): \(e.description)")
                throw ExitCode(2)
            }
        }
        defer { if let s = spooled { unlink(s) } }
        var count = 0
        return try body {
            count += 1
            return try open(path: path, notes: count == 1)
        }
    }

    func open(path: String, notes: Bool) throws -> OpenedCapture {
        let opened = try openCapture(path, log: log, named: file)
        if listLogs {
            let out = OutputWriter(fd: 1)
            if opened.logs.isEmpty {
                out.write("\(file): a single capture (\(opened.reader.format.rawValue)), no bugreport logs\n")
            }
            for l in opened.logs { out.write("[\(l.index)] \(l.name) (\(l.size) bytes)\n") }
            try checkOutput(out)
            throw ExitCode.success
        }
        if notes && !quiet { noteChosenLog(opened, named: file, doing: "decoding", choose: "choose with --log N, list with --list-logs") }
        if notes && !quiet, let n = log, opened.logs.isEmpty {
            reportError("note: --log \(n) ignored: \(file) is a single capture (\(opened.reader.format.rawValue)), not a bugreport holding several logs")
        }
        return opened
    }

    /// Size of the file when it is a regular file (for progress), else nil.
    var fileSize: Int? {
        guard file != "-" else { return nil }
        var st = stat()
        guard stat(file, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(st.st_size)
    }
}

/// Opens a capture (`named` is how the user wrote it), or exits with status 2 and a one-line error.
func openCapture(_ path: String, log: Int?, named: String) throws -> OpenedCapture {
    do {
        return try InputOpener.open(path: path, log: log)
    } catch let e as CaptureError {
        reportError("\(named): \(e.description)")
        throw ExitCode(2)
    }
}

/// The note that a bugreport holds several logs, and which one is read.
func noteChosenLog(_ opened: OpenedCapture, named: String, doing: String, choose: String) {
    guard opened.logs.count > 1, let chosen = opened.chosenLog else { return }
    reportError("\(named) holds \(opened.logs.count) Bluetooth logs; \(doing) [\(chosen)] \(opened.logs[chosen - 1].name) (\(choose))")
}

/// How text output looks.
struct TextOptions: ParsableArguments {
    @Option(help: "Colour: auto (a terminal without NO_COLOR), always or never.")
    var color: ColorMode = .auto

    @Option(help: "Time column: relative (since the first record), absolute (UTC) or delta (since the previous record).")
    var time: TextStyle.TimeMode = .relative

    @Option(parsing: .unconditional, help: "Wrap long lines at this many columns: at least \(TextRenderer.narrowestWidth(.relative)), or \(TextRenderer.narrowestWidth(.absolute)) with --time absolute (the record, time, direction and handle columns come first); 0: never.")
    var width: Int = 100

    /// A width the timeline cannot wrap at is refused (it used to stop wrapping without a word).
    func validateWidth() throws {
        let narrowest = TextRenderer.narrowestWidth(time)
        guard width == 0 || width >= narrowest else {
            reportError("--width: \(width) is " + (width < 0 ? "not a column count" : "too narrow for the timeline's columns")
                        + " (at least \(narrowest)\(time == .absolute ? " with --time absolute" : ""), or 0 for no wrapping)")
            throw ExitCode(2)
        }
    }

    var style: TextStyle {
        TextStyle(color: TextStyle.wantsColor(color.rawValue, isTerminal: isatty(1) != 0, environment: Environment.all),
                  time: time, width: width)
    }
}

enum Environment {
    static var all: [String: String] {
        var out: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { out[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return out
    }
}

/// A progress line on standard error, for long files on a terminal.
final class ProgressBar {
    let total: Int
    let line = StatusLine()
    let start = StatusLine.now()

    init?(total: Int?, quiet: Bool) {
        guard !quiet, let t = total, t > 4 << 20, isatty(2) != 0 else { return nil }
        self.total = t
    }

    func update(_ position: Int) {
        guard StatusLine.now() - start > 300_000, position >= 0, line.due() else { return }
        let fraction = min(1.0, Double(position) / Double(max(total, 1)))
        let cells = 30
        let filled = Int(fraction * Double(cells))
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: cells - filled)
        line.draw("bletrace: [\(bar)] \(Int(fraction * 100))% \(position >> 20)/\(total >> 20) MiB")
    }

    func finish() { line.finish() }
}
