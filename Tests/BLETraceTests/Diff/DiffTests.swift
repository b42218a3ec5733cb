import Foundation
import Testing
@testable import BLETrace

@Suite struct DiffTests {
    static func digest(_ s: Scenario, path: String = "test") throws -> CaptureDigest {
        CaptureDigest.make(try CaptureFile.open(bytes: s.writer.bytes), path: path).0
    }

    /// The planted differences of the sample pair, exactly, in the issue's order of importance: the bad capture's
    /// diagnosis (the read refused for security) first, then the firmware revision changed, a characteristic
    /// missing, an Insufficient Authentication error, a discovery step skipped, a slower response.
    @Test func goodBadPairShowsExactlyThePlantedDifferences() throws {
        let good = try DiffTests.digest(Samples.diffSession(bad: false), path: "good")
        let bad = try DiffTests.digest(Samples.diffSession(bad: true), path: "bad")
        let diff = Diff(good, bad)
        #expect(diff.items.map(\.category) == [.diagnoses, .values, .gatt, .errors, .procedures, .timing], "\(diff.items.map(\.line))")
        guard diff.items.count == 6 else { return }
        #expect(diff.items[0].subject == "insufficient_security" && diff.items[0].text.hasPrefix("only in B: error: Read Request of PnP ID"))
        #expect(diff.items[0].recordB == 63)
        let items = Array(diff.items.dropFirst())
        #expect(items[0].text.contains("180A/2A26"))
        #expect(items[0].a?.contains("\"1.4.2\"") == true && items[0].b?.contains("\"1.4.3\"") == true)
        #expect(items[1].text.contains("180A/2A27") && items[1].text.contains("only in A"))
        #expect(items[2].text == "only in B: Read Request of Device Information › PnP ID: Insufficient Authentication (0x05)")
        #expect(items[3].text == "only in A: Discover primary services (continued)")
        #expect(items[4].text.contains("Manufacturer Name String"))
        #expect(items[4].a == "15.30 ms" && items[4].b == "415.30 ms")
        // Swapped sides: the same six, mirrored.
        let back = Diff(bad, good)
        #expect(back.items.map(\.category) == [.diagnoses, .values, .gatt, .errors, .procedures, .timing])
        #expect(back.items[0].text.hasPrefix("only in A: error:"))
        #expect(back.items[2].text.contains("only in B"))
    }

    @Test func ignoreDropsCategoriesAndFinerNames() throws {
        let good = try DiffTests.digest(Samples.diffSession(bad: false))
        let bad = try DiffTests.digest(Samples.diffSession(bad: true))
        var o = DiffOptions()
        o.ignore = ["timing", "procedures", "diagnoses"]
        #expect(Diff(good, bad, options: o).items.map(\.category) == [.values, .gatt, .errors])
        o.ignore = ["latency"]
        #expect(!Diff(good, bad, options: o).items.contains { $0.category == .timing })
        o = DiffOptions()
        o.timingThresholdMicros = 500_000
        #expect(!Diff(good, bad, options: o).items.contains { $0.category == .timing })
    }

    @Test func everySampleDiffedWithItselfIsEmpty() throws {
        for sample in Samples.all() {
            let path = TestSupport.temporaryFile(sample.bytes)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let a = CaptureDigest.make(try CaptureFile.open(path: path), path: path).0
            let b = CaptureDigest.make(try CaptureFile.open(path: path), path: path).0
            let diff = Diff(a, b)
            #expect(diff.isEmpty, "\(sample.fileName): \(diff.items.map(\.line))")
        }
    }

    @Test func everySharedCaptureDiffedWithItselfIsEmpty() throws {
        guard let dir = TestSupport.sharedCaptures else { return }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        var compared = 0
        for f in files {
            let path = dir.appendingPathComponent(f).path
            guard let ra = try? InputOpener.open(path: path).reader, let rb = try? InputOpener.open(path: path).reader else { continue }
            let a = CaptureDigest.make(ra, path: path).0
            let b = CaptureDigest.make(rb, path: path).0
            let diff = Diff(a, b)
            #expect(diff.isEmpty, "\(f): \(diff.items.prefix(5).map(\.line))")
            compared += 1
        }
        #expect(compared >= 20)
    }

