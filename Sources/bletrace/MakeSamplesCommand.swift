import ArgumentParser
import BLETrace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Regenerates the bundled sample captures with the project's own capture writer.
struct MakeSamples: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make-samples",
        abstract: "Write the bundled sample captures (made by bletrace's capture writer) into a folder.",
        shouldDisplay: false
    )

    @Argument(help: "Destination folder (must exist).")
    var directory: String = "samples"

    func run() throws {
        for sample in Samples.all() {
            let path = directory + "/" + sample.fileName
            guard let f = fopen(path, "wb") else {
                reportError("cannot write \(path)")
                throw ExitCode(2)
            }
            let written = sample.bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
            fclose(f)
            guard written == sample.bytes.count else {
                reportError("short write to \(path)")
                throw ExitCode(2)
            }
            print("\(path): \(sample.bytes.count) bytes — \(sample.description)")
        }
    }
}
