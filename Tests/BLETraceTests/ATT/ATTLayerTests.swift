import Testing
@testable import BLETrace

@Suite("ATT layer: transactions, discovery, long values")
struct ATTLayerTests {
    static let peer: UInt64 = 0xC0FFEE123456

    /// A discovery of a Battery service (0x0010–0x0014) with one characteristic and its CCCD, plus GAP.
    static func discover(_ h: TraceHarness, handle: UInt16 = 0x0040) {
        let out = Direction.hostToController, inn = Direction.controllerToHost
        h.att([0x10] + le(1) + le(0xFFFF) + le(0x2800), out, handle: handle)
        h.att([0x11, 0x06] + le(1) + le(5) + le(0x1800) + le(0x10) + le(0x14) + le(0x180F), inn, handle: handle)
        h.att([0x08] + le(0x10) + le(0x14) + le(0x2803), out, handle: handle)
        h.att([0x09, 0x07] + le(0x11) + [0x12] + le(0x12) + le(0x2A19), inn, handle: handle)
        h.att([0x04] + le(0x13) + le(0x14), out, handle: handle)
        h.att([0x05, 0x01] + le(0x13) + le(0x2902) + le(0x14) + le(0x2901), inn, handle: handle)
        h.att([0x08] + le(1) + le(5) + le(0x2803), out, handle: handle)
        h.att([0x09, 0x07] + le(2) + [0x02] + le(3) + le(0x2A00), inn, handle: handle)
    }

    @Test("a response names its request and the request its response, with the latency")
    func linking() {
        let h = TraceHarness()
        h.connect(0x0040, peer: Self.peer)
        let req = h.att([0x0A, 0x03, 0x00], .hostToController)
        let other = h.att([0x1B, 0x09, 0x00, 0x01], .controllerToHost, advance: 2_000)
        let rsp = h.att([0x0B, 0x5A], .controllerToHost, advance: 5_000)
        h.finish()
        let q = h.layer(req, "att"), r = h.layer(rsp, "att")
        #expect(q?["response"] == .int(rsp) && q?["latency_us"] == .int(7_000))
        #expect(r?["request"] == .int(req) && r?["latency_us"] == .int(7_000))
        #expect(r?["handle"] == .int(3) && r?["value"] == .hex([0x5A]))
        #expect(r?["opcode"] == .int(0x0B) && r?["name"] == .string("Read Response"))
        // The held request did not reorder the timeline.
        #expect(h.events.map(\.record) == Array(1...rsp))
        #expect(h.event(other)?.layer("att")?["request"] == nil)
    }

    @Test("a request with no response for 30 s is flagged as an ATT timeout; a response with no request too")
    func timeoutAndOrphan() {
        let h = TraceHarness()
        let req = h.att([0x12, 0x10, 0x00, 0x01], .hostToController)
        let late = h.att([0x1B, 0x09, 0x00, 0x01], .controllerToHost, advance: 30_000_001)
        let orphan = h.att([0x13], .controllerToHost)
        let last = h.att([0x0A, 0x01, 0x00], .hostToController)
        h.finish()
        let q = h.layer(req, "att")
        #expect(q?["timeout"] == .bool(true))
        #expect(q?["unanswered"] == .string("no response within 30 s (ATT timeout)"))
        #expect(h.event(late)?.kind == .att)
        #expect(h.layer(orphan, "att")?["unexpected"] == .string("no request pending"))
        #expect(h.layer(last, "att")?["unanswered"] == .string("no response before the end of the capture"))
        #expect(h.layer(last, "att")?["timeout"] == nil)
        #expect(h.att.unansweredCount == 2 && h.att.unexpectedCount == 1)
        #expect(h.events.map(\.record) == [1, 2, 3, 4])
    }

