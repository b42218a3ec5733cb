import ArgumentParser
import BLETrace

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the devices of a capture: advertisers and connection peers.",
        discussion: """
        One entry per address and address type: first and last seen, reports, RSSI min/mean/max, names, \
        advertised and solicited services, manufacturers, TX power, beacons, whether it was connectable and \
        whether the capturing host connected to it.

        Examples:
          bletrace devices btsnoop_hci.log
          bletrace devices capture.pcap --format json \\
              | jq '.devices.devices[] | select(.connected)'
          bletrace devices bugreport.zip --log 2 --redact
          bletrace devices sniffed.pcap --keys keys.yaml
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var input: InputOptions

    @Option(name: .shortAndLong, help: "Output format: text or json.")
    var format: Format = .text

    @OptionGroup(title: KeyOptionGroup.title) var keys: KeyOptionGroup

    @Flag(name: .long, help: "Replace addresses, device names, serial numbers, beacon UUIDs and ANCS text with stable pseudonyms.")
    var redact = false

    func run() throws {
        var options = DecodeOptions()
        options.keys = try keys.make()
        let opened = try input.open()
        let out = OutputWriter(fd: 1)
        let summary = Listings.devices(opened, path: input.file, format: format == .json ? .json : .text,
                                       options: options, redact: redact, out: out)
        try checkOutput(out)
        if let e = summary.error {
            reportError("\(input.file): \(e.description); the list covers the \(summary.stats.records) record\(summary.stats.records == 1 ? "" : "s") before it")
            throw ExitCode(2)
        }
    }
}
