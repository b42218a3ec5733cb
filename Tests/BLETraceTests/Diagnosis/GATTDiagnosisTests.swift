import Testing
@testable import BLETrace

@Suite struct GATTDiagnosisTests {
    /// A discovered database (connection 1: the gatt-session sample), then a second connection to the same peer.
    static func secondConnection() -> Scenario {
        let s = DX.scenario()
        Samples.gattSession(s, handle: DX.h, peer: Samples.thermo, notifications: 0)
        s.connect(handle: 0x0041, peer: Samples.thermo, peerType: 1)
        return s
    }

    static func error(_ code: UInt8, request: UInt8 = 0x0A, handle: UInt16 = 0x0030) -> Scenario {
        let s = DX.scenario()
        s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        s.attOut(DX.h, [request] + DX.le16(handle) + (request == 0x08 ? DX.le16(handle) + DX.le16(0x2A00) : []))
        s.attIn(DX.h, [0x01, request] + DX.le16(handle) + [code])
        s.disconnect(handle: DX.h)
        return s
    }

    @Test func errorCodesByCause() throws {
        #expect(try DX.one(Self.error(0x01), .staleGATTCache).facts.handle == 0x0030)
        #expect(try DX.one(Self.error(0x12), .staleGATTCache).facts.reason == 0x12)
        #expect(try DX.one(Self.error(0x03), .attributeNotPermitted).severity == .warning)
        #expect(try DX.one(Self.error(0x80), .applicationError).facts.reason == 0x80)
        #expect(try DX.one(Self.error(0x07), .attError).facts.opcode == 0x0A)
        // Handle 0x0000 is a client bug, not a stale cache.
        #expect(try DX.ids(Self.error(0x01, handle: 0)) == [.attError])
        // Attribute Not Found ends a discovery: nothing to diagnose.
        #expect(try DX.run(Self.error(0x0A, request: 0x08)).isEmpty)
    }

    @Test func sameErrorOnTwoConnectionsIsOneDiagnosisCountedTwice() throws {
        let s = DX.scenario()
        for i in 0..<2 {
            let h = DX.h + UInt16(i)
            s.connect(handle: h, peer: Samples.thermo, peerType: 1)
            s.attOut(h, [0x0A] + DX.le16(0x0030))
            s.attIn(h, [0x01, 0x0A] + DX.le16(0x0030) + [0x80])
            s.disconnect(handle: h)
        }
        let d = try DX.one(s, .applicationError)
        #expect(d.count == 2)
        #expect(d.connections == [1, 2])
        #expect(d.firstRecord < d.lastRecord)
    }

    @Test func cccdWriteRefusedIsASubscriptionFailure() throws {
        let s = Self.secondConnection()
        s.attOut(0x0041, [0x12] + DX.le16(0x000F) + [0x01, 0x00])
        s.attIn(0x0041, [0x01, 0x12] + DX.le16(0x000F) + [0xFD])
        let d = try DX.one(s, .subscriptionFailed)
        #expect(d.connections == [2])
        #expect(DiagnosisText.title(d).contains("Client Characteristic Configuration"))
        #expect(DiagnosisText.title(d).contains("Battery Level"))
    }

    @Test func serviceChangedWithoutRediscoveryIsAStaleCache() throws {
        func capture(rediscover: Bool) -> Scenario {
            let s = Self.secondConnection()
            s.attIn(0x0041, [0x1D] + DX.le16(0x000A) + DX.le16(0x0001) + DX.le16(0xFFFF))
            s.attOut(0x0041, [0x1E])
            if rediscover {
                s.attOut(0x0041, [0x10] + DX.le16(0x0001) + DX.le16(0xFFFF) + DX.le16(0x2800))
                s.attIn(0x0041, [0x01, 0x10] + DX.le16(0x0001) + [0x0A])
            }
            s.disconnect(handle: 0x0041)
            return s
        }
        let d = try DX.one(capture(rediscover: false), .staleGATTCache)
        #expect(d.connections == [2])
        #expect(!(try DX.ids(capture(rediscover: true)).contains(.staleGATTCache)))
    }

    @Test func requestWithoutResponseTimesOut() throws {
        func capture(answered: Bool) -> Scenario {
            let s = DX.scenario()
            s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
            s.attOut(DX.h, [0x0A] + DX.le16(0x0003))
            if answered { s.attIn(DX.h, [0x0B, 0x01]) }
            s.advance(ms: 31_000)
            s.advert(addressType: 0, address: Samples.beacon, data: [], rssi: -70)
            s.disconnect(handle: DX.h)
            return s
        }
        let d = try DX.one(capture(answered: false), .attTimeout)
        #expect(d.facts.reason == 0)
        #expect(DiagnosisText.title(d).contains("within 30 s"))
        #expect(try DX.run(capture(answered: true)).isEmpty)
    }
}
