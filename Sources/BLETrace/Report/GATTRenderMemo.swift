/// The GATT locations one output wrote, as the bytes it wrote for them: the timeline's "handle 0x000E Battery
/// Level (Battery)" by handle and location, and JSON's `gatt` object by location. A capture's events name few
/// locations, each many times, and each naming looks its UUIDs up in the SIG's tables.
///
/// 256 slots per table, chosen by a handle; a slot holds the last location made in it, compared by value (a
/// location is a few numbers and UUIDs), or first by reference when the caller has the database's shared entry
/// (`GATTLocationRef`, immutable: the same entry is the same location), and a location that comes back after
/// another took its slot is made again. The bytes go in a block of fixed room per slot, made once: a text longer
/// than the room is not kept. So the memo stays small whatever the capture, and keeping a text allocates nothing.
/// The names are those of the run the output belongs to (`--uuids` names included).
final class GATTRenderMemo {
    static let slots = 256

    struct Table: ~Copyable {
        /// Bytes of room per slot.
        let room: Int
        // Made on first use: an output that names no location makes none of them.
        var locations: [GATTLocation?] = []
        /// The shared entry each slot's location was made from, when the caller gave it; set with `locations`.
        var refs: [GATTLocationRef?] = []
        var handles: [UInt16] = []
        var lengths: [Int] = []
        var block: UnsafeMutablePointer<UInt8>?

        init(room: Int) { self.room = room }

        deinit { block?.deallocate() }

        @inline(__always) static func slot(_ handle: UInt16) -> Int { Int(handle) & (GATTRenderMemo.slots &- 1) }

        /// The bytes made for `location` (and `handle`, when `byHandle`), if its slot holds them. `ref`, when given,
        /// is the location's shared entry: the entry the slot was made from matches without reading the location.
        /// A location found by value with a shared entry the slot does not hold takes that entry: the database
        /// makes new entries for the same locations after a connection closes, and they are then found by reference.
        @inline(__always) mutating func find(_ handle: UInt16, _ location: @autoclosure () -> GATTLocation,
                                             ref: GATTLocationRef? = nil, byHandle: Bool) -> UnsafeBufferPointer<UInt8>? {
            guard let block else { return nil }
            let i = Table.slot(handle)
            guard !byHandle || handles[i] == handle else { return nil }
            if ref == nil || refs[i] !== ref {
                guard locations[i] == location() else { return nil }
                if let ref { refs[i] = ref }
            }
            return UnsafeBufferPointer(start: block + i &* room, count: lengths[i])
        }

        /// `find` of a location given as its shared entry (its location read only when the entry is not the slot's).
        @inline(__always) mutating func find(_ handle: UInt16, ref: GATTLocationRef, byHandle: Bool) -> UnsafeBufferPointer<UInt8>? {
            find(handle, ref.location, ref: ref, byHandle: byHandle)
        }

        mutating func remember(_ handle: UInt16, _ location: GATTLocation, _ made: UnsafeBufferPointer<UInt8>,
                               ref: GATTLocationRef? = nil) {
            let i = Table.slot(handle)
            if block == nil {
                locations = [GATTLocation?](repeating: nil, count: GATTRenderMemo.slots)
                refs = [GATTLocationRef?](repeating: nil, count: GATTRenderMemo.slots)
                handles = [UInt16](repeating: 0, count: GATTRenderMemo.slots)
                lengths = [Int](repeating: 0, count: GATTRenderMemo.slots)
                block = .allocate(capacity: GATTRenderMemo.slots &* room)
            }
            guard let block, let src = made.baseAddress, made.count <= room else {
                locations[i] = nil
                refs[i] = nil
                return
            }
            (block + i &* room).update(from: src, count: made.count)
            locations[i] = location
            refs[i] = ref
            handles[i] = handle
            lengths[i] = made.count
        }
    }

    /// `GATTContextRender.writeHandle` texts, by handle and location.
    @exclusivity(unchecked) var text = Table(room: 128)
    /// JSON `gatt` objects (`GATTContextRender.writeFields` in braces), by location.
    @exclusivity(unchecked) var json = Table(room: 512)
}

extension JSONBytes {
    /// `gattMember` of a location given as the database's shared entry.
    public mutating func gattMember(ref: GATTLocationRef) { gattMember(ref.location, ref: ref) }

    /// The `gatt` member of a location that says something, copied from the output's memo when it was made before.
    public mutating func gattMember(_ location: GATTLocation) { gattMember(location, ref: nil) }

    /// `gattMember`, looking the memo up by the shared entry when there is one (then by value), else by value.
    mutating func gattMember(_ location: GATTLocation, ref: GATTLocationRef?) {
        key("gatt")
        let memo = store.gattMemo
        let h = location.characteristic?.handle ?? location.descriptor?.handle ?? location.service?.start ?? 0
        if let made = memo.json.find(h, location, ref: ref, byHandle: false) {
            store.put(made)
            return
        }
        let start = store.count
        beginObject()
        GATTContextRender.writeFields(location, into: &self)
        endObject()
        store.withBytes { memo.json.remember(h, location, UnsafeBufferPointer(rebasing: $0[start...]), ref: ref) }
    }
}
