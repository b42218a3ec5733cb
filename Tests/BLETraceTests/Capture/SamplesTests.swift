import Foundation
import Testing
@testable import BLETrace

@Suite struct SamplesTests {
    /// The committed samples are exactly what the capture writer makes (regenerate with `bletrace make-samples samples`).
    @Test func committedSamplesAreUpToDate() throws {
        for sample in Samples.all() {
            let path = TestSupport.packageRoot.appendingPathComponent("samples/\(sample.fileName)").path
            let data = try #require(FileManager.default.contents(atPath: path), "missing \(path)")
            #expect([UInt8](data) == sample.bytes, "\(sample.fileName) differs: run `swift run bletrace make-samples samples`")
        }
    }

    @Test func everySampleDecodesCleanly() throws {
        for sample in Samples.all() {
            let path = TestSupport.temporaryFile(sample.bytes)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (events, summary) = TestSupport.analyze(try CaptureFile.open(path: path), path: path)
            #expect(summary.error == nil)
            #expect(events.count == summary.stats.records)
            // Only the scan sample carries a deliberately broken advert: one malformed event, decoding goes on.
            #expect(summary.stats.malformed == (sample.fileName == "scan.btsnoop" ? 1 : 0), "\(sample.fileName)")
            #expect(summary.warnings.isEmpty, "\(sample.fileName): \(summary.warnings)")
        }
    }

    @Test func encryptedSampleTracksEncryption() throws {
        let (_, summary) = try TestSupport.analyze(Samples.encryptedLink())
        #expect(summary.capture.format == .pcap)
        #expect(summary.connections.first?.encrypted == true)
        #expect(summary.connections.first?.disconnectReason == 0x13)
    }
}
