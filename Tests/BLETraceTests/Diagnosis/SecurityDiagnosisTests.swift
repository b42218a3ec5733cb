import Testing
@testable import BLETrace

@Suite struct SecurityDiagnosisTests {
    static func pairingFailed(_ reason: UInt8, request: [UInt8] = DX.pairingRequest(), response: [UInt8] = DX.pairingResponse(),
                              byHost: Bool = true) -> Scenario {
        let s = DX.scenario()
        s.connect(handle: DX.h, peer: Samples.watch, peerType: 1)
        s.smpOut(DX.h, request)
        s.smpIn(DX.h, response)
        if byHost { s.smpOut(DX.h, [0x05, reason]) } else { s.smpIn(DX.h, [0x05, reason]) }
        s.disconnect(handle: DX.h)
        return s
    }

    @Test func pairingFailedReasonsNameTheCause() throws {
        let user = try DX.one(Self.pairingFailed(0x0C), .pairingRejectedByUser)
        #expect(user.facts.byLocal == true)
        #expect(user.evidence.count == 2)
        #expect(try DX.one(Self.pairingFailed(0x01, byHost: false), .pairingRejectedByUser).facts.byLocal == false)
        // Confirm Value Failed is a wrong passkey in Passkey Entry (KeyboardDisplay and DisplayOnly)…
        #expect(try DX.one(Self.pairingFailed(0x04, response: DX.pairingResponse(io: 0x00)), .pairingWrongPasskey).facts.reason == 0x04)
        // …and not in Numeric Comparison (both KeyboardDisplay, Secure Connections) or Just Works.
        #expect(try DX.one(Self.pairingFailed(0x04), .pairingFailed).facts.method == .numericComparison)
        #expect(try !DX.ids(Self.pairingFailed(0x04, response: DX.pairingResponse(io: 0x03))).contains(.pairingWrongPasskey))
        #expect(try DX.one(Self.pairingFailed(0x08), .pairingFailed).facts.reason == 0x08)
        // Authentication requirements: the initiator wants MITM, the responder has no input and no output.
        let u = try DX.one(Self.pairingFailed(0x03, request: DX.pairingRequest(io: 0x04, authReq: 0x05),
                                             response: DX.pairingResponse(io: 0x03, authReq: 0x01), byHost: false), .pairingUnsupported)
        #expect(DiagnosisText.explanation(u).contains("MITM protection (initiator)"))
        #expect(DiagnosisText.explanation(u).contains("NoInputNoOutput"))
    }

    @Test func pairingThatStopsFor30sTimesOut() throws {
        func capture(encrypted: Bool) -> Scenario {
            let s = DX.scenario()
            s.connect(handle: DX.h, peer: Samples.watch, peerType: 1)
            s.smpOut(DX.h, DX.pairingRequest())
            s.smpIn(DX.h, DX.pairingResponse())
            if encrypted { DX.encryptionChange(s) }
            s.advance(ms: 31_000)
            s.disconnect(handle: DX.h, reason: 0x13)
            return s
        }
        let d = try DX.one(capture(encrypted: false), .pairingTimeout)
        #expect(d.connections == [1])
        #expect(!(try DX.ids(capture(encrypted: true)).contains(.pairingTimeout)))
    }

    @Test func eachPairingPDUPutsTheTimeoutOffAndNamesTheStage() throws {
        // Confirm 20 s after the response, then 20 s of silence: no 30 s gap, no timeout.
        func capture(silence ms: Int64) -> Scenario {
            let s = DX.scenario()
            s.connect(handle: DX.h, peer: Samples.watch, peerType: 1)
            s.smpOut(DX.h, DX.pairingRequest())
            s.smpIn(DX.h, DX.pairingResponse())
            s.advance(ms: 20_000)
            s.smpOut(DX.h, [0x03] + [UInt8](repeating: 0x5A, count: 16))
            s.advance(ms: ms)
            s.disconnect(handle: DX.h, reason: 0x13)
            return s
        }
        #expect(!(try DX.ids(capture(silence: 20_000)).contains(.pairingTimeout)))
        // 31 s of silence after the Confirm: it times out at that stage, the method from the features.
        let d = try DX.one(capture(silence: 31_000), .pairingTimeout)
        #expect(d.facts.stage == 0x03)
        #expect(d.facts.method == .numericComparison)
    }

