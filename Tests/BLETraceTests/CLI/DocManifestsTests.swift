import Foundation
import Testing

/// The job definitions docs/ci.md and docs/triage.md show (issue #39), checked by schema-aware linters where
/// they are installed (`.ci/run` installs them from PyPI): the Kubernetes Indexed Job with
/// kubernetes-validate (strict), the GitHub Actions workflows and the GitLab job with check-jsonschema's
/// vendored schemas. Nothing is applied to a cluster or run on a CI server.
@Suite struct DocManifestsTests {
    static func installed(_ tool: String) -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin"]
        return dirs.map { $0 + "/" + tool }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func yamlBlocks(_ doc: String) throws -> [String] {
        let text = try DocCountsTests.doc(doc)
        return text.matches(of: /```yaml\n((?:.|\n)*?)```\n/).map { String($0.1) }
    }

    static func lint(_ tool: String, _ args: [String], _ text: String) throws -> (Int32, String) {
        let path = NSTemporaryDirectory() + "bletrace-doc-" + UUID().uuidString + ".yaml"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try TestSupport.runProgram(tool, args + [path], joined: true)
        return (r.status, r.out)
    }

    @Test func theJobFileIsTheManifestTheDocShows() throws {
        let blocks = try Self.yamlBlocks("docs/triage.md")
        let file = try DocCountsTests.doc("docs/k8s-triage-job.yaml")
        #expect(blocks.first == file)
        #expect(file.contains("completionMode: Indexed") && file.contains("--shard \"$JOB_COMPLETION_INDEX/8\"") && file.contains("completions: 8"))
    }

    @Test(.enabled(if: installed("kubernetes-validate") != nil))
    func theIndexedJobPassesKubernetesValidateStrict() throws {
        let tool = try #require(Self.installed("kubernetes-validate"))
        let job = try #require(try Self.yamlBlocks("docs/triage.md").first)
        let (status, out) = try Self.lint(tool, ["--strict"], job)
        #expect(status == 0 && out.contains("passed"), "\(out)")
        // The linter can fail: a misspelt field is refused.
        let (bad, _) = try Self.lint(tool, ["--strict"], job.replacingOccurrences(of: "completionMode:", with: "completionMod:"))
        #expect(bad != 0)
    }

    @Test(.enabled(if: installed("check-jsonschema") != nil))
    func theCIJobsPassTheirServersSchemas() throws {
        let tool = try #require(Self.installed("check-jsonschema"))
        let ci = try Self.yamlBlocks("docs/ci.md")
        let triage = try Self.yamlBlocks("docs/triage.md")
        #expect(ci.count == 2 && triage.count == 2)
        for (schema, text) in [("vendor.github-workflows", ci[0]), ("vendor.gitlab-ci", ci[1]), ("vendor.github-workflows", triage[1])] {
            let (status, out) = try Self.lint(tool, ["--builtin-schema", schema], text)
            #expect(status == 0, "\(schema): \(out)")
        }
        let (bad, _) = try Self.lint(tool, ["--builtin-schema", "vendor.github-workflows"], ci[0].replacingOccurrences(of: "runs-on:", with: "run-on:"))
        #expect(bad != 0)
    }
}