    @Test("an Error Response answers its request and names the error")
    func errorResponse() {
        let h = TraceHarness()
        Self.discover(h)
        let req = h.att([0x0A] + le(0x12), .hostToController)
        let err = h.att([0x01, 0x0A] + le(0x12) + [0x05], .controllerToHost)
        h.finish()
        #expect(h.layer(req, "att")?["response"] == .int(err))
        #expect(h.layer(err, "att")?["error_name"] == .string("Insufficient Authentication"))
        #expect(h.event(err)?.summary.hasPrefix("ATT Error Response: Read Request handle 0x0012 Battery Level (Battery): Insufficient Authentication") == true)
    }

    @Test("roles come from opcodes: a peer reading from us makes the local device the server")
    func roles() {
        let h = TraceHarness()
        h.connect(0x0040, peer: Self.peer)
        // The peer discovers our database.
        h.att([0x10] + le(1) + le(0xFFFF) + le(0x2800), .controllerToHost)
        h.att([0x11, 0x06] + le(1) + le(9) + le(0x1805), .hostToController)
        // While we, as client, read the peer's handle 1 at the same time: both transactions coexist.
        let mine = h.att([0x0A] + le(1), .hostToController)
        let theirs = h.att([0x0A] + le(2), .controllerToHost)
        let rMine = h.att([0x0B, 0x01], .controllerToHost)
        let rTheirs = h.att([0x0B, 0x02], .hostToController)
        h.finish()
        #expect(h.layer(mine, "att")?["response"] == .int(rMine))
        #expect(h.layer(theirs, "att")?["response"] == .int(rTheirs))
        #expect(h.layer(theirs, "att")?["role"] == .string("client"))
        #expect(h.layer(rTheirs, "att")?["role"] == .string("server"))
        #expect(h.att.databases["local"]?.services[1]?.uuid == BLEUUID(UInt16(0x1805)))
        #expect(h.att.databases[BDAddr(Self.peer).description]?.services.isEmpty ?? true)
        #expect(h.layer(rTheirs, "gatt")?["service"]?.objectValue?["name"] == .string("Current Time"))
    }

    @Test("discovery rebuilds services, characteristics and descriptors; events name what they touch")
    func discoveryTree() {
        let h = TraceHarness()
        h.connect(0x0040, peer: Self.peer)
        Self.discover(h)
        let read = h.att([0x0A] + le(0x12), .hostToController)
        h.att([0x0B, 0x5A], .controllerToHost)
        let cccd = h.att([0x12] + le(0x13) + [0x01, 0x00], .hostToController)
        h.finish()
        var db = h.att.databases[BDAddr(Self.peer).description]!
        #expect(db.orderedServices().map(\.start) == [1, 0x10])
        let ch = db.orderedCharacteristics()
        #expect(ch.map(\.valueHandle) == [3, 0x12])
        #expect(ch.last?.properties == 0x12 && ch.last?.uuid == BLEUUID(UInt16(0x2A19)))
        #expect(db.descriptors(of: ch.last!).map(\.handle) == [0x13, 0x14])
        #expect(db.locate(0x14).descriptor?.uuid == BLEUUID(UInt16(0x2901)))
        #expect(db.locate(0x11).role == .characteristicDeclaration)
        // Past the last service discovery reported (0x0010–0x0014), and in the gap before it: no discovery covered
        // those handles, so they are not the last characteristic's descriptors.
        #expect(db.locate(0x15).characteristic == nil && db.locate(0x15).descriptor == nil)
        #expect(db.locate(0x0200).characteristic == nil)
        let g = h.layer(read + 1, "gatt")
        #expect(g?["service"]?.objectValue?["uuid"] == .string("180F"))
        #expect(g?["characteristic"]?.objectValue?["name"] == .string("Battery Level"))
        #expect(h.event(read + 1)?.summary.hasPrefix("ATT Read Response: handle 0x0012 Battery Level (Battery): 90%") == true)
        let c = h.layer(cccd, "gatt")
        #expect(c?["descriptor"]?.objectValue?["name"] == .string("Client Characteristic Configuration"))
        #expect(c?["characteristic"]?.objectValue?["uuid"] == .string("2A19"))
        let lines = db.textLines()
        #expect(lines.contains("  Primary service 0x0010–0x0014: 180F Battery"))
        #expect(lines.contains("    Characteristic 0x0011, value 0x0012: 2A19 Battery Level [read, notify]"))
        #expect(lines.contains("      Descriptor 0x0013: 2902 Client Characteristic Configuration"))
    }

