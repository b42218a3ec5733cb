/// A growable array that one object owns and changes in place: an element is read and changed through its address.
/// An `Array` held by a class checks that its storage is not shared before every change (and a change to an element's
/// own array checks again); this one, a class itself, has nothing to check. Indices are checked. For per-link and
/// per-handle state changed on every packet (`LinkStatistics`, `DiagnosisContext`); used by one thread.
final class InPlaceArray<Element> {
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int

    init(capacity: Int = 4) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    subscript(_ i: Int) -> Element {
        @inline(__always) unsafeAddress {
            precondition(i >= 0 && i < count, "InPlaceArray index out of range")
            return UnsafePointer(base + i)
        }
        @inline(__always) unsafeMutableAddress {
            precondition(i >= 0 && i < count, "InPlaceArray index out of range")
            return base + i
        }
    }

    func append(_ element: Element) {
        if count == capacity { grow(to: capacity * 2) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Appends `n` copies of `element`.
    func append(repeating element: Element, count n: Int) {
        guard n > 0 else { return }
        if count + n > capacity { grow(to: max(capacity * 2, count + n)) }
        (base + count).initialize(repeating: element, count: n)
        count += n
    }

    private func grow(to n: Int) {
        let b = UnsafeMutablePointer<Element>.allocate(capacity: n)
        b.moveInitialize(from: base, count: count)
        base.deallocate()
        base = b
        capacity = n
    }

    /// The elements, copied into an array.
    var elements: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
