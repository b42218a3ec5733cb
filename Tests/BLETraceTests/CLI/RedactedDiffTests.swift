import Foundation
import Testing

/// `diff --redact` keeps what identifies a product (firmware, hardware and software revisions, model and
/// manufacturer names) and replaces what identifies a person or a unit (addresses, names, serial numbers).
@Suite struct RedactedDiffTests {
    typealias X = ExitStatusTests

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func aFirmwareChangeSurvivesRedaction() throws {
        let r = try X.run(["diff", "--redact", X.sample("diff-good.btsnoop"), X.sample("diff-bad.btsnoop")])
        #expect(r.status == 1)
        let line = try #require(r.out.split(separator: "\n").first { $0.contains("2A26") })
        #expect(line.contains("\"1.4.2\"") && line.contains("\"1.4.3\""), "\(line)")
        #expect(!r.out.contains("C4:7C:8D:6A:11:22") && !r.out.contains("Thermo"))
        let analyze = try X.run(["analyze", "--redact", "--summary-only", X.sample("gatt-session.btsnoop")])
        #expect(!analyze.out.contains("C4:7C:8D:6A:11:22") && !analyze.out.contains("Thermo-42"))
    }
}
