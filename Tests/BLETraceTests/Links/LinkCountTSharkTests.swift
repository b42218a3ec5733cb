import Foundation
import Testing
@testable import BLETrace

/// The link statistics' counts against an independent count (issue #28): on every shared HCI capture, ACL
/// packets per handle and direction, and completed packets per handle, equal what tshark's fields give.
@Suite("link counts against tshark")
struct LinkCountTSharkTests {
    typealias Counts = LinkStatistics.HandleCounts

    /// tshark's counts: ACL packets by `bthci_acl.chandle` and the record's direction (H4 direction, PacketLogger
    /// type or monitor opcode), completed packets by the Number Of Completed Packets pairs.
    static func tsharkCounts(_ path: String) throws -> [UInt16: Counts] {
        let out = try TestSupport.runTShark(["-r", path, "-Y", "bthci_acl || bthci_evt.code == 0x13", "-T", "fields",
                                             "-e", "bthci_acl.chandle", "-e", "hci_h4.direction", "-e", "packetlogger.type",
                                             "-e", "hci_mon.opcode", "-e", "bthci_evt.connection_handle", "-e", "bthci_evt.num_compl_packets"])
        var counts: [UInt16: Counts] = [:]
        func hex(_ s: Substring) -> Int? { Int(s.hasPrefix("0x") ? s.dropFirst(2) : s, radix: 16) }
        for line in out.split(separator: "\n") {
            let c = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard c.count == 6 else { continue }
            if let h = hex(c[0]) {
                let handle = UInt16(h)
                let sent: Bool? = hex(c[1]).map { $0 == 0 } ?? hex(c[2]).map { $0 == 2 } ?? hex(c[3]).map { $0 == 4 }
                guard let s = sent else { continue }
                if s { counts[handle, default: Counts()].tx += 1 } else { counts[handle, default: Counts()].rx += 1 }
            } else if !c[4].isEmpty {
                // A Connection_Handle is 12 bits (Core 5.4 Vol 4 Part E 5.4.2, 7.7.19); some controllers (crossnite's)
                // set the 4 bits above it in Number Of Completed Packets (0xF004 for 0x004), which tshark prints as
                // they are. Both sides count them under the 12-bit handle.
                let handles = c[4].split(separator: ",").compactMap(hex), numbers = c[5].split(separator: ",").compactMap { Int($0) }
                for (h, n) in zip(handles, numbers) { counts[UInt16(h & 0x0FFF), default: Counts()].completed += n }
            }
        }
        return counts
    }

    @Test("ACL packets per handle and direction and completed packets per handle equal tshark's",
          .enabled(if: TestSupport.tshark != nil && TestSupport.sharedCaptures != nil))
    func countsMatchTShark() throws {
        let dir = try #require(TestSupport.sharedCaptures)
        var compared = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where !name.hasSuffix(".md") {
            let path = dir.appendingPathComponent(name).path
            let reader = try CaptureFile.open(path: path)
            guard !LinkType.isSniffer(reader.linkType) else { continue }
            let a = Analyzer(sink: nil)
            a.run(reader, path: path)
            let mine = try #require(a.layers.compactMap { $0 as? LinkStatistics }.first).byHandle
            let theirs = try Self.tsharkCounts(path)
            guard !theirs.isEmpty || !mine.isEmpty else { continue }
            #expect(mine == theirs, "\(name): bletrace \(mine.sorted { $0.key < $1.key }), tshark \(theirs.sorted { $0.key < $1.key })")
            compared += 1
        }
        #expect(compared >= 8)
    }
}
