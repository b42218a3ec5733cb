import Foundation
import Testing
@testable import BLETrace

/// Cross-checks the iBeacon dissector against tshark on the shared real captures: every iBeacon bletrace
/// reports must be one whose raw manufacturer data (tshark's `btcommon.eir_ad.entry.data`) decodes to the
/// same UUID/major/minor/power, and none may be missed. Skipped when tshark or the captures are absent.
enum SharedCaptures {
    /// Package root, from this file's path: Tests/BLETraceTests/Dissectors/Beacons/<file>.
    static let packageRoot: URL = {
        var u = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { u.deleteLastPathComponent() }
        return u
    }()

    static let directory = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/captures")

    static let tshark: String? = TestSupport.tshark

    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasSuffix(".md") && !$0.hasPrefix(".") }.sorted()
    }()

    static var available: Bool { tshark != nil && !files.isEmpty }

    /// Runs tshark and returns its standard output.
    static func run(_ args: [String]) throws -> String { try TestSupport.runTShark(args) }
}

/// One iBeacon sighting, as text for easy comparison: "record UUID major minor power".
struct Sighting: Hashable, Comparable, CustomStringConvertible {
    var record: Int
    var uuid: String
    var major: Int
    var minor: Int
    var power: Int
    var description: String { "record \(record): \(uuid) major \(major) minor \(minor) power \(power)" }
    static func < (a: Sighting, b: Sighting) -> Bool { a.description < b.description }
}

/// Collects every `"ibeacon"` object anywhere in the events' layers.
final class IBeaconCollector: EventSink {
    var found: [Sighting] = []
    func begin(_ capture: CaptureInfo) {}
    func end(_ summary: Summary) {}
    func event(_ e: TraceEvent) {
        for (_, f) in e.layers { walk(.object(f), record: e.record) }
    }
    func walk(_ v: FieldValue, record: Int) {
        switch v {
        case let .object(f):
            for (k, child) in f.items {
                if k == "ibeacon", let o = child.objectValue, let u = o["uuid"]?.stringValue, let ma = o["major"]?.intValue,
                   let mi = o["minor"]?.intValue, let p = o["measured_power"]?.intValue {
                    found.append(Sighting(record: record, uuid: u, major: ma, minor: mi, power: p))
                } else {
                    walk(child, record: record)
                }
            }
        case let .list(items):
            for i in items { walk(i, record: record) }
        default:
            break
        }
    }
}

enum TsharkIBeacons {
    /// The value of `attr="…"` in a PDML line.
    static func attribute(_ attr: String, in line: Substring) -> Substring? {
        guard let r = line.range(of: " \(attr)=\"") else { return nil }
        let rest = line[r.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return rest[..<end]
    }

    /// iBeacons in tshark's view of the capture, decoded here from the raw manufacturer data bytes, and the
    /// number of Apple `02 15` entries of the wrong length (near misses).
    static func sightings(_ path: String) throws -> (beacons: [Sighting], nearMisses: Int) {
        let pdml = try SharedCaptures.run(["-r", path, "-Y",
            "btcommon.eir_ad.entry.company_id == 0x004c && btcommon.eir_ad.entry.data[0:2] == 02:15", "-T", "pdml"])
        var out: [Sighting] = []
        var nearMisses = 0
        var frame = 0
        var company: Substring? = nil
        for line in pdml.split(separator: "\n") {
            if line.contains("name=\"frame.number\"") {
                frame = attribute("show", in: line).flatMap { Int($0) } ?? 0
            } else if line.contains("name=\"btcommon.eir_ad.entry\"") {
                company = nil
            } else if line.contains("name=\"btcommon.eir_ad.entry.company_id\"") {
                company = attribute("show", in: line)
            } else if line.contains("name=\"btcommon.eir_ad.entry.data\""), company == "0x004c",
                      let hex = attribute("value", in: line), let bytes = Hex.parse(String(hex)),
                      bytes.count >= 2, bytes[0] == 0x02, bytes[1] == 0x15 {
                guard bytes.count == 23 else { nearMisses += 1; continue }
                // Canonical UUID text straight from bytes 2..<18 in transmission order.
                var uuid = ""
                for (i, b) in bytes[2..<18].enumerated() {
                    if i == 4 || i == 6 || i == 8 || i == 10 { uuid += "-" }
                    let digits = String(b, radix: 16, uppercase: true)
                    uuid += digits.count == 1 ? "0" + digits : digits
                }
                out.append(Sighting(record: frame, uuid: uuid, major: Int(bytes[18]) << 8 | Int(bytes[19]),
                                    minor: Int(bytes[20]) << 8 | Int(bytes[21]), power: Int(Int8(bitPattern: bytes[22]))))
            }
        }
        return (out, nearMisses)
    }
}

@Suite("iBeacon against tshark on shared captures", .enabled(if: SharedCaptures.available))
struct IBeaconCaptureTests {
    @Test("bletrace and tshark agree on every iBeacon", arguments: SharedCaptures.files)
    func agree(file: String) throws {
        let path = SharedCaptures.directory.appendingPathComponent(file).path
        let expected = try TsharkIBeacons.sightings(path).beacons.sorted()
        let collector = IBeaconCollector()
        do {
            let reader = try CaptureFile.open(path: path)
            Analyzer(sink: collector).run(reader, path: path)
        } catch {
            // bletrace cannot read this file (e.g. PPI): then tshark must not see an iBeacon in it either.
            #expect(expected.isEmpty, "\(file): bletrace cannot read it (\(error)) but tshark finds \(expected.count) iBeacons")
            return
        }
        let got = collector.found.sorted()
        let missed = Set(expected).subtracting(got).sorted()
        let extra = Set(got).subtracting(expected).sorted()
        #expect(missed.isEmpty, "\(file): missed \(missed.prefix(5))")
        #expect(extra.isEmpty, "\(file): not in tshark's data \(extra.prefix(5))")
        #expect(got.count == expected.count, "\(file): \(got.count) reported, \(expected.count) in tshark")
    }

    @Test("the shared captures do contain iBeacons, so the comparison checks something")
    func nonEmpty() throws {
        let known = "cnrd__yeelock__btsnoop_hci.log"
        try #require(SharedCaptures.files.contains(known))
        let found = try TsharkIBeacons.sightings(SharedCaptures.directory.appendingPathComponent(known).path).beacons
        #expect(found.count == 6)
        #expect(found.first?.uuid == "FDA50693-A4E2-4FB1-AFCF-C6EB07647825")
    }
}