    @Test("Find By Type Value and include discovery")
    func findByTypeAndIncludes() {
        let h = TraceHarness()
        h.att([0x06] + le(1) + le(0xFFFF) + le(0x2800) + le(0x180D), .hostToController)
        h.att([0x07] + le(0x20) + le(0x30), .controllerToHost)
        h.att([0x08] + le(0x20) + le(0x30) + le(0x2802), .hostToController)
        h.att([0x09, 0x08] + le(0x21) + le(0x40) + le(0x45) + le(0x180F), .controllerToHost)
        h.finish()
        var db = h.att.databases["handle-0x0040"]!
        #expect(db.orderedServices().first?.uuid == BLEUUID(UInt16(0x180D)))
        #expect(db.includes[0x21] == GATTInclude(handle: 0x21, start: 0x40, end: 0x45, uuid: BLEUUID(UInt16(0x180F))))
        #expect(db.locate(0x21).role == .include)
    }

    @Test("the database survives a reconnection of the same peer; MTU is per connection")
    func reconnection() {
        let h = TraceHarness()
        h.connect(0x0040, peer: Self.peer)
        h.att([0x02] + le(247), .hostToController)
        let m = h.att([0x03] + le(185), .controllerToHost)
        Self.discover(h)
        h.disconnect(0x0040)
        h.connect(0x0041, peer: Self.peer)
        let n = h.att([0x1B] + le(0x12) + [0x33], .controllerToHost, handle: 0x0041)
        h.finish()
        #expect(h.layer(m, "att")?["att_mtu"] == .int(185))
        #expect(h.layer(n, "gatt")?["characteristic"]?.objectValue?["name"] == .string("Battery Level"))
        #expect(h.event(n)?.connection == 2)
        let mtu = h.att.mtuList
        #expect(mtu.first(where: { $0.connection == 1 })?.mtu == 185)
        #expect(mtu.first(where: { $0.connection == 2 })?.mtu == 23)
    }

    @Test("the next connection, given the closed one's state to reuse, keeps nothing of it but the databases")
    func reusedState() {
        let h = TraceHarness()
        h.connect(0x0040, peer: Self.peer)
        h.att([0x02] + le(247), .hostToController)
        h.att([0x03] + le(185), .controllerToHost)
        Self.discover(h)
        // Left open when the link goes: a full Read Response a Read Blob would continue, a queued write and a request.
        h.att([0x0A] + le(0x20), .hostToController)
        h.att([0x0B] + Array(repeating: UInt8(0x41), count: 22), .controllerToHost)
        h.att([0x16] + le(0x12) + le(0) + [1, 2], .hostToController)
        h.att([0x17] + le(0x12) + le(0) + [1, 2], .controllerToHost)
        let left = h.att([0x0A] + le(0x12), .hostToController)
        h.disconnect(0x0040)
        // Another peer on the next connection: its state is the first one's, reset.
        h.connect(0x0041, peer: 0xC0FFEE654321)
        let blob = h.att([0x0C] + le(0x20) + le(22), .hostToController, handle: 0x0041)
        let blobResponse = h.att([0x0D, 0x42], .controllerToHost, handle: 0x0041)
        let exec = h.att([0x18, 0x01], .hostToController, handle: 0x0041)
        h.att([0x19], .controllerToHost, handle: 0x0041)
        let n = h.att([0x1B] + le(0x12) + [0x33], .controllerToHost, handle: 0x0041)
        // The first peer again: its database is still known.
        h.disconnect(0x0041)
        h.connect(0x0042, peer: Self.peer)
        let again = h.att([0x1B] + le(0x12) + [0x34], .controllerToHost, handle: 0x0042)
        h.finish()
        #expect(h.layer(left, "att")?["unanswered"] == .string("the connection closed before any response"))
        #expect(h.layer(blob, "att")?["response"] == .int(blobResponse))
        #expect(h.layer(blobResponse, "att")?["long_value"] == nil)
        #expect(h.layer(exec, "att")?["writes"] == .list([]))
        #expect(h.layer(n, "gatt")?["characteristic"] == nil)
        #expect(h.layer(again, "gatt")?["characteristic"]?.objectValue?["name"] == .string("Battery Level"))
        #expect(h.att.mtuList.first(where: { $0.connection == 1 })?.mtu == 185)
        #expect(h.att.mtuList.first(where: { $0.connection == 2 })?.mtu == 23)
    }

