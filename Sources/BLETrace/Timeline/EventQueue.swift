/// The events waiting behind a held one (`Pipeline.hold`), oldest first: a ring of slots that a record's event is
/// decoded into where it will wait. An event is a few hundred bytes; moved into an array and out of the variable it
/// was decoded in, it was copied twice. A slot is reserved before its event is decoded into it and counted
/// (`commit`) after: until then nothing the decoders reach (`Pipeline.update`, `Pipeline.drain`) sees it, and
/// delivering the events before it leaves it where it is (the ring only grows in `reserve`).
///
/// Used by the pipeline's thread alone. Bounded by `Pipeline.maxQueued` (past it the oldest hold is let go).
final class EventQueue {
    private var slots: UnsafeMutablePointer<TraceEvent>
    private var capacity: Int
    /// Where the oldest event is.
    private var head = 0
    /// Events counted: initialized, from `head` on.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(capacity, 1)
        slots = .allocate(capacity: self.capacity)
    }

    deinit {
        while count > 0 { removeFirst() }
        slots.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The slot of the event `i` places after the oldest (`i` may be `count`: the reserved slot).
    @inline(__always) private func slot(_ i: Int) -> UnsafeMutablePointer<TraceEvent> {
        var k = head &+ i
        if k >= capacity { k &-= capacity }
        return slots + k
    }

    /// The event `i` places after the oldest (0 ..< count).
    @inline(__always) subscript(_ i: Int) -> UnsafeMutablePointer<TraceEvent> {
        precondition(i >= 0 && i < count, "event queue index out of range")
        return slot(i)
    }

    /// The oldest event (the queue is not empty).
    @inline(__always) var first: UnsafeMutablePointer<TraceEvent> { self[0] }

    /// The uninitialized slot after the newest event, where the next event is decoded; the ring is grown first when
    /// it is full. The caller initializes it and then calls `commit`, before reserving again.
    func reserve() -> UnsafeMutablePointer<TraceEvent> {
        if count == capacity { grow() }
        return slot(count)
    }

    /// Counts the event the caller initialized in the reserved slot.
    @inline(__always) func commit() {
        precondition(count < capacity, "commit without a reserved slot")
        count &+= 1
    }

    /// Destroys the oldest event (it has been delivered). The head is not moved back when the queue empties: a
    /// slot reserved meanwhile stays the one after the newest event.
    func removeFirst() {
        precondition(count > 0, "removeFirst on an empty event queue")
        (slots + head).deinitialize(count: 1)
        head &+= 1
        if head == capacity { head = 0 }
        count &-= 1
    }

    /// Twice the slots, the events moved (not copied) to the front of the new ones in order.
    private func grow() {
        let bigger = capacity &* 2
        let new = UnsafeMutablePointer<TraceEvent>.allocate(capacity: bigger)
        let run = min(count, capacity &- head)
        new.moveInitialize(from: slots + head, count: run)
        if run < count { (new + run).moveInitialize(from: slots, count: count &- run) }
        slots.deallocate()
        slots = new
        capacity = bigger
        head = 0
    }
}
