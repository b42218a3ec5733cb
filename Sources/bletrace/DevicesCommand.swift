import ArgumentParser
import BLETrace

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the devices of a capture: advertisers and connection peers.",
        discussion: """
        One entry per address and address type: first and last seen, reports, RSSI min/mean/max, names, \
        advertised and solicited services, manufacturers, TX power, beacons, whether it was connectable and \
        whether the capturing host connected to it.

        Examples:
          bletrace devices btsnoop_hci.log
          bletrace devices capture.pcap --format json \\
              | jq '.devices.devices[] | select(.connected)'
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The capture file (btsnoop, PacketLogger .pklg, pcap or pcapng; detected from its content).")
    var file: String

    @Option(name: .shortAndLong, help: "Output format: text or json.")
    var format: Format = .text

    func run() throws {
        let reader: RecordReader
        do {
            reader = try CaptureFile.open(path: file)
        } catch let e as CaptureError {
            reportError("\(file): \(e.description)")
            throw ExitCode(2)
        }
        let analyzer = Analyzer(sink: nil)
        let summary = analyzer.run(reader, path: file)
        let inventory = analyzer.layers.lazy.compactMap { $0 as? DeviceInventory }.first
        let devices = inventory?.devices ?? []
        let overflow = inventory?.overflowReports ?? 0
        let out = OutputWriter(fd: 1)
        switch format {
        case .text:
            for line in DeviceInventory.text(devices, overflowReports: overflow, limit: nil) {
                out.write(line)
                out.write(byte: 0x0A)
            }
        case .json:
            out.write("{\"schema\":\"bletrace/1\",\"capture\":")
            JSONOut.object(SummaryRender.captureFields(summary), to: out)
            out.write(",\"devices\":")
            JSONOut.object(DeviceInventory.fields(devices, overflowReports: overflow), to: out)
            if let e = summary.error {
                out.write(",\"error\":")
                JSONOut.string(e.description, to: out)
            }
            out.write("}\n")
        }
        out.flush()
        if let e = summary.error {
            reportError("\(file): \(e.description); the list covers the \(summary.stats.records) record\(summary.stats.records == 1 ? "" : "s") before it")
            throw ExitCode(2)
        }
    }
}
