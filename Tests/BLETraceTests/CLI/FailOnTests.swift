import Foundation
import Testing

/// `analyze --fail-on error|warning`: exit 1 when a diagnosis at or above the level is found, 0 otherwise, and
/// 2 still for a capture that could not be read; the report is written either way.
@Suite struct FailOnTests {
    typealias X = ExitStatusTests

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func gatesOnTheSeverity() throws {
        // gatt-session has one warning (a read not permitted), pairing-failed an error.
        let clean = try X.run(["analyze", "--summary-only", "--fail-on", "error", X.sample("gatt-session.btsnoop")])
        #expect(clean.status == 0)
        #expect(clean.out.contains("warning attribute_not_permitted"))
        let warned = try X.run(["analyze", "--summary-only", "--fail-on", "warning", X.sample("gatt-session.btsnoop")])
        #expect(warned.status == 1)
        #expect(warned.err.contains("--fail-on warning: 1 diagnosis at or above warning, first attribute_not_permitted at record 82"))
        let failed = try X.run(["analyze", "--format", "json", "--fail-on", "error", X.sample("pairing-failed.pcap")])
        #expect(failed.status == 1)
        #expect(failed.out.contains("\"id\":\"pairing_rejected_by_user\""))
        #expect(try X.run(["analyze", "--fail-on", "error", X.sample("scan.btsnoop")]).status == 0)
        let bad = try X.run(["analyze", "--fail-on", "fatal", X.sample("scan.btsnoop")])
        #expect(bad.status != 0 && bad.status != 1)
        #expect(try X.run(["analyze", "--fail-on", "error", "/nonexistent/capture.log"]).status == 2)
    }
}
