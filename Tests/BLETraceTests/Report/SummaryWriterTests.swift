import Foundation
import Testing
@testable import BLETrace

/// A summary part that JSON output writes straight into its buffer has the bytes of the tree the same function
/// builds (what tests, Markdown and tools read).
@Suite struct SummaryWriterTests {
    static let samples = ["ancs-iphone.pklg", "diff-bad.btsnoop", "encrypted-link.pcap", "gatt-session.btsnoop", "pairing-failed.pcap",
                          "scan.btsnoop"]

    static func json(_ v: FieldValue) -> [UInt8] {
        var b: [UInt8] = []
        JSONOut.write(v, into: &b)
        return b
    }

    static func json(_ w: SummaryWriter) -> [UInt8] {
        var j = JSONBytes()
        w.write(into: &j)
        return j.bytes
    }

    @Test("written and built, every written part of every sample's summary has the same bytes")
    func writtenAsBuilt() throws {
        var compared: Set<String> = []
        for name in SummaryWriterTests.samples {
            let path = TestSupport.packageRoot.appendingPathComponent("samples/\(name)").path
            let (_, summary) = TestSupport.analyze(try CaptureFile.open(path: path))
            for (key, member) in SummaryRender.summaryMembers(summary) {
                switch member {
                case let .written(w):
                    #expect(SummaryWriterTests.json(w) == SummaryWriterTests.json(w.value), "\(name) \(key)")
                    compared.insert(key)
                case let .writtenList(count, item):
                    for i in 0..<count {
                        let w = item(i)
                        #expect(SummaryWriterTests.json(w) == SummaryWriterTests.json(w.value), "\(name) \(key)[\(i)]")
                    }
                    if count > 0 { compared.insert(key) }
                default:
                    continue
                }
            }
        }
        #expect(compared.isSuperset(of: ["connections", "links", "devices", "identity", "att"]), "\(compared.sorted())")
    }
}
