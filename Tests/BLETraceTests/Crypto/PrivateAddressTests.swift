import Testing
@testable import BLETrace

/// Resolvable private addresses that resolve with a known IRK are one device in the inventory.
@Suite struct PrivateAddressTests {
    static let irk = LEBytes.hex("ec0234a357c8ad05341010a60a397d9b") ?? []
    static let identity: UInt64 = 0x11_22_33_44_55_66

    /// The RPA made from `prand` with the sample IRK.
    static func rpa(_ prand: UInt32) throws -> UInt64 {
        let hash = try #require(PrivacyFunctions.ah(irk: irk, prand: prand))
        return UInt64(prand) << 24 | UInt64(hash)
    }

    func advert(_ n: Int, _ address: UInt64, random: Bool, name: String) -> Record {
        let ad: [UInt8] = [UInt8(name.utf8.count + 1), 0x09] + Array(name.utf8)
        return LL.record(n, LL.packet(LL.advAA, LL.adv(0, tx: random, LL.addr(address) + ad), crcInit: LLCRC.advertisingInit), linkType: 251)
    }

    func devices(_ records: [Record], irk: Bool) -> [Fields] {
        var o = DecodeOptions()
        if irk { o.keys.irkByAddress[BDAddr(Self.identity)] = KeyOptions.Entry(key: Self.irk, origin: .keysFile) }
        let sink = CollectingSink()
        let summary = Analyzer(options: o, sink: sink).run(ArrayReader(records, format: .pcap, linkType: 251), path: "test")
        guard case let .list(l)? = summary.sections.first(where: { $0.name == "devices" })?.value.objectValue?["devices"] else { return [] }
        return l.compactMap(\.objectValue)
    }

    @Test func addressesThatResolveAreOneDevice() throws {
        let a = try Self.rpa(0x708194), b = try Self.rpa(0x512345)
        #expect(a == 0x7081_940D_FBAA) // Vol 3 Part H D.7
        let other = 0x4A_BC_DE_F0_12_34 as UInt64 // resolvable-looking, another IRK
        let records = [advert(1, a, random: true, name: "Watch"), advert(2, Self.identity, random: false, name: "Watch"),
                       advert(3, b, random: true, name: "Watch 2"), advert(4, other, random: true, name: "Other")]
        let without = devices(records, irk: false)
        #expect(without.count == 4)
        let with = devices(records, irk: true)
        #expect(with.count == 2)
        let d = try #require(with.first)
        #expect(d["address"] == .string("11:22:33:44:55:66"))
        #expect(d["reports"] == .int(3))
        #expect(d["resolved_from"] == .list([.string(BDAddr(a).description), .string(BDAddr(b).description)]))
        #expect(d["names"] == .list([.string("Watch"), .string("Watch 2")]))
        #expect(d["first_record"] == .int(1))
        #expect(d["last_record"] == .int(3))
        #expect(with[1]["address"] == .string(BDAddr(other).description))
    }

    @Test func distributedIdentityInformationResolves() throws {
        var keys = IdentityKeys()
        keys.take(.identityInformation(irk: LEBytes.value(Self.irk)[...]), from: .responder)
        keys.take(.identityAddressInformation(type: 0, address: BDAddr(Self.identity)), from: .responder)
        #expect(keys.resolve(BDAddr(try Self.rpa(0x708194)))?.identity == BDAddr(Self.identity))
        #expect(keys.resolve(BDAddr(0x7081_940D_FBAB)) == nil)
    }
}
