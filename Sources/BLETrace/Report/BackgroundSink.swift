import Foundation

/// Renders on a second thread: the decoding thread hands events over in batches and goes on decoding while
/// the wrapped sink formats and writes them, in the same order. Only the wrapped sink runs on that thread, so
/// it must not share state with the pipeline or with sinks in front of it (filters, for instance, update the
/// text renderer's time origin: wrap renderers only when no filter is in front).
///
/// Memory stays bounded: at most `maxBatches` batches of `EventBatch.capacity` events wait; the decoder waits
/// when the writer falls behind. Written batches come back to the decoding thread, which frees their events (it
/// allocated them: freed on the writer thread, the allocator's and the reference counts' memory moved between
/// cores and the threaded run was slower than one thread) and fills them again. `end` waits for every event to
/// be written, then calls the wrapped sink's `end` on the caller's thread.
public final class BackgroundSink: EventSink, @unchecked Sendable {
    let next: EventSink
    static let maxBatches = 8

    let condition = NSCondition()
    // Guarded by `condition` (each access is under its lock: no run-time exclusivity checks, which cost about
    // 120 instructions an event when the batch being filled was checked on every event).
    /// Batches handed over and not yet written.
    @exclusivity(unchecked) var waiting: [EventBatch] = []
    /// Batches written and handed back, to be emptied and filled again by the decoding thread.
    @exclusivity(unchecked) var written: [EventBatch] = []
    @exclusivity(unchecked) var closed = false
    let done = DispatchSemaphore(value: 0)
    // The decoding thread's alone.
    @exclusivity(unchecked) var started = false
    /// The batch being filled.
    @exclusivity(unchecked) var current: EventBatch
    /// `current`'s events and how many are in: read for every event without the batch being retained.
    @exclusivity(unchecked) var slots: UnsafeMutablePointer<TraceEvent>
    @exclusivity(unchecked) var filled = 0
    /// Written batches, emptied, for the next ones.
    @exclusivity(unchecked) var spare: [EventBatch] = []

    public init(next: EventSink) {
        self.next = next
        current = EventBatch()
        slots = current.events
    }

    /// Events filled and never handed over (no `end`) are freed with their batch.
    deinit { current.count = filled }

    public var readsSummaries: Bool { next.readsSummaries }

    public func begin(_ capture: CaptureInfo) {
        next.begin(capture)
        // The `--uuids` names in force for the run (a task-local value, which a new thread does not inherit): an
        // advertised service's name is looked up as its event is written.
        let names = UserUUIDNames.current
        let worker = Thread { [self] in UserUUIDNames.with(names) { self.drain() } }
        worker.stackSize = 8 << 20
        worker.start()
        started = true
    }

    public func event(_ e: TraceEvent) {
        var e = e
        event(taking: &e)
    }

    /// The event moved into the batch, not copied (the pipeline drops what it lent).
    public func event(taking e: inout TraceEvent) {
        EventBatch.move(&e, to: slots + filled)
        filled &+= 1
        if filled == EventBatch.capacity { handOver() }
    }

    public func end(_ summary: Summary) {
        if started {
            handOver()
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
            done.wait()
            started = false
            // The writer has stopped: the last batches are emptied on this thread.
            for b in written { b.removeAll() }
            written.removeAll()
            spare.removeAll()
        }
        next.end(summary)
    }

    func handOver() {
        guard filled > 0 else { return }
        let batch = current
        batch.count = filled
        condition.lock()
        while waiting.count >= BackgroundSink.maxBatches { condition.wait() }
        waiting.append(batch)
        let back = written
        written = []
        condition.broadcast()
        condition.unlock()
        // Emptied here, outside the lock: on the decoding thread, which allocated their events.
        for b in back { b.removeAll() }
        spare.append(contentsOf: back)
        current = spare.popLast() ?? EventBatch()
        slots = current.events
        filled = 0
    }

    /// The writer thread: takes batches in order and hands each event to the wrapped sink.
    func drain() {
        while true {
            condition.lock()
            while waiting.isEmpty && !closed { condition.wait() }
            if waiting.isEmpty {
                condition.unlock()
                break
            }
            let batch = waiting.removeFirst()
            condition.broadcast()
            condition.unlock()
            // The batch is this thread's alone until it is handed back: each event is lent to the wrapped sink in
            // place.
            let events = batch.events
            for i in 0..<batch.count { next.event(taking: &events[i]) }
            condition.lock()
            written.append(batch)
            condition.unlock()
        }
        done.signal()
    }
}

/// Events handed from one thread to the other, in memory of their own that is made once and filled again: an
/// event moves in with one copy of its bytes, and a batch costs no allocation after the first few.
final class EventBatch {
    static let capacity = 512
    let events = UnsafeMutablePointer<TraceEvent>.allocate(capacity: EventBatch.capacity)
    /// Events `0..<count` are initialized (set when the batch is handed over).
    var count = 0

    /// Moves `e` to `slot` (not initialized), leaving a placeholder with its record, time and direction.
    @inline(__always) static func move(_ e: inout TraceEvent, to slot: UnsafeMutablePointer<TraceEvent>) {
        let placeholder = TraceEvent(record: e.record, timestamp: e.timestamp, direction: e.direction, body: .empty)
        withUnsafeMutablePointer(to: &e) { p in
            slot.moveInitialize(from: p, count: 1)
            p.initialize(to: placeholder)
        }
    }

    /// Frees the events, keeping the memory.
    func removeAll() {
        events.deinitialize(count: count)
        count = 0
    }

    deinit {
        events.deinitialize(count: count)
        events.deallocate()
    }
}
