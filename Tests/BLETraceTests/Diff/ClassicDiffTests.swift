import Testing
@testable import BLETrace

@Suite("diff: BR/EDR links")
struct ClassicDiffTests {
    static func cmd(_ code: UInt8, _ id: UInt8, _ data: [UInt8]) -> [UInt8] { [code, id] + le(UInt16(data.count)) + data }

    /// A headset on an ACL link that opens AVDTP and, when `pairs`, pairs with numeric comparison.
    static func headset(pairs: Bool, failing: Bool = false) -> [ClassicLinkDigest] {
        let h = TraceHarness()
        let a = ClassicPairingTests.a
        h.feed(.event, HCIBuilder.event(0x03, [0] + le(0x000C) + a + [1, 0]), .controllerToHost)
        h.feed(.event, HCIBuilder.event(0x07, [0] + a + Array("Headset".utf8) + [0]), .controllerToHost)
        if pairs {
            h.feed(.command, HCIBuilder.command(0x042B, a + [1, 0, 3]), .hostToController)
            h.feed(.event, HCIBuilder.event(0x32, a + [1, 0, 3]), .controllerToHost)
            h.feed(.event, HCIBuilder.event(0x33, a + [0, 0, 0, 0]), .controllerToHost)
            h.feed(.event, HCIBuilder.event(0x36, [failing ? 0x05 : 0] + a), .controllerToHost)
        }
        h.l2cap(0x000C, cid: 1, cmd(0x02, 1, le(0x0019) + le(0x0041)), .hostToController)
        h.l2cap(0x000C, cid: 1, cmd(0x03, 1, le(0x01B3) + le(0x0041) + le(0) + le(0)), .controllerToHost)
        h.finish()
        let s = Summary(capture: CaptureInfo(path: "t", format: .btsnoop, linkType: 1002), stats: h.pipeline.stats,
                        connections: h.pipeline.connections.all, connectionCount: h.pipeline.connections.total,
                        sections: [], warnings: [], error: nil)
        return ClassicLinkDigest.make(s, layers: h.layers)
    }

    static func digests(_ a: [ClassicLinkDigest], _ b: [ClassicLinkDigest]) throws -> (CaptureDigest, CaptureDigest) {
        var x = try DiffTests.digest(Samples.diffSession(bad: false)), y = x
        x.classic = a
        y.classic = b
        return (x, y)
    }

    @Test("the digest holds the link, its name, profiles and pairing")
    func digest() throws {
        let l = try #require(Self.headset(pairs: true).first)
        #expect(l.peer == "00:1B:66:AA:BB:CC" && l.linkType == "ACL" && l.name == "Headset" && l.profiles == ["AVDTP"])
        #expect(l.pairing?.hasPrefix("Secure Simple Pairing: Numeric Comparison") == true)
    }

    @Test("a failed pairing and a link present on one side only are differences; identical links are not")
    func differences() throws {
        let (same1, same2) = try Self.digests(Self.headset(pairs: true), Self.headset(pairs: true))
        #expect(!Diff(same1, same2).items.contains { $0.category == .classic })

        let (good, bad) = try Self.digests(Self.headset(pairs: true), Self.headset(pairs: true, failing: true))
        let items = Diff(good, bad).items.filter { $0.category == .classic }
        #expect(items.count == 1)
        #expect(items.first?.subject == "BR/EDR ACL link to 00:1B:66:AA:BB:CC (Headset)" && items.first?.text == "pairing")
        #expect(items.first?.b?.hasSuffix("failed: Authentication Failure") == true)

        let (one, none) = try Self.digests(Self.headset(pairs: false), [])
        #expect(Diff(one, none).items.filter { $0.category == .classic }.map(\.text) == ["only in A"])
        #expect(Diff(none, one).items.filter { $0.category == .classic }.map(\.text) == ["only in B"])
        var o = DiffOptions()
        o.ignore = ["classic"]
        #expect(Diff(one, none, options: o).items.isEmpty)
    }
}