    @Test func differentCapturesDifferAndOneSidedDevicesDoNotCascade() throws {
        let a = try DiffTests.digest(Samples.gattSession())
        let b = try DiffTests.digest(Samples.ancsSession())
        let diff = Diff(a, b)
        // The two peers differ; their connections, databases and errors hang off those two lines. What the
        // local host serves (ANCS, and its error) is not a peer's and is listed.
        // Each side's diagnosis (a read not permitted in A, the ANCS error in B) comes first.
        #expect(diff.items.map(\.category) == [.diagnoses, .diagnoses, .devices, .devices, .gatt, .errors], "\(diff.items.map(\.line))")
        guard diff.items.count == 6 else { return }
        #expect(diff.items[0].subject == "attribute_not_permitted" && diff.items[1].subject == "application_error")
        let items = Array(diff.items.dropFirst(2))
        #expect(items[0].text.hasPrefix("device only in A"))
        #expect(items[1].text.hasPrefix("device only in B"))
        #expect(items[2].subject == "local host" && items[2].text == "GATT database discovered only in B")
        #expect(items[3].subject == "local host" && items[3].text.hasPrefix("only in B: Write Request of"))
    }

    @Test func alignmentMakesOneMissingStepOneLine() {
        let pairs = Diff.align(["mtu", "services", "services+", "chars", "read:x", "read:y"], ["mtu", "services", "chars", "read:x", "read:y"])
        #expect(pairs.filter { $0.1 == nil }.map { $0.0 } == [2])
        #expect(pairs.filter { $0.0 == nil }.isEmpty)
        let extra = Diff.align(["a", "b", "c"], ["a", "x", "b", "c", "y"])
        #expect(extra.filter { $0.0 == nil }.map { $0.1 } == [1, 4])
        #expect(extra.filter { $0.1 == nil }.isEmpty)
    }

    @Test func movedAttributesAreReportedOnceNotPerHandle() throws {
        let a = try DiffTests.digest(Samples.gattSession())
        var b = a
        let key = try #require(a.databaseOrder.first)
        // Everything from the Battery service on moves up by 4 handles, nothing added or removed.
        b.databases[key] = a.databases[key]!.map { e in
            var x = e
            if x.handle >= 0x000C { x.handle += 4; x.second = x.second.map { $0 + 4 } }
            return x
        }
        let diff = Diff(a, b)
        #expect(diff.items.count == 1, "\(diff.items.map(\.line))")
        #expect(diff.items.first?.category == .gatt)
        #expect(diff.items.first?.text.contains("180F") == true)
        #expect(diff.items.first?.a == "0x000C" && diff.items.first?.b == "0x0010")
        var o = DiffOptions()
        o.ignore = ["handles"]
        #expect(Diff(a, b, options: o).isEmpty)
    }

    @Test func privateAddressesMatchByNameAndServices() throws {
        func scan(_ address: BDAddr, name: String) -> Scenario {
            let s = Scenario(format: .btsnoop(datalink: 1002))
            s.startScan()
            let data = HCIBuilder.ad(0x01, [0x06]) + HCIBuilder.ad(0x03, HCIBuilder.le16(0x180D)) + HCIBuilder.ad(0x09, Array(name.utf8))
            for _ in 0..<3 { s.advert(type: 0, addressType: 1, address: address, data: data, rssi: -60); s.advance(ms: 100) }
            return s
        }
        // Top bits 01: resolvable private addresses that differ between the captures.
        let a = try DiffTests.digest(scan(BDAddr(0x4A_11_22_33_44_55), name: "HR Strap"))
        let b = try DiffTests.digest(scan(BDAddr(0x5B_66_77_88_99_AA), name: "HR Strap"))
        #expect(Diff(a, b).isEmpty, "\(Diff(a, b).items.map(\.line))")
        let c = try DiffTests.digest(scan(BDAddr(0x5B_66_77_88_99_AA), name: "Other Strap"))
        // Neither was connected: one collapsed line about the advertisers each side alone saw.
        #expect(Diff(a, c).items.map(\.category) == [.ambient])
        #expect(Diff(a, c).items.first?.text == "1 only in A (4A:11:22:33:44:55 (HR Strap)); 1 only in B (5B:66:77:88:99:AA (Other Strap))")
    }

