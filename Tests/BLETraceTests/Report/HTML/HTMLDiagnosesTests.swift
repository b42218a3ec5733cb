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

/// The HTML devices table lists connected devices first, as text and Markdown do (issue #27: on the Syed
/// capture both connected devices fell into "… and 760 more").
@Suite struct HTMLDevicesOrderTests {
    @Test func connectedDevicesLead() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        for i in 0..<120 {
            s.advert(addressType: 1, address: BDAddr(0xC0_00_00_00_10_00 + UInt64(i)), data: HCIBuilder.ad(0x01, [0x06]), rssi: -70)
        }
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        s.disconnect(handle: 0x0040)
        let html = try HTMLReportTests.render(s.writer.bytes, path: "many.btsnoop")
        let table = try #require(html.range(of: "<table class=\"devices\">"))
        let more = try #require(html.range(of: "more (<code>bletrace devices</code> lists them all)"))
        let thermo = try #require(html.range(of: "<code>\(Samples.thermo)</code>"))
        #expect(table.upperBound < thermo.lowerBound && thermo.lowerBound < more.lowerBound)
    }
}
