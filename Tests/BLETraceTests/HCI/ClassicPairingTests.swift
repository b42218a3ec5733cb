import Foundation
import Testing
@testable import BLETrace

@Suite("BR/EDR connections: Secure Simple Pairing, link types, HID reports")
struct ClassicPairingTests {
    static let peer = BDAddr(0x00_1B_66_AA_BB_CC)
    static let a = HCIBuilder.addr(peer)

    /// Connection Complete (event 0x03) for an ACL link on `handle`.
    static func connect(_ h: TraceHarness, _ handle: UInt16) {
        h.feed(.event, HCIBuilder.event(0x03, [0] + le(handle) + a + [1, 0]), .controllerToHost)
    }

    static func pairing(_ h: TraceHarness) throws -> ClassicPairing {
        try #require(h.pipeline.connections.all.first?.pairing)
    }

    @Test("numeric comparison when both sides display and confirm; success and the P-256 key type")
    func numericComparison() throws {
        let h = TraceHarness()
        Self.connect(h, 0x000C)
        h.feed(.event, HCIBuilder.event(0x31, Self.a), .controllerToHost)                            // IO Capability Request
        h.feed(.command, HCIBuilder.command(0x042B, Self.a + [1, 0, 3]), .hostToController)        // Reply: DisplayYesNo
        h.feed(.event, HCIBuilder.event(0x32, Self.a + [1, 0, 3]), .controllerToHost)                // peer: DisplayYesNo
        h.feed(.event, HCIBuilder.event(0x33, Self.a + [0x40, 0xE2, 0x01, 0x00]), .controllerToHost) // confirm 123456
        h.feed(.event, HCIBuilder.event(0x36, [0] + Self.a), .controllerToHost)                      // Simple Pairing Complete
        h.feed(.event, HCIBuilder.event(0x18, Self.a + [UInt8](repeating: 0x11, count: 16) + [0x08]), .controllerToHost)
        h.feed(.event, HCIBuilder.event(0x06, [0] + le(0x000C)), .controllerToHost)                  // Authentication Complete
        h.finish()
        let p = try Self.pairing(h)
        #expect(p.localIO == 1 && p.remoteIO == 1 && p.method == .numericComparison)
        #expect(p.status == 0 && p.authentication == 0 && p.succeeded == true && p.keyType == 8)
        #expect(p.text == "Secure Simple Pairing: Numeric Comparison (DisplayYesNo/DisplayYesNo), success, Authenticated Combination Key (P-256)")
        let summary = h.pipeline.connections.all.map { SummaryRender.connectionFields($0) }
        guard case let .object(o)? = summary.first?["pairing"] else { Issue.record("no pairing object"); return }
        #expect(o["method"] == .string("numeric_comparison") && o["success"] == .bool(true))
        #expect(summary.first?["link_type"] == .string("ACL"))
    }

    @Test("a confirmation with a side that cannot display is Just Works; a failure names its status")
    func justWorksFailed() throws {
        let h = TraceHarness()
        Self.connect(h, 0x000C)
        h.feed(.command, HCIBuilder.command(0x042B, Self.a + [1, 0, 2]), .hostToController)
        h.feed(.event, HCIBuilder.event(0x32, Self.a + [3, 0, 0]), .controllerToHost)                // NoInputNoOutput
        h.feed(.event, HCIBuilder.event(0x33, Self.a + [0, 0, 0, 0]), .controllerToHost)
        h.feed(.event, HCIBuilder.event(0x36, [0x05] + Self.a), .controllerToHost)                   // Authentication Failure
        h.finish()
        let p = try Self.pairing(h)
        #expect(p.method == .justWorks && p.succeeded == false)
        #expect(p.text.hasSuffix("Just Works (DisplayYesNo/NoInputNoOutput), failed: Authentication Failure"))
    }

    @Test("passkey entry, out of band, legacy PIN; events for another address change nothing")
    func otherMethods() throws {
        let passkey = TraceHarness()
        Self.connect(passkey, 0x000C)
        passkey.feed(.event, HCIBuilder.event(0x34, Self.a), .controllerToHost)
        passkey.feed(.event, HCIBuilder.event(0x36, [0] + HCIBuilder.addr(BDAddr(0x11_22_33_44_55_66))), .controllerToHost)
        passkey.finish()
        #expect(try Self.pairing(passkey).method == .passkeyEntry)
        #expect(try Self.pairing(passkey).status == nil)

        let oob = TraceHarness()
        Self.connect(oob, 0x000C)
        oob.feed(.event, HCIBuilder.event(0x32, Self.a + [1, 1, 3]), .controllerToHost)              // OOB data present
        oob.feed(.event, HCIBuilder.event(0x36, [0] + Self.a), .controllerToHost)
        oob.finish()
        #expect(try Self.pairing(oob).method == .outOfBand)

        let pin = TraceHarness()
        Self.connect(pin, 0x000C)
        pin.feed(.event, HCIBuilder.event(0x16, Self.a), .controllerToHost)
        pin.feed(.event, HCIBuilder.event(0x06, [0] + le(0x000C)), .controllerToHost)
        pin.finish()
        #expect(try Self.pairing(pin).method == .legacyPIN && Self.pairing(pin).succeeded == true)
        #expect(try Self.pairing(pin).text == "pairing: legacy PIN, success")
    }

