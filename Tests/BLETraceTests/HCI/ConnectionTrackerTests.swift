import Testing
@testable import BLETrace

@Suite struct ConnectionTrackerTests {
    @Test func reusedHandleIsANewConnection() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        let a = BDAddr(0xC4_7C_8D_6A_11_22), b = BDAddr(0xC4_7C_8D_6A_11_33)
        s.connect(handle: 0x40, peer: a, peerType: 1)
        s.attOut(0x40, [0x0A, 0x03, 0x00])
        s.disconnect(handle: 0x40, reason: 0x08, byHost: false)
        s.connect(handle: 0x40, peer: b, peerType: 1, interval: 6)
        s.attOut(0x40, [0x0A, 0x03, 0x00])
        s.controller(.event, HCIBuilder.leMeta(0x03, [0x00] + HCIBuilder.le16(0x40) + HCIBuilder.le16(12) + HCIBuilder.le16(0) + HCIBuilder.le16(200)))
        let (events, summary) = try TestSupport.analyze(s)
        #expect(summary.connections.count == 2)
        let first = summary.connections[0], second = summary.connections[1]
        #expect(first.peer == a)
        #expect(first.disconnectReason == 0x08)
        #expect(first.closedRecord != nil)
        #expect(second.peer == b)
        #expect(second.closedRecord == nil)
        #expect(second.interval == 12)
        #expect(second.updates.count == 1)
        // The ATT traffic is attributed to the right connection.
        let attConnections = events.filter { $0.layer("l2cap") != nil }.compactMap(\.connection)
        #expect(attConnections == [1, 2])
    }

    @Test func trafficBeforeAnyConnectionEventMakesAnImplicitConnection() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.attIn(0x0042, [0x1B, 0x0E, 0x00, 0x50])
        let (_, summary) = try TestSupport.analyze(s)
        #expect(summary.connections.count == 1)
        #expect(summary.connections[0].implicit)
        #expect(summary.connections[0].peer == nil)
    }
}
