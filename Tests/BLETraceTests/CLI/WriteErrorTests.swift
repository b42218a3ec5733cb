import Foundation
import Testing

/// A write that fails (standard output on a full disk: /dev/full) is one line on standard error and exit status
/// 2, for every command and format; a reader that goes away (a closed pipe) ends the run quietly.
@Suite struct WriteErrorTests {
    typealias X = ExitStatusTests

    static func runToDevFull(_ args: [String]) throws -> (status: Int32, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(X.binary))
        p.arguments = args
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let err = Pipe()
        p.standardOutput = full
        p.standardError = err
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: e, as: UTF8.self))
    }

    @Test(.enabled(if: ExitStatusTests.binary != nil && FileManager.default.fileExists(atPath: "/dev/full")))
    func fullDiskIsAnError() throws {
        let sample = X.sample("gatt-session.btsnoop")
        var runs: [[String]] = ["text", "json", "jsonl", "markdown", "html"].map { ["analyze", "--format", $0, sample] }
        runs.append(["analyze", "--format", "json", "--single-thread", sample])
        runs.append(["devices", sample])
        runs.append(["devices", "--format", "json", sample])
        runs.append(["gatt", sample])
        runs.append(["diff", X.sample("diff-good.btsnoop"), X.sample("diff-bad.btsnoop")])
        runs.append(["analyze", "--list-logs", sample])
        for args in runs {
            let r = try Self.runToDevFull(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.err == "bletrace: cannot write the output: No space left on device\n", "\(args): \(r.err)")
        }
    }

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func closedPipeEndsQuietly() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(X.binary))
        p.arguments = ["analyze", "--format", "json", X.sample("ancs-iphone.pklg")]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Read a little, then go away like `| head -c 100`.
        _ = out.fileHandleForReading.readData(ofLength: 100)
        try out.fileHandleForReading.close()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(e.isEmpty, "\(String(decoding: e, as: UTF8.self))")
    }
}
