import Testing
@testable import BLETrace

/// `GATTRenderMemo` (issue #38): an output copies a GATT location's text and JSON from its memo, and what it copies
/// is byte for byte what naming the location gives, whatever the order of handles and locations (slots shared by
/// handles 256 apart, locations changing at a handle, texts too long to keep).
@Suite struct GATTRenderMemoTests {
    static let battery = GATTService(start: 0x000C, end: 0x000F, uuid: BLEUUID(UInt16(0x180F)), primary: true)
    static let level = GATTCharacteristic(handle: 0x000D, properties: 0x12, valueHandle: 0x000E, uuid: BLEUUID(UInt16(0x2A19)))
    static let vendor = BLEUUID(high: 0x1234_5678_9ABC_DEF0, low: 0x0FED_CBA9_8765_4321)

    /// Locations as a database names them, including ones that share a slot (0x000E and 0x010E) or differ in one
    /// member only, and one whose text and JSON exceed the memo's room.
    static var locations: [(UInt16, GATTLocation)] {
        let value = GATTLocation(service: battery, characteristic: level, descriptor: nil, role: .value)
        let cccd = GATTLocation(service: battery, characteristic: level,
                                descriptor: GATTDescriptor(handle: 0x000F, uuid: BLEUUID(UInt16(0x2902))), role: .descriptor)
        var otherService = value
        otherService.service?.end = 0x0020
        var named = value
        named.characteristic?.uuid = vendor
        var long = cccd
        long.service?.uuid = vendor
        long.characteristic?.uuid = vendor
        long.descriptor?.uuid = vendor
        let declaration = GATTLocation(service: battery, characteristic: nil, descriptor: nil, role: .serviceDeclaration)
        return [(0x000E, value), (0x000F, cccd), (0x010E, value), (0x000E, otherService), (0x000E, named),
                (0x000F, long), (0x000C, declaration), (0x000E, value), (0x010E, cccd), (0x000F, cccd), (0x000F, long)]
    }

    @Test("the timeline's handle text from the memo equals the text made without one")
    func text() {
        let memo = GATTRenderMemo()
        var withMemo = TextBytes()
        withMemo.memo = memo
        // Twice over: the second pass copies what the first kept.
        for (h, loc) in Self.locations + Self.locations {
            withMemo.removeAll()
            GATTContextRender.writeHandle(h, loc, into: &withMemo)
            var plain = TextBytes()
            GATTContextRender.writeHandle(h, loc, into: &plain)
            #expect(withMemo.string == plain.string)
            #expect(plain.string.hasPrefix("handle "))
        }
        // A kept text is found again at its handle only; a text past the room is not kept, and its slot is emptied.
        let cccd = Self.locations[1].1
        GATTContextRender.writeHandle(0x000F, cccd, into: &withMemo)
        #expect(memo.text.find(0x000F, cccd, byHandle: true) != nil)
        #expect(memo.text.find(0x010F, cccd, byHandle: true) == nil)
        let long = Self.locations[5]
        var plain = TextBytes()
        GATTContextRender.writeHandle(long.0, long.1, into: &plain)
        #expect(plain.count > memo.text.room)
        GATTContextRender.writeHandle(long.0, long.1, into: &withMemo)
        #expect(memo.text.find(long.0, long.1, byHandle: true) == nil)
        #expect(memo.text.find(0x000F, cccd, byHandle: true) == nil)
    }

    @Test("JSON's gatt member from the memo equals the member written field by field")
    func json() {
        let store = ByteStore()
        for (_, loc) in Self.locations + Self.locations {
            store.count = 0
            var j = JSONBytes(writingInto: store)
            j.beginObject()
            j.field("x", 1)
            GATTContextRender.writeMember(loc, into: &j)
            j.endObject()
            let memoized = store.bytes
            let fresh = ByteStore()
            var k = JSONBytes(writingInto: fresh)
            k.beginObject()
            k.field("x", 1)
            k.object("gatt") { GATTContextRender.writeFields(loc, into: &$0) }
            k.endObject()
            #expect(String(decoding: memoized, as: UTF8.self) == String(decoding: fresh.bytes, as: UTF8.self))
        }
        // Slots are chosen by the characteristic's handle: the last location written there is kept, and the
        // one before it with the same handle is made again.
        let last = Self.locations[Self.locations.count - 1].1
        #expect(store.gattMemo.json.find(0x000D, last, byHandle: false) != nil)
        #expect(store.gattMemo.json.find(0x000D, Self.locations[0].1, byHandle: false) == nil)
    }

    @Test("a location given as its shared entry: the same text and JSON, found by reference or by value")
    func byReference() {
        let memo = GATTRenderMemo()
        var withMemo = TextBytes()
        withMemo.memo = memo
        let store = ByteStore()
        // Each location as a new entry, twice over: the second pass finds the first pass's entries by value.
        for (h, loc) in Self.locations + Self.locations {
            let ref = GATTLocationRef(loc)
            for _ in 0..<2 {
                withMemo.removeAll()
                GATTContextRender.writeHandle(h, ref: ref, into: &withMemo)
                var plain = TextBytes()
                GATTContextRender.writeHandle(h, loc, into: &plain)
                #expect(withMemo.string == plain.string)

                store.count = 0
                var j = JSONBytes(writingInto: store)
                j.beginObject()
                GATTContextRender.writeMember(ref: ref, into: &j)
                j.endObject()
                let fresh = ByteStore()
                var k = JSONBytes(writingInto: fresh)
                k.beginObject()
                GATTContextRender.writeMember(loc, into: &k)
                k.endObject()
                #expect(String(decoding: store.bytes, as: UTF8.self) == String(decoding: fresh.bytes, as: UTF8.self))
            }
        }
        // The entry kept in a slot is found by reference; another entry is found only when its location is equal.
        let (h, cccd) = Self.locations[1]
        let kept = GATTLocationRef(cccd)
        GATTContextRender.writeHandle(h, ref: kept, into: &withMemo)
        #expect(memo.text.find(h, ref: kept, byHandle: true) != nil)
        // Another entry of the same location is found by value, and the slot keeps that entry from then on.
        let remade = GATTLocationRef(cccd)
        #expect(memo.text.find(h, ref: remade, byHandle: true) != nil)
        #expect(memo.text.refs[GATTRenderMemo.Table.slot(h)] === remade)
        #expect(memo.text.find(h, ref: GATTLocationRef(Self.locations[5].1), byHandle: true) == nil)
        // A text past the room empties its slot: the entry kept there before is not found by reference either.
        let long = GATTLocationRef(Self.locations[5].1)
        GATTContextRender.writeHandle(Self.locations[5].0, ref: long, into: &withMemo)
        #expect(memo.text.find(h, ref: kept, byHandle: true) == nil)
        #expect(memo.text.find(h, ref: long, byHandle: true) == nil)
    }
}
