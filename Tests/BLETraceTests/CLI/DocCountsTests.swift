import Foundation
import Testing
@testable import BLETrace

/// Counts and outputs the docs quote, checked against the code so they cannot drift (issue #37: the README
/// counted 29 diagnosis ids where there were 37, and said the bundled diff shows five differences where it
/// printed six).
@Suite struct DocCountsTests {
    static func doc(_ path: String) throws -> String {
        try String(contentsOf: TestSupport.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The README's "… N in all" of the diagnosis ids; every id has its row in docs/json.md's table and its
    /// section in docs/diagnoses.md, and those tables hold no id the code lacks.
    @Test func diagnosisIdsAreCountedAndListed() throws {
        let ids = Set(DiagnosisID.allCases.map(\.rawValue))
        let readme = try Self.doc("README.md")
        let said = try #require(readme.firstMatch(of: /`audio_setup_stalled`, … (\d+) in all/))
        #expect(Int(said.1) == ids.count, "README says \(said.1) diagnosis ids; the code has \(ids.count)")
        let json = try Self.doc("docs/json.md")
        let rows = Set(json.matches(of: /\n\| `([a-z0-9_]+)` \| (?:error|warning|info)/).map { String($0.1) })
        #expect(rows == ids, "docs/json.md: missing \(ids.subtracting(rows).sorted()), extra \(rows.subtracting(ids).sorted())")
        let guide = try Self.doc("docs/diagnoses.md")
        for id in ids { #expect(guide.contains("`\(id)`"), "docs/diagnoses.md lacks \(id)") }
    }

    /// The README's bundled diff: the block is what `diff` prints, and the count in the sentence before it is
    /// the count it prints.
    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func readmeDiffIsTheRealOutput() throws {
        let readme = try Self.doc("README.md")
        let intro = try #require(readme.firstMatch(of: /`diff` reports the five planted differences and the diagnosis one of them causes, (\d+) in all\n\(`bletrace diff (\S+) (\S+)`\):\n\n```\n/))
        let rest = readme[intro.range.upperBound...]
        let block = try #require(rest.range(of: "```\n")).lowerBound
        // Run from the package root, as the README's reader does: the output names the files as given.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(ExitStatusTests.binary))
        p.arguments = ["diff", String(intro.2), String(intro.3)]
        p.currentDirectoryURL = TestSupport.packageRoot
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 1)
        #expect(String(rest[..<block]) == out)
        #expect(out.contains("\n\(intro.1) differences, most important first\n"))
    }

    /// The top-level help states every exit status a command gives, --fail-on's 1 included.
    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func topLevelHelpStatesFailOnsExitStatus() throws {
        let help = try ExitStatusTests.run(["--help"]).out.replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "  ", with: " ")
        #expect(help.contains("1 differences found (diff) or a diagnosis at or above --fail-on's severity"))
    }
}