    /// Two phones with private addresses both advertise Google's FE9F service data (different payloads) and no
    /// name: a service every phone of that company carries says nothing about which device it is.
    @Test func aMemberCompanyServiceAloneMatchesNoDevice() throws {
        func phone(_ address: BDAddr, payload: [UInt8], name: String? = nil) -> Scenario {
            let s = Scenario(format: .btsnoop(datalink: 1002))
            s.startScan()
            var data = HCIBuilder.ad(0x01, [0x1A]) + HCIBuilder.ad(0x03, HCIBuilder.le16(0xFE9F))
                + HCIBuilder.ad(0x16, HCIBuilder.le16(0xFE9F) + payload)
            if let n = name { data += HCIBuilder.ad(0x09, Array(n.utf8)) }
            for _ in 0..<3 { s.advert(type: 0, addressType: 1, address: address, data: data, rssi: -60); s.advance(ms: 100) }
            return s
        }
        let a = try DiffTests.digest(phone(BDAddr(0x4A_11_22_33_44_55), payload: [0x00, 0x01, 0x02]))
        let b = try DiffTests.digest(phone(BDAddr(0x5B_66_77_88_99_AA), payload: [0x00, 0x7F, 0x33]))
        #expect(a.devices.first?.services == ["FE9F"])
        #expect(Diff(a, b).items.first?.text == "1 only in A (4A:11:22:33:44:55); 1 only in B (5B:66:77:88:99:AA)")
        // With a name besides, they are one device that changed its address.
        let c = try DiffTests.digest(phone(BDAddr(0x4A_11_22_33_44_55), payload: [0x00, 0x01], name: "Pixel Buds"))
        let d = try DiffTests.digest(phone(BDAddr(0x5B_66_77_88_99_AA), payload: [0x00, 0x01], name: "Pixel Buds"))
        #expect(Diff(c, d).isEmpty, "\(Diff(c, d).items.map(\.line))")
    }

    /// Link statistics in diff (issue #28): a burst of notifications against the same ones a second apart, and
    /// writes completed at once against completions 200 ms late.
    @Test func throughputAndTXLatencyChangesAreListed() throws {
        func session(burst: Bool) -> Scenario {
            let s = Scenario(format: .btsnoop(datalink: 1002))
            s.aclMTU = 251
            s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
            for i in 0..<40 {
                s.advance(ms: burst ? 20 : 1000)
                s.attIn(0x0040, [0x1B, 0x0E, 0x00] + [UInt8](repeating: UInt8(i), count: 200))
            }
            for _ in 0..<12 {
                s.advance(ms: 50)
                if burst {
                    s.attOut(0x0040, [0x52, 0x10, 0x00, 0x01])
                } else {
                    s.host(.acl, HCIBuilder.acl(handle: 0x0040, HCIBuilder.l2cap(cid: 4, [0x52, 0x10, 0x00, 0x01])))
                    s.advance(ms: 200)
                    s.controller(.event, HCIBuilder.event(0x13, [1] + HCIBuilder.le16(0x0040) + HCIBuilder.le16(1)))
                }
            }
            return s
        }
        let a = try DiffTests.digest(session(burst: true)), b = try DiffTests.digest(session(burst: false))
        let timing = Diff(a, b).items.filter { $0.category == .timing }.map(\.text)
        #expect(timing.contains("peak throughput rx"), "\(timing)")
        #expect(timing.contains("TX latency to completion p95"), "\(timing)")
        var o = DiffOptions()
        o.ignore = ["throughput", "latency"]
        #expect(Diff(a, b, options: o).items.filter { $0.category == .timing }.isEmpty)
    }

