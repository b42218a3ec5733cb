import Foundation
import Testing
@testable import BLETrace

/// The shared captures' hand-made labels (`Tests/Corpus/shared.tsv`: the causes each trace shows and the claims a
/// tool must not make, from reading the trace with tshark) against bletrace's warning and error diagnoses, scored
/// as `scripts/corpus.py` scores them: a diagnosis is true when a label of its id falls on its evidence or record
/// range. Skipped when ../shared/captures is absent.
@Suite struct CorpusLabelTests {
    struct Label {
        var id: String
        /// The decisive record; nil for `*` (no single record decides).
        var record: Int?
    }

    struct Row: CustomStringConvertible {
        var file: String
        var sha256: String
        var labels: [Label]
        var mustNot: [Label]
        var description: String { file }
    }

    static func parse(_ text: String) -> [Label] {
        text.split(separator: ";").compactMap { item in
            let spec = item.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
            let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
            guard let id = parts.first, !id.isEmpty else { return nil }
            return Label(id: id, record: parts.count > 1 ? Int(parts[1]) : nil)
        }
    }

    static func rows() -> [Row] {
        let path = TestSupport.packageRoot.appendingPathComponent("Tests/Corpus/shared.tsv").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard let header = lines.first?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) else { return [] }
        lines.removeFirst()
        func column(_ name: String) -> Int { header.firstIndex(of: name) ?? 0 }
        let (f, h, l, m) = (column("file"), column("sha256"), column("labels"), column("must_not"))
        return lines.compactMap { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == header.count else { return nil }
            return Row(file: cells[f], sha256: cells[h], labels: parse(cells[l]), mustNot: parse(cells[m]))
        }
    }

    /// A label matches a diagnosis of its id whose evidence holds its record or whose range covers it.
    static func matches(_ label: Label, _ d: Diagnosis) -> Bool {
        guard label.id == d.id.rawValue else { return false }
        guard let r = label.record else { return true }
        return d.evidence.contains(r) || (d.firstRecord...max(d.firstRecord, d.lastRecord)).contains(r)
    }

    @Test("the labels file lists every shared capture", .enabled(if: TestSupport.sharedCaptures != nil))
    func everyCaptureIsLabelled() throws {
        let dir = try #require(TestSupport.sharedCaptures)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasSuffix(".md") }
        let labelled = Set(Self.rows().map(\.file))
        #expect(Self.rows().count >= 35)
        #expect(Set(files).subtracting(labelled).isEmpty, "unlabelled: \(Set(files).subtracting(labelled).sorted())")
    }

    @Test("warning and error diagnoses on the shared captures: ≥ 95 % true, ≥ 90 % of the labelled causes named, no forbidden claim",
          .enabled(if: TestSupport.sharedCaptures != nil))
    func diagnosesAgreeWithTheLabels() throws {
        let dir = try #require(TestSupport.sharedCaptures)
        var trueCount = 0, falseCount = 0, found = 0, labels = 0
        var report: [String] = []
        var forbidden: [String] = []
        for row in Self.rows() {
            let path = dir.appendingPathComponent(row.file).path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let (_, summary) = TestSupport.analyze(try CaptureFile.open(path: path), path: path)
            let claims = summary.diagnoses.filter { $0.severity >= .warning }
            for d in claims {
                if row.labels.contains(where: { Self.matches($0, d) }) {
                    trueCount += 1
                } else {
                    falseCount += 1
                    report.append("\(row.file): false \(d.id.rawValue) records \(d.firstRecord)–\(d.lastRecord)")
                }
                // A forbidden claim with a record must name that record (as scripts/corpus.py checks it).
                if row.mustNot.contains(where: { $0.id == d.id.rawValue && ($0.record.map { r in d.evidence.contains(r) || d.firstRecord == r || d.lastRecord == r } ?? true) }) {
                    forbidden.append("\(row.file): \(d.id.rawValue) at \(d.firstRecord) is labelled must-not")
                }
            }
            for label in row.labels {
                labels += 1
                if claims.contains(where: { Self.matches(label, $0) }) { found += 1 } else {
                    report.append("\(row.file): missed \(label.id) at \(label.record.map(String.init) ?? "*")")
                }
            }
        }
        let precision = Double(trueCount) / Double(max(1, trueCount + falseCount))
        let recall = Double(found) / Double(max(1, labels))
        print("corpus (shared): \(trueCount) true, \(falseCount) false, \(found) of \(labels) labels found")
        for line in report { print("  " + line) }
        #expect(labels >= 50)
        #expect(precision >= 0.95, "precision \(precision): \(report)")
        #expect(recall >= 0.90, "recall \(recall): \(report)")
        // A claim the labels forbid is allowed only while it is also counted false above (at most 5 %).
        #expect(Double(forbidden.count) <= 0.05 * Double(max(1, trueCount + falseCount)), "\(forbidden)")
    }

    /// The examples the review named, one by one.
    @Test("the review's examples on the real captures", .enabled(if: TestSupport.sharedCaptures != nil))
    func reviewExamples() throws {
        let dir = try #require(TestSupport.sharedCaptures)
        func diagnoses(_ file: String) throws -> [Diagnosis] {
            let path = dir.appendingPathComponent(file).path
            return TestSupport.analyze(try CaptureFile.open(path: path), path: path).1.diagnoses
        }
        // Bluetooth switched off: one info line, no controller_reset (pfalcon 698, whoisbe 7990).
        for file in ["pfalcon__Chsmartbulb-led-bulb-speaker__btsnoop_hci.log", "whoisbe__pongbot-mcp__captures__btsnoop_hci.log.last"] {
            let all = try diagnoses(file)
            #expect(all.contains { $0.id == .bluetoothOff && $0.severity == .info }, "\(file)")
            #expect(!all.contains { $0.id == .controllerReset }, "\(file)")
        }
        // The local phone's own Service Changed is not a stale cache (Syed 51481, whoisbe 7953–7955), nor are the
        // indications pending when Bluetooth went off ATT timeouts.
        let syed = try diagnoses("Syed-Bipul-Rahman__bluethooth_light_controll__btsnoop_hci.log")
        #expect(!syed.contains { $0.id == .staleGATTCache })
        let whoisbe = try diagnoses("whoisbe__pongbot-mcp__captures__btsnoop_hci.log.last")
        #expect(!whoisbe.contains { $0.id == .staleGATTCache })
        #expect(!whoisbe.contains { $0.id == .attTimeout && $0.severity >= .warning && $0.lastRecord >= 7953 })
        // 229 BR/EDR Page Timeouts: failed connections and reconnect loops.
        #expect(whoisbe.first { $0.id == .connectionNotEstablished }.map { $0.count >= 200 } == true)
        #expect(whoisbe.contains { $0.id == .reconnectLoop })
        // A stream opened and not started is normal (pfalcon 380, Swastik36 453).
        for file in ["pfalcon__Chsmartbulb-led-bulb-speaker__btsnoop_hci.log", "Swastik36__OPPO-Earbuds__captures__btsnoop_hci.log"] {
            #expect(try !diagnoses(file).contains { $0.id == .audioSetupStalled && $0.severity > .info }, "\(file)")
        }
        // A user who declined numeric comparison after the host deleted the key: rejected, not a lost bond.
        let crossnite = try diagnoses("crossnite__NovaX-Escooter__btsnoop_hci.log")
        #expect(crossnite.contains { $0.id == .pairingRejectedByUser && $0.evidence.contains { (2635...2804).contains($0) } })
        #expect(!crossnite.contains { $0.id == .bondLost })
        // Vendor probes and a duplicate of a command that had just succeeded are no warning (Swastik36 49, 74, 276).
        let swastik = try diagnoses("Swastik36__OPPO-Earbuds__captures__btsnoop_hci.log")
        #expect(!swastik.contains { $0.id == .commandRejected && $0.severity > .info })
        // LE Coded PHY: the link goes on to the end of the capture, no loss (yc-adi, from record 35101).
        let coded = try diagnoses("yc-adi__ble_auto_testing__Examples__1M_to_S8.pcapng")
        #expect(!coded.contains { $0.id == .linkLost })
    }

    @Test("LE Coded PHY packets of the nRF Sniffer decode as link-layer PDUs, not malformed ones",
          .enabled(if: TestSupport.sharedCaptures != nil))
    func codedPHYIsDecoded() throws {
        let path = try #require(TestSupport.sharedCaptures).appendingPathComponent("yc-adi__ble_auto_testing__Examples__1M_to_S8.pcapng").path
        let (events, summary) = TestSupport.analyze(try CaptureFile.open(path: path), path: path)
        let coded = events.filter { $0.record >= 35101 }
        #expect(coded.count > 6000)
        #expect(coded.filter { $0.malformed != nil }.count == 0)
        #expect(summary.stats.records == 43181)
    }
}
