import Testing
@testable import BLETrace

/// The typed body HCI commands decode to.
@Suite struct HCICommandBodyTests {
    let peer = BDAddr(0xC4_7C_8D_6A_11_22)

    func body(_ e: TraceEvent) -> HCICommandBody? {
        if case let .hciCommand(b) = e.body { return b }
        return nil
    }

    @Test func disconnectCarriesHandleAndReason() throws {
        let e = TestSupport.decode(.command, HCIBuilder.command(0x0406, HCIBuilder.le16(0x0040) + [0x13]), direction: .hostToController)
        let b = try #require(body(e))
        #expect(b.opcode == 0x0406)
        guard case let .disconnect(h, reason) = b.params else { Issue.record("not a Disconnect: \(b.params)"); return }
        #expect(h == 0x0040 && reason == 0x13)
        #expect(b.handle == 0x0040)
        #expect(e.handle == 0x0040)
    }

    @Test func advertisingDataKeepsTheDeclaredLengthAndTheBytes() throws {
        let data = HCIBuilder.ad(0x09, Array("Tag".utf8))
        let e = TestSupport.decode(.command, HCIBuilder.command(0x2008, [UInt8(data.count)] + data), direction: .hostToController)
        let b = try #require(body(e))
        guard case let .advertisingData(n, d) = b.params else { Issue.record("not advertising data"); return }
        #expect(Int(n) == data.count)
        #expect(Array(d) == data)
        #expect(ADSequence(d).map { $0.type } == [0x09])
        #expect(e.summary == "LE Set Advertising Data: name \"Tag\"")
    }

    @Test func createConnectionNamesItsPeer() throws {
        let params = HCIBuilder.le16(0x60) + HCIBuilder.le16(0x30) + [0, 0] + HCIBuilder.addr(peer) + [0]
            + HCIBuilder.le16(24) + HCIBuilder.le16(40) + HCIBuilder.le16(0) + HCIBuilder.le16(400) + HCIBuilder.le16(0) + HCIBuilder.le16(0)
        let b = try #require(body(TestSupport.decode(.command, HCIBuilder.command(0x200D, params), direction: .hostToController)))
        guard case let .createConnection(c) = b.params else { Issue.record("not LE Create Connection"); return }
        #expect(c.peer == peer && c.intervalMin == 24 && c.intervalMax == 40 && c.timeout == 400)
        var seen: [BDAddr] = []
        b.forEachAddress { seen.append($0) }
        #expect(seen == [peer])
    }

    @Test func vendorAndUnknownCommandsKeepTheirParameters() throws {
        let e = TestSupport.decode(.command, HCIBuilder.command(0xFC4C, [1, 2]), direction: .hostToController)
        #expect(e.kind == .vendor)
        let b = try #require(body(e))
        guard case let .other(p) = b.params else { Issue.record("not other"); return }
        #expect(Array(p) == [1, 2])
    }
}
