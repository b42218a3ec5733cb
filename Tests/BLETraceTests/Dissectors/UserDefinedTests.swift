import Foundation
import Testing
@testable import BLETrace

@Suite("--uuids files: names and simple decoders")
struct UserDefinedTests {
    static let yaml = """
    uuids:
      - uuid: 0000FFE0-0000-1000-8000-00805F9B34FB
        name: Acme Sensor Service
      - uuid: FFE1
        name: Temperature
        decode: {type: sint16, byte_order: little, scale: 0.01, unit: "°C"}
      - uuid: FFE2
        name: Counter
        decode: {type: uint24, byte_order: big}
      - uuid: 1234
        name: Label
        decode: utf8
      - uuid: 6E400003-B5A3-F393-E0A9-E50E24DCCA9E
        decode: hex
    """

    @Test("YAML: entries, types, byte order, scale and unit")
    func yaml() throws {
        let u = try UserDefinedUUIDs.parse(Array(Self.yaml.utf8), source: "t.yaml")
        #expect(u.entries.count == 5)
        #expect(u.names[sig(0xFFE0)] == "Acme Sensor Service" && u.names[sig(0x1234)] == "Label")
        var r = DissectorRegistry.standard
        r.add(try #require(u.dissector))
        let t = try #require(dissect(sig(0xFFE1), le(0xFF38), registry: r))   // -200 × 0.01
        #expect(t.dissector == "user" && t.fields["raw"] == .int(-200) && t.fields["value"] == .double(-2) && t.text == "-2.00 °C")
        #expect(dissect(sig(0xFFE2), [0x01, 0x02, 0x03], registry: r)?.fields["value"] == .int(0x010203))
        #expect(dissect(sig(0xFFE2), [0x01, 0x02], registry: r)?.problem == "2 bytes, expected 3")
        #expect(dissect(sig(0x1234), Array("hi".utf8), registry: r)?.fields["value"] == .string("hi"))
        #expect(dissect(sig(0x1234), [0xFF], registry: r)?.problem == "not valid UTF-8")
        let nus = try #require(BLEUUID(string: "6E400003-B5A3-F393-E0A9-E50E24DCCA9E"))
        #expect(dissect(nus, [0xAB, 0x01], registry: r)?.fields["value"] == .hex([0xAB, 0x01]))
    }

    @Test("JSON, and a decoder replaces the built-in one for its UUID")
    func json() throws {
        let text = #"{"uuids": [{"uuid": "2A19", "name": "Charge", "decode": {"type": "uint8", "scale": 0.5, "unit": "%"}}, {"uuid": "FFF1", "decode": {"type": "int32", "byte_order": "big"}}]}"#
        let u = try UserDefinedUUIDs.parse(Array(text.utf8), source: "t.json")
        var r = DissectorRegistry.standard
        r.add(try #require(u.dissector))
        #expect(dissect(sig(0x2A19), [91], registry: r)?.text == "45.5 %")
        #expect(dissect(sig(0xFFF1), [0xFF, 0xFF, 0xFF, 0xFE], registry: r)?.fields["value"] == .int(-2))
        // The typed value: the integer as read, scaled when rendered; a 64-bit value past Int.max stays exact.
        #expect(dissect(sig(0x2A19), [91], registry: r)?.value as? UserValue
            == UserValue(label: "Charge", reading: .integer(91, scale: 0.5), unit: "%"))
        let big = try UserDefinedUUIDs.parse(Array(#"{"uuids": [{"uuid": "FFF2", "decode": "uint64"}]}"#.utf8), source: "b.json")
        var rb = DissectorRegistry.standard
        rb.add(try #require(big.dissector))
        let max = try #require(dissect(sig(0xFFF2), [UInt8](repeating: 0xFF, count: 8), registry: rb))
        #expect(max.value as? UserValue == UserValue(label: nil, reading: .unsigned64(.max), unit: nil))
        #expect(max.text == "18446744073709551615" && max.fields["value"] == .string("18446744073709551615"))
    }

    @Test("bad files are refused with the reason")
    func errors() {
        func reason(_ s: String) -> String? {
            do { _ = try UserDefinedUUIDs.parse(Array(s.utf8), source: "x"); return nil } catch { return "\(error)" }
        }
        #expect(reason("uuids: [{uuid: zz, name: x}]") == "entry 1: \"zz\" is not a UUID")
        #expect(reason("uuids: [{uuid: FFE1}]") == "entry 1 has neither \"name\" nor \"decode\"")
        #expect(reason("uuids: [{uuid: FFE1, decode: float7}]")?.contains("unknown type") == true)
        #expect(reason("uuids: [{uuid: FFE1, decode: {type: uint16, byte_order: middle}}]")?.contains("middle") == true)
        #expect(reason("names: []") == "expected a \"uuids\" list")
        #expect(reason("uuids: [") != nil)
        #expect(reason("{\"uuids\": 3}") != nil)
    }

    @Test("names apply to the GATT layer's output during a run, and only then")
    func names() throws {
        let u = try UserDefinedUUIDs.parse(Array(Self.yaml.utf8), source: "t.yaml")
        var options = DecodeOptions()
        options.uuids = u
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        s.connect(handle: 0x40, peer: Samples.thermo, peerType: 1)
        s.attOut(0x40, [0x08] + le(1) + le(0xFFFF) + le(0x2803))
        s.attIn(0x40, [0x09, 7] + le(0x10) + [0x12] + le(0x11) + le(0xFFE1))
        s.attIn(0x40, [0x1B] + le(0x11) + le(2150))
        let sink = CollectingSink()
        Analyzer(options: options, sink: sink).run(try CaptureFile.open(bytes: s.writer.bytes), path: "t")
        let note = try #require(sink.events.last)
        #expect(note.summary.contains("handle 0x0011 Temperature: 21.50 °C"))
        #expect(note.layer("gatt")?["characteristic"]?.objectValue?["name"] == .string("Temperature"))
        #expect(note.layer("att")?["decoded"]?.objectValue?["value"] == .double(21.5))
        #expect(sig(0xFFE1).name == nil)
    }

    @Test("names apply to adverts written on the second thread, and to their run alone")
    func namesOnTheWritingThread() throws {
        let u = try UserDefinedUUIDs.parse(Array(Self.yaml.utf8), source: "t.yaml")
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.startScan()
        // Flags, and the complete list of 16-bit services: FFE1 and 1234, which the file names.
        let data: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0x03, 0xE1, 0xFF, 0x34, 0x12]
        s.advert(type: 0, addressType: 0, address: BDAddr(0x11_22_33_44_55_66), data: data, rssi: -60)
        let path = TestSupport.temporaryFile(s.writer.bytes, suffix: ".btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        func render(_ format: AnalyzeRun.Format, names: Bool, threaded: Bool) throws -> String {
            var run = AnalyzeRun()
            run.format = format
            run.style = TextStyle(color: false, time: .relative, width: 0)
            if names { run.options.uuids = u }
            run.background = threaded
            let out = OutputWriter()
            _ = try run.run(open: { try InputOpener.open(path: path) }, path: path, out: out)
            return out.text
        }
        for format in [AnalyzeRun.Format.text, .json, .jsonl] {
            // The run without names first: what it made must not stand for the named run's, nor the other way.
            let plain = try render(format, names: false, threaded: true)
            let named = try render(format, names: true, threaded: true)
            // The advert's own line (text and JSON alike: one event a line), not the summary's device list.
            func advert(_ output: String) -> Substring? { output.split(separator: "\n").first { $0.contains("Advertising Report") } }
            let plainAdvert = try #require(advert(plain)), namedAdvert = try #require(advert(named))
            #expect(!plainAdvert.contains("Temperature") && !plainAdvert.contains("Label"), "\(format)")
            #expect(namedAdvert.contains("Temperature") && namedAdvert.contains("Label"), "\(format)")
            #expect(named == (try render(format, names: true, threaded: false)), "\(format)")
            #expect(plain == (try render(format, names: false, threaded: false)), "\(format)")
        }
    }
}