    @Test("an eSCO link is a connection of its own, listed with its link type")
    func synchronousLink() throws {
        let h = TraceHarness()
        Self.connect(h, 0x000C)
        // Synchronous Connection Complete: handle 0x0010, eSCO (2), interval 12, window 2, 60/60 bytes, CVSD.
        let sco = h.feed(.event, HCIBuilder.event(0x2C, [0] + le(0x0010) + Self.a + [2, 12, 2] + le(60) + le(60) + [2]), .controllerToHost)
        h.finish()
        let all = h.pipeline.connections.all
        #expect(all.count == 2 && all[1].handle == 0x0010 && all[1].linkType == 2 && !all[1].le && all[1].peer == Self.peer)
        #expect(h.event(sco)?.connection == all[1].id)
        let summary = Summary.textLines(for: h)
        #expect(summary.contains { $0.contains("#2 handle 0x0010 00:1B:66:AA:BB:CC (public), BR/EDR eSCO") })
        #expect(summary.contains { $0.contains("#1 handle 0x000C 00:1B:66:AA:BB:CC (public), BR/EDR,") })
    }

    static func cmd(_ code: UInt8, _ id: UInt8, _ data: [UInt8]) -> [UInt8] { [code, id] + le(UInt16(data.count)) + data }

    @Test("HID: control and interrupt channels named, DATA reports counted by type")
    func hidReports() throws {
        let h = TraceHarness()
        Self.connect(h, 0x000C)
        // HID Control (PSM 0x0011): local CID 0x0041, peer 0x0051; HID Interrupt (0x0013): 0x0042, 0x0052.
        h.l2cap(0x000C, cid: 1, Self.cmd(0x02, 1, le(0x0011) + le(0x0041)), .hostToController)
        h.l2cap(0x000C, cid: 1, Self.cmd(0x03, 1, le(0x0051) + le(0x0041) + le(0) + le(0)), .controllerToHost)
        h.l2cap(0x000C, cid: 1, Self.cmd(0x02, 2, le(0x0013) + le(0x0042)), .hostToController)
        h.l2cap(0x000C, cid: 1, Self.cmd(0x03, 2, le(0x0052) + le(0x0042) + le(0) + le(0)), .controllerToHost)
        let setProtocol = h.l2cap(0x000C, cid: 0x0051, [0x71], .hostToController)
        let handshake = h.l2cap(0x000C, cid: 0x0041, [0x00], .controllerToHost)
        var input = 0
        for i in 0..<5 { input = h.l2cap(0x000C, cid: 0x0042, [0xA1, 0x01, UInt8(i), 0, 0], .controllerToHost, advance: 10_000) }
        let output = h.l2cap(0x000C, cid: 0x0052, [0xA2, 0x01, 0x02], .hostToController)
        h.finish()
        #expect(h.event(setProtocol)?.summary == "HID Control SET_PROTOCOL: Report protocol")
        #expect(h.event(handshake)?.summary == "HID Control HANDSHAKE: successful")
        #expect(h.event(input)?.summary == "HID Interrupt DATA: Input report, 4 bytes: 01 04 00 00")
        #expect(h.layer(output, "hid")?["report_type"] == .string("output"))
        let hid = try #require(h.layers.compactMap { $0 as? HIDReports }.first)
        let c = try #require(hid.connections.first)
        #expect(c.reports == [5, 1, 0] && c.bytes == 5 * 4 + 2 && c.control == 2)
        let text = try #require(hid.summary()).text
        #expect(text.contains { $0 == "    connection #1: 5 input reports, 1 output report, 0 feature reports, 22 bytes over 0.041000 s; 2 control messages" })
    }
}

extension Summary {
    /// The text summary's lines for what the harness analysed.
    static func textLines(for h: TraceHarness) -> [String] {
        let s = Summary(capture: CaptureInfo(path: "test", format: .btsnoop, linkType: 1002), stats: h.pipeline.stats,
                        connections: h.pipeline.connections.all, connectionCount: h.pipeline.connections.total,
                        sections: h.layers.compactMap { $0.summary() }, warnings: h.warnings, error: nil)
        return SummaryRender.text(s)
    }
}

@Suite("a dual-mode phone log in the Markdown report")
struct ClassicMarkdownTests {
    static let speaker = "pfalcon__Chsmartbulb-led-bulb-speaker__btsnoop_hci.log"

    @Test("the headset's connection names its transport, name, profiles and A2DP stream",
          .enabled(if: TestSupport.sharedCaptures.map { FileManager.default.fileExists(atPath: $0.appendingPathComponent(speaker).path) } ?? false))
    func speakerReport() throws {
        let path = try #require(TestSupport.sharedCaptures).appendingPathComponent(Self.speaker).path
        let out = OutputWriter()
        let md = MarkdownRenderer(out: out)
        let analyzer = Analyzer(sink: md)
        md.layers = analyzer.layers
        md.pipeline = analyzer.pipeline
        analyzer.run(try CaptureFile.open(path: path), path: path)
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines.contains("| Transport | BR/EDR ACL |"))
        #expect(lines.contains("| Peer name | Chsmartbulb |"))
        #expect(lines.contains("| Profiles | SDP, AVDTP, AVCTP, AVCTP Browsing, RFCOMM |"))
        #expect(lines.contains { $0.hasPrefix("| A2DP stream | SBC 44.1 kHz, joint stereo") && $0.hasSuffix("no media packets |") })
    }
}

extension ClassicPairingTests {
    @Test("authentication with a stored link key is not pairing, and says so")
    func storedKey() throws {
        let h = TraceHarness()
        Self.connect(h, 0x000C)
        h.feed(.event, HCIBuilder.event(0x17, Self.a), .controllerToHost)                                  // Link Key Request
        h.feed(.command, HCIBuilder.command(0x040B, Self.a + [UInt8](repeating: 0x22, count: 16)), .hostToController)
        h.feed(.event, HCIBuilder.event(0x06, [0] + le(0x000C)), .controllerToHost)
        h.finish()
        let p = try Self.pairing(h)
        #expect(p.storedKey && p.method == nil && p.succeeded == true)
        #expect(p.text == "authenticated with a stored link key, success")
    }
}
