import Foundation
import Testing

/// The command-line tool's exit statuses, as README and --help document them: 0 success, 1 differences (diff),
/// 2 trouble; and never a runtime trap or stack trace on standard error.
@Suite struct ExitStatusTests {
    /// The `bletrace` binary built beside the test bundle, when it is there.
    static let binary: String? = {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let p = candidate.appendingPathComponent("bletrace").path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }()

    static func run(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        try TestSupport.runProgram(binary!, args)
    }

    static func sample(_ name: String) -> String { TestSupport.packageRoot.appendingPathComponent("samples/\(name)").path }

    @Test(.enabled(if: binary != nil))
    func statuses() throws {
        #expect(try Self.run(["analyze", Self.sample("gatt-session.btsnoop")]).status == 0)
        #expect(try Self.run(["diff", Self.sample("diff-good.btsnoop"), Self.sample("diff-good.btsnoop")]).status == 0)
        #expect(try Self.run(["diff", Self.sample("diff-good.btsnoop"), Self.sample("diff-bad.btsnoop")]).status == 1)
        let missing = try Self.run(["analyze", "/nonexistent/capture.log"])
        #expect(missing.status == 2)
        #expect(missing.err.hasPrefix("bletrace: /nonexistent/capture.log: cannot open"))
        let usage = try Self.run(["analyze"])
        #expect(usage.status == 2)
        #expect(try Self.run(["analyze", Self.sample("scan.btsnoop"), "--format", "nope"]).status == 2)
        #expect(try Self.run(["--help"]).status == 0)
    }

    @Test(.enabled(if: binary != nil))
    func damagedFileKeepsTheDecodedPartAndSaysWhere() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.sample("gatt-session.btsnoop")))
        let path = TestSupport.temporaryFile([UInt8](bytes.dropLast(7)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try Self.run(["analyze", path, "--format", "jsonl"])
        #expect(r.status == 2)
        #expect(r.out.split(separator: "\n").count == 87) // 86 events and the summary line
        #expect(r.err.contains("record 87 at byte offset"))
        #expect(!r.err.contains("Fatal error") && !r.err.contains("Backtrace"))
    }
}
