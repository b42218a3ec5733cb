import Foundation
import Testing
@testable import BLETrace

/// The HTML report's diagnosis card: above the findings and the charts, one block per diagnosis with its
/// severity, id, title, explanation, next step and evidence linked to the timeline.
@Suite struct HTMLDiagnosesTests {
    @Test func cardLeadsAndLinksItsEvidence() throws {
        let html = try HTMLReportTests.render(Samples.diffSession(bad: true).writer.bytes, path: "diff-bad.btsnoop")
        let card = try #require(html.range(of: "<h2 id=\"diagnoses\">Diagnosis</h2>"))
        let findings = try #require(html.range(of: "<h2 id=\"findings\">"))
        #expect(card.lowerBound < findings.lowerBound)
        #expect(html.contains("<div class=\"diagnosis error\" data-id=\"insufficient_security\">"))
        #expect(html.contains("Read Request of PnP ID (Device Information, handle 0x0018) was refused"))
        #expect(html.contains("<b>Next:</b> The app used the attribute before pairing"))
        #expect(html.contains("Evidence: records <a href=\"#r63\">63</a>"))
        #expect(html.contains("<a href=\"#diagnoses\">Diagnosis</a>"))
        // A capture without a cause says so.
        let scan = try HTMLReportTests.render(Samples.scan().writer.bytes, path: "scan.btsnoop")
        #expect(scan.contains("<h2 id=\"diagnoses\">Diagnosis</h2>\n<p>None: no cause of failure found.</p>"))
    }
}
