import ArgumentParser
import Foundation
import BLETrace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The report formats: the store's report (text, json, csv, markdown) or a capture-by-capture one for the
/// tools around bletrace (junit, sarif, jsonl).
enum TriageFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, csv, markdown, junit, sarif, jsonl
}

struct Triage: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "triage",
        abstract: "Analyse many captures into a database: which failed, how, and what the failures have in common.",
        discussion: """
        Every capture in the files, directories (recursive) and glob patterns given is analysed once (in \
        parallel), and its facts are stored: diagnoses, devices, connections, Device Information per peer, \
        link statistics, findings (tables in docs/triage.md). A capture already stored with the same content \
        hash and bletrace version is skipped, so a run that was stopped picks up where it was; one stored as \
        failed or damaged is analysed again, and a file whose content changed replaces its old capture. The \
        report lists each capture and, per diagnosis, how many captures have it, by peer firmware revision and \
        model.

        Exit status: 0, 1 when --fail-on matches a capture, 2 for a bad option or a store that cannot be used \
        (a capture that cannot be read is stored as failed, not an exit status).

        Examples:
          bletrace triage nightly/ --db nightly.sqlite
          bletrace triage 'rig-*/btsnoop_hci.log*' bugreports/ --jobs 8 --fail-on error
          bletrace triage --db nightly.sqlite --report --format markdown > triage.md
          bletrace triage shard-3/ --db postgresql://triage@db.lab/fleet
          find /nfs/rig-7 -name 'btsnoop*' | bletrace triage - --db rig-7.sqlite
          bletrace triage --db postgresql://admin@db.lab/fleet --create-schema
          bletrace triage fleet/ --shard "$JOB_COMPLETION_INDEX/8" \\
              --db postgresql://triage@db.lab/fleet
          bletrace triage rig/ --db rig.sqlite --format junit > triage-junit.xml
          bletrace triage rig/ --db rig.sqlite --format jsonl >> triage.jsonl
        """
    )

    @Argument(help: "Captures, directories (searched recursively) and glob patterns; bugreports hold one capture per Bluetooth log; '-' reads a list of paths, one a line, from standard input.")
    var paths: [String] = []

    @Option(name: .long, help: ArgumentHelp("The store: an SQLite file, or postgresql://… for a PostgreSQL server (needs libpq5).", valueName: "file|url"))
    var db = "bletrace-triage.sqlite"

    @Option(name: [.customShort("j", allowingJoined: true), .long], help: "Captures analysed at once (default: the number of cores).")
    var jobs: Int?

    @Flag(name: .long, help: "Analyse and store again the captures already stored with this bletrace version.")
    var force = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Give up on a capture after this many seconds: it is stored as failed (\"timeout after N s\").", valueName: "seconds"))
    var timeout: Double?

    @Flag(name: .long, help: "Print the report from the store without analysing anything.")
    var report = false

    @Flag(name: .long, help: "Create the store's tables (once, as a role that may create them) and exit; with --redact for a redacted store.")
    var createSchema = false

    @Option(name: .shortAndLong, help: "Report format: text, json, csv (one row per capture), markdown, junit (a test suite per capture, a case per diagnosis id, failing at --fail-on, default error), sarif (SARIF 2.1.0) or jsonl (one line per capture with its diagnoses).")
    var format: TriageFormat = .text

    @Option(name: .long, help: ArgumentHelp("Triage only shard K of N (K from 0): the inputs are split by content hash, the same on every machine, so N workers given the same inputs and store share them without overlap (see docs/triage.md).", valueName: "K/N"))
    var shard: String?

    @Flag(name: .long, help: "Store and print addresses and names as pseudonyms, as analyze --redact does (per capture). A store is all redacted or all plain.")
    var redact = false

    @Option(name: .long, help: "Exit with status 1 when a capture has a diagnosis of this severity or worse: error or warning.")
    var failOn: FailOn?

    @Flag(name: .shortAndLong, help: "No progress and no notes (skipped links, waiting for a lock) on standard error (errors still go there).")
    var quiet = false

    func fail(_ message: String) -> ExitCode {
        reportError(message)
        return ExitCode(2)
    }

    /// Paths to triage: those given, with `-` replaced by the lines of standard input (empty lines ignored).
    func inputPaths() -> [String] {
        guard paths.contains("-") else { return paths }
        var listed: [String] = []
        while let line = readLine(strippingNewline: true) {
            let p = line.hasSuffix("\r") ? String(line.dropLast()) : line
            if !p.isEmpty { listed.append(p) }
        }
        return paths.flatMap { $0 == "-" ? listed : [$0] }
    }

    func run() throws {
        if let j = jobs, j < 1 { throw fail("--jobs: \(j) is not a number of parallel analyses (1 or more)") }
        if let t = timeout, !(t.isFinite && t > 0) { throw fail("--timeout: \(t) is not a number of seconds (more than 0)") }
        if report && createSchema { throw fail("--report and --create-schema: give one of them") }
        var shardValue: TriageShard? = nil
        if let text = shard {
            guard let s = TriageShard(text) else { throw fail("--shard: '\(text)' is not a shard K/N with 0 ≤ K < N (K counts from 0)") }
            if report || createSchema { throw fail("--shard splits the captures to analyse: give captures with it, not --\(report ? "report" : "create-schema")") }
            shardValue = s
        }
        if (report || createSchema) && !paths.isEmpty { throw fail("--\(report ? "report" : "create-schema") reads or prepares the store only: give no captures with it") }
        if !report && !createSchema && paths.isEmpty { throw fail("give the captures or directories to triage (or --report to print what --db holds)") }
        let postgres = TriageStores.isPostgres(db)
        let shown = TriageStores.displayName(db)
        if report && !postgres && !FileManager.default.fileExists(atPath: db) {
            throw fail("--db \(db): no such store (run bletrace triage with captures first)")
        }
        var files: [String] = []
        if !report && !createSchema {
            let given = inputPaths()
            if given.isEmpty { throw fail("-: standard input lists no paths") }
            let found = TriageInputs.files(given, exclude: postgres ? [] : [db, db + "-wal", db + "-shm", db + "-journal"])
            if !found.missing.isEmpty {
                throw fail(found.missing.map { "\($0): no such file or directory" }.joined(separator: "; "))
            }
            if !quiet { for s in found.skipped { reportError("skipped \(s.path): \(s.reason)") } }
            files = found.files
        }
        let store: TriageStore
        do {
            let quiet = self.quiet
            store = try TriageStores.open(db, readOnly: report, waiting: { if !quiet { reportError($0) } })
            try store.prepare(redacted: redact, check: !report)
        } catch let e as TriageStoreError {
            throw fail(e.description)
        }
        defer { store.close() }
        if createSchema {
            if !quiet { reportError("\(shown) has the triage tables (schema version \(TriageSchema.version)\(redact ? ", redacted" : ""))") }
            return
        }

        var records: [TriageRecord]
        do {
            if report {
                records = try store.load()
            } else {
                var options = TriageRun.Options()
                if let j = jobs { options.jobs = j }
                options.force = force
                options.shard = shardValue
                options.analysis.redact = redact
                options.analysis.timeout = timeout
                let bar = TriageProgress(quiet: quiet)
                let outcome = try TriageRun.run(files: files, store: store, options: options) { bar?.update($0) }
                bar?.finish()
                let wanted = Set(outcome.hashes)
                records = try store.load().filter { wanted.contains($0.capture.sha256) }
                if !quiet { reportError(Self.note(outcome, files: files.count, store: shown, shard: shardValue)) }
            }
        } catch let e as TriageStoreError {
            throw fail(e.description)
        }

        let out = OutputWriter(fd: 1)
        if let f = TriageRender.Format(rawValue: format.rawValue) {
            TriageRender.write(TriageReport(records), format: f, to: out)
        } else if let f = TriageCIRender.Format(rawValue: format.rawValue) {
            TriageCIRender.write(records, format: f, failOn: failOn?.severity ?? .error, to: out)
        }
        try checkOutput(out)
        if let f = failOn {
            let hits = TriageReport.matches(records, atLeast: f.severity)
            if let first = hits.first {
                if !quiet {
                    reportError("--fail-on \(f.rawValue): \(hits.count) capture\(hits.count == 1 ? "" : "s") with a diagnosis at or above \(f.rawValue), first \(first.capture): \(first.id)")
                }
                throw ExitCode(1)
            }
        }
    }

    /// The closing note: "triaged 9 captures from 8 files into x.sqlite: 2 analysed (2 retried, 1 failed),
    /// 7 already stored, 1 duplicate, 1 stale capture removed, 40.0 captures/s".
    static func note(_ outcome: TriageRun.Outcome, files: Int, store: String, shard: TriageShard? = nil) -> String {
        func n(_ count: Int, _ what: String) -> String { "\(count) \(what)\(count == 1 ? "" : "s")" }
        let p = outcome.progress
        var note = "triaged \(n(outcome.hashes.count, "capture")) from \(n(files, "file"))"
        if let s = shard { note += " (shard \(s.description): \(outcome.otherShards) left to the other shards)" }
        note += " into \(store): \(p.analysed) analysed"
        var inner: [String] = []
        if p.retried > 0 { inner.append("\(p.retried) retried") }
        if p.failed > 0 { inner.append("\(p.failed) failed") }
        if !inner.isEmpty { note += " (" + inner.joined(separator: ", ") + ")" }
        note += ", \(p.skipped) already stored"
        if outcome.duplicates > 0 { note += ", " + n(outcome.duplicates, "duplicate") }
        if outcome.stale > 0 { note += ", " + n(outcome.stale, "stale capture") + " removed" }
        if p.seconds > 0 && p.analysed > 0 { note += ", \(String(format: "%.1f", Double(p.analysed) / p.seconds)) captures/s" }
        return note
    }
}

/// The progress line on a terminal: files done of all, captures per second, failures.
final class TriageProgress {
    let line = StatusLine()

    init?(quiet: Bool) {
        guard !quiet, isatty(2) != 0 else { return nil }
    }

    func update(_ p: TriageRun.Progress) {
        guard line.due(force: p.filesDone == p.filesTotal) else { return }
        let rate = p.seconds > 0 ? Double(p.analysed) / p.seconds : 0
        var text = "bletrace: triage \(p.filesDone)/\(p.filesTotal) files, \(p.analysed) analysed (\(String(format: "%.1f", rate))/s)"
        if p.skipped > 0 { text += ", \(p.skipped) already stored" }
        text += ", \(p.failed) failed"
        line.draw(text)
    }

    func finish() { line.finish() }
}
