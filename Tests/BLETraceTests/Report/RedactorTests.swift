import Foundation
import Testing
@testable import BLETrace

@Suite struct RedactorTests {
    /// Every form in which an original may show up: colon text and contiguous/spaced hex in both byte
    /// orders for addresses, and the text and its hex for names, in upper and lower case.
    static func forms(address a: BDAddr) -> [String] {
        let be = (0..<6).map { UInt8(truncatingIfNeeded: a.value >> (8 * UInt64(5 - $0))) }
        let le = Array(be.reversed())
        let list = [a.description, Hex.string(be), Hex.string(le), Hex.spaced(be), Hex.spaced(le)]
        return list.flatMap { [$0.lowercased(), $0.uppercased()] }
    }

    static func forms(name: String) -> [String] {
        [name, name.lowercased(), name.uppercased(), Hex.string(Array(name.utf8))]
    }

    enum Format: CaseIterable { case text, json, jsonl, markdown, html }

    /// Analyzes with `--redact` as the command does: a learning pass, then the redacting sink.
    static func redactedOutput(_ bytes: [UInt8], format: Format, redactor r: Redactor = Redactor()) throws -> String {
        let learner = Analyzer(sink: nil)
        learner.chain.taps = [r]
        let s = learner.run(try CaptureFile.open(bytes: bytes), path: "capture")
        for section in s.sections { if case let .object(o) = section.value { r.learn(fields: o) } }
        let out = OutputWriter()
        let sink: EventSink & RedactableOutput
        var md: MarkdownRenderer? = nil
        var html: HTMLRenderer? = nil
        switch format {
        case .text: sink = TextRenderer(out: out, style: TextStyle(width: 0))
        case .json: sink = JSONRenderer(out: out)
        case .jsonl: sink = JSONLinesRenderer(out: out)
        case .markdown:
            let m = MarkdownRenderer(out: out)
            md = m
            sink = m
        case .html:
            let h = HTMLRenderer(out: out)
            html = h
            sink = h
        }
        let analyzer = Analyzer(sink: RedactingSink(redactor: r, next: sink))
        if let m = md { analyzer.attach(m) }
        if let h = html { analyzer.attach(h) }
        analyzer.run(try CaptureFile.open(bytes: bytes), path: "capture")
        return out.text
    }

    static let addresses = [Samples.local, Samples.thermo, Samples.beacon, Samples.eddystone, Samples.watch, Samples.phone,
                            BDAddr(0xF2_11_22_33_44_55), BDAddr(0xC0_FF_EE_00_00_01), BDAddr(0xD5_4E_3F_2A_1B_0C)]
    static let names = ["Thermo-42", "Thermo", "Watch", "Extended Sensor"]