    @Test func keyMissingIsABondLostAndMICFailureAnEncryptionFailure() throws {
        let s = DX.scenario()
        s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        DX.encryptionChange(s, status: 0x06)
        s.disconnect(handle: DX.h, reason: 0x3D, byHost: false)
        let all = try DX.run(s)
        #expect(all.filter { $0.id == .bondLost }.count == 1)
        #expect(all.filter { $0.id == .encryptionFailed }.first?.facts.reason == 0x3D)
        // LE Long Term Key Request Negative Reply: the local peripheral lost the key.
        let p = DX.scenario()
        p.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        p.host(.command, HCIBuilder.command(0x201B, DX.le16(DX.h)))
        #expect(try DX.one(p, .bondLost).facts.opcode == 0x201B)
        let ok = DX.scenario()
        ok.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        DX.encryptionChange(ok)
        #expect(try DX.run(ok).isEmpty)
    }

    @Test func refusedForSecurityUnlessEncryptedAndRetried() throws {
        func capture(retry: Bool) -> Scenario {
            let s = DX.scenario()
            s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
            s.attOut(DX.h, [0x12] + DX.le16(0x0030) + [0x01])
            s.attIn(DX.h, [0x01, 0x12] + DX.le16(0x0030) + [0x05])
            if retry {
                DX.encryptionChange(s)
                s.attOut(DX.h, [0x12] + DX.le16(0x0030) + [0x01])
                s.attIn(DX.h, [0x13])
            }
            s.disconnect(handle: DX.h)
            return s
        }
        let d = try DX.one(capture(retry: false), .insufficientSecurity)
        #expect(d.facts.byLocal == true)
        #expect(d.facts.handle == 0x0030)
        #expect(DiagnosisText.advice(d).contains("pair first"))
        #expect(try DX.run(capture(retry: true)).isEmpty)
        // Encrypted afterwards but never retried: still refused, and the diagnosis says the link did become secure.
        let s = DX.scenario()
        s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        s.attOut(DX.h, [0x12] + DX.le16(0x0030) + [0x01])
        s.attIn(DX.h, [0x01, 0x12] + DX.le16(0x0030) + [0x05])
        DX.encryptionChange(s)
        s.disconnect(handle: DX.h)
        let later = try DX.one(s, .insufficientSecurity)
        #expect(later.facts.recovered)
        #expect(later.severity == .error)
        #expect(DiagnosisText.title(later).hasSuffix("no successful retry was seen once the link was encrypted"))
    }

    @Test func legacyPairingAndShortKeysAreWeak() throws {
        let s = DX.scenario()
        s.connect(handle: DX.h, peer: Samples.watch, peerType: 1)
        s.smpOut(DX.h, DX.pairingRequest(io: 0x03, authReq: 0x01, keySize: 7))
        s.smpIn(DX.h, DX.pairingResponse(io: 0x03, authReq: 0x01, keySize: 7))
        DX.encryptionChange(s)
        let weak = try DX.run(s).filter { $0.id == .weakSecurity }.compactMap(\.facts.weakness)
        #expect(weak.contains(.legacyPairing(method: .justWorks, cracked: false)))
        #expect(weak.contains(.keySize(7)))
        // LE Secure Connections, Numeric Comparison, both public keys and DHKey checks: nothing weak.
        let ok = DX.scenario()
        ok.connect(handle: DX.h, peer: Samples.watch, peerType: 1)
        ok.smpOut(DX.h, DX.pairingRequest())
        ok.smpIn(DX.h, DX.pairingResponse())
        ok.smpOut(DX.h, [0x0C] + Array(repeating: 1, count: 64))
        ok.smpIn(DX.h, [0x0C] + Array(repeating: 2, count: 64))
        ok.smpOut(DX.h, [0x0D] + Array(repeating: 3, count: 16))
        ok.smpIn(DX.h, [0x0D] + Array(repeating: 4, count: 16))
        DX.encryptionChange(ok)
        #expect(try DX.run(ok).isEmpty)
        // Secure Connections with no public keys, then encryption: the key cannot be the pairing's.
        let zero = DX.scenario()
        zero.connect(handle: DX.h, peer: Samples.watch, peerType: 1)
        zero.smpOut(DX.h, DX.pairingRequest())
        zero.smpIn(DX.h, DX.pairingResponse())
        DX.encryptionChange(zero)
        #expect(try DX.one(zero, .weakSecurity).facts.weakness == .encryptionWithoutPairing)
    }
}
