import Testing
@testable import BLETrace

/// A capture's line in the triage report names each diagnosis id once, with its counts added up: a diagnosis
/// is one per peer, so a capture with weak security on two peers has two `weak_security` diagnoses.
@Suite struct TriageReportLineTests {
    static func diagnosis(_ ordinal: Int, _ id: String, count: Int, peer: String) -> TriageDiagnosis {
        TriageDiagnosis(ordinal: ordinal, id: id, severity: "warning", count: count, peer: peer, peerCount: 1,
                        connections: "1", firstRecord: ordinal, lastRecord: ordinal, title: id)
    }

    @Test func oneEntryPerIDInOrderOfFirstAppearance() throws {
        var r = TriageRecord(capture: TriageCapture(sha256: "ab", path: "x.log", member: nil, fileSHA256: "ab", status: .ok,
                                                    bletraceVersion: "test", analysedAt: "2026-11-25T00:00:00Z"))
        r.diagnoses = [Self.diagnosis(1, "weak_security", count: 1, peer: "00:00:00:00:00:01"),
                       Self.diagnosis(2, "capture_incomplete", count: 1, peer: "00:00:00:00:00:02"),
                       Self.diagnosis(3, "weak_security", count: 3, peer: "00:00:00:00:00:03")]
        let report = TriageReport([r])
        let line = try #require(report.lines.first)
        #expect(line.diagnoses.map(\.id) == ["weak_security", "capture_incomplete"])
        #expect(line.diagnoses.map(\.count) == [4, 1])
        #expect(TriageRender.text(report).contains { $0.hasSuffix("weak_security×4, capture_incomplete×1") })
    }
}
