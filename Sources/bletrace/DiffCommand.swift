import ArgumentParser
import BLETrace

enum DiffFormat: String, ExpressibleByArgument, CaseIterable {
    case text, markdown, json
}

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two captures semantically: devices, adverts, connections, pairing, GATT, values, errors, procedures, timing.",
        discussion: """
        Differences are listed most important first. Devices are matched by address (a device whose \
        private address changed, by name and services), attributes by UUID path, procedure steps by what \
        they do, never by handle numbers or record positions.

        Exit status like diff(1): 0 no differences, 1 differences, 2 trouble.

        Examples:
          bletrace diff good.btsnoop bad.btsnoop
          bletrace diff good.log bad.log --format markdown --redact > diff.md
          bletrace diff a.pklg b.pklg --ignore rssi,timing --format json
          bletrace diff good-bugreport.zip bad-bugreport.zip --log-b 2
          bletrace diff sniffed-a.pcap sniffed-b.pcap --keys keys.yaml
        """
    )

    @Argument(help: "The first capture (A).")
    var a: String

    @Argument(help: "The second capture (B).")
    var b: String

    @Option(name: .shortAndLong, help: "Output format: text, markdown or json.")
    var format: DiffFormat = .text

    @Option(name: .long, help: "What to leave out, comma-separated: \(DiffOptions.ignorable.joined(separator: ", ")).")
    var ignore: String?

    @Option(name: .long, help: "A timing change counts from this many milliseconds (and when the slower is at least twice the faster).")
    var timingThreshold: Double = 50

    @Option(name: .customLong("log-a"), help: "In a bugreport A with several Bluetooth logs, compare log N (see analyze --list-logs).")
    var logA: Int?

    @Option(name: .customLong("log-b"), help: "In a bugreport B with several Bluetooth logs, compare log N.")
    var logB: Int?

    @OptionGroup(title: KeyOptionGroup.title) var keys: KeyOptionGroup

    @Flag(name: .long, help: "Replace addresses, device names, serial numbers, beacon UUIDs and ANCS text with pseudonyms, the same on both sides.")
    var redact = false

    @Flag(name: .shortAndLong, help: "Print no notes on standard error (errors still go there).")
    var quiet = false

    /// The digest, and whether the capture was damaged part-way (the diff is still printed; exit status 2).
    func digest(_ path: String, log: Int?, options: DecodeOptions, _ redactor: Redactor?) throws -> (CaptureDigest, Bool) {
        let opened = try openCapture(path, log: log, named: path)
        if !quiet { noteChosenLog(opened, named: path, doing: "comparing", choose: "choose with --log-a/--log-b N") }
        let (d, summary) = CaptureDigest.make(opened.reader, path: path, containers: opened.containers, options: options, observer: redactor)
        redactor?.learn(summary: summary)
        if let e = summary.error {
            reportError("\(path): \(e.description); compared the \(summary.stats.records) record\(summary.stats.records == 1 ? "" : "s") before it")
        }
        return (d, summary.error != nil)
    }

    func run() throws {
        let options: DiffOptions
        do {
            options = try DiffOptions.checked(ignore: ignore, timingThresholdMillis: timingThreshold)
        } catch {
            reportError(error.message)
            throw ExitCode(2)
        }
        let redactor = redact ? Redactor() : nil
        var decode = DecodeOptions()
        decode.keys = try keys.make()
        let (da, damagedA) = try digest(a, log: logA, options: decode, redactor)
        let (db, damagedB) = try digest(b, log: logB, options: decode, redactor)
        let diff = Diff(da, db, options: options)
        let out = OutputWriter(fd: 1)
        let r: (String) -> String = redactor.map { x in { x.redact($0) } } ?? { $0 }
        switch format {
        case .text:
            for l in DiffRender.text(diff, redact: r) { out.write(SafeText.escaped(l)); out.write(byte: 0x0A) }
        case .markdown:
            for l in DiffRender.markdown(diff, redact: r) { out.write(SafeText.escaped(l)); out.write(byte: 0x0A) }
        case .json:
            let f = DiffRender.json(diff, redact: { v in redactor?.redact(v) ?? v })
            JSONOut.object(f, to: out)
            out.write(byte: 0x0A)
        }
        try checkOutput(out)
        if damagedA || damagedB { throw ExitCode(2) }
        if !diff.isEmpty { throw ExitCode(1) }
    }
}
