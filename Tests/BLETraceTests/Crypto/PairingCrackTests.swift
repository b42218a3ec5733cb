import Foundation
import Testing
@testable import BLETrace

/// Sniffed pairings: legacy TKs cracked (Just Works, Passkey Entry with and without the confirm values), OOB
/// refused, LE Secure Connections with the debug key pair; then the link decrypted with the key found.
@Suite struct PairingCrackTests {
    static let central = BDAddr(LL.central)      // random (the CONNECT_IND's TxAdd)
    static let peripheral = BDAddr(LL.peripheral) // public
    static let mrand = LEBytes.hex("5783d52156ad6f0e6388274ec6702ee0") ?? []
    static let srand = LEBytes.hex("a6e8e7cc25a75f6e216583f7ff3dc4cf") ?? []
    static let skdm: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8], ivm: [UInt8] = [9, 10, 11, 12]
    static let skds: [UInt8] = [21, 22, 23, 24, 25, 26, 27, 28], ivs: [UInt8] = [29, 30, 31, 32]

    static func smp(_ air: inout Air, _ bytes: [UInt8], central: Bool, _ ccm: LECCM? = nil, counter: UInt64 = 0) {
        let frame = Air.l2cap(6, bytes)
        if let c = ccm { air.sealed(2, frame, central: central, c, counter: counter) } else { air.plain(2, frame, central: central) }
    }

    /// A legacy pairing with TK `tk`, then encryption with its STK and the peripheral's LTK distributed.
    static func legacy(tk: Int, io: (UInt8, UInt8), authReq: UInt8, oob: UInt8 = 0, confirms: Bool = true) throws -> (Air, stk: [UInt8], ltk: [UInt8]) {
        var air = Air()
        let request: [UInt8] = [0x01, io.0, oob, authReq, 16, 0, 1]
        let response: [UInt8] = [0x02, io.1, oob, authReq, 16, 0, 1]
        smp(&air, request, central: true)
        smp(&air, response, central: false)
        let k = LegacyPairingFunctions.tk(passkey: tk)
        let ia = SniffedPairing.bytes(central), ra = SniffedPairing.bytes(peripheral)
        if confirms {
            let mc = try #require(LegacyPairingFunctions.c1(k: k, r: mrand, preq: LEBytes.value(request), pres: LEBytes.value(response),
                                                            iat: 1, rat: 0, ia: ia, ra: ra))
            let sc = try #require(LegacyPairingFunctions.c1(k: k, r: srand, preq: LEBytes.value(request), pres: LEBytes.value(response),
                                                            iat: 1, rat: 0, ia: ia, ra: ra))
            smp(&air, [0x03] + LEBytes.value(mc), central: true)
            smp(&air, [0x03] + LEBytes.value(sc), central: false)
        }
        smp(&air, [0x04] + LEBytes.value(mrand), central: true)
        smp(&air, [0x04] + LEBytes.value(srand), central: false)
        let stk = try #require(LegacyPairingFunctions.s1(k: k, r1: srand, r2: mrand))
        air.plain(3, [0x03] + [UInt8](repeating: 0, count: 10) + skdm + ivm, central: true)
        air.plain(3, [0x04] + skds + ivs, central: false)
        air.plain(3, [0x05], central: false)
        let ccm = try #require(SessionKey.cipher(key: stk, skdm: skdm[...], skds: skds[...], ivm: ivm[...], ivs: ivs[...]))
        air.sealed(3, [0x06], central: true, ccm, counter: 0)
        air.sealed(3, [0x06], central: false, ccm, counter: 0)
        let ltk = LEBytes.hex("00112233445566778899aabbccddeeff") ?? []
        smp(&air, [0x06] + LEBytes.value(ltk), central: false, ccm, counter: 1)
        smp(&air, [0x07, 0x34, 0x12, 1, 2, 3, 4, 5, 6, 7, 8], central: false, ccm, counter: 2)
        return (air, stk, ltk)
    }

    func encryption(_ s: Summary) -> Fields? {
        guard case let .list(l)? = s.sections.first(where: { $0.name == "encryption" })?.value.objectValue?["connections"],
              case let .object(f)? = l.first else { return nil }
        return f
    }

    @Test func justWorksIsCrackedAndTheDistributedLTKIsFound() throws {
        let (air, stk, ltk) = try Self.legacy(tk: 0, io: (3, 3), authReq: 0x01)
        let (events, summary) = air.run()
        #expect(events.filter { $0.layer("ll")?["decrypted"] == .bool(true) }.count == 4)
        #expect(events.contains { $0.summary.hasPrefix("SMP Encryption Information") })
        #expect(events.contains { $0.summary.hasPrefix("SMP Central Identification") })
        let f = try #require(encryption(summary))
        #expect(f["pairing_method"] == .string("Just Works"))
        #expect(f["tk"] == .string("000000"))
        #expect(f["stk"] == .string(LEBytes.hexString(stk)))
        #expect(f["ltk"] == .string(LEBytes.hexString(ltk)))
        #expect(f["ltk_source"] == .string("distributed"))
        #expect(f["key_sources"] == .list([.string("cracked_tk")]))
        #expect(f["decrypted"] == .int(4))
    }

    @Test func passkeyIsFoundAmongAMillionTKs() throws {
        let (air, _, _) = try Self.legacy(tk: 987_654, io: (4, 0), authReq: 0x05)
        let start = Date()
        let (_, summary) = air.run()
        print("passkey search and decoding: \(Date().timeIntervalSince(start)) s")
        let f = try #require(encryption(summary))
        #expect(f["pairing_method"] == .string("Passkey Entry"))
        #expect(f["tk"] == .string("987654"))
        #expect(f["tk_kind"] == .string("passkey"))
        #expect(f["decrypted"] == .int(4))
    }

    @Test func theSearchBudgetBoundsHostileCaptures() throws {
        let (air, _, _) = try Self.legacy(tk: 4321, io: (4, 0), authReq: 0x05)
        let sink = CollectingSink()
        let analyzer = Analyzer(sink: sink)
        analyzer.pipeline.linkLayer.ring.searchesLeft = 0
        let summary = analyzer.run(ArrayReader(air.records, format: .pcap, linkType: 256), path: "test")
        let f = try #require(encryption(summary))
        #expect(f["tk"] == nil)
        #expect(f["problem"] == .string("notCracked"))
        #expect(f["decrypted"] == .int(0))
    }

    @Test func withoutConfirmsTheTKIsSearchedAgainstTheMIC() throws {
        let (air, _, _) = try Self.legacy(tk: 31_337, io: (4, 0), authReq: 0x05, confirms: false)
        let (_, summary) = air.run()
        let f = try #require(encryption(summary))
        #expect(f["tk"] == .string("031337"))
        #expect(f["decrypted"] == .int(4))
    }

    @Test func oobCannotBeCracked() throws {
        let (air, _, _) = try Self.legacy(tk: 5, io: (3, 3), authReq: 0x01, oob: 1)
        let (events, summary) = air.run()
        let f = try #require(encryption(summary))
        #expect(f["pairing_method"] == .string("OOB"))
        #expect(f["tk"] == nil)
        #expect(f["problem"] == .string("outOfBand"))
        #expect(f["decrypted"] == .int(0))
        #expect(events.last?.layer("ll")?["encrypted"] == .bool(true))
    }

    @Test func secureConnectionsWithTheDebugKeyPair() throws {
        var air = Air()
        Self.smp(&air, [0x01, 3, 0, 0x09, 16, 0, 1], central: true)
        Self.smp(&air, [0x02, 3, 0, 0x09, 16, 0, 1], central: false)
        let debugPublic = LEBytes.value(SecureConnectionsFunctions.debugPublicX) + LEBytes.value(SecureConnectionsFunctions.debugPublicY)
        let bx = LEBytes.hex("1ea1f0f01faf1d9609592284f19e4c0047b58afd8615a69f559077b22faaa190") ?? []
        let by = LEBytes.hex("4c55f33e429dad377356703a9ab85160472d1130e28e36765f89aff915b1214a") ?? []
        Self.smp(&air, [0x0C] + debugPublic, central: true)
        Self.smp(&air, [0x0C] + LEBytes.value(bx) + LEBytes.value(by), central: false)
        Self.smp(&air, [0x04] + LEBytes.value(Self.mrand), central: true)
        Self.smp(&air, [0x04] + LEBytes.value(Self.srand), central: false)
        // DHKey of data set 1 (Vol 3 Part H D.1), then f5 with the connection's addresses (central random).
        let w = LEBytes.hex("ec0234a357c8ad05341010a60a397d9b99796b13b4f866f1868d34f373bfa698") ?? []
        let ltk = try #require(SecureConnectionsFunctions.f5(w: w, n1: Self.mrand, n2: Self.srand, a1: [1] + SniffedPairing.bytes(Self.central),
                                                             a2: [0] + SniffedPairing.bytes(Self.peripheral))?.ltk)
        air.plain(3, [0x03] + [UInt8](repeating: 0, count: 10) + Self.skdm + Self.ivm, central: true)
        air.plain(3, [0x04] + Self.skds + Self.ivs, central: false)
        air.plain(3, [0x05], central: false)
        let ccm = try #require(SessionKey.cipher(key: ltk, skdm: Self.skdm[...], skds: Self.skds[...], ivm: Self.ivm[...], ivs: Self.ivs[...]))
        air.sealed(3, [0x06], central: true, ccm, counter: 0)
        air.sealed(3, [0x06], central: false, ccm, counter: 0)
        let (_, summary) = air.run()
        let f = try #require(encryption(summary))
        #expect(f["secure_connections"] == .bool(true))
        #expect(f["debug_keys"] == .bool(true))
        #expect(f["ltk"] == .string(LEBytes.hexString(ltk)))
        #expect(f["ltk_source"] == .string("debug_keys"))
        #expect(f["decrypted"] == .int(2))
        // Without the debug key the LTK cannot be derived.
        var plainKeys = Air()
        Self.smp(&plainKeys, [0x01, 3, 0, 0x09, 16, 0, 1], central: true)
        Self.smp(&plainKeys, [0x02, 3, 0, 0x09, 16, 0, 1], central: false)
        plainKeys.plain(3, [0x03] + [UInt8](repeating: 0, count: 10) + Self.skdm + Self.ivm, central: true)
        plainKeys.plain(3, [0x04] + Self.skds + Self.ivs, central: false)
        plainKeys.plain(3, [0x05], central: false)
        plainKeys.sealed(3, [0x06], central: true, ccm, counter: 0)
        let (_, s2) = plainKeys.run()
        #expect(encryption(s2)?["problem_text"] == .string("LE Secure Connections: LTK needed (--ltk)"))
        // The debug key pair gives an LTK that does not decrypt the link (sealed with another key): the summary
        // says so instead of showing that LTK next to "LTK needed" (issue #27).
        var wrong = Air()
        Self.smp(&wrong, [0x01, 3, 0, 0x09, 16, 0, 1], central: true)
        Self.smp(&wrong, [0x02, 3, 0, 0x09, 16, 0, 1], central: false)
        Self.smp(&wrong, [0x0C] + debugPublic, central: true)
        Self.smp(&wrong, [0x0C] + LEBytes.value(bx) + LEBytes.value(by), central: false)
        Self.smp(&wrong, [0x04] + LEBytes.value(Self.mrand), central: true)
        Self.smp(&wrong, [0x04] + LEBytes.value(Self.srand), central: false)
        wrong.plain(3, [0x03] + [UInt8](repeating: 0, count: 10) + Self.skdm + Self.ivm, central: true)
        wrong.plain(3, [0x04] + Self.skds + Self.ivs, central: false)
        wrong.plain(3, [0x05], central: false)
        let other = try #require(SessionKey.cipher(key: [UInt8](repeating: 0x5A, count: 16), skdm: Self.skdm[...], skds: Self.skds[...],
                                                   ivm: Self.ivm[...], ivs: Self.ivs[...]))
        wrong.sealed(3, [0x06], central: true, other, counter: 0)
        let (_, s3) = wrong.run()
        let w3 = try #require(encryption(s3))
        #expect(w3["ltk_source"] == .string("debug_keys"))
        #expect(w3["decrypted"] == .int(0))
        #expect(w3["problem"] == .string("debugKeyFails"))
        #expect(w3["problem_text"]?.stringValue?.hasPrefix("the LTK derived from the debug key pair does not decrypt the link") == true)
    }

    @Test func cracker() {
        // Straight from c1's sample data: TK 0 is found; with another confirm value nothing is.
        let h = { (s: String) in LEBytes.hex(s) ?? [] }
        var x = LegacyCracker.Inputs(preq: h("07071000000101"), pres: h("05000800000302"), iat: 1, rat: 0, ia: h("a1a2a3a4a5a6"),
                                     ra: h("b1b2b3b4b5b6"), mrand: h("5783d52156ad6f0e6388274ec6702ee0"), srand: [],
                                     mconfirm: h("1e1e3fef878988ead2a74dc5bef13b86"), sconfirm: nil)
        #expect(LegacyCracker.searchConfirm(x, allPasskeys: false) == 0)
        x.mconfirm = h("1e1e3fef878988ead2a74dc5bef13b87")
        #expect(LegacyCracker.searchConfirm(x, allPasskeys: false) == nil)
    }
}