    /// A scan preceded by a vendor command that carries an address in HCI byte order (shown only as hex).
    static func vendorScan() -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.command(0xFC10, [0x01] + HCIBuilder.addr(Samples.thermo) + Array("Thermo-42".utf8))
        Samples.scanBurst(s, rounds: 1)
        return s
    }

    @Test(arguments: Format.allCases)
    func noOriginalAddressOrNameAnywhere(format: Format) throws {
        let samples: [(String, [UInt8])] = [("vendor", RedactorTests.vendorScan().writer.bytes), ("scan", Samples.scan().writer.bytes), ("gatt", Samples.gattSession().writer.bytes),
                                            ("ancs", Samples.ancsSession().writer.bytes), ("diff", Samples.diffSession(bad: true).writer.bytes)]
        for (label, bytes) in samples {
            let text = try RedactorTests.redactedOutput(bytes, format: format)
            for a in RedactorTests.addresses {
                for f in RedactorTests.forms(address: a) { #expect(!text.contains(f), "\(label) \(format): \(f)") }
            }
            for n in RedactorTests.names {
                for f in RedactorTests.forms(name: n) {
                    // "Thermo" is also the start of the appearance name "Thermometer", which is not identifying.
                    let hits = text.ranges(of: f).filter { !text[$0.upperBound...].hasPrefix("meter") && !text[$0.upperBound...].hasPrefix("METER") }
                    #expect(hits.isEmpty, "\(label) \(format): \(f)")
                }
            }
            #expect(text.contains("00:00:00:00:00:01"), "\(label) \(format)")
        }
    }

    @Test func originalsAreThereWithoutRedaction() throws {
        let out = OutputWriter()
        Analyzer(sink: JSONRenderer(out: out)).run(try CaptureFile.open(bytes: RedactorTests.vendorScan().writer.bytes), path: "x")
        let text = out.text
        #expect(text.contains("C4:7C:8D:6A:11:22") && text.contains("Thermo-42") && text.contains("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        #expect(text.contains(Hex.string([0x22, 0x11, 0x6A, 0x8D, 0x7C, 0xC4])))
    }

    @Test func beaconUUIDsSerialNumbersAndANCSText() throws {
        let scan = try RedactorTests.redactedOutput(Samples.scan().writer.bytes, format: .json)
        for f in ["E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "e2c56db5dffb48d2b060d0f5a71096e0"] { #expect(!scan.lowercased().contains(f.lowercased())) }
        #expect(scan.contains("00000000-0000-0000-0000-000000000001"))
        let ancs = try RedactorTests.redactedOutput(Samples.ancsSession().writer.bytes, format: .json)
        for t in ["John Smith", "com.apple.mobilephone", "Incoming Call", "John Sma"] {
            #expect(!ancs.contains(t), "\(t)")
            #expect(!ancs.contains(Hex.string(Array(t.utf8))), "hex of \(t)")
        }
        // A Serial Number String read.
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        s.attOut(0x0040, [0x08] + HCIBuilder.le16(1) + HCIBuilder.le16(0xFFFF) + HCIBuilder.le16(0x2803))
        s.attIn(0x0040, [0x09, 7] + HCIBuilder.le16(0x0010) + [0x02] + HCIBuilder.le16(0x0011) + HCIBuilder.le16(0x2A25))
        s.attOut(0x0040, [0x0A] + HCIBuilder.le16(0x0011))
        s.attIn(0x0040, [0x0B] + Array("SN-0012345".utf8))
        let serial = try RedactorTests.redactedOutput(s.writer.bytes, format: .text)
        #expect(!serial.contains("SN-0012345"))
        #expect(serial.contains("serial-1"))
    }

    @Test func pseudonymsAreStableAndSharedAcrossInputs() {
        let r = Redactor()
        r.learnAddress(Samples.thermo)
        r.learnString("Thermo-42", kind: .name)
        r.learnAddress(Samples.watch)
        let one = r.redact("C4:7C:8D:6A:11:22 Thermo-42 5d:4e:3f:2a:1b:0c")
        #expect(one == "00:00:00:00:00:01 name-1 00:00:00:00:00:02")
        r.learnAddress(Samples.thermo) // learning again changes nothing
        #expect(r.redact("c4:7c:8d:6a:11:22 thermo-42") == "00:00:00:00:00:01 name-1")
        // Inside hex: the address in HCI byte order becomes the pseudonym's bytes; the name keeps its length.
        let hci: [UInt8] = [0x01, 0x22, 0x11, 0x6A, 0x8D, 0x7C, 0xC4, 0x02]
        #expect(r.redact(bytes: hci) == [0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02])
        let named = r.redact(bytes: Array("Thermo-42".utf8))
        #expect(named == Array("name-1***".utf8))
        #expect(r.redact("22 11 6a 8d 7c c4") == "01 00 00 00 00 00")
    }

    @Test func diffSidesShareOneRedactor() throws {
        let r = Redactor()
        let a = CaptureDigest.make(try CaptureFile.open(bytes: Samples.diffSession(bad: false).writer.bytes), path: "a", observer: r).0
        let b = CaptureDigest.make(try CaptureFile.open(bytes: Samples.diffSession(bad: true).writer.bytes), path: "b", observer: r).0
        let diff = Diff(a, b)
        let text = DiffRender.text(diff, redact: { r.redact($0) }).joined(separator: "\n")
            + DiffRender.markdown(diff, redact: { r.redact($0) }).joined(separator: "\n")
            + JSONOut.text(.object(DiffRender.json(diff, redact: { r.redact($0) })))
        for f in RedactorTests.forms(address: Samples.thermo) + ["Thermo"] { #expect(!text.contains(f), "\(f)") }
        #expect(text.contains("00:00:00:00:00:0"))
        #expect(diff.items.count == 6)
    }
}
