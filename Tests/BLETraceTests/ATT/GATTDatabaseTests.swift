import Testing
@testable import BLETrace

/// A GATT database keeps its ordered lists and lookups between changes and rebuilds them (in place) after one.
@Suite struct GATTDatabaseTests {
    @Test("ordered lists and locations follow each change, however they were used before it")
    func listsFollowChanges() {
        var db = GATTDatabase(device: "peer")
        db.addService(start: 0x10, end: 0x1F, uuid: BLEUUID(UInt16(0x180F)), primary: true)
        #expect(db.orderedServices().map(\.start) == [0x10])
        #expect(db.locate(0x12).service?.start == 0x10)
        // A list the caller keeps is not changed by the rebuild that follows a change.
        let kept = db.orderedServices()
        db.addService(start: 0x01, end: 0x0F, uuid: BLEUUID(UInt16(0x1800)), primary: true)
        #expect(kept.map(\.start) == [0x10])
        #expect(db.orderedServices().map(\.start) == [0x01, 0x10])
        #expect(db.locate(0x05).service?.start == 0x01)

        db.addCharacteristic(GATTCharacteristic(handle: 0x11, properties: 0x12, valueHandle: 0x12, uuid: BLEUUID(UInt16(0x2A19))))
        #expect(db.locate(0x12).role == .value)
        #expect(db.locate(0x13).role == .descriptor)
        // A declaration known only from Find Information, before the one discovered.
        db.addType(0x02, BLEUUID(UInt16(0x2803)))
        db.addType(0x03, BLEUUID(UInt16(0x2A00)))
        #expect(db.orderedCharacteristics().map(\.handle) == [0x02, 0x11])
        #expect(db.locate(0x03).characteristic?.uuid == BLEUUID(UInt16(0x2A00)))
        // A service declaration known only from Find Information ends before the next service starts.
        db.addType(0x20, BLEUUID(UInt16(0x2800)))
        #expect(db.orderedServices().map { [$0.start, $0.end] } == [[0x01, 0x0F], [0x10, 0x1F], [0x20, 0xFFFF]])

        // Dropping the caches keeps the content.
        db.dropCaches()
        #expect(db.orderedServices().count == 3)
        #expect(db.orderedCharacteristics().count == 2)
        #expect(db.locate(0x12).characteristic?.handle == 0x11)
    }

    @Test("a type from Find Information reorders a list only when it declares (or stops declaring) what it lists")
    func typesReorderOnlyTheirList() {
        var db = GATTDatabase(device: "peer")
        db.addService(start: 0x01, end: 0x0F, uuid: BLEUUID(UInt16(0x180F)), primary: true)
        db.addCharacteristic(GATTCharacteristic(handle: 0x02, properties: 0x12, valueHandle: 0x03, uuid: BLEUUID(UInt16(0x2A19))))
        #expect(db.orderedServices().count == 1)
        #expect(db.orderedCharacteristics().count == 1)
        // A descriptor's type: the lists stay, the lookup names the descriptor.
        db.addType(0x04, BLEUUID(UInt16(0x2902)))
        #expect(db.locate(0x04).descriptor?.uuid == BLEUUID(UInt16(0x2902)))
        #expect(db.orderedCharacteristics().map(\.handle) == [0x02])
        // The value's type after a declaration known only from Find Information, given before the declaration.
        db.addType(0x06, BLEUUID(UInt16(0x2A1A)))
        db.addType(0x05, BLEUUID(UInt16(0x2803)))
        #expect(db.orderedCharacteristics().map { [$0.handle, $0.valueHandle] } == [[0x02, 0x03], [0x05, 0x06]])
        #expect(db.locate(0x06).characteristic?.uuid == BLEUUID(UInt16(0x2A1A)))
        // ... and given again as another type: the derived characteristic's UUID follows.
        db.addType(0x06, BLEUUID(UInt16(0x2A1B)))
        #expect(db.orderedCharacteristics().last?.uuid == BLEUUID(UInt16(0x2A1B)))
        // A service declaration's type, then the same handle's type changed to something else.
        db.addType(0x10, BLEUUID(UInt16(0x2801)))
        #expect(db.orderedServices().map(\.start) == [0x01, 0x10])
        db.addType(0x10, BLEUUID(UInt16(0x2902)))
        #expect(db.orderedServices().map(\.start) == [0x01])
        db.addType(0x05, BLEUUID(UInt16(0x2902)))
        #expect(db.orderedCharacteristics().map(\.handle) == [0x02])
    }

