import ArgumentParser
import BLETrace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loads a `--uuids` file of names and decoders (JSON or YAML).
func loadUUIDs(_ path: String) throws -> UserDefinedUUIDs {
    guard let bytes = SmallFile.read(path) else {
        reportError("\(path): cannot read the UUID file")
        throw ExitCode(2)
    }
    do {
        return try UserDefinedUUIDs.parse(bytes, source: path)
    } catch {
        reportError("\(path): \(error)")
        throw ExitCode(2)
    }
}

/// Loads a `bletrace gatt --format json` export for `--gatt`.
func loadGATT(_ path: String) throws -> GATTDatabaseSet {
    guard let bytes = SmallFile.read(path) else {
        reportError("\(path): cannot read the GATT database file")
        throw ExitCode(2)
    }
    // A capture given where the database goes: say so, not "bad number at byte 0".
    let firstByte = bytes.first { !Array(" \t\r\n".utf8).contains($0) }
    if firstByte != UInt8(ascii: "{"), firstByte != UInt8(ascii: "["), let format = CaptureFile.detect(bytes.prefix(64)[...]) {
        reportError("--gatt \(path): this is a capture (\(format.rawValue)), not a GATT database; make one with `bletrace gatt \(path) --format json > db.json`")
        throw ExitCode(2)
    }
    do {
        return try GATTDatabaseSet.parse(json: bytes, source: path)
    } catch {
        reportError("\(path): \((error as? ByteError)?.description ?? "\(error)")")
        throw ExitCode(2)
    }
}

enum GattFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

struct Gatt: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatt",
        abstract: "Print the GATT database of every device, rebuilt from the discovery in a capture.",
        discussion: """
        The JSON form is what `bletrace analyze --gatt FILE` reads, for captures that lack discovery \
        (phones cache the database).

        Examples:
          bletrace gatt btsnoop_hci.log
          bletrace gatt discovery.pcap --format json > device.gatt.json
          bletrace analyze later.pklg --gatt device.gatt.json
        """
    )

    @OptionGroup var input: InputOptions

    @Option(name: .shortAndLong, help: "Output format: text or json.")
    var format: GattFormat = .text

    @Option(name: .long, help: "A GATT database exported earlier, used for devices this capture does not discover.")
    var gatt: String?

    @Option(name: .long, help: "Names for vendor UUIDs (JSON or YAML; see docs/json.md).")
    var uuids: String?

    @OptionGroup(title: KeyOptionGroup.title) var keys: KeyOptionGroup

    @Flag(name: .long, help: "Replace addresses, device names, serial numbers, beacon UUIDs and ANCS text with stable pseudonyms.")
    var redact = false

    func run() throws {
        var options = DecodeOptions()
        options.keys = try keys.make()
        if let u = uuids { options.uuids = try loadUUIDs(u) }
        try UserUUIDNames.with(options.uuids?.names) { try run(options) }
    }

    func run(_ given: DecodeOptions) throws {
        let opened = try input.open()
        var options = given
        if let g = gatt { options.gatt = try loadGATT(g) }
        let out = OutputWriter(fd: 1)
        let summary = Listings.gatt(opened, path: input.file, format: format == .json ? .json : .text, options: options,
                                    redact: redact, out: out)
        try checkOutput(out)
        if let e = summary.error {
            reportError("\(input.file): \(e.description); the database covers the \(summary.stats.records) record\(summary.stats.records == 1 ? "" : "s") before it")
            throw ExitCode(2)
        }
    }
}
