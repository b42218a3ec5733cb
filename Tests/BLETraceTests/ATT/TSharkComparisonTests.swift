import Foundation
import Testing
@testable import BLETrace

/// Compares the ATT PDUs bletrace decodes from every HCI capture in ../shared/captures with what tshark
/// prints for the same records: record number, opcode, handle(s) and value bytes.
@Suite("ATT against tshark")
struct TSharkComparisonTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let capturesDir = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/captures")
    static let tshark: String? = TestSupport.tshark
    static var available: Bool {
        tshark != nil && FileManager.default.fileExists(atPath: capturesDir.path)
    }

    /// One ATT PDU as tshark prints it: handles are its `btatt.handle` occurrences, in order.
    struct Row: Equatable, CustomStringConvertible {
        var record: Int
        var opcode: Int
        var handles: [Int]
        var value: [UInt8]?
        /// bletrace only: the UUID of the descriptor or characteristic value the handle is, where known.
        var uuid: BLEUUID? = nil
        /// bletrace only: the handle's role in its own server's database.
        var role: String? = nil
        /// bletrace only: the record of the request this response answers.
        var request: Int? = nil
        /// bletrace only: the connection the PDU was on (its peer names the server's database).
        var connection: Int? = nil
        /// bletrace only: the server of the PDU's bearer is the peer (false: the local host serves).
        var peerIsServer = true
        /// bletrace only: the UUIDs of a Read By Group Type Response's groups.
        var groupUUIDs: [BLEUUID] = []
        /// tshark only: the 16-bit UUIDs it resolved the PDU's handles to (`btatt.uuid16`), in order.
        var resolved: [Int] = []
        static func == (a: Row, b: Row) -> Bool {
            a.record == b.record && a.opcode == b.opcode && a.handles == b.handles && a.value == b.value
        }
        var description: String {
            "record \(record) opcode \(Hex.hex(opcode, width: 2)) handles [\(handles.map { Hex.hex($0, width: 4) }.joined(separator: ","))] value \(value.map { Hex.string($0) } ?? "-")"
        }
    }

    final class Collector: EventSink {
        var rows: [Row] = []
        /// Sniffer captures: the `ll` layer of every record.
        var ll: [Int: Fields] = [:]
        /// Connection number → peer address, as the ATT layer keys its servers' databases.
        var peers: [Int: String] = [:]
        func begin(_ capture: CaptureInfo) {}
        func end(_ summary: Summary) {
            for c in summary.connections { if let p = c.peer { peers[c.id] = p.description } }
        }
        func event(_ e: TraceEvent) {
            if let l = e.layer("ll") { ll[e.record] = l }
            guard let att = e.layer("att"), let op = att["opcode"]?.intValue else { return }
            var value: [UInt8]? = nil
            if case let .hex(v)? = att["value"] { value = v }
            var row = Row(record: e.record, opcode: op, handles: TSharkComparisonTests.handles(att), value: value)
            row.request = att["request"]?.intValue
            row.connection = e.connection
            if case let .att(a) = e.body { row.peerIsServer = a.peerIsServer }
            if op == 0x11, case let .list(items)? = att["entries"] {
                for case let .object(o) in items { if let u = o["uuid"]?.stringValue.flatMap({ BLEUUID(string: $0) }) { row.groupUUIDs.append(u) } }
            }
            if let g = e.layer("gatt") {
                row.role = g["role"]?.stringValue
                let place = row.role == "descriptor" ? g["descriptor"] : g["characteristic"]
                row.uuid = place?.objectValue?["uuid"]?.stringValue.flatMap { BLEUUID(string: $0) }
            }
            rows.append(row)
        }
    }

    /// The handles tshark lists as `btatt.handle` for a PDU: every handle the PDU carries, including those
    /// inside characteristic declarations, and for responses the handle of the request.
    static func handles(_ att: Fields) -> [Int] {
        func list(_ key: String, _ inner: [String]) -> [Int] {
            guard case let .list(items)? = att[key] else { return [] }
            var out: [Int] = []
            for case let .object(o) in items {
                for k in inner { if let v = o[k]?.intValue { out.append(v) } }
            }
            return out
        }
        switch att["opcode"]?.intValue ?? -1 {
        case 0x05, 0x07, 0x11, 0x23: return list("entries", ["handle"])
        case 0x09: return list("entries", ["handle", "value_handle", "included_start"])
        case 0x0E, 0x0F, 0x20:
            guard case let .list(items)? = att["handles"] else { return [] }
            return items.compactMap { $0.intValue }
        default:
            return att["handle"]?.intValue.map { [$0] } ?? []
        }
    }

    static func tsharkRows(_ path: String) throws -> [Row] {
        let text = try TestSupport.runTShark(["-r", path, "-T", "fields", "-e", "frame.number", "-e", "btatt.opcode", "-e", "btatt.handle", "-e", "btatt.value",
                                              "-e", "btatt.uuid16"])
        var rows: [Row] = []
        for line in text.split(separator: "\n") {
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count >= 2, !cols[1].isEmpty, let rec = Int(cols[0]) else { continue }
            let op = Int(cols[1].dropFirst(2), radix: 16) ?? -1
            let hs = cols.count > 2 && !cols[2].isEmpty ? cols[2].split(separator: ",").compactMap { Int($0.dropFirst(2), radix: 16) } : []
            let v = cols.count > 3 && !cols[3].isEmpty ? Hex.parse(cols[3]) : nil
            var row = Row(record: rec, opcode: op, handles: hs, value: v)
            if cols.count > 4, !cols[4].isEmpty { row.resolved = cols[4].split(separator: ",").compactMap { Int($0.dropFirst(2), radix: 16) } }
            rows.append(row)
        }
        return rows
    }

    /// Captures read through HCI: btsnoop, PacketLogger, pcap/pcapng with link type 201.
    static func hciCaptures() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: capturesDir.path)) ?? []
        return names.sorted().compactMap { name in
            let path = capturesDir.appendingPathComponent(name).path
            guard let r = try? CaptureFile.open(path: path) else { return nil }
            switch r.format {
            case .btsnoop, .packetLogger: return path
            case .pcap, .pcapng: return r.linkType == LinkType.bluetoothHCIH4WithPHDR ? path : nil
            }
        }
    }

    /// Explains a difference that is tshark's, not bletrace's; nil when the difference is unexplained.
    /// `declarations` holds every handle that is a characteristic declaration in some server of the capture;
    /// `linked` maps a response's record to the handle of the request bletrace linked it to.
    static func tsharkError(ours o: Row, theirs t: Row, declarations: Set<Int>, types: AttributeTypes = [:],
                            peers: [Int: String] = [:]) -> String? {
        guard o.record == t.record, o.opcode == t.opcode else { return nil }
        // 0. tshark names a handle by what it learned from any server in the capture; a later connection to another
        //    device with its own database at that handle is then dissected as the first one's attribute (whoisbe:
        //    a Write to a vendor characteristic at 0x0018 shown as Appearance, a group's 128-bit UUID shown as the
        //    value of "Device Information"). Handles are per server (Core 5.4 Vol 3 Part F 3.2.2): when tshark's
        //    UUID for the handle is not this peer's attribute there but another server's, its field is the other
        //    server's, and bletrace's value (the PDU's bytes) stands.
        if o.handles == t.handles, let h = o.handles.first, let u = t.resolved.first,
           let c = o.connection, let server = o.peerIsServer ? peers[c] : "local", !(types[server]?[h]?.contains(u) ?? false),
           types.contains(where: { $0.key != server && $0.value[h]?.contains(u) == true }) {
            return "handle resolved with another server's database"
        }
        // 1. tshark prints no btatt.value for attributes whose value it dissects into type-specific fields
        //    (SIG-defined characteristics and descriptors such as 0x2902, 0x2A05, 0x2A19, 0x2A26), and splits a
        //    Read Multiple Response into per-handle fields. The PDU carries the value all the same: Write Request,
        //    Read Response, Handle Value Indication (Core 5.4 Vol 3 Part F 3.4.5.1, 3.4.4.4, 3.4.7.2) and the
        //    Set Of Values of Read Multiple Response (3.4.4.8). Not an error in tshark's dissection, only in
        //    what this field shows; bletrace's value is the PDU's bytes.
        if t.value == nil, o.value != nil, t.handles == o.handles {
            if o.opcode == 0x0F { return "Read Multiple Response values split per handle" }
            if let u = o.uuid?.uuid16, (0x2900...0x2BFF).contains(u) { return "value dissected as \(Hex.hex(u, width: 4))" }
        }
        // 2. tshark dissects a value with a characteristic declaration it learned from a different GATT server
        //    (another connection's database): properties, "handle" and UUID taken from the value bytes. Attribute
        //    handles identify attributes within one server only (Core 5.4 Vol 3 Part F 3.2.2), so a
        //    declaration on another server says nothing about this handle.
        if let h = o.handles.first, t.handles.first == h, declarations.contains(h), o.role != "characteristic_declaration",
           let v = o.value, v.count >= 3, t.handles == [h, Int(v[1]) | Int(v[2]) << 8], t.value ?? [] == Array(v.dropFirst(3)) {
            return "value dissected with another server's characteristic declaration at \(Hex.hex(h, width: 4))"
        }
        // 3. tshark pairs a response with the last request of that opcode on any connection and in either
        //    direction. ATT is a sequential protocol per bearer and per client (Core 5.4 Vol 3 Part F 3.3.2):
        //    a response answers the request its sender received on that connection, which is the one bletrace
        //    links (its JSON names the request's record).
        if [0x0B, 0x0D, 0x13].contains(o.opcode), o.request != nil, o.handles.count == 1, o.value == t.value,
           t.handles != o.handles, t.handles.count <= 1 {
            return "response paired with another connection's or the other role's request"
        }
        return nil
    }

    /// Per server (the database's device, a peer address): handle → the 16-bit UUIDs bletrace knows there
    /// (a service's UUID at its declaration, a characteristic's at its declaration and value, a descriptor's type).
    typealias AttributeTypes = [String: [Int: Set<Int>]]

    static func attributeTypes(_ att: ATTLayer?) -> AttributeTypes {
        var out: AttributeTypes = [:]
        for var db in att?.exportDatabases() ?? [] {
            var m: [Int: Set<Int>] = [:]
            func add(_ h: UInt16, _ u: BLEUUID?) { if let v = u?.uuid16 { m[Int(h), default: []].insert(Int(v)) } }
            for s in db.orderedServices() { add(s.start, s.uuid) }
            for ch in db.orderedCharacteristics() {
                add(ch.handle, ch.uuid)
                add(ch.valueHandle, ch.uuid)
            }
            for (h, u) in db.types { add(h, u) }
            out[db.device] = m
        }
        return out
    }

    @Test("ATT PDUs match tshark record by record", .enabled(if: TSharkComparisonTests.available))
    func compare() throws {
        let files = Self.hciCaptures()
        #expect(!files.isEmpty)
        var matched = 0, explained = 0
        var report: [String] = []
        var reasons: [String: Int] = [:]
        for path in files {
            let c = Collector()
            let reader = try CaptureFile.open(path: path)
            let analyzer = Analyzer(sink: c)
            analyzer.run(reader, path: path)
            var declarations = Set<Int>()
            let att = analyzer.layers.compactMap({ $0 as? ATTLayer }).first
            if let att {
                for var db in att.exportDatabases() {
                    for ch in db.orderedCharacteristics() { declarations.insert(Int(ch.handle)) }
                }
            }
            let types = Self.attributeTypes(att)
            let theirs = try Self.tsharkRows(path)
            let ours = c.rows
            let name = (path as NSString).lastPathComponent
            var byRecord: [Int: Row] = [:]
            for r in ours { byRecord[r.record] = r }
            let theirRecords = Set(theirs.map(\.record))
            for t in theirs {
                guard let o = byRecord[t.record] else {
                    report.append("\(name): tshark \(t), bletrace has no ATT PDU")
                    continue
                }
                if o == t { matched += 1; continue }
                if let why = Self.tsharkError(ours: o, theirs: t, declarations: declarations, types: types, peers: c.peers) {
                    explained += 1
                    reasons[why.hasPrefix("value dissected as") ? "value dissected by UUID" : why, default: 0] += 1
                    continue
                }
                report.append("\(name): tshark \(t) / bletrace \(o)")
            }
            for o in ours where !theirRecords.contains(o.record) {
                report.append("\(name): bletrace \(o), tshark has no ATT PDU")
            }
        }
        print("tshark comparison: \(files.count) captures, \(matched) ATT PDUs equal, \(explained) explained tshark errors, \(report.count) differences")
        for (why, n) in reasons.sorted(by: { $0.key < $1.key }) { print("  tshark's: \(why): \(n)") }
        for line in report.prefix(200) { print("  " + line) }
        #expect(report.isEmpty, "\(report.count) differences; first: \(report.first ?? "")")
    }
}

