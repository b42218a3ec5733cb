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
}