    @Test("a lookup made before a change keeps its reference when the change left the location as it was")
    func referencesOutliveUnrelatedChanges() {
        var db = Self.batteryServer(service: 0x10...0x1F, declaration: 0x11)
        let battery = db.locateRef(0x12)
        let outside = db.locateRef(0x25)
        #expect(db.locateRef(0x12) === battery)
        // A service discovered elsewhere: the battery level's location is the same, the one it now covers is not.
        db.addService(start: 0x20, end: 0x2F, uuid: BLEUUID(UInt16(0x180A)), primary: true)
        #expect(db.locateRef(0x12) === battery)
        let moved = db.locateRef(0x25)
        #expect(moved !== outside)
        #expect(outside.location.service == nil)
        #expect(moved.location.service?.start == 0x20)
        // A characteristic declared after it: the battery level's location is the same; the handle that was the
        // battery level's descriptor is now the new characteristic's value, under a new reference, and the old
        // reference still tells what was known when it was made.
        let descriptor = db.locateRef(0x15)
        #expect(descriptor.location.role == .descriptor)
        db.addCharacteristic(GATTCharacteristic(handle: 0x14, properties: 0x02, valueHandle: 0x15, uuid: BLEUUID(UInt16(0x2A1A))))
        #expect(db.locateRef(0x12) === battery)
        let value = db.locateRef(0x15)
        #expect(value !== descriptor)
        #expect(value.location.role == .value)
        #expect(value.location.characteristic?.handle == 0x14)
        #expect(descriptor.location.role == .descriptor)
    }

    @Test("handles above the memo's index range (kept hashed) and a memo dropped and rebuilt locate as the low ones do")
    func highHandlesAndDroppedMemo() {
        var db = Self.batteryServer(service: 0x0400...0xFFFF, declaration: 0x3FF0)
        let level = db.locateRef(0x3FF1)
        #expect(level.location.role == .value && level.location.characteristic?.handle == 0x3FF0)
        #expect(db.locateRef(0x3FF1) === level)
        let low = db.locateRef(0x03FF)
        #expect(low.location.service == nil)
        // A change: a location that stayed keeps its reference on either side of the range; one that moved does not.
        db.addService(start: 0x0300, end: 0x03FF, uuid: BLEUUID(UInt16(0x180A)), primary: true)
        #expect(db.locateRef(0x3FF1) === level)
        #expect(db.locateRef(0x03FF) !== low && db.locateRef(0x03FF).location.service?.start == 0x0300)
        // Dropped (an idle server), the memo is made again with the same answers.
        db.dropCaches()
        #expect(db.locateRef(0x3FF1) !== level && db.locateRef(0x3FF1).location == level.location)
        #expect(db.locateRef(0x03FF).location.service?.start == 0x0300)
    }

    /// A server with a Battery service over `service` and its Battery Level declared at `declaration` (the value
    /// at the next handle).
    static func batteryServer(service: ClosedRange<UInt16>, declaration: UInt16) -> GATTDatabase {
        var db = GATTDatabase(device: "peer")
        db.addService(start: service.lowerBound, end: service.upperBound, uuid: BLEUUID(UInt16(0x180F)), primary: true)
        db.addCharacteristic(GATTCharacteristic(handle: declaration, properties: 0x12, valueHandle: declaration + 1,
                                                uuid: BLEUUID(UInt16(0x2A19))))
        return db
    }
}
