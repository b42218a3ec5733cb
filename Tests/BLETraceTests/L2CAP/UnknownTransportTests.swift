import Foundation
import Testing
@testable import BLETrace

/// ACL data on handles no Connection Complete opened: unknown transport, decoded only where consistent, no findings;
/// BR/EDR-only HCI traffic makes such a handle BR/EDR.
@Suite struct UnknownTransportTests {
    static func capture() throws -> ([TraceEvent], Summary) {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        // Vendor pseudo-handle 0x0EFF: bytes whose "L2CAP length" (1) leaves bytes after the frame's end.
        s.controller(.acl, HCIBuilder.acl(handle: 0x0EFF, [0x01, 0x00, 0x04, 0x00, 0x99, 0x01, 0x02]))
        // A continuation of nothing.
        s.controller(.acl, HCIBuilder.acl(handle: 0x0EFF, start: false, [0x01, 0x02, 0x03]))
        // …and a consistent frame: an ATT Read Request that nothing answers.
        s.controller(.acl, HCIBuilder.acl(handle: 0x0EFF, [0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00]))
        s.advance(ms: 40_000)
        // Handle 0x0010: ACL, then a Mode Change (BR/EDR only).
        s.controller(.acl, HCIBuilder.acl(handle: 0x0010, [0x02, 0x00, 0x01, 0x00, 0xAA, 0xBB]))
        s.controller(.event, HCIBuilder.event(0x14, [0x00] + HCIBuilder.le16(0x0010) + [0x02] + HCIBuilder.le16(0x0320)))
        return try TestSupport.analyze(s)
    }

    @Test func aPseudoHandleIsVendorDataNotAConnection() throws {
        let (events, summary) = try UnknownTransportTests.capture()
        // Its first bytes cannot be L2CAP (bytes after the frame's end): every packet on it is vendor data, the
        // later one that happens to look like an ATT Read Request too, and none is numbered as a connection.
        let raw = events.filter { $0.handle == 0x0EFF }
        #expect(raw.count == 3 && raw.allSatisfy { $0.kind == .vendor && $0.malformed == nil && $0.connection == nil })
        let findings = summary.sections.first { $0.name == "findings" }?.value.objectValue
        #expect(findings?["count"] == .int(0), "\(String(describing: findings))")
        #expect(!summary.connections.contains { $0.handle == 0x0EFF })
        // The handle that BR/EDR-only HCI traffic names is the first connection.
        #expect(summary.connections.first?.handle == 0x0010 && summary.connectionCount == 1)
        #expect(SummaryRender.text(summary).contains { $0.hasPrefix("    #1 handle 0x0010") })
    }

    /// A phone's pseudo-handle whose data changes "channel" from packet to packet, before a real link: the real
    /// link is connection #1, in the summary and in `diff`'s digest; a capture that began mid-connection still
    /// decodes its ATT traffic on the handle as a connection.
    @Test func aRealLinkIsConnectionOneAfterAPseudoHandle() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        for i in 0..<6 {
            let cid = UInt16(0x2A00 + 0x111 * i)
            s.host(.acl, HCIBuilder.acl(handle: 0x0EDC, [0x04, 0x00, UInt8(cid & 0xFF), UInt8(cid >> 8), 0x10, 0x20, 0x30, UInt8(i)]))
            s.advance(ms: 10)
        }
        // A capture that began mid-connection: ATT on handle 0x0002, no Connection Complete.
        s.l2cap(handle: 0x0002, cid: 0x0004, fromHost: true, [0x0A, 0x03, 0x00])
        s.l2cap(handle: 0x0002, cid: 0x0004, fromHost: false, [0x0B, 0x5A])
        Samples.gattSession(s, handle: 0x0040, peer: BDAddr(0xC4_7C_8D_6A_11_22))
        let (events, summary) = try TestSupport.analyze(s)
        #expect(events.filter { $0.handle == 0x0EDC }.allSatisfy { $0.kind == .vendor && $0.connection == nil })
        #expect(summary.connections.map(\.handle) == [0x0002, 0x0040])
        #expect(events.contains { $0.handle == 0x0002 && $0.kind == .att && $0.connection == 1 })
        #expect(events.contains { $0.handle == 0x0040 && $0.kind == .att && $0.connection == 2 })
    }

    /// A phone's debug pseudo-handle (Android 0x0EDC) whose frames come from the controller only, each
    /// "channel" repeated: never a connection, since a channel carries traffic both ways. A capture that began
    /// mid-connection with dynamic-channel traffic both ways decodes it as one.
    @Test func oneWayDynamicFramesAreNotAConnection() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        for i in 0..<6 {
            s.controller(.acl, HCIBuilder.acl(handle: 0x0EDC, [0x04, 0x00, 0xFF, i < 3 ? 0x00 : 0x01, 0x00, 0x0F, 0x10, UInt8(i)]))
            s.advance(ms: 10)
        }
        for i in 0..<3 {
            s.controller(.acl, HCIBuilder.acl(handle: 0x0003, [0x03, 0x00, 0x41, 0x00, 0x01, 0x02, UInt8(i)]))
            s.host(.acl, HCIBuilder.acl(handle: 0x0003, [0x03, 0x00, 0x52, 0x00, 0x03, 0x04, UInt8(i)]))
            s.advance(ms: 10)
        }
        let (events, summary) = try TestSupport.analyze(s)
        #expect(events.filter { $0.handle == 0x0EDC }.allSatisfy { $0.kind == .vendor && $0.connection == nil })
        #expect(summary.connections.map(\.handle) == [0x0003])
        // The first frame each way is data; from the second frame the other way on, a channel.
        let real = events.filter { $0.handle == 0x0003 }
        #expect(real.prefix(3).allSatisfy { $0.kind == .vendor } && real.dropFirst(3).allSatisfy { $0.kind == .l2cap && $0.connection == 1 })
    }

    /// Swastik36's OPPO log: handle 0x0EDC carries 586 controller-only frames (tshark: 586 with this handle) on "CIDs" 0x00FF, 0x01FF, …; the
    /// one connection is the earbuds' BR/EDR link.
    @Test func swastikDebugHandleIsNoConnection() throws {
        guard let dir = TestSupport.sharedCaptures else { return }
        let path = dir.appendingPathComponent("Swastik36__OPPO-Earbuds__captures__btsnoop_hci.log").path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let (events, summary) = TestSupport.analyze(try CaptureFile.open(path: path), path: path)
        #expect(summary.connections.map(\.handle) == [0x0002])
        #expect(events.filter { $0.handle == 0x0EDC }.count == 586)
        #expect(events.filter { $0.handle == 0x0EDC }.allSatisfy { $0.kind == .vendor && $0.connection == nil })
    }

    @Test func modeChangeMakesAHandleBREDR() throws {
        let (_, summary) = try UnknownTransportTests.capture()
        let c = try #require(summary.connections.first { $0.handle == 0x0010 })
        #expect(c.transportKnown && !c.le)
        #expect(SummaryRender.connectionFields(c)["transport"] == .string("br_edr"))
    }
}
