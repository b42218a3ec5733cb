/// A read-only table of names keyed by a 16-bit assigned number (a UUID, a company identifier), filled once from
/// a generated list and read whenever an event names a service, a characteristic or a company. Open addressing
/// with a multiplicative hash: a lookup is a multiplication, a shift and a comparison or two, where a `Dictionary`
/// first runs its seeded hash function over the key.
struct NameTable: Sendable {
    private struct Slot: Sendable {
        var key: UInt16 = 0
        var used = false
        var name = ""
    }

    private let slots: [Slot]
    /// How far the product is shifted down: 32 minus the bits of the slot count.
    private let shift: UInt32
    /// How many names the table holds.
    let count: Int

    /// The table of `names`, at most half full.
    init(_ names: [UInt16: String]) {
        var size = 8
        while size < names.count * 2 { size *= 2 }
        var slots = [Slot](repeating: Slot(), count: size)
        let shift = UInt32(32 - size.trailingZeroBitCount)
        for (key, name) in names {
            var i = NameTable.start(key, shift)
            while slots[i].used { i = (i + 1) & (size - 1) }
            slots[i] = Slot(key: key, used: true, name: name)
        }
        self.slots = slots
        self.shift = shift
        self.count = names.count
    }

    @inline(__always) private static func start(_ key: UInt16, _ shift: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt32(key) &* 0x9E37_79B1) >> shift)
    }

    subscript(_ key: UInt16) -> String? {
        let mask = slots.count - 1
        var i = NameTable.start(key, shift)
        while slots[i].used {
            if slots[i].key == key { return slots[i].name }
            i = (i + 1) & mask
        }
        return nil
    }
}
