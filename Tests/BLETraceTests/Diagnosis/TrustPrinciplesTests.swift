import Testing
@testable import BLETrace

/// The principles the real-capture review (issue #36) applies across the rules, each on a generated capture:
/// severity follows proof, who did it comes from the direction of the PDUs, the local host's own actions are
/// context, absence needs opportunity, pairing causes fit the method. `RealCaptureDiagnosisTests` checks the
/// same on the real captures that showed each one.
@Suite struct TrustPrinciplesTests {
    static func rejected(_ s: Scenario) throws -> [Diagnosis] { try DX.run(s).filter { $0.id == .commandRejected } }

    // MARK: Severity follows proof; the local host's own actions are context

    @Test func commandsTheControllerMayRefuseAreContext() throws {
        let s = DX.scenario()
        s.command(0xFC17, [0x01], status: 0x12) // a vendor probe
        s.command(0x204E, HCIBuilder.addr(Samples.thermo) + [1, 1], status: 0x01) // LE Set Privacy Mode: Unknown HCI Command
        s.command(0x1004, [0x05], status: 0x12) // Read Local Extended Features, a page the controller lacks
        s.command(0x041A, HCIBuilder.addr(Samples.phone), status: 0x12) // Remote Name Request Cancel: nothing to cancel
        s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        s.command(0x0C37, DX.le16(0x000B) + DX.le16(0x7D00), status: 0x02) // a handle that had closed: a race
        let all = try Self.rejected(s)
        #expect(all.count == 5)
        #expect(all.allSatisfy { $0.severity == .info })
        let reasons = Set(all.compactMap { $0.facts.benign.map(BenignKind.init) })
        #expect(reasons == [.vendorCommand, .optionalFeature, .nothingToCancel, .racedDisconnect])
        let vendor = try #require(all.first { $0.facts.opcode == 0xFC17 })
        #expect(DiagnosisText.explanation(vendor).contains("vendor command"))
        #expect(DiagnosisText.advice(vendor).hasPrefix("Nothing to fix"))
    }

