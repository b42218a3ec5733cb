import Foundation
@testable import BLETrace

/// A directory of generated captures with known plants, as a test rig leaves them: clean sessions and
/// failures (link loss, pairing rejected) from a thermometer whose Device Information gives its model and
/// firmware revision, some gzip-compressed, a bugreport zip holding two logs, a truncated capture and a file
/// that is no capture.
enum TriageFleet {
    enum Plant { case clean, linkLost, pairingRejected }

    static let le16 = HCIBuilder.le16

    /// One session: connect, discover and read Device Information (model, firmware), then the plant. `start`
    /// makes each capture's bytes (and so its content hash) its own.
    static func session(firmware: String, model: String = "TH-1", plant: Plant, start: Int64, notifications: Int = 0) -> [UInt8] {
        let s = Scenario(format: .btsnoop(datalink: 1002), start: start)
        s.powerOn(local: Samples.local)
        let h: UInt16 = 0x0040
        s.connect(handle: h, peer: Samples.thermo, peerType: 1)
        s.attOut(h, [0x10] + le16(0x0001) + le16(0xFFFF) + le16(0x2800))
        s.attIn(h, [0x11, 6] + le16(0x0010) + le16(0x0016) + le16(0x180A))
        s.attOut(h, [0x10] + le16(0x0017) + le16(0xFFFF) + le16(0x2800))
        s.attIn(h, [0x01, 0x10] + le16(0x0017) + [0x0A])
        s.attOut(h, [0x08] + le16(0x0010) + le16(0x0016) + le16(0x2803))
        s.attIn(h, [0x09, 7] + le16(0x0011) + [0x02] + le16(0x0012) + le16(0x2A24) + le16(0x0013) + [0x02] + le16(0x0014) + le16(0x2A26))
        s.attOut(h, [0x08] + le16(0x0015) + le16(0x0016) + le16(0x2803))
        s.attIn(h, [0x01, 0x08] + le16(0x0015) + [0x0A])
        for (handle, value) in [(UInt16(0x0012), model), (0x0014, firmware)] {
            s.attOut(h, [0x0A] + le16(handle))
            s.attIn(h, [0x0B] + Array(value.utf8))
        }
        for i in 0..<notifications {
            s.advance(ms: 10)
            s.attIn(h, [0x1B] + le16(0x0020) + [UInt8(truncatingIfNeeded: i)])
        }
        switch plant {
        case .clean:
            s.advance(ms: 200)
            s.disconnect(handle: h)
        case .linkLost:
            s.advance(ms: 4000)
            s.disconnect(handle: h, reason: 0x08, byHost: false)
        case .pairingRejected:
            s.smpOut(h, [0x01, 0x04, 0x00, 0x2D, 16, 0x07, 0x07])
            s.smpIn(h, [0x02, 0x04, 0x00, 0x2D, 16, 0x07, 0x07])
            s.smpOut(h, [0x05, 0x0C])
            s.disconnect(handle: h)
        }
        return s.writer.bytes
    }

    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] { try Deflate.compress(bytes, gzip: true) }

    /// What the fleet holds, for the tests' expectations.
    static let files = ["bugreport-1.zip", "clean-a.btsnoop", "clean-b.btsnoop.gz", "damaged.btsnoop", "lost-1.btsnoop",
                        "notes.txt", "pairing.btsnoop", "sub/lost-2.btsnoop.gz"]
    /// Captures: a bugreport's two logs count two.
    static let captures = 9
    static let failed = 1     // notes.txt
    static let damaged = 1    // damaged.btsnoop
    static var analysed: Int { captures - failed }

    /// Builds the fleet in a fresh temporary directory and returns its path.
    static func make() throws -> String {
        let dir = NSTemporaryDirectory() + "bletrace-triage-" + UUID().uuidString
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        func put(_ name: String, _ bytes: [UInt8]) throws {
            guard fm.createFile(atPath: dir + "/" + name, contents: Data(bytes)) else { throw CocoaError(.fileWriteUnknown) }
        }
        let t0: Int64 = 1_700_000_000_000_000
        try put("clean-a.btsnoop", session(firmware: "1.4.2", plant: .clean, start: t0))
        try put("clean-b.btsnoop.gz", try gzip(session(firmware: "1.4.2", plant: .clean, start: t0 + 1_000_000)))
        try put("lost-1.btsnoop", session(firmware: "1.4.3", plant: .linkLost, start: t0 + 2_000_000))
        try put("sub/lost-2.btsnoop.gz", try gzip(session(firmware: "1.4.3", plant: .linkLost, start: t0 + 3_000_000)))
        try put("pairing.btsnoop", session(firmware: "1.4.2", plant: .pairingRejected, start: t0 + 4_000_000))
        let zip = try TestSupport.zipFile([
            ("FS/data/misc/bluetooth/logs/btsnoop_hci.log", session(firmware: "1.4.3", plant: .linkLost, start: t0 + 5_000_000)),
            ("FS/data/misc/bluetooth/logs/btsnoop_hci.log.last", session(firmware: "1.4.2", plant: .clean, start: t0 + 6_000_000)),
        ])
        try fm.moveItem(atPath: zip, toPath: dir + "/bugreport-1.zip")
        // Truncated inside its last record, after the Device Information reads.
        try put("damaged.btsnoop", Array(session(firmware: "1.4.2", plant: .clean, start: t0 + 7_000_000).dropLast(5)))
        try put("notes.txt", Array("rig 7, overnight run: phones A and B\n".utf8))
        return dir
    }

    /// Each table's rows as sorted lines, without the columns that say when and how fast (analysed_at,
    /// analysis_ms): what two stores holding the same captures must hold alike.
    static func normalised(_ store: TriageStore) throws -> [String: [String]] {
        let skip = Set(["analysed_at", "analysis_ms"])
        var out: [String: [String]] = [:]
        for (name, rows) in try store.rows() {
            guard let table = TriageSchema.tables.first(where: { $0.name == name }) else { continue }
            out[name] = rows.map { row in
                zip(table.columnNames, row).filter { !skip.contains($0.0) }.map { "\($0.0)=\($0.1)" }.joined(separator: "|")
            }.sorted()
        }
        return out
    }
}
