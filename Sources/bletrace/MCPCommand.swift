import ArgumentParser
import BLETrace
import BLETraceMCP
import Dispatch

struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve bletrace's analyses to AI agents: a Model Context Protocol server over standard input and output.",
        discussion: """
        Tools: analyze, events, record, diagnoses, devices, gatt, diff, triage_report (see docs/mcp.md). \
        Every tool only reads; errors are the lines the commands print.

        Examples:
          bletrace mcp
          bletrace mcp --redact --root ~/captures
        """
    )

    @Flag(name: .long, help: "Redact every answer (addresses, names, serial numbers, beacon UUIDs, ANCS text, keys), whatever a call asks.")
    var redact = false

    @Option(name: .long, help: ArgumentHelp("Read only files under this folder (repeatable); by default any file the user can read.", valueName: "folder"))
    var root: [String] = []

    @Option(name: .long, help: "The most bytes of JSON one answer carries; longer lists come in pages, longer documents in pieces.")
    var maxBytes = 262_144

    func run() throws {
        guard maxBytes >= 4096 else {
            reportError("--max-bytes: \(maxBytes) is too small for an answer (4096 or more)")
            throw ExitCode(2)
        }
        let roots: [String]
        do {
            roots = try ServerPolicy.resolveRoots(root)
        } catch {
            reportError(error.message)
            throw ExitCode(2)
        }
        let policy = ServerPolicy(redact: redact, roots: roots, maxBytes: maxBytes)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: Error? = nil
        Task {
            do { try await BLETraceMCPServer.serve(policy) } catch { failure = error }
            done.signal()
        }
        done.wait()
        if let e = failure {
            reportError("mcp: \(e)")
            throw ExitCode(2)
        }
    }
}