    @Test func aRepeatOfACommandThatJustSucceededIsContextButOtherParametersAreNot() throws {
        let s = DX.scenario()
        s.command(0x0C37, DX.le16(0x000B) + DX.le16(0x7D00))
        s.command(0x0C37, DX.le16(0x000B) + DX.le16(0x7D00), status: 0x0C)
        let dup = try #require(try Self.rejected(s).first)
        #expect(dup.severity == .info)
        if case let .duplicate(r)? = dup.facts.benign { #expect(r > 0) } else { Issue.record("not a duplicate: \(String(describing: dup.facts.benign))") }
        // Scanning enabled, then disabling it fails: not the same command, a real refusal.
        let scan = DX.scenario()
        scan.command(0x200C, [0x01, 0x00])
        scan.command(0x200C, [0x00, 0x00], status: 0x1F)
        // The host's own mistake: a 3-byte LE Set Extended Scan Parameters.
        scan.command(0x2041, [0x00, 0x00, 0x01], status: 0x12)
        let real = try Self.rejected(scan)
        #expect(real.count == 2)
        #expect(real.allSatisfy { $0.severity == .warning && $0.facts.benign == nil })
    }

    @Test func bluetoothSwitchedOffIsOneInfoLine() throws {
        let s = DX.scenario()
        s.startScan()
        s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        s.attOut(DX.h, [0x0A] + DX.le16(0x0003)) // pending when the host closes the link
        s.disconnect(handle: DX.h, reason: 0x15)
        s.stopScan()
        s.command(0x0C03)
        let all = try DX.run(s)
        let off = try DX.one(s, .bluetoothOff)
        #expect(off.severity == .info)
        #expect(DiagnosisText.title(off).hasPrefix("Bluetooth was switched off"))
        #expect(!all.contains { $0.id == .controllerReset })
        #expect(!all.contains { $0.severity > .info }, "\(all.map { $0.id.rawValue + " " + $0.severity.name })")
        // A Reset with a link still open cut it: the host's doing, a warning.
        let cut = DX.scenario()
        cut.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        cut.command(0x0C03)
        let r = try DX.one(cut, .controllerReset)
        #expect(r.severity == .warning && r.facts.number == 1)
        #expect(DiagnosisText.title(r) == "The host reset the controller with a link still open")
        // Phones switching off often leave the scan on: with no link open it is still Bluetooth off.
        let scanning = DX.scenario()
        scanning.startScan()
        scanning.command(0x0C03)
        #expect(try DX.one(scanning, .bluetoothOff).severity == .info)
        #expect(!(try DX.ids(scanning).contains(.controllerReset)))
    }

    @Test func onlyThirtySecondsOnALiveLinkIsAnATTTimeout() throws {
        func capture(waitMs: Int64) -> Scenario {
            let s = DX.scenario()
            s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
            s.attOut(DX.h, [0x0A] + DX.le16(0x0003))
            s.advance(ms: waitMs)
            s.disconnect(handle: DX.h, reason: 0x13)
            return s
        }
        let closed = try DX.one(capture(waitMs: 500), .attTimeout)
        #expect(closed.severity == .info && closed.facts.benign == .linkClosedFirst)
        #expect(DiagnosisText.explanation(closed).contains("not an ATT timeout"))
        let timedOut = try DX.one(capture(waitMs: 31_000), .attTimeout)
        #expect(timedOut.severity == .error && timedOut.facts.benign == nil)
    }

    // MARK: Who did it comes from the direction of the PDUs

    /// The server's Service Changed characteristic (value handle 0x0003) discovered by the client, then indicated.
    static func serviceChanged(localServer: Bool) -> Scenario {
        let s = DX.scenario()
        s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        let ask = localServer ? s.attIn : s.attOut
        let answer = localServer ? s.attOut : s.attIn
        ask(DX.h, [0x10] + DX.le16(0x0001) + DX.le16(0xFFFF) + DX.le16(0x2800))
        answer(DX.h, [0x11, 6] + DX.le16(0x0001) + DX.le16(0x0005) + DX.le16(0x1801))
        ask(DX.h, [0x08] + DX.le16(0x0001) + DX.le16(0x0005) + DX.le16(0x2803))
        answer(DX.h, [0x09, 7] + DX.le16(0x0002) + [0x20] + DX.le16(0x0003) + DX.le16(0x2A05))
        answer(DX.h, [0x1D] + DX.le16(0x0003) + DX.le16(0x0001) + DX.le16(0xFFFF))
        ask(DX.h, [0x1E])
        s.disconnect(handle: DX.h, reason: 0x13)
        return s
    }

    @Test func serviceChangedIsTheServersAndOnlyThePeersIsAStaleCache() throws {
        let peer = try DX.one(Self.serviceChanged(localServer: false), .staleGATTCache)
        #expect(DiagnosisText.title(peer).hasPrefix("\(Samples.thermo) indicated Service Changed"))
        // The local host indicating its own database change to the peer is not the peer's stale cache.
        #expect(!(try DX.ids(Self.serviceChanged(localServer: true)).contains(.staleGATTCache)))
    }

    // MARK: Pairing causes fit the method

    @Test func justWorksIsNotWeakerThanTheIOCapabilitiesAllow() throws {
        func capture(responderIO: UInt8, authReq: UInt8) -> Scenario {
            let s = DX.scenario()
            s.connect(handle: DX.h, peer: Samples.watch, peerType: 1)
            s.smpOut(DX.h, DX.pairingRequest(io: 0x04, authReq: authReq))
            s.smpIn(DX.h, DX.pairingResponse(io: responderIO, authReq: authReq))
            s.smpOut(DX.h, [0x0C] + Array(repeating: 1, count: 64))
            s.smpIn(DX.h, [0x0C] + Array(repeating: 2, count: 64))
            s.smpOut(DX.h, [0x0D] + Array(repeating: 3, count: 16))
            s.smpIn(DX.h, [0x0D] + Array(repeating: 4, count: 16))
            DX.encryptionChange(s)
            return s
        }
        // MITM asked for, but the peer has no input and no output: Just Works is the only method.
        #expect(try DX.run(capture(responderIO: 0x03, authReq: 0x2D)).isEmpty)
        // Both sides could have compared numbers, and neither asked for MITM: Just Works is weaker than it had to be.
        let weak = try DX.one(capture(responderIO: 0x04, authReq: 0x29), .weakSecurity)
        #expect(weak.facts.weakness == .justWorksDespiteMITM(mitmRequested: false))
    }

    @Test func aKeySizeOutsideSevenToSixteenOrAnAllZeroKeyIsWeak() throws {
        // The SweynTooth key size overflow: a request for 253-byte keys answered with a Pairing Response.
        let s = DX.scenario()
        s.connect(handle: DX.h, peer: Samples.watch, peerType: 1)
        s.smpOut(DX.h, DX.pairingRequest(keySize: 253))
        s.smpIn(DX.h, DX.pairingResponse(keySize: 16))
        let d = try DX.one(s, .weakSecurity)
        #expect(d.facts.weakness == .invalidKeySize(253))
        #expect(DiagnosisText.title(d).contains("maximum key size of 253 bytes (allowed: 7–16)"))
        // Refused as it must be: nothing weak.
        let refused = DX.scenario()
        refused.connect(handle: DX.h, peer: Samples.watch, peerType: 1)
        refused.smpOut(DX.h, DX.pairingRequest(keySize: 253))
        refused.smpIn(DX.h, [0x05, 0x06])
        #expect(!(try DX.ids(refused).contains(.weakSecurity)))
        // An all-zero IRK from the peer.
        let zero = DX.scenario()
        zero.connect(handle: DX.h, peer: Samples.watch, peerType: 1)
        zero.smpIn(DX.h, [0x08] + Array(repeating: 0, count: 16))
        let z = try DX.one(zero, .weakSecurity)
        #expect(z.facts.weakness == .zeroKey("IRK") && z.facts.byLocal == false)
    }

    @Test func classicUserRejectionIsARejectionNotALostBond() throws {
        let s = DX.scenario()
        DX.classicConnect(s)
        s.controller(.event, HCIBuilder.event(0x17, HCIBuilder.addr(Samples.phone))) // Link Key Request
        s.command(0x040C, HCIBuilder.addr(Samples.phone), returning: HCIBuilder.addr(Samples.phone)) // no key: pair afresh
        s.controller(.event, HCIBuilder.event(0x33, HCIBuilder.addr(Samples.phone) + HCIBuilder.le32(123_456))) // User Confirmation Request
        s.command(0x042D, HCIBuilder.addr(Samples.phone), returning: HCIBuilder.addr(Samples.phone)) // …declined
        s.controller(.event, HCIBuilder.event(0x36, [0x05] + HCIBuilder.addr(Samples.phone))) // Simple Pairing Complete: failure
        s.controller(.event, HCIBuilder.event(0x06, [0x05] + DX.le16(0x000B))) // Authentication Complete: failure
        let all = try DX.run(s)
        let d = try DX.one(s, .pairingRejectedByUser)
        #expect(d.facts.byLocal == true && d.peer == Samples.phone)
        #expect(DiagnosisText.title(d).contains("numeric comparison was declined"))
        #expect(!all.contains { $0.id == .bondLost })
    }

    // MARK: Causes that were not named

    @Test func pageTimeoutsAreFailedConnectionsAndALoop() throws {
        let s = DX.scenario()
        for _ in 0..<3 {
            s.commandWithStatus(0x0405, HCIBuilder.addr(Samples.phone) + DX.le16(0xCC18) + [0x02, 0x00] + DX.le16(0) + [0x01])
            s.advance(ms: 5_120)
            s.controller(.event, HCIBuilder.event(0x03, [0x04] + DX.le16(0x000B) + HCIBuilder.addr(Samples.phone) + [0x01, 0x00]))
            s.advance(ms: 10_000)
        }
        let failed = try DX.one(s, .connectionNotEstablished)
        #expect(failed.count == 3 && failed.peer == Samples.phone && failed.facts.reason == 0x04)
        #expect(try DX.one(s, .reconnectLoop).facts.number == 3)
    }

    @Test func aSupervisionTimeoutOfAFewEventsIsAWarning() throws {
        func capture(interval: UInt16, timeout: UInt16) -> Scenario {
            let s = DX.scenario()
            s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1, interval: interval, timeout: timeout)
            s.disconnect(handle: DX.h, reason: 0x13)
            return s
        }
        // 100 ms at 37.5 ms: two events.
        let d = try DX.one(capture(interval: 30, timeout: 10), .supervisionTimeoutShort)
        #expect(d.severity == .warning && d.facts.stage == 2)
        #expect(DiagnosisText.title(d).contains("supervision timeout of 100 ms at interval 37.50 ms"))
        #expect(!(try DX.ids(capture(interval: 24, timeout: 400)).contains(.supervisionTimeoutShort)))
    }
}
