import Testing
@testable import BLETrace

/// The typed body HCI events decode to: parameters as values, names only when rendered.
@Suite struct HCIEventBodyTests {
    let peer = BDAddr(0xC4_7C_8D_6A_11_22)

    func body(_ e: TraceEvent) -> HCIEventBody? {
        if case let .hciEvent(b) = e.body { return b }
        return nil
    }

    @Test func disconnectionCompleteCarriesHandleAndReason() throws {
        let e = TestSupport.decode(.event, HCIBuilder.disconnectionComplete(handle: 0x0041, reason: 0x13))
        let b = try #require(body(e))
        #expect(b.code == 0x05)
        guard case let .disconnectionComplete(status, handle, reason) = b.params else {
            Issue.record("not a Disconnection Complete: \(b.params)")
            return
        }
        #expect(status == 0 && handle == 0x0041 && reason == 0x13)
        #expect(b.handle == 0x0041)
        guard case let .closed(h, r)? = b.change else { Issue.record("no close"); return }
        #expect(h == 0x0041 && r == 0x13)
        #expect(e.summary == "Disconnection Complete: handle 0x0041, reason Remote User Terminated Connection")
    }

    @Test func commandCompleteCarriesOpcodeStatusAndReturn() throws {
        let e = TestSupport.decode(.event, HCIBuilder.commandComplete(0x1009, HCIBuilder.addr(peer)))
        let b = try #require(body(e))
        guard case let .commandComplete(c) = b.params else { Issue.record("not a Command Complete"); return }
        #expect(c.opcode == 0x1009)
        #expect(c.status == 0)
        #expect(b.commandOpcode == 0x1009)
        guard case let .address(a) = c.decoded else { Issue.record("no address: \(c.decoded)"); return }
        #expect(a == peer)
        #expect(!c.extra)

        let failed = try #require(body(TestSupport.decode(.event, HCIBuilder.commandComplete(0x200C, status: 0x0C))))
        #expect(failed.status == 0x0C)
        #expect(failed.commandOpcode == 0x200C)
    }

    @Test func commandStatusAndUnknownReturnKeepTheirBytes() throws {
        let s = try #require(body(TestSupport.decode(.event, HCIBuilder.commandStatus(0x200D, status: 0x0C))))
        guard case let .commandStatus(status, _, opcode) = s.params else { Issue.record("not a Command Status"); return }
        #expect(status == 0x0C && opcode == 0x200D)
        let e = TestSupport.decode(.event, HCIBuilder.commandComplete(0x2003, [1, 2, 3]))
        let b = try #require(body(e))
        guard case let .commandComplete(c) = b.params else { Issue.record("not a Command Complete"); return }
        #expect(Array(c.returned) == [0, 1, 2, 3])
        #expect(c.extra)
        #expect(e.layer("hci")?["parameters"]?.objectValue?["return_parameters"] == .hex([1, 2, 3]))
    }

    @Test func leConnectionCompleteOpensAConnection() throws {
        let e = TestSupport.decode(.event, HCIBuilder.leConnectionComplete(handle: 0x41, role: 1, peerType: 1, peer: peer,
                                                                           interval: 24, latency: 2, timeout: 400))
        let b = try #require(body(e))
        guard case let .le(sub, .connectionComplete(c)) = b.params else { Issue.record("not LE Connection Complete"); return }
        #expect(sub == 0x01)
        #expect(c.handle == 0x41 && c.peer == peer && c.role == 1 && c.interval == 24 && c.latency == 2 && c.timeout == 400)
        guard case let .opened(h, p, _, role, interval, latency, timeout, le)? = b.change else { Issue.record("no open"); return }
        #expect(h == 0x41 && p == peer && role == 1 && interval == 24 && latency == 2 && timeout == 400 && le)
    }

    @Test func completedPacketsReadsItsPairs() throws {
        let e = TestSupport.decode(.event, HCIBuilder.event(0x13, [2] + HCIBuilder.le16(0x40) + HCIBuilder.le16(3) + HCIBuilder.le16(0x41) + HCIBuilder.le16(1)))
        let b = try #require(body(e))
        guard case let .completedPackets(p) = b.params else { Issue.record("not Number of Completed Packets"); return }
        #expect(p.map { $0.handle } == [0x40, 0x41])
        #expect(p.map { $0.count } == [3, 1])
        #expect(b.handle == nil)
        #expect(e.summary == "Number Of Completed Packets: 0x0040: 3, 0x0041: 1")
    }

    @Test("Number Of Completed Packets: a handle's 4 reserved top bits are not part of it (crossnite's controller sets them)")
    func completedPacketsMasksTheHandle() throws {
        let e = TestSupport.decode(.event, HCIBuilder.event(0x13, [1] + HCIBuilder.le16(0xF004) + HCIBuilder.le16(2)))
        let b = try #require(body(e))
        guard case let .completedPackets(p) = b.params else { Issue.record("not Number of Completed Packets"); return }
        #expect(p.map { $0.handle } == [0x004])
        #expect(p.map { $0.count } == [2])
    }

    @Test func truncatedEventIsMalformed() {
        let e = TestSupport.decode(.event, HCIBuilder.event(0x05, [0x00, 0x40]))
        #expect(e.malformed != nil)
        #expect(e.kind == .hciEvent)
    }
}
