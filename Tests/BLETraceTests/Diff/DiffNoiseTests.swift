import Foundation
import Testing
@testable import BLETrace

/// `diff` without noise: runs of one step collapsed, never-connected advertisers grouped last, no ATT_MTU
/// difference where neither side exchanged one.
@Suite struct DiffNoiseTests {
    static let peer = BDAddr(0xC4_7C_8D_6A_11_22)

    /// A connection to the same peer; `writes` Write Commands to handle 0x0010; `ambient` advertisers first.
    static func capture(writes: Int, ambient: Int = 0) throws -> CaptureDigest {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        s.startScan()
        for i in 0..<ambient {
            s.advert(addressType: 1, address: BDAddr(0xD0_00_00_00_00_01 + UInt64(i)), data: [0x02, 0x01, 0x06], rssi: -70)
        }
        s.advert(addressType: 1, address: peer, data: [0x02, 0x01, 0x06], rssi: -50)
        s.stopScan()
        s.connect(handle: 0x0040, peer: peer, peerType: 1)
        for i in 0..<writes {
            s.attOut(0x0040, [0x52, 0x10, 0x00, UInt8(i & 1)])
            s.advance(ms: 30)
        }
        s.disconnect(handle: 0x0040)
        return CaptureDigest.make(try CaptureFile.open(bytes: s.writer.bytes), path: "x").0
    }

    @Test func aRunOfOneStepIsOneLineWithCountAndRecords() throws {
        let diff = Diff(try DiffNoiseTests.capture(writes: 13), try DiffNoiseTests.capture(writes: 0))
        let steps = diff.items.filter { $0.category == .procedures }
        #expect(steps.count == 1, "\(steps.map(\.line))")
        let line = try #require(steps.first).text
        #expect(line.hasPrefix("only in A: Write (command) handle 0x0010"))
        #expect(line.contains("(13 times, A records "))
    }

    @Test func noATTMTUDifferenceWithoutAnExchange() throws {
        let diff = Diff(try DiffNoiseTests.capture(writes: 2), try DiffNoiseTests.capture(writes: 0))
        #expect(!diff.items.contains { $0.text == "ATT_MTU" }, "\(diff.items.map(\.line))")
    }

    @Test func neverConnectedAdvertisersOnOneSideAreOneLineLast() throws {
        let diff = Diff(try DiffNoiseTests.capture(writes: 1, ambient: 7), try DiffNoiseTests.capture(writes: 0))
        let last = try #require(diff.items.last)
        #expect(last.category == .ambient)
        #expect(last.subject == "7 devices")
        #expect(last.text.hasPrefix("7 only in A (D0:00:00:00:00:01, "))
        #expect(diff.items.filter { $0.category == .ambient || $0.category == .devices }.count == 1)
        // The connected peer's difference comes first.
        #expect(diff.items.first?.category == .procedures)
    }
}