/// The same comparison for the sniffer captures (pcap link types 256 and 272): ATT reached through the link
/// layer's own L2CAP reassembly. Where tshark shows an ATT PDU that bletrace does not decode, the record must
/// be one bletrace deliberately keeps out of higher layers, and the reason is counted:
/// - a retransmission (same SN and the same bytes from the same side, not yet acknowledged): its first copy
///   was decoded already; tshark decodes every copy (it flags most of them "Retransmission");
/// - an encrypted payload: without the keys the bytes are ciphertext, which tshark dissects as if plain;
/// - a CRC known bad: the bytes are damaged.
@Suite("Sniffer ATT against tshark")
struct SnifferTSharkComparisonTests {
    typealias T = TSharkComparisonTests

    static func snifferCaptures() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: T.capturesDir.path)) ?? []
        return names.sorted().compactMap { name in
            let path = T.capturesDir.appendingPathComponent(name).path
            guard let r = try? CaptureFile.open(path: path), r.format == .pcap || r.format == .pcapng else { return nil }
            return [LinkType.bluetoothLELLWithPHDR, LinkType.nordicBLE].contains(r.linkType) ? path : nil
        }
    }

    /// Records tshark flags as retransmissions (its expert info), for the report.
    static func tsharkRetransmissions(_ path: String) throws -> Set<Int> {
        let text = try TestSupport.runTShark(["-r", path, "-Y", "btatt", "-T", "fields", "-e", "frame.number", "-e", "_ws.expert.message"])
        var set = Set<Int>()
        for line in text.split(separator: "\n") where line.contains("Retransmission") {
            if let n = Int(line.split(separator: "\t").first ?? "") { set.insert(n) }
        }
        return set
    }

    @Test("ATT PDUs on sniffer captures match tshark, or bletrace says why not", .enabled(if: TSharkComparisonTests.available))
    func compare() throws {
        let files = Self.snifferCaptures()
        #expect(files.count >= 10)
        var report: [String] = []
        var lines: [String] = []
        var totalMatched = 0
        for path in files {
            let c = T.Collector()
            let analyzer = Analyzer(sink: c)
            analyzer.run(try CaptureFile.open(path: path), path: path)
            var declarations = Set<Int>()
            if let att = analyzer.layers.compactMap({ $0 as? ATTLayer }).first {
                for var db in att.exportDatabases() {
                    for ch in db.orderedCharacteristics() { declarations.insert(Int(ch.handle)) }
                }
            }
            let theirs = try T.tsharkRows(path)
            let flagged = try Self.tsharkRetransmissions(path)
            let name = (path as NSString).lastPathComponent
            var byRecord: [Int: T.Row] = [:]
            for r in c.rows { byRecord[r.record] = r }
            var matched = 0
            var reasons: [String: Int] = [:]
            for t in theirs {
                if let o = byRecord[t.record] {
                    if o == t { matched += 1; continue }
                    if let why = T.tsharkError(ours: o, theirs: t, declarations: declarations) {
                        reasons[why.hasPrefix("value dissected as") ? "value dissected by UUID" : why, default: 0] += 1
                        continue
                    }
                    // A Read Response whose request read a characteristic declaration of this very server: tshark
                    // splits the value into properties, value handle and UUID (the value handle becomes a second
                    // btatt.handle, and no btatt.value is shown); bletrace keeps the attribute value's bytes and
                    // names the handle's role. The same PDU either way.
                    if o.opcode == 0x0B, o.role == "characteristic_declaration", t.value == nil, let h = o.handles.first,
                       let v = o.value, v.count >= 5, t.handles == [h, Int(v[1]) | Int(v[2]) << 8] {
                        reasons["characteristic declaration read: value shown as its fields", default: 0] += 1
                        continue
                    }
                    report.append("\(name): tshark \(t) / bletrace \(o)")
                    continue
                }
                let ll = c.ll[t.record]
                if ll?["retransmission"] == .bool(true) {
                    reasons[flagged.contains(t.record) ? "retransmission (tshark flags it too)" : "retransmission (tshark does not flag it)", default: 0] += 1
                } else if ll?["encrypted"] == .bool(true) {
                    reasons["encrypted: tshark dissects ciphertext", default: 0] += 1
                } else if ll?["crc"] == .string("bad") {
                    reasons["CRC bad", default: 0] += 1
                } else {
                    report.append("\(name): tshark \(t), bletrace has no ATT PDU (\(ll.map { "ll \($0.items.prefix(8).map { "\($0.0)=\($0.1)" })" } ?? "no ll layer"))")
                }
            }
            let theirRecords = Set(theirs.map(\.record))
            for o in c.rows where !theirRecords.contains(o.record) {
                // bletrace cracked or was given the link's key; tshark shows the ciphertext.
                if c.ll[o.record]?["decrypted"] == .bool(true) {
                    reasons["decrypted by bletrace: tshark has no key", default: 0] += 1
                    continue
                }
                report.append("\(name): bletrace \(o), tshark has no ATT PDU")
            }
            totalMatched += matched
            lines.append("  \(name): tshark \(theirs.count) ATT PDUs, \(matched) equal" + reasons.sorted(by: { $0.key < $1.key }).map { "; \($0.key): \($0.value)" }.joined())
        }
        print("sniffer tshark comparison: \(files.count) captures, \(totalMatched) ATT PDUs equal, \(report.count) unexplained differences")
        for l in lines { print(l) }
        for line in report.prefix(200) { print("  " + line) }
        #expect(totalMatched > 500)
        #expect(report.isEmpty, "\(report.count) differences; first: \(report.first ?? "")")
    }
}