    /// A sniffed link's packet error rate (issue #28): 2 % against 20 % of 180 packets is listed; 2 % against
    /// 3 % is not.
    @Test func packetErrorRateChangesAreListed() throws {
        func digest(badPerChannel: Int) -> CaptureDigest {
            CaptureDigest.make(ArrayReader(InterferenceTests.records(bad: Dictionary(uniqueKeysWithValues: (0..<6).map { ($0, badPerChannel) })),
                                           format: .pcap, linkType: 272), path: "s.pcap").0
        }
        let good = digest(badPerChannel: 0), bad = digest(badPerChannel: 6), fair = digest(badPerChannel: 1)
        #expect(good.links.first?.radioPackets == 180 && bad.links.first?.per == 0.2)
        let items = Diff(good, bad).items.filter { $0.category == .timing }
        #expect(items.map(\.text) == ["packet error rate (sniffer)"], "\(items.map(\.line))")
        #expect(items.first?.line.contains("0.0 %") == true && items.first?.line.contains("20.0 %") == true, "\(items.map(\.line))")
        #expect(Diff(good, fair).items.filter { $0.category == .timing }.isEmpty)
        var o = DiffOptions()
        o.ignore = ["per"]
        #expect(Diff(good, bad, options: o).items.filter { $0.category == .timing }.isEmpty)
    }

    @Test func renderersShowTheItemsInOrder() throws {
        let diff = Diff(try DiffTests.digest(Samples.diffSession(bad: false), path: "good.btsnoop"),
                        try DiffTests.digest(Samples.diffSession(bad: true), path: "bad.btsnoop"))
        let text = DiffRender.text(diff)
        #expect(text[0].hasPrefix("A: good.btsnoop"))
        #expect(text.contains("6 differences, most important first"))
        let titles = text.filter { DiffItem.Category.allCases.map(\.title).contains($0) }
        #expect(titles == ["Diagnoses", "Characteristic values", "GATT database", "ATT errors", "GATT procedures", "Timing"])
        let md = DiffRender.markdown(diff)
        #expect(md.filter { $0.hasPrefix("## ") } == titles.map { "## " + $0 })
        let json = JSONOut.text(.object(DiffRender.json(diff)))
        let parsed = try JSONParser.parse(Array(json.utf8))
        guard case let .object(root) = parsed, case let .list(items)? = root["differences"] else { Issue.record("no differences list"); return }
        #expect(root["count"] == .int(6))
        #expect(items.compactMap { $0.objectValue?["category"]?.stringValue } == ["diagnoses", "values", "gatt", "errors", "procedures", "timing"])
        let same = Diff(try DiffTests.digest(Samples.diffSession(bad: false)), try DiffTests.digest(Samples.diffSession(bad: false)))
        #expect(DiffRender.text(same).last == "No differences.")
    }

    @Test func procedureStepsAreNamedWithoutHandles() throws {
        let s = Samples.gattSession()
        let analyzer = Analyzer(sink: nil)
        let log = analyzer.addActivityLog()
        analyzer.run(try CaptureFile.open(bytes: s.writer.bytes), path: "t")
        let texts = log.procedure(1).map(\.text)
        #expect(texts.prefix(4) == ["Exchange MTU", "Discover primary services", "Discover primary services (continued)",
                                    "Discover primary services (continued)"])
        #expect(texts.contains("Discover descriptors of Battery › Battery Level"))
        #expect(texts.contains("Read Device Information › Firmware Revision String"))
        #expect(texts.contains("Subscribe to notifications of Battery › Battery Level"))
        #expect(texts.last == "Write (command) Nordic UART Service › Nordic UART RX")
        let battery = try #require(log.values["C4:7C:8D:6A:11:22"]?[0x000E])
        #expect(battery.notifications == 3)
        #expect(battery.reads == 1)
        #expect(battery.latest.value == [88])
    }
}
