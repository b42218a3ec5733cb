import Foundation
import Testing
@testable import BLETrace

/// BR/EDR signaling on the shared phone logs, frame by frame against tshark: every C-frame tshark names,
/// bletrace names with the same command codes, and no record of those logs is malformed or left unassembled.
@Suite("BR/EDR signaling against tshark")
struct BREDRTSharkTests {
    final class Collector: EventSink {
        var codes: [Int: [Int]] = [:]
        var damaged: [Int] = []
        func begin(_ capture: CaptureInfo) {}
        func end(_ summary: Summary) {}
        func event(_ e: TraceEvent) {
            switch e.body {
            case let .signaling(s):
                if case let .bredr(f) = s.content { codes[e.record] = f.commands.map { Int($0.code) } }
            case .malformed, .aclProblem:
                damaged.append(e.record)
            default:
                break
            }
        }
    }

    @Test("every BR/EDR signaling command tshark names is named, with the same codes",
          .enabled(if: TestSupport.tshark != nil && TestSupport.sharedCaptures != nil))
    func signalingMatchesTShark() throws {
        let dir = try #require(TestSupport.sharedCaptures)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            .filter { $0.hasSuffix(".log") || $0.hasSuffix(".pklg") || $0.hasSuffix(".btsnoop") || $0.contains(".cfa") }
        var compared = 0
        for name in files {
            let path = dir.appendingPathComponent(name).path
            let out = try TestSupport.runTShark(["-r", path, "-Y", "btl2cap.cid == 0x0001", "-T", "fields",
                                                 "-e", "frame.number", "-e", "btl2cap.cmd_code"])
            var expected: [Int: [Int]] = [:]
            for line in out.split(separator: "\n") {
                let cols = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard cols.count == 2, let frame = Int(cols[0]) else { continue }
                expected[frame] = cols[1].split(separator: ",").compactMap { Int($0.dropFirst(2), radix: 16) }
            }
            guard !expected.isEmpty else { continue }
            let c = Collector()
            Analyzer(sink: c).run(try CaptureFile.open(path: path), path: path)
            for (frame, codes) in expected.sorted(by: { $0.key < $1.key }) {
                #expect(c.codes[frame] == codes, "\(name) record \(frame): tshark \(codes), bletrace \(c.codes[frame] ?? [])")
                compared += 1
            }
            #expect(c.damaged.isEmpty, "\(name): records flagged malformed or unassembled: \(c.damaged.prefix(10))")
        }
        #expect(compared >= 88, "the pfalcon speaker log alone has 88 C-frames")
    }
}
