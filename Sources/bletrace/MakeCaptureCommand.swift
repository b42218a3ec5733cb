import ArgumentParser
import BLETrace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a large synthetic capture (benchmarks, resource tests).
struct MakeCapture: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make-capture",
        abstract: "Write a large mixed synthetic capture with bletrace's capture writer.",
        shouldDisplay: false
    )

    enum Kind: String, ExpressibleByArgument { case btsnoop, pcap, pklg }

    @Option(help: "At least this many records.")
    var records: Int = 1_000_000

    @Option(help: "btsnoop (H4), pcap (link type 201) or pklg.")
    var format: Kind = .btsnoop

    @Option(help: "mixed (adverts, connections, pairing, ATT) or att (mostly ATT traffic: over 60 % ACL records).")
    var mix: String = "mixed"

    @Argument(help: "Output file.")
    var output: String

    func run() throws {
        guard let f = fopen(output, "wb") else {
            reportError("cannot write \(output)")
            throw ExitCode(2)
        }
        defer { fclose(f) }
        let writerFormat: CaptureWriter.Format
        switch format {
        case .btsnoop: writerFormat = .btsnoop(datalink: 1002)
        case .pcap: writerFormat = .pcap(linkType: 201)
        case .pklg: writerFormat = .packetLogger(littleEndian: true)
        }
        guard let m = SyntheticCapture.Mix(rawValue: mix) else {
            reportError("--mix takes mixed or att")
            throw ExitCode(2)
        }
        var failed = false
        let n = SyntheticCapture.generate(records: records, format: writerFormat, mix: m) { chunk in
            let written = chunk.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
            if written != chunk.count { failed = true }
        }
        if failed {
            reportError("short write to \(output)")
            throw ExitCode(2)
        }
        print("\(output): \(n) records")
    }
}
