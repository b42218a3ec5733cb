import Foundation
import Testing
import BLETrace

/// The example of docs/library.md, word for word (a test below checks that the document still holds it).
/// The pairing failures and malformed packets of a capture, one line each.
func problems(in path: String) throws -> [String] {
    var lines: [String] = []
    let summary = try Trace.read(path: path) { event in
        switch event.body {
        case let .smp(smp):
            if case let .pairingFailed(reason)? = smp.pdu {
                lines.append("record \(event.record): pairing failed, \(SMPNames.failReason(reason))")
            }
        case let .malformed(m):
            lines.append("record \(event.record): malformed \(m.layer): \(m.reason)")
        default:
            break
        }
    }
    lines.append("\(summary.stats.records) records")
    return lines
}

@Suite("The library example")
struct LibraryExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("the example finds the rejected pairing of a sample and counts its records")
    func runs() throws {
        let lines = try problems(in: LibraryExampleTests.root.appendingPathComponent("samples/pairing-failed.pcap").path)
        #expect(lines.count == 2)
        #expect(lines.first?.contains("pairing failed, Numeric Comparison Failed") == true)
        #expect(lines.last?.hasSuffix(" records") == true)
        let clean = try problems(in: LibraryExampleTests.root.appendingPathComponent("samples/gatt-session.btsnoop").path)
        #expect(clean.count == 1)
    }

    @Test("a file that is not a capture throws")
    func notACapture() {
        #expect(throws: CaptureError.self) {
            try problems(in: LibraryExampleTests.root.appendingPathComponent("README.md").path)
        }
    }

    @Test("docs/library.md shows this file's example")
    func documented() throws {
        let doc = try String(contentsOf: LibraryExampleTests.root.appendingPathComponent("docs/library.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        guard let start = source.range(of: "/// The pairing failures"), let end = source.range(of: "\n}\n", range: start.upperBound..<source.endIndex) else {
            Issue.record("example not found in the test source")
            return
        }
        let example = String(source[start.lowerBound..<end.upperBound])
        #expect(doc.contains(example))
    }
}
