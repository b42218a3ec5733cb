import Testing
@testable import BLETrace

/// An LTK that one connection distributes (SMP Encryption Information and Central Identification, sent while
/// the link was encrypted) decrypts a later connection between the same devices that asks for it by EDIV
/// and Rand.
@Suite struct DistributedKeyTests {
    typealias Sample = CryptoFunctionTests
    static let secondLTK = LEBytes.hex("0e0596ef16cf17cc48357ee19da96728") ?? []
    static let ediv: UInt16 = 0x7343
    /// Rand as sent (the timeline prints it in this order too).
    static let rand: [UInt8] = [0xC6, 0x93, 0x1A, 0x0A, 0xD1, 0xDC, 0xA7, 0x38]
    static let secondAA: UInt32 = 0x71F2_3A5C

    /// Connection 1 is the specification's session (decrypted with its LTK); the peripheral distributes
    /// `secondLTK` in it and the central ends it. Connection 2 starts encryption with that EDIV and Rand,
    /// under `secondLTK`, and reads an attribute.
    static func twoConnections() throws -> Air {
        var air = Air()
        air.plain(3, LinkDecryptionTests.encryptionRequest(), central: true)
        air.plain(3, LinkDecryptionTests.encryptionResponse, central: false)
        air.plain(3, [0x05], central: false)
        let first = try #require(SessionKey.cipher(key: Sample.ltk, skdm: Sample.skdm[...], skds: Sample.skds[...], ivm: Sample.ivm[...], ivs: Sample.ivs[...]))
        air.sealed(3, [0x06], central: true, first, counter: 0)
        air.sealed(3, [0x06], central: false, first, counter: 0)
        // SMP sends the key least significant octet first.
        air.sealed(2, Air.l2cap(6, [0x06] + secondLTK.reversed()), central: false, first, counter: 1)
        air.sealed(2, Air.l2cap(6, [0x07] + LL.le16(Int(ediv)) + rand), central: false, first, counter: 2)
        air.sealed(3, [0x02, 0x13], central: true, first, counter: 1)

        air.connect(aa: secondAA)
        air.plain(3, LinkDecryptionTests.encryptionRequest(ediv: ediv, rand: rand), central: true)
        air.plain(3, LinkDecryptionTests.encryptionResponse, central: false)
        air.plain(3, [0x05], central: false)
        let second = try #require(SessionKey.cipher(key: secondLTK, skdm: Sample.skdm[...], skds: Sample.skds[...], ivm: Sample.ivm[...], ivs: Sample.ivs[...]))
        air.sealed(3, [0x06], central: true, second, counter: 0)
        air.sealed(3, [0x06], central: false, second, counter: 0)
        air.sealed(2, LinkDecryptionTests.readRequest, central: true, second, counter: 1)
        air.sealed(2, LinkDecryptionTests.readResponse, central: false, second, counter: 1)
        return air
    }

    static func connections(_ s: Summary) -> [Fields] {
        guard case let .list(l)? = s.sections.first(where: { $0.name == "encryption" })?.value.objectValue?["connections"] else { return [] }
        return l.compactMap(\.objectValue)
    }

    @Test func theDistributedLTKDecryptsTheNextConnection() throws {
        var o = DecodeOptions()
        try o.keys.add(ltk: "11:22:33:44:55:66=" + LEBytes.hexString(Sample.ltk))
        let (events, summary) = try Self.twoConnections().run(o)
        #expect(summary.connections.count == 2)
        let distribution = try #require(events.first { $0.summary.hasPrefix("SMP Central Identification") })
        #expect(distribution.summary == "SMP Central Identification: EDIV 0x7343, Rand c6931a0ad1dca738")
        let read = try #require(events.last)
        #expect(read.kind == .att)
        #expect(read.layer("att")?["value"] == .hex([0x42, 0x43]))
        let c = Self.connections(summary)
        #expect(c.count == 2)
        let second = try #require(c.last)
        #expect(second["ltk"] == .string("0e0596ef16cf17cc48357ee19da96728"))
        #expect(second["ltk_source"] == .string("distributed"))
        #expect(second["ltk_record"] == .int(distribution.record - 1))
        #expect(second["decrypted"] == .int(4))
        #expect(second["mic_failures"] == .int(0))
    }

    @Test func withoutTheFirstKeyTheSecondConnectionStaysEncrypted() throws {
        let (events, summary) = try Self.twoConnections().run()
        #expect(!events.contains { $0.kind == .att || $0.kind == .smp })
        #expect(Self.connections(summary).allSatisfy { $0["decrypted"] == nil || $0["decrypted"] == .int(0) })
    }
}
