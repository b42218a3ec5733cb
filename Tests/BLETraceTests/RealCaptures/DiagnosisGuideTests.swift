import Foundation
import Testing
@testable import BLETrace

/// docs/guide.md's worked example: for each real capture it shows, bletrace still prints exactly the diagnosis
/// lines the guide quotes. Each capture is skipped when ../shared/captures lacks it.
@Suite struct DiagnosisGuideTests {
    struct Example: CustomStringConvertible {
        var file: String
        var lines: [String]
        var description: String { file }
    }

    static func examples() -> [Example] {
        let guide = TestSupport.packageRoot.appendingPathComponent("docs/guide.md")
        guard let text = try? String(contentsOf: guide, encoding: .utf8) else { return [] }
        var out: [Example] = []
        let lines = text.components(separatedBy: "\n")
        for (i, l) in lines.enumerated() where l.hasPrefix("<!-- diagnoses: ") {
            let file = String(l.dropFirst("<!-- diagnoses: ".count).dropLast(" -->".count))
            let block = lines[(i + 3)...].prefix { $0 != "```" }
            out.append(Example(file: file, lines: Array(block)))
        }
        return out
    }

    @Test func theGuideHasItsExamples() {
        #expect(Self.examples().count >= 5)
        #expect(Self.examples().allSatisfy { !$0.lines.isEmpty })
    }

    @Test(arguments: examples())
    func guideShowsWhatBletracePrints(_ example: Example) throws {
        guard let dir = TestSupport.sharedCaptures else { return }
        let path = dir.appendingPathComponent(example.file).path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let (_, summary) = TestSupport.analyze(try CaptureFile.open(path: path), path: path)
        let printed = SummaryRender.text(summary).filter { $0.wholeMatch(of: /\ {4}(error|warning|info) +[a-z_]+: .+/) != nil }
        #expect(printed == example.lines)
    }

    /// The Syed capture's two stories, as an expert would tell them: the light controller's link lost and not
    /// re-established, and the phone writing a Mac's Continuity characteristics before pairing, then
    /// abandoning each Numeric Comparison pairing itself.
    @Test func syedCaptureStories() throws {
        guard let dir = TestSupport.sharedCaptures else { return }
        let path = dir.appendingPathComponent("Syed-Bipul-Rahman__bluethooth_light_controll__btsnoop_hci.log").path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let d = TestSupport.analyze(try CaptureFile.open(path: path), path: path).1.diagnoses
        let light = BDAddr(string: "62:FA:DB:F9:85:E9")
        #expect(d.first { $0.id == .linkLost }.map { ($0.peer, $0.count) } ?? (nil, 0) == (light, 4))
        #expect(d.first { $0.id == .connectionNotEstablished }?.connections == [8, 13])
        // Advertising right after a failed connection (0x3E) is what a peripheral does: no restart claimed.
        #expect(!d.contains { $0.id == .peerRestarted })
        // The Service Changed indication at 51481 was the phone's own: no stale cache claimed.
        #expect(!d.contains { $0.id == .staleGATTCache })
        let failed = try #require(d.first { $0.id == .pairingFailed })
        #expect(failed.count == 5 && failed.facts.byLocal == true && failed.connections == [7])
        #expect(DiagnosisText.explanation(failed).contains("Numeric Comparison"))
        let security = try #require(d.first { $0.id == .insufficientSecurity })
        #expect(security.facts.number == 9 && security.facts.attributes == 2)
        #expect(DiagnosisText.title(security).contains("Apple Continuity"))
        // Clean of noise: the vendor pseudo-handle's connection raises nothing.
        #expect(!d.contains { $0.connections.contains(1) })
    }

    /// The shared garmin capture (issue #26): its only timeout is on a link the sniffer could not decrypt, so it
    /// is info, and says so.
    @Test func garminTimeoutIsTheSniffersLimit() throws {
        guard let dir = TestSupport.sharedCaptures else { return }
        let path = dir.appendingPathComponent("AleBonora3__Tesi_BLE__garmin.pcapng").path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let d = TestSupport.analyze(try CaptureFile.open(path: path), path: path).1.diagnoses
        let t = try #require(d.first { $0.id == .attTimeout })
        #expect(t.severity == .info)
        #expect(t.firstRecord == 4553)
        if case .undecrypted? = t.facts.limit {} else { Issue.record("limit: \(String(describing: t.facts.limit))") }
        #expect(!d.contains { $0.severity == .error })
    }
}
