import Testing
@testable import BLETrace

/// `--layer` groups (classic, a2dp, media, iso, vendor, flow), their exclusion form, and `--collapse`.
@Suite struct LayerFilterTests {
    static let headset = BDAddr(0x00_1B_66_AA_BB_CC)
    static let sensor = BDAddr(0xC4_7C_8D_6A_11_22)

    /// A phone log in little: an A2DP stream to a headset (each media packet followed by its Number Of Completed
    /// Packets), an LE sensor notifying its battery level, a vendor command, and an LE ISO command.
    static func phone(mediaPackets: Int = 12) -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.aclMTU = 1021
        s.controller(.event, HCIBuilder.event(0x03, [0] + HCIBuilder.le16(0x000C) + HCIBuilder.addr(headset) + [1, 0]))
        func sig(_ code: UInt8, _ id: UInt8, _ data: [UInt8]) -> [UInt8] { [code, id] + HCIBuilder.le16(UInt16(data.count)) + data }
        s.l2cap(handle: 0x000C, cid: 1, fromHost: true, sig(0x02, 7, HCIBuilder.le16(0x0019) + HCIBuilder.le16(0x0041)))
        s.l2cap(handle: 0x000C, cid: 1, fromHost: false, sig(0x03, 7, HCIBuilder.le16(0x01B3) + HCIBuilder.le16(0x0041) + [0, 0, 0, 0]))
        s.l2cap(handle: 0x000C, cid: 0x01B3, fromHost: true, [0x40, 0x07, 0x04])
        s.l2cap(handle: 0x000C, cid: 0x0041, fromHost: false, [0x42, 0x07])
        s.l2cap(handle: 0x000C, cid: 1, fromHost: true, sig(0x02, 9, HCIBuilder.le16(0x0019) + HCIBuilder.le16(0x0042)))
        s.l2cap(handle: 0x000C, cid: 1, fromHost: false, sig(0x03, 9, HCIBuilder.le16(0x01B4) + HCIBuilder.le16(0x0042) + [0, 0, 0, 0]))
        for i in 0..<mediaPackets {
            s.advance(ms: 20)
            s.l2cap(handle: 0x000C, cid: 0x01B4, fromHost: true,
                    [0x80, 0x60, 0, UInt8(i), 0, 0, 0, 0, 0, 0, 0, 1, 0x05] + [UInt8](repeating: 0x9C, count: 100))
        }
        s.connect(handle: 0x0040, peer: sensor, peerType: 0)
        for level in [90, 89, 89, 88, 88, 87] as [UInt8] {
            s.advance(ms: 1000)
            s.attIn(0x0040, [0x1B, 0x03, 0x00, level])
        }
        s.command(0xFC4D, [0x01]) // vendor
        s.command(0x2065, [0x01]) // LE Remove CIG
        return s
    }

    static func shown(_ layers: String, _ s: Scenario = phone()) throws -> [TraceEvent] {
        var f = EventFilter()
        guard case .success = f.parseLayers(layers) else { throw LayerError.unknown }
        return try FilterTests.run(s, f).0
    }

    enum LayerError: Error { case unknown }

    static func isCompletedPackets(_ e: TraceEvent) -> Bool {
        if case let .hciEvent(b) = e.body, b.code == 0x13 { return true }
        return false
    }

    @Test func classicTakesTheBREDRConnectionAndNothingOfLE() throws {
        let all = try FilterTests.run(Self.phone(), EventFilter()).0
        let classic = try Self.shown("classic")
        #expect(classic.contains { if case let .hciEvent(b) = $0.body { return b.code == 0x03 } else { return false } })
        #expect(classic.contains { $0.kind == .signaling })
        // Completed packets of the BR/EDR handle are classic too; nothing of the LE link is.
        #expect(classic.allSatisfy { $0.handle == nil || $0.handle == 0x000C })
        #expect(!classic.contains { $0.kind == .att })
        #expect(classic.count < all.count)
    }

    @Test func mediaA2DPFlowVendorAndISO() throws {
        let media = try Self.shown("media")
        #expect(media.count == 12)
        #expect(media.allSatisfy { if case let .signaling(s) = $0.body, case .a2dpMedia = s.content { return true } else { return false } })
        let a2dp = try Self.shown("a2dp")
        #expect(a2dp.count == 14) // Start and its accept, then the media
        let flow = try Self.shown("flow")
        #expect(!flow.isEmpty && flow.allSatisfy(Self.isCompletedPackets))
        let vendor = try Self.shown("vendor")
        #expect(vendor.count == 2) // the command and its Command Complete
        #expect(vendor.allSatisfy { $0.record >= vendor[0].record })
        let iso = try Self.shown("iso")
        #expect(iso.count == 2)
    }

    @Test func aLeadingMinusLeavesALayerOut() throws {
        let all = try FilterTests.run(Self.phone(), EventFilter()).0
        let noFlow = try Self.shown("-flow")
        #expect(!noFlow.contains(where: Self.isCompletedPackets))
        #expect(noFlow.count == all.count - all.filter(Self.isCompletedPackets).count)
        // Shown layers and left-out ones combine: the HCI layer without its bookkeeping and vendor commands.
        let hci = try Self.shown("hci, -flow,-vendor")
        #expect(!hci.isEmpty && hci.allSatisfy { ($0.kind == .hciEvent || $0.kind == .hciCommand) && !Self.isCompletedPackets($0) })
        #expect(!hci.contains { if case let .hciCommand(c) = $0.body { return c.opcode == 0xFC4D } else { return false } })
        var f = EventFilter()
        if case let .failure(e) = f.parseLayers("att,-fl0w") { #expect(e.word == "-fl0w") } else { Issue.record("accepted -fl0w") }
    }

    static func collapsedText(_ s: Scenario, layers: String? = nil) throws -> [Substring] {
        var run = AnalyzeRun()
        run.collapse = true
        run.style = TextStyle(color: false, time: .relative, width: 0)
        if let l = layers { _ = run.filter.parseLayers(l) }
        let out = OutputWriter()
        _ = try run.run(open: { OpenedCapture(reader: try CaptureFile.open(bytes: s.writer.bytes), containers: [], logs: [], chosenLog: nil) }, path: "t", out: out)
        let text = out.text
        return text[..<(text.range(of: "\nSummary")?.lowerBound ?? text.endIndex)].split(separator: "\n")
    }

    @Test func collapseFoldsAStreamAndItsCompletedPacketsIntoOneLine() throws {
        let lines = try Self.collapsedText(Self.phone())
        let plain = try Self.collapsedText(Self.phone(mediaPackets: 2))
        // 12 media packets, each followed by its completed packets: the first of each is shown, then one line
        // for the 21 between them, then the last.
        let fold = try #require(lines.first { $0.contains("… 21 more like records 11 and 12: records 13–33, 0.203000 s") })
        let i = try #require(lines.firstIndex(of: fold))
        #expect(lines[i - 2].contains("A2DP media: RTP sequence 0"))
        #expect(lines[i - 1].contains("Number Of Completed Packets"))
        #expect(lines[i + 1].contains("Number Of Completed Packets"))
        // The battery notifications: one kind, six of them: the first, a fold of four, the last (87 %).
        let battery = lines.filter { $0.contains("Handle Value Notification") }
        #expect(battery.count == 2)
        #expect(lines.contains { $0.contains("… 4 more like record 38: records 39–42") })
        // Short runs stay whole: two media packets fold nothing.
        #expect(plain.contains { $0.contains("A2DP media: RTP sequence 1") })
        #expect(plain.filter { $0.contains("more like") }.count == 1) // the notifications only
        // Folding reads the filtered stream: without the bookkeeping the media packets are one kind.
        let noFlow = try Self.collapsedText(Self.phone(), layers: "-flow")
        #expect(noFlow.contains { $0.contains("… 10 more like record ") })
    }
}
