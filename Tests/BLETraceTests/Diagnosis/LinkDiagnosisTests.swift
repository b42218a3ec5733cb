import Testing
@testable import BLETrace

@Suite struct LinkDiagnosisTests {
    @Test func supervisionTimeoutIsLinkLostWithTheSilenceBeforeIt() throws {
        let s = DX.scenario()
        s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        s.attOut(DX.h, [0x0A] + DX.le16(0x0003))
        s.attIn(DX.h, [0x0B, 0x41])
        s.advance(ms: 4000)
        s.disconnect(handle: DX.h, reason: 0x08, byHost: false)
        let d = try DX.one(s, .linkLost)
        #expect(d.severity == .error)
        #expect(d.connections == [1])
        #expect(d.peer == Samples.thermo)
        #expect(d.facts.silenceMicros.map { $0 >= 4_000_000 && $0 < 4_100_000 } == true)
        #expect(DiagnosisText.explanation(d).contains("4000 ms"))
        // A disconnect the peer asked for is no loss.
        let ok = DX.scenario()
        ok.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        ok.disconnect(handle: DX.h, reason: 0x13, byHost: false)
        #expect(try DX.run(ok).isEmpty)
    }

    @Test func peerAdvertisingWhileItsLinkIsStillUpRestarted() throws {
        /// The peer answers once, then advertises while the local side still holds the link; `heardAfter`: it
        /// still sends on the link after the advert; the link ends with `reason`.
        func capture(heardAfter: Bool = false, reason: UInt8 = 0x08) -> Scenario {
            let s = DX.scenario()
            s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
            s.attOut(DX.h, [0x0A] + DX.le16(0x0003))
            s.attIn(DX.h, [0x0B, 0x41])
            s.advance(ms: 500)
            s.advert(addressType: 1, address: Samples.thermo, data: HCIBuilder.ad(0x01, [0x06]), rssi: -60)
            if heardAfter {
                s.attOut(DX.h, [0x0A] + DX.le16(0x0003))
                s.attIn(DX.h, [0x0B, 0x41])
            }
            s.advance(ms: 4000)
            s.disconnect(handle: DX.h, reason: reason, byHost: false)
            return s
        }
        let d = try DX.one(capture(), .peerRestarted)
        #expect(d.connections == [1] && d.peer == Samples.thermo && d.severity == .warning)
        #expect(DiagnosisText.explanation(d).contains("while the local side still held its link"))
        // Phones advertise while connected: heard on the link after the advert, it had not left it.
        #expect(!(try DX.ids(capture(heardAfter: true)).contains(.peerRestarted)))
        // A link the peer closed, not lost: no restart.
        #expect(!(try DX.ids(capture(reason: 0x13)).contains(.peerRestarted)))
        // Advertising after a failed connection (0x3E) or a supervision timeout is what peripherals do.
        for reason: UInt8 in [0x3E, 0x08] {
            let s = DX.scenario()
            s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
            s.disconnect(handle: DX.h, reason: reason, byHost: false)
            s.advance(ms: 2000)
            s.advert(addressType: 1, address: Samples.thermo, data: HCIBuilder.ad(0x01, [0x06]), rssi: -60)
            #expect(!(try DX.ids(s).contains(.peerRestarted)))
        }
    }

    @Test func failedToBeEstablishedAndProcedureTimeout() throws {
        let s = DX.scenario()
        s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        s.disconnect(handle: DX.h, reason: 0x3E, byHost: false)
        s.connect(handle: 0x0041, peer: Samples.watch, peerType: 1)
        s.disconnect(handle: 0x0041, reason: 0x22, byHost: false)
        let all = try DX.run(s)
        #expect(all.first { $0.id == .connectionNotEstablished }?.connections == [1])
        #expect(all.first { $0.id == .procedureTimeout }?.peer == Samples.watch)
    }

    @Test func parameterUpdateRejectedByTheLocalHost() throws {
        func capture(result: UInt16) -> Scenario {
            let s = DX.scenario()
            s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
            s.l2cap(handle: DX.h, cid: 0x0005, fromHost: false, [0x12, 0x01] + DX.le16(8) + DX.le16(6) + DX.le16(6) + DX.le16(0) + DX.le16(100))
            s.l2cap(handle: DX.h, cid: 0x0005, fromHost: true, [0x13, 0x01] + DX.le16(2) + DX.le16(result))
            return s
        }
        let d = try DX.one(capture(result: 1), .connectionParametersRejected)
        #expect(d.facts.byLocal == true)
        #expect(DiagnosisText.title(d).contains("sent by the local host"))
        #expect(try DX.run(capture(result: 0)).isEmpty)
    }

    @Test func threeFailuresWithinFiveMinutesAreAReconnectLoop() throws {
        func capture(failures: Int, gapMs: Int64) -> Scenario {
            let s = DX.scenario()
            for i in 0..<failures {
                s.connect(handle: DX.h + UInt16(i), peer: Samples.thermo, peerType: 1)
                s.disconnect(handle: DX.h + UInt16(i), reason: 0x3E, byHost: false)
                s.advance(ms: gapMs)
            }
            return s
        }
        let d = try DX.one(capture(failures: 3, gapMs: 10_000), .reconnectLoop)
        #expect(d.facts.number == 3)
        #expect(d.evidence.count == 3)
        #expect(!(try DX.ids(capture(failures: 2, gapMs: 10_000)).contains(.reconnectLoop)))
        #expect(!(try DX.ids(capture(failures: 3, gapMs: 200_000)).contains(.reconnectLoop)))
    }
}
