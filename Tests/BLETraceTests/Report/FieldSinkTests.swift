import Testing
@testable import BLETrace

@Suite("Field sinks")
struct FieldSinkTests {
    /// Writes one nested shape with every kind of value.
    func write<S: FieldSink>(_ s: inout S) {
        s.field("a", 1)
        s.object("o") { s in
            s.field("s", "x\"y\n")
            s.list("l") { s in
                s.int(1)
                s.beginObject(); s.field("k", true); s.endObject()
                s.beginList(); s.endList()
                s.hex([0xAB, 0x01][...])
                s.null()
            }
            s.object("empty") { _ in }
        }
        s.field("h", hex: [0x00, 0xFF])
        s.key("d"); s.double(1.5)
    }

    @Test("JSONBytes writes what FieldsBuilder builds, commas and escapes included")
    func sameShape() {
        var j = JSONBytes()
        j.beginObject()
        write(&j)
        j.endObject()
        let tree = FieldsBuilder.object { write(&$0) }
        let text = String(decoding: j.bytes, as: UTF8.self)
        #expect(text == JSONOut.text(.object(tree)))
        #expect(text == #"{"a":1,"o":{"s":"x\"y\n","l":[1,{"k":true},[],"ab01",null],"empty":{}},"h":"00ff","d":1.5}"#)
    }

    @Test("an event's layers are the same tree through JSON and through the builder")
    func eventLayers() {
        var e = TraceEvent(record: 3, timestamp: Timestamp(micros: 0), direction: .controllerToHost,
                           body: .aclFragment(ACLFragment(start: true, have: 10, expected: 30)), handle: 0x40)
        e.acl = ACLHeader(handle: 0x40, boundary: 2, broadcast: 0, length: 14)
        e.warning = "a warning"
        #expect(e.kind == .acl)
        #expect(e.summary == "ACL start fragment: 10 of 30 bytes of an L2CAP frame [a warning]")
        #expect(e.layer("acl")?["fragment"] == .string("start"))
        #expect(e.layer("warning")?["reason"] == .string("a warning"))
        let w = OutputWriter()
        EventJSON.write(e, to: w)
        #expect(w.text == JSONOut.text(.object(EventJSON.fields(e))))
    }

    /// Named UUIDs in every role, 16-bit and 128-bit, more of them than the memo has slots, each written several
    /// times in an order that makes the memo find, miss and replace entries.
    func writeUUIDs<S: FieldSink>(_ s: inout S) {
        let shorts: [UInt16] = [0x180F, 0x2A19, 0x2902, 0x180A, 0x2A29, 0x1800, 0x2A00, 0xFFF0, 0x2901, 0x1812]
        var uuids = shorts.map { BLEUUID($0) }
        for i in 0..<90 { uuids.append(BLEUUID(high: 0x1234_5678_0000_0000 | UInt64(i) << 16, low: 0x8000_0000_0000_0000 | UInt64(i))) }
        s.list("l") { s in
            for pass in 0..<3 {
                for (i, u) in uuids.enumerated() {
                    let role = [GATTNameRole.service, .characteristic, .descriptor][(i + pass) % 3]
                    s.beginObject()
                    s.uuidAndName(u, role: role)
                    s.field("n", i)
                    s.endObject()
                }
            }
        }
        s.field("name", JSONNames.attOpcodes[0x1B])
        s.field("role", JSONNames.attClient)
        s.field("event", JSONNames.hciEvents[0x3E])
    }

    @Test("JSON's memo of UUID names and its name tables write what FieldsBuilder builds")
    func uuidNamesAndNameTables() {
        var j = JSONBytes()
        j.beginObject()
        writeUUIDs(&j)
        j.endObject()
        let tree = FieldsBuilder.object { writeUUIDs(&$0) }
        let text = String(decoding: j.bytes, as: UTF8.self)
        #expect(text == JSONOut.text(.object(tree)))
        #expect(text.contains(#"{"uuid":"180F","name":"Battery","n":0}"#))
        #expect(text.contains(#"{"uuid":"2A19","name":"Battery Level","n":1}"#))
        #expect(text.hasSuffix(#""name":"Handle Value Notification","role":"client","event":"LE Meta"}"#))
    }

    @Test("A table name that needs escaping: JSON writes the escaped bytes, other sinks get the name itself")
    func escapedTableName() {
        let n = JSONName("say \"hi\" \\ — ü")
        #expect(n.string == "say \"hi\" \\ — ü")
        var j = JSONBytes()
        j.beginObject()
        j.field("name", n)
        j.endObject()
        let tree = FieldsBuilder.object { $0.field("name", n) }
        let text = String(decoding: j.bytes, as: UTF8.self)
        #expect(text == JSONOut.text(.object(tree)))
        #expect(text == #"{"name":"say \"hi\" \\ — ü"}"#)
    }
}

