import Foundation
import Testing
@testable import BLETrace

/// Inputs the fuzzers found (or that reproduce known crashes of other tools), replayed through their target.
/// Files are named `TARGET-description.bin` in Tests/BLETraceTests/Fuzzing/Regressions.
@Suite struct FuzzRegressionTests {
    static let folder = TestSupport.packageRoot.appendingPathComponent("Tests/BLETraceTests/Fuzzing/Regressions")

    static func inputs() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".bin") }.sorted()
    }

    @Test(arguments: inputs())
    func replays(_ name: String) throws {
        let target = String(name.prefix(while: { $0 != "-" }))
        #expect(FuzzTargets.names.contains(target), "unknown target in \(name)")
        let data = try #require(FileManager.default.contents(atPath: Self.folder.appendingPathComponent(name).path))
        FuzzTargets.run(target, [UInt8](data)) // returning at all is the assertion: no trap, no hang
    }

    /// The fuzzer's first find: a pcapng timestamp of 2^64−1 µs overflowed the conversion to microseconds.
    @Test func hugePcapngTimestampSaturates() throws {
        let data = try #require(FileManager.default.contents(atPath: Self.folder.appendingPathComponent("capture-pcapng-huge-timestamp.bin").path))
        let (records, error) = TestSupport.readAll(try CaptureFile.open(bytes: [UInt8](data)))
        #expect(error == nil)
        #expect(records.map(\.timestamp.micros) == [Timestamp.limit])
        #expect(records.first?.kind == .command)
    }

    @Test func everyTargetSurvivesEdgeInputs() {
        let inputs: [[UInt8]] = [[], [0], [0xFF], [UInt8](repeating: 0xFF, count: 300), [UInt8](repeating: 0, count: 300),
                                 Array("btsnoop\0".utf8), [0x0A, 0x0D, 0x0D, 0x0A], [0x1F, 0x8B, 0x08, 0x00]]
        for t in FuzzTargets.names {
            for i in inputs { FuzzTargets.run(t, i) }
        }
        #expect(FuzzTargets.names.count == 4)
    }

    /// BlueZ btmon 5.66 crashed on a valid capture holding an ATT Error Response to a Read By Group Type
    /// request; bletrace decodes it as an error response tied to its request.
    @Test func errorResponseToReadByGroupType() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.connect(handle: 0x40, peer: BDAddr(0xC4_7C_8D_6A_11_22), peerType: 1)
        s.attOut(0x40, [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28])
        s.attIn(0x40, [0x01, 0x10, 0x01, 0x00, 0x0A])
        let (events, summary) = try TestSupport.analyze(s)
        #expect(summary.stats.malformed == 0)
        let err = try #require(events.last { $0.kind == .att })
        #expect(err.summary.hasPrefix("ATT Error Response: Read By Group Type Request handle 0x0001: Attribute Not Found"))
    }
}
