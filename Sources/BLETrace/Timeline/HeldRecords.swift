/// The records whose events the pipeline holds (`Pipeline.hold`), in ascending order. A record is held while
/// it is being decoded, so it is almost always the largest: insertion appends, and the oldest hold, the only
/// one the queue's head can be, is the first. A handful at a time: found by a binary search, without hashing.
struct HeldRecords {
    private(set) var records: [Int] = []

    var isEmpty: Bool { records.isEmpty }
    var first: Int? { records.first }

    /// The position of `record`, or where it would go.
    private func position(_ record: Int) -> Int {
        var lo = 0, hi = records.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if records[mid] < record { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    mutating func insert(_ record: Int) {
        if let last = records.last, last >= record {
            let i = position(record)
            if i < records.count && records[i] == record { return }
            records.insert(record, at: i)
        } else {
            records.append(record)
        }
    }

    func contains(_ record: Int) -> Bool {
        let i = position(record)
        return i < records.count && records[i] == record
    }

    /// Removes `record`; false when it was not held.
    @discardableResult mutating func remove(_ record: Int) -> Bool {
        if records.first == record {
            records.removeFirst()
            return true
        }
        let i = position(record)
        guard i < records.count && records[i] == record else { return false }
        records.remove(at: i)
        return true
    }

    /// Forgets holds on records before `record` (their events have left already).
    mutating func dropBefore(_ record: Int) {
        guard let f = records.first, f < record else { return }
        records.removeFirst(position(record))
    }

    mutating func removeAll() { records.removeAll(keepingCapacity: true) }
}
