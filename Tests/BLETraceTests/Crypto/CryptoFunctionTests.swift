import Testing
@testable import BLETrace

/// The cryptographic functions against the Core specification's sample data (Vol 3 Part H Appendix D,
/// Vol 6 Part C 1), written as the specification writes them: most significant octet first.
@Suite struct CryptoFunctionTests {
    func h(_ s: String) -> [UInt8] { LEBytes.hex(s) ?? [] }

    @Test func aesBlockMatchesFIPS197() {
        // FIPS-197 Appendix C.1.
        #expect(LEAES.e(h("000102030405060708090a0b0c0d0e0f"), h("00112233445566778899aabbccddeeff"))
            == h("69c4e0d86a7b0430d8cdb78070b4c55a"))
        #expect(LEAES.e(h("00"), h("00112233445566778899aabbccddeeff")) == nil)
    }

    @Test func c1MatchesSampleData() {
        let c = LegacyPairingFunctions.c1(k: [UInt8](repeating: 0, count: 16), r: h("5783d52156ad6f0e6388274ec6702ee0"),
                                          preq: h("07071000000101"), pres: h("05000800000302"), iat: 1, rat: 0,
                                          ia: h("a1a2a3a4a5a6"), ra: h("b1b2b3b4b5b6"))
        #expect(c == h("1e1e3fef878988ead2a74dc5bef13b86"))
        // Another TK gives another confirm value.
        let other = LegacyPairingFunctions.c1(k: LegacyPairingFunctions.tk(passkey: 1), r: h("5783d52156ad6f0e6388274ec6702ee0"),
                                              preq: h("07071000000101"), pres: h("05000800000302"), iat: 1, rat: 0,
                                              ia: h("a1a2a3a4a5a6"), ra: h("b1b2b3b4b5b6"))
        #expect(other != nil && other != c)
    }

    @Test func s1MatchesSampleData() {
        #expect(LegacyPairingFunctions.s1(k: [UInt8](repeating: 0, count: 16), r1: h("000f0e0d0c0b0a091122334455667788"),
                                          r2: h("010203040506070899aabbccddeeff00")) == h("9a1fe1f0e8b0f49b5b4216ae796da062"))
    }

    @Test func passkeyTK() {
        #expect(LegacyPairingFunctions.tk(passkey: 999_999) == h("000000000000000000000000000f423f"))
        #expect(LegacyPairingFunctions.tk(passkey: 0) == [UInt8](repeating: 0, count: 16))
    }

    @Test func cmacMatchesRFC4493() {
        let k = h("2b7e151628aed2a6abf7158809cf4f3c")
        #expect(AESCMAC.mac(key: k, message: []) == h("bb1d6929e95937287fa37d129b756746"))
        #expect(AESCMAC.mac(key: k, message: h("6bc1bee22e409f96e93d7e117393172a")) == h("070a16b46b4d4144f79bdd9dd04a287c"))
        #expect(AESCMAC.mac(key: k, message: h("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411"))
            == h("dfa66747de9ae63030ca32611497c827"))
    }

    @Test func f5MatchesSampleData() {
        let r = SecureConnectionsFunctions.f5(w: h("ec0234a357c8ad05341010a60a397d9b99796b13b4f866f1868d34f373bfa698"),
                                              n1: h("d5cb8454d177733effffb2ec712baeab"), n2: h("a6e8e7cc25a75f6e216583f7ff3dc4cf"),
                                              a1: h("0056123737bfce"), a2: h("00a713702dcfc1"))
        #expect(r?.macKey == h("2965f176a1084a02fd3f6a20ce636e20"))
        #expect(r?.ltk == h("6986791169d7cd23980522b594750a38"))
    }

    @Test func debugKeyDHKeyMatchesSampleData() {
        // P-256 data set 1: private key A is the debug key; with public key B the DHKey is the f5 sample's W.
        let dh = SecureConnectionsFunctions.debugDHKey(peerX: h("1ea1f0f01faf1d9609592284f19e4c0047b58afd8615a69f559077b22faaa190"),
                                                       peerY: h("4c55f33e429dad377356703a9ab85160472d1130e28e36765f89aff915b1214a"))
        #expect(dh == h("ec0234a357c8ad05341010a60a397d9b99796b13b4f866f1868d34f373bfa698"))
        // A point off the curve is refused.
        #expect(SecureConnectionsFunctions.debugDHKey(peerX: h("1ea1f0f01faf1d9609592284f19e4c0047b58afd8615a69f559077b22faaa190"),
                                                      peerY: h("4c55f33e429dad377356703a9ab85160472d1130e28e36765f89aff915b1214b")) == nil)
    }

    @Test func ahMatchesSampleData() {
        let irk = h("ec0234a357c8ad05341010a60a397d9b")
        #expect(PrivacyFunctions.ah(irk: irk, prand: 0x708194) == 0x0DFBAA)
        #expect(PrivacyFunctions.resolves(0x7081_940D_FBAA, irk: irk))
        #expect(!PrivacyFunctions.resolves(0x7081_940D_FBAB, irk: irk))
    }

    // Vol 6 Part C 1: LTK, SKDm/SKDs, IVm/IVs, and the packets of the encryption start.
    static let ltk = LEBytes.hex("4C68384139F574D836BCF34E9DFB01BF") ?? []
    static let skdm = LEBytes.value(LEBytes.hex("ACBDCEDFE0F10213") ?? [])
    static let skds = LEBytes.value(LEBytes.hex("0213243546576879") ?? [])
    static let ivm = LEBytes.value(LEBytes.hex("BADCAB24") ?? [])
    static let ivs = LEBytes.value(LEBytes.hex("DEAFBABE") ?? [])

    func sample() throws -> LECCM {
        try #require(SessionKey.cipher(key: Self.ltk, skdm: Self.skdm[...], skds: Self.skds[...], ivm: Self.ivm[...], ivs: Self.ivs[...]))
    }

    @Test func sessionKeyMatchesSampleData() {
        #expect(SessionKey.derive(key: Self.ltk, skdm: Self.skdm[...], skds: Self.skds[...]) == h("99AD1B5226A37E3E058E3B8E27C2C666"))
    }

    @Test func startEncryptionResponsesMatchSampleData() throws {
        let ccm = try sample()
        #expect(ccm.encrypt([0x06], header: 0x0F, counter: 0, fromCentral: true) == h("9FCDA7F448"))
        #expect(ccm.encrypt([0x06], header: 0x07, counter: 0, fromCentral: false) == h("A34C13A415"))
        #expect(ccm.decrypt(h("9FCDA7F448")[...], header: 0x0F, counter: 0, fromCentral: true) == [0x06])
    }

    @Test func dataPacketMatchesSampleData() throws {
        let ccm = try sample()
        let plain = h("17003736353433323130414243444546474849" + "4A4B4C4D4E4F5051")
        let cipher = h("F38881E7BD94C9C369B9A66846DD4786AA8C39CE540D0DAE3ADCDF" + "89B96088")
        #expect(ccm.encrypt(plain, header: 0x06, counter: 1, fromCentral: false) == cipher)
        #expect(ccm.decrypt(cipher[...], header: 0x06, counter: 1, fromCentral: false) == plain)
        // SN, NESN and MD are not authenticated: another header with the same LLID decrypts too.
        #expect(ccm.decrypt(cipher[...], header: 0x06 | 0x1C, counter: 1, fromCentral: false) == plain)
    }

    @Test func wrongKeyCounterOrDirectionIsAMICFailure() throws {
        let cipher = h("F38881E7BD94C9C369B9A66846DD4786AA8C39CE540D0DAE3ADCDF" + "89B96088")
        var wrongLTK = Self.ltk
        wrongLTK[15] ^= 1
        let wrong = try #require(SessionKey.cipher(key: wrongLTK, skdm: Self.skdm[...], skds: Self.skds[...], ivm: Self.ivm[...], ivs: Self.ivs[...]))
        #expect(wrong.decrypt(cipher[...], header: 0x06, counter: 1, fromCentral: false) == nil)
        let ccm = try sample()
        #expect(ccm.decrypt(cipher[...], header: 0x06, counter: 2, fromCentral: false) == nil)
        #expect(ccm.decrypt(cipher[...], header: 0x06, counter: 1, fromCentral: true) == nil)
        #expect(ccm.decrypt(cipher[...], header: 0x05, counter: 1, fromCentral: false) == nil)
        #expect(ccm.decrypt([1, 2, 3], header: 0x06, counter: 1, fromCentral: false) == nil)
    }
}
