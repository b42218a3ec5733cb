import Foundation
import Testing
@testable import BLETrace

/// `--layer` with exclusions, `--collapse` and `--write-capture` on the command line (issue #27).
@Suite struct NoiseControlCLITests {
    typealias X = ExitStatusTests

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func layersCanBeLeftOutAndRunsCollapsed() throws {
        let s = X.sample("gatt-session.btsnoop")
        let all = try X.run(["analyze", "--color", "never", s])
        #expect(all.out.contains("Number Of Completed Packets"))
        let noFlow = try X.run(["analyze", "--color", "never", "--layer", "-flow", s])
        #expect(noFlow.status == 0 && !noFlow.out.contains("Number Of Completed Packets") && noFlow.out.contains("ATT Read Request"))
        let collapsed = try X.run(["analyze", "--color", "never", "--layer=-flow", "--collapse", X.sample("diff-good.btsnoop")])
        #expect(collapsed.status == 0 && collapsed.out.contains(" more like record"))
        let bad = try X.run(["analyze", "--layer", "att,flw", s])
        #expect(bad.status == 2 && bad.err.hasPrefix("bletrace: --layer: 'flw' is not one of hci, adv, att, smp, l2cap, classic, a2dp, media, iso, vendor, flow, ll"))
        let json = try X.run(["analyze", "--collapse", "--format", "json", s])
        #expect(json.status == 2 && json.err == "bletrace: --collapse: folds the text timeline; json keeps every event (filter them with --layer)\n")
    }

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func writeCaptureWritesTheSelectionAndRefusesBadPaths() throws {
        let s = X.sample("gatt-session.btsnoop")
        let path = NSTemporaryDirectory() + "bletrace-extract-" + UUID().uuidString + ".btsnoop"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try X.run(["analyze", "--records", "40-60", "--layer", "att", "--write-capture", path, s])
        #expect(r.status == 0)
        #expect(r.err.hasPrefix("bletrace: note: wrote ") && r.err.contains("records to \(path) as btsnoop (H4)"))
        let again = try X.run(["analyze", "--summary-only", path])
        #expect(again.status == 0 && again.out.contains("(btsnoop, link type 1002"))
        let missing = try X.run(["analyze", "--write-capture", "/nonexistent-dir/x.btsnoop", s])
        #expect(missing.status == 2 && missing.err == "bletrace: --write-capture: cannot create /nonexistent-dir/x.btsnoop: No such file or directory\n")
        #expect(missing.out.isEmpty)
        let same = try X.run(["analyze", "--write-capture", s, s])
        #expect(same.status == 2 && same.err.contains("is the capture being read"))
    }
}
