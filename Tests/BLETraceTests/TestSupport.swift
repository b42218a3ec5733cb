import Foundation
import ZIPFoundation
@testable import BLETrace

/// Shared helpers for the tests.
enum TestSupport {
    /// The package root, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs a program to its end: its exit status, standard output and standard error (`joined`: standard error
    /// goes into standard output, `err` is empty).
    static func runProgram(_ path: String, _ args: [String], joined: Bool = false) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = joined ? out : err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = joined ? Data() : err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// ../shared/captures beside the package, when present.
    static var sharedCaptures: URL? {
        let u = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/captures")
        return FileManager.default.fileExists(atPath: u.path) ? u : nil
    }

    /// The tshark binary, when installed (comparison tests run only then).
    static let tshark: String? = ["/usr/bin/tshark", "/usr/local/bin/tshark", "/opt/homebrew/bin/tshark"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs tshark with `args` and returns its standard output.
    static func runTShark(_ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tshark ?? "/usr/bin/tshark")
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes bytes to a fresh temporary file and returns its path.
    static func temporaryFile(_ bytes: [UInt8], suffix: String = ".bin") -> String {
        let path = NSTemporaryDirectory() + "bletrace-test-" + UUID().uuidString + suffix
        // Checked, so that a test never reads a file that was not written (and the build has no unused-result warning).
        let written = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        precondition(written, "cannot write \(path)")
        return path
    }

    /// Writes a zip (a bugreport, say) holding `entries` (name, bytes), deflated, to a fresh temporary file and
    /// returns its path.
    static func zipFile(_ entries: [(String, [UInt8])]) throws -> String {
        let path = NSTemporaryDirectory() + "bletrace-test-" + UUID().uuidString + ".zip"
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (name, bytes) in entries {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate) { position, size in
                Data(bytes[Int(position)..<Int(position) + size])
            }
        }
        return path
    }

    /// Reads every record of a capture; returns the records (data copied) and the error that ended reading, if any.
    static func readAll(_ reader: RecordReader) -> ([Record], CaptureError?) {
        var out: [Record] = []
        do {
            while var r = try reader.next() {
                r.data = ArraySlice(Array(r.data))
                out.append(r)
            }
            return (out, nil)
        } catch let e as CaptureError {
            return (out, e)
        } catch {
            return (out, .readFailed(record: -1, offset: -1, reason: "\(error)"))
        }
    }

    /// Decodes records through the standard analyzer, collecting every event and the summary.
    static func analyze(_ reader: RecordReader, path: String = "test") -> ([TraceEvent], Summary) {
        let sink = CollectingSink()
        let summary = Analyzer(sink: sink).run(reader, path: path)
        return (sink.events, summary)
    }

    /// Decodes a scenario's capture from memory.
    static func analyze(_ scenario: Scenario) throws -> ([TraceEvent], Summary) {
        switch scenario.writer.format {
        case .pcap:
            let path = temporaryFile(scenario.writer.bytes, suffix: ".pcap")
            defer { try? FileManager.default.removeItem(atPath: path) }
            return analyze(try CaptureFile.open(path: path))
        default:
            return analyze(try CaptureFile.open(bytes: scenario.writer.bytes))
        }
    }

    /// Runs one HCI packet of the given kind through a fresh pipeline.
    static func decode(_ kind: PacketKind, _ data: [UInt8], direction: Direction = .controllerToHost) -> TraceEvent {
        var result: TraceEvent? = nil
        let p = Pipeline(emit: { result = $0 })
        p.process(Record(number: 1, timestamp: Timestamp(micros: 0), direction: direction, kind: kind, data: data[...]))
        return result!
    }
}

final class CollectingSink: EventSink {
    var events: [TraceEvent] = []
    var summary: Summary?
    func begin(_ capture: CaptureInfo) {}
    func event(_ e: TraceEvent) { events.append(e) }
    func end(_ summary: Summary) { self.summary = summary }
}

/// A seeded random number generator (SplitMix64) for tests that feed random bytes: the same seed gives the same
/// bytes, so a run that fails can be replayed, and a pass does not depend on luck.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
