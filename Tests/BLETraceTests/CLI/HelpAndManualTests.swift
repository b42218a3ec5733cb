import Foundation
import Testing

/// The help texts and the manual page: examples that fit 80 columns (a command is never wrapped in the middle),
/// examples in the top-level help, and a manual page `man -l` reads without warnings.
@Suite struct HelpAndManualTests {
    static let commands = [[], ["analyze"], ["diff"], ["devices"], ["gatt"], ["triage"], ["audio"], ["mcp"], ["make-samples"], ["make-capture"]]

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func examplesFitEightyColumns() throws {
        for c in Self.commands {
            let help = try ExitStatusTests.run(c + ["--help"]).out
            // argument-parser wraps at 80 columns; an example line it wrapped leaves a line that starts at column 1
            // without being a heading ("USAGE:", "Examples:", …).
            let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
            guard let start = lines.firstIndex(of: "Examples:") else { continue }
            for l in lines[(start + 1)...].prefix(while: { !$0.hasPrefix("USAGE:") && !$0.isEmpty && $0 != "SUBCOMMANDS:" }) {
                #expect(l.hasPrefix("  ") && l.count <= 80, "\(c): \(l)")
            }
        }
    }

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func topLevelHelpHasTheExamplesTheREADMEPromises() throws {
        let help = try ExitStatusTests.run(["--help"]).out
        #expect(help.contains("Examples:\n  bletrace analyze "))
        let readme = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("bletrace --help") && readme.contains("with examples"))
    }

    /// mdoc warns about empty input lines; examples belong in a literal display, not a filled paragraph.
    @Test func manualPageIsCleanMdoc() throws {
        let page = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("docs/man/bletrace.1"), encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(!lines.contains(""))
        for (i, l) in lines.enumerated() where l == "Examples:" {
            #expect(lines[lines.index(lines.startIndex, offsetBy: i + 1)] == ".Bd -literal -offset indent")
        }
        #expect(lines.filter { $0 == "Examples:" }.count >= 5)
        #expect(page.contains(".It Fl -max-chars Ar max-chars"))
    }
}

/// The README's usage lines call `bletrace`, which the set-up builds but does not install: it says how.
@Suite struct ReadmeUsageTests {
    @Test func usageSaysHowToPutBletraceOnPath() throws {
        let readme = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let usage = try #require(readme.range(of: "## Usage"))
        let firstCall = try #require(readme.range(of: "bletrace analyze capture.pcap", range: usage.upperBound..<readme.endIndex))
        let before = readme[usage.upperBound..<firstCall.lowerBound]
        #expect(before.contains("export PATH=\"$PWD/.build/release:$PATH\""))
        #expect(before.contains("install -m 755 .build/release/bletrace"))
    }
}
