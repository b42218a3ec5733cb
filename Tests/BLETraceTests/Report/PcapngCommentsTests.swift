import Foundation
import Testing
@testable import BLETrace

/// `--write-capture FILE.pcapng` (issue #39): the records with the diagnoses and findings as packet comments
/// and the summary's diagnoses as the section comment, as Wireshark reads them (tshark `frame.comment`,
/// capinfos, editcap keeping them), for HCI and sniffer captures, redacted with `--redact`.
@Suite struct PcapngCommentsTests {
    typealias X = ExitStatusTests

    static func folder() throws -> String { try CIConsumerTests.folder() }

    /// Frame numbers and comments as tshark shows them (`-Y frame.comment`).
    static func commented(_ path: String) throws -> [(frame: Int, comment: String)] {
        let out = try TestSupport.runTShark(["-r", path, "-Y", "frame.comment", "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=|", "-e", "frame.number", "-e", "frame.comment"])
        return out.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, let n = Int(parts[0]) else { return nil }
            return (n, String(parts[1]))
        }
    }

    static func run(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        try TestSupport.runProgram(args[0], Array(args.dropFirst()))
    }

    @Test func commentsGoOnTheEvidenceRecordsAndTheSectionListsTheDiagnoses() throws {
        let bytes = Samples.pairingFailed().writer.bytes
        let (s, _) = try CIReportTests.summary(bytes)
        let comments = CaptureComments(summary: s, redactor: nil)
        let d = try #require(s.diagnoses.first)
        for n in d.evidence {
            #expect(comments.records[n]?.contains { $0.hasPrefix("bletrace \(d.severity.name) \(d.id.rawValue): ") } == true)
        }
        #expect(comments.section.contains(d.id.rawValue + ": " + DiagnosisText.title(d)))
        let findings = CaptureComments.findings(s)
        #expect(!findings.isEmpty)
        for f in findings { #expect(comments.records[f.record]?.contains { $0.hasPrefix("bletrace finding \(f.kind): ") } == true) }

        let out = OutputWriter()
        let (x, error) = CaptureExtract.copy(try WriteCaptureTests.reader(bytes), selected: nil, redactor: nil, comments: comments, to: out)
        out.flush()
        #expect(error == nil && x.format == .pcapng(linkType: 201))
        #expect(x.commented == Set(comments.records.keys).count)
        // bletrace reads its own pcapng back, record for record.
        let back = try WriteCaptureTests.records(out.captured)
        let source = try WriteCaptureTests.records(bytes)
        #expect(back.map(\.data) == source.map(\.data))
        #expect(back.map(\.direction) == source.map(\.direction))
        #expect(back.map(\.timestamp) == source.map(\.timestamp))
    }

    @Test func aCommentPastAnOptionsLimitIsCutAtACharacter() {
        let long = String(repeating: "é", count: 40_000)
        let cut = CaptureWriter.optionText(long)
        #expect(cut.count <= CaptureWriter.pcapngOptionLimit && cut.count > 65_000)
        #expect(String(validating: cut, as: UTF8.self) != nil)
    }

    @Test(.enabled(if: wiresharkPresent))
    func tsharkFiltersTheCommentsAndEditcapKeepsThem() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/pairing.pcapng"
        let r = try X.run(["analyze", X.sample("pairing-failed.pcap"), "--summary-only", "--write-capture", file])
        #expect(r.status == 0)
        #expect(r.err.contains("as pcapng (link type 201) with comments on"), "\(r.err)")
        let json = try X.run(["analyze", X.sample("pairing-failed.pcap"), "--format", "json", "--summary-only"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let diagnoses = try #require((doc["summary"] as? [String: Any])?["diagnoses"] as? [[String: Any]])
        let seen = try Self.commented(file)
        #expect(!seen.isEmpty)
        for d in diagnoses {
            let id = try #require(d["id"] as? String), title = try #require(d["title"] as? String)
            for n in try #require(d["evidence"] as? [Int]) {
                // Every record is written: the frame number is the record number.
                #expect(seen.contains { $0.frame == n && $0.comment.contains(id + ": " + title) }, "record \(n) lacks \(id)")
            }
        }
        let info = try Self.run(["/usr/bin/capinfos", file])
        #expect(info.status == 0)
        #expect(info.out.contains("Capture comment:") && info.out.contains("bletrace"), "\(info.out)")
        let copy = dir + "/copy.pcapng"
        #expect(try Self.run(["/usr/bin/editcap", file, copy]).status == 0)
        #expect(try Self.commented(copy).map(\.comment) == seen.map(\.comment))
    }

    @Test(.enabled(if: wiresharkPresent))
    func redactedCommentsCarryNoAddress() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plain = dir + "/plain.pcapng", redacted = dir + "/redacted.pcapng"
        #expect(try X.run(["analyze", X.sample("pairing-failed.pcap"), "--summary-only", "--write-capture", plain]).status == 0)
        #expect(try X.run(["analyze", X.sample("pairing-failed.pcap"), "--summary-only", "--redact", "--write-capture", redacted]).status == 0)
        // The peer the pairing diagnosis names in its title.
        let peer = "5D:4E:3F:2A:1B:0C"
        let plainText = try Self.commented(plain).map(\.comment).joined(separator: "\n")
        let redactedText = try Self.commented(redacted).map(\.comment).joined(separator: "\n")
        #expect(plainText.contains(peer))
        #expect(!redactedText.isEmpty && !redactedText.contains(peer))
        let info = try Self.run(["/usr/bin/capinfos", redacted]).out
        #expect(info.contains("Capture comment:") && !info.contains(peer))
    }

    /// Sniffer captures among the shared ones keep their link type, and tshark finds the comments.
    @Test(.enabled(if: wiresharkPresent && TestSupport.sharedCaptures != nil))
    func snifferAndHCICapturesOfTheSharedSetCarryTheirComments() throws {
        let shared = try #require(TestSupport.sharedCaptures)
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var sniffers = 0, hci = 0, comments = 0
        let names = try FileManager.default.contentsOfDirectory(atPath: shared.path).sorted().filter { !$0.hasSuffix(".md") }
        for (i, name) in names.enumerated() {
            let source = shared.appendingPathComponent(name).path
            let file = dir + "/\(i).pcapng"
            let r = try X.run(["analyze", source, "--summary-only", "--write-capture", file])
            guard r.status == 0 || r.status == 2, FileManager.default.fileExists(atPath: file) else { continue }
            let note = r.err
            let seen = try Self.commented(file)
            let frames = Int(try TestSupport.runTShark(["-r", file, "-T", "fields", "-e", "frame.number"]).split(separator: "\n").count)
            #expect(frames > 0, "\(name)")
            // The frames tshark sees with comments are the records the note counts.
            if let range = note.range(of: "with comments on "), let n = Int(note[range.upperBound...].prefix { $0.isNumber }) {
                #expect(Set(seen.map(\.frame)).count == n, "\(name): \(note)")
                comments += n
            }
            if note.contains("link type 201") || note.contains("link type 254") { hci += 1 } else if note.contains("as pcapng") { sniffers += 1 }
        }
        #expect(sniffers > 0 && hci > 0 && comments > 0)
    }

    static let wiresharkPresent = CIConsumerTests.wireshark
}