    @Test("Read Blob sequences reassemble the long value")
    func readBlob() {
        let h = TraceHarness()
        let first = Array(repeating: UInt8(0x41), count: 22)
        h.att([0x0A] + le(0x20), .hostToController)
        h.att([0x0B] + first, .controllerToHost)
        h.att([0x0C] + le(0x20) + le(22), .hostToController)
        h.att([0x0D] + first, .controllerToHost)
        h.att([0x0C] + le(0x20) + le(44), .hostToController)
        let last = h.att([0x0D, 0x42, 0x43], .controllerToHost)
        h.finish()
        let a = h.layer(last, "att")
        #expect(a?["long_value"] == .hex(first + first + [0x42, 0x43]))
        #expect(a?["long_value_offset"] == .int(44))
        #expect(a?["handle"] == .int(0x20))
    }

    @Test("a Read Blob continues any Read Response the smallest ATT_MTU would fill, whatever the bearer's MTU")
    func readBlobAfterAFullResponse() {
        let h = TraceHarness()
        // ATT_MTU 100: a 30-byte response is not full on this bearer, but may be on another (an EATT channel's
        // MTU): it is kept, and the Read Blob continues it.
        h.att([0x02] + le(100), .hostToController)
        h.att([0x03] + le(100), .controllerToHost)
        let first = Array(repeating: UInt8(0x41), count: 30)
        h.att([0x0A] + le(0x20), .hostToController)
        h.att([0x0B] + first, .controllerToHost)
        h.att([0x0C] + le(0x20) + le(30), .hostToController)
        let blob = h.att([0x0D, 0x42], .controllerToHost)
        // A 21-byte response is the whole value on every bearer: nothing is kept for a Read Blob.
        h.att([0x0A] + le(0x21), .hostToController)
        h.att([0x0B] + Array(repeating: UInt8(0x43), count: 21), .controllerToHost)
        h.att([0x0C] + le(0x21) + le(21), .hostToController)
        let late = h.att([0x0D, 0x44], .controllerToHost)
        h.finish()
        #expect(h.layer(blob, "att")?["long_value"] == .hex(first + [0x42]))
        #expect(h.layer(late, "att")?["long_value"] == nil)
    }

    @Test("Prepare Write / Execute Write sequences reassemble; a cancel discards")
    func queuedWrites() {
        let h = TraceHarness()
        h.att([0x16] + le(0x20) + le(0) + [1, 2, 3], .hostToController)
        h.att([0x17] + le(0x20) + le(0) + [1, 2, 3], .controllerToHost)
        h.att([0x16] + le(0x20) + le(3) + [4, 5], .hostToController)
        h.att([0x17] + le(0x20) + le(3) + [4, 5], .controllerToHost)
        let exec = h.att([0x18, 0x01], .hostToController)
        let done = h.att([0x19], .controllerToHost)
        h.att([0x16] + le(0x21) + le(0) + [9], .hostToController)
        h.att([0x17] + le(0x21) + le(0) + [9], .controllerToHost)
        let cancel = h.att([0x18, 0x00], .hostToController)
        h.finish()
        #expect(h.layer(exec, "att")?["writes"] == .list([.object(["handle": .int(0x20), "value": .hex([1, 2, 3, 4, 5])])]))
        #expect(h.layer(exec, "att")?["response"] == .int(done))
        #expect(h.layer(cancel, "att")?["writes"] == nil)
    }

