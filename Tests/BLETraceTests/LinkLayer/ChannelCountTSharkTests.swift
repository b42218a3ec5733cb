import Foundation
import Testing
@testable import BLETrace

/// Per-channel counts of sniffer captures against tshark (issue #28): on every shared nRF Sniffer capture
/// (link type 272, where both read the sniffer's CRC verdict), packets and bad-CRC packets per channel equal
/// what tshark's `nordic_ble.channel` and `nordic_ble.crcok` give.
@Suite("sniffer channel counts against tshark")
struct ChannelCountTSharkTests {
    @Test("packets and bad CRCs per channel equal tshark's on nRF Sniffer captures",
          .enabled(if: TestSupport.tshark != nil && TestSupport.sharedCaptures != nil))
    func perChannelCountsMatchTShark() throws {
        let dir = try #require(TestSupport.sharedCaptures)
        var compared = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where !name.hasSuffix(".md") {
            let path = dir.appendingPathComponent(name).path
            let reader = try CaptureFile.open(path: path)
            guard reader.linkType == LinkType.nordicBLE else { continue }
            let a = Analyzer(sink: nil)
            a.run(reader, path: path)
            let mine = try #require(a.pipeline.linkLayerIfUsed?.stats.channels)
            var theirs = [ChannelCounts](repeating: ChannelCounts(), count: 40)
            let out = try TestSupport.runTShark(["-r", path, "-T", "fields", "-e", "nordic_ble.channel", "-e", "nordic_ble.crcok"])
            for line in out.split(separator: "\n") {
                let c = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard c.count == 2, let ch = Int(c[0]), ch >= 0, ch < 40 else { continue }
                theirs[ch].packets += 1
                if c[1] == "0" { theirs[ch].crcBad += 1 }
            }
            #expect(mine.map(\.packets) == theirs.map(\.packets), "\(name): packets per channel")
            #expect(mine.map(\.crcBad) == theirs.map(\.crcBad), "\(name): bad CRCs per channel")
            compared += 1
        }
        #expect(compared >= 4)
    }
}

/// The channel overview names the channels whose packet error rate is highest, among those with 10 packets.
@Suite struct ChannelCountsTests {
    @Test func overviewNamesTheWorstChannels() {
        var list = [ChannelCounts](repeating: ChannelCounts(), count: 40)
        for _ in 0..<20 { list[12].add(bad: false, rssi: -60) }
        for _ in 0..<20 { list[12].add(bad: true, rssi: -80) }
        for _ in 0..<99 { list[37].add(bad: false, rssi: nil) }
        list[37].add(bad: true, rssi: nil)
        list[5].add(bad: true, rssi: nil) // one packet: too few to rank
        #expect(list[12].per == 0.5 && list[12].rssiMean == -70)
        #expect(ChannelCounts.overview(list) == "3 with packets, bad CRCs on 3 (highest packet error rate: 12 50.0 % of 40, 37 1.0 % of 100)")
        guard case let .list(f) = ChannelCounts.fields(list) else { Issue.record("no list"); return }
        #expect(f.count == 3 && f[1].objectValue?["channel"] == .int(12) && f[1].objectValue?["crc_errors"] == .int(20))
    }
}
