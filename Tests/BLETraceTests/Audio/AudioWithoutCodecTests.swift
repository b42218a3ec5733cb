import Foundation
import Testing
@testable import BLETrace

/// A machine without libsbc (here: `BLETRACE_LIBSBC` naming a file that is not there) still lists every
/// stream from its frame headers, sequence and timing, says in one line that decoding is unavailable, and keeps
/// the exit status of a run that could read its capture; only asking for a WAV fails, in one line (status 1).
@Suite struct AudioWithoutCodecTests {
    static let enabled = ExitStatusTests.binary != nil && AudioFixtures.canGenerate

    static func run(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ExitStatusTests.binary!)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["BLETRACE_LIBSBC"] = "/nonexistent/libsbc.so.1"
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test(.enabled(if: enabled))
    func streamsAreStillListedAndDecodingIsReportedUnavailableOnce() throws {
        let g = try AudioFixtures.generate(["--freq", "1000", "--seconds", "1", "--lose", "120"])
        defer { try? FileManager.default.removeItem(atPath: g.path) }
        let why = "audio decoding unavailable: libsbc not found at /nonexistent/libsbc.so.1 (BLETRACE_LIBSBC)"

        let json = try Self.run(["audio", g.path, "--format", "json", "-q"])
        #expect(json.status == 0, "\(json.err)")
        let doc = try #require(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let audio = (doc["audio"] as? [String: Any]) ?? doc
        #expect(audio["decoding_unavailable"] as? String == why, "\(json.out.prefix(400))")
        let streams = try #require(audio["streams"] as? [[String: Any]])
        #expect(streams.count == 1)
        // Frames and the planted loss come from the headers and the RTP sequence, not from the codec.
        #expect((streams.first?["frames"] as? Int ?? 0) > 0, "\(streams)")
        #expect(json.out.contains("\"lost\""), "\(json.out.prefix(600))")

        let text = try Self.run(["audio", g.path, "-q"])
        #expect(text.status == 0)
        #expect(text.out.components(separatedBy: why).count - 1 == 1, "\(text.out)")

        let analyze = try Self.run(["analyze", g.path, "--audio", "--summary-only", "-q"])
        #expect(analyze.status == 0)
        #expect(analyze.out.contains(why), "\(analyze.out.suffix(600))")

        let wav = NSTemporaryDirectory() + "bletrace-nocodec-" + UUID().uuidString + ".wav"
        let write = try Self.run(["audio", g.path, "--stream", "1", "-o", wav, "-q"])
        #expect(write.status == 1)
        #expect(write.err.split(separator: "\n").count == 1 && write.err.contains(why), "\(write.err)")
        #expect(!FileManager.default.fileExists(atPath: wav))
    }
}
