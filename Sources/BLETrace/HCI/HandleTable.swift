/// A map from connection handles to values, indexed by the 12-bit handle: a lookup is an array read, with no
/// hashing. Handles an event may carry beyond 12 bits (malformed input) go to a small dictionary. `values`
/// lists the occupied slots in the order they were filled (a removal moves the last one into its place).
struct HandleTable<Value> {
    private var slots: [Value?] = []
    /// Occupied handles below 4096, for `values` without a scan of every slot.
    private var occupied: [UInt16] = []
    private var high: [UInt16: Value] = [:]

    static var size: Int { 4096 }

    var isEmpty: Bool { occupied.isEmpty && high.isEmpty }
    var count: Int { occupied.count + high.count }

    subscript(_ handle: UInt16) -> Value? {
        @inline(__always) get {
            let i = Int(handle)
            guard i < slots.count else { return handle < 4096 ? nil : high[handle] }
            return slots[i]
        }
        set {
            guard handle < 4096 else {
                high[handle] = newValue
                return
            }
            let i = Int(handle)
            if slots.isEmpty {
                guard newValue != nil else { return }
                slots = [Value?](repeating: nil, count: HandleTable.size)
            }
            let had = slots[i] != nil
            slots[i] = newValue
            if newValue != nil, !had {
                occupied.append(handle)
            } else if newValue == nil, had, let k = occupied.firstIndex(of: handle) {
                occupied.swapAt(k, occupied.count - 1)
                occupied.removeLast()
            }
        }
    }

    /// The values, in the order their handles were filled (then any beyond 12 bits).
    var values: [Value] {
        var out: [Value] = []
        out.reserveCapacity(count)
        for h in occupied { if let v = slots[Int(h)] { out.append(v) } }
        for h in high.keys.sorted() { if let v = high[h] { out.append(v) } }
        return out
    }
}

extension HandleTable where Value: AnyObject {
    /// The object on `handle`, not retained: for a caller that uses it only while the table keeps it (see
    /// `ConnectionTracker.existingUnretained`).
    @inline(__always) func unretained(_ handle: UInt16) -> Unmanaged<Value>? {
        let i = Int(handle)
        guard i < slots.count else {
            guard handle >= 4096, let v = high[handle] else { return nil }
            return Unmanaged.passUnretained(v)
        }
        return slots.withUnsafeBufferPointer { p in
            guard let v = p[i] else { return nil }
            return Unmanaged.passUnretained(v)
        }
    }
}