    @Test("Multiple Handle Value Notification and Read Multiple Variable name each handle")
    func multi() {
        let h = TraceHarness()
        Self.discover(h)
        let n = h.att([0x23] + le(0x12) + le(1) + [0x50] + le(3) + le(2) + [0x41, 0x42], .controllerToHost)
        h.att([0x20] + le(0x12) + le(3), .hostToController)
        let r = h.att([0x21] + le(1) + [0x51] + le(1) + [0x43], .controllerToHost)
        h.finish()
        guard case let .list(entries)? = h.layer(n, "att")?["entries"], entries.count == 2,
              case let .object(e0) = entries[0] else { Issue.record("entries"); return }
        #expect(e0["value"] == .hex([0x50]))
        #expect(e0["gatt"]?.objectValue?["characteristic"]?.objectValue?["name"] == .string("Battery Level"))
        guard case let .list(values)? = h.layer(r, "att")?["values"], case let .object(v1) = values[1] else { Issue.record("values"); return }
        #expect(v1["handle"] == .int(3) && v1["value"] == .hex([0x43]))
        #expect(v1["gatt"]?.objectValue?["characteristic"]?.objectValue?["name"] == .string("Device Name"))
    }

    @Test("a malformed PDU keeps its opcode and is marked")
    func malformed() {
        let h = TraceHarness()
        let m = h.att([0x0A, 0x03], .hostToController)
        h.finish()
        #expect(h.event(m)?.malformed?.contains("truncated") == true)
        #expect(h.layer(m, "att")?["opcode"] == .int(0x0A))
    }

    @Test("a database exported as JSON is used by --gatt for a capture without discovery")
    func gattRoundTrip() throws {
        let a = TraceHarness()
        a.connect(0x0040, peer: Self.peer)
        Self.discover(a)
        a.finish()
        var dbs = a.att.exportDatabases()
        #expect(dbs.count == 1)
        var root = Fields()
        root.add("devices", .list([.object(dbs[0].jsonFields())]))
        let json = Self.encode(.object(root))
        let set = try GATTDatabaseSet.parse(json: Array(json.utf8), source: "test.json")
        var options = DecodeOptions()
        options.gatt = set
        // A different address: the file's only device is used as the fallback.
        let b = TraceHarness(options: options)
        b.connect(0x0040, peer: 0x112233445566)
        let n = b.att([0x1B] + le(0x12) + [0x10], .controllerToHost)
        b.finish()
        #expect(b.layer(n, "gatt")?["characteristic"]?.objectValue?["name"] == .string("Battery Level"))
        var loaded = set.databases.values.first!
        #expect(loaded.textLines().dropFirst() == dbs[0].textLines().dropFirst())
    }

    /// Minimal JSON text of a FieldValue for the round trip (hex as strings, like the renderer).
    static func encode(_ v: FieldValue) -> String {
        switch v {
        case let .int(i): return String(i)
        case let .double(d): return String(d)
        case let .string(s): return "\"" + s + "\""
        case let .bool(b): return b ? "true" : "false"
        case let .hex(b): return "\"" + Hex.string(b) + "\""
        case let .list(items): return "[" + items.map(encode).joined(separator: ",") + "]"
        case let .object(f): return "{" + f.items.map { "\"\($0.0)\":" + encode($0.1) }.joined(separator: ",") + "}"
        case .null: return "null"
        }
    }
}
