import Foundation

/// Renders on a second thread: the decoding thread hands events over in batches and goes on decoding while
/// the wrapped sink formats and writes them, in the same order. Only the wrapped sink runs on that thread, so
/// it must not share state with the pipeline or with sinks in front of it (filters, for instance, update the
/// text renderer's time origin: wrap renderers only when no filter is in front).
///
/// Memory stays bounded: at most `maxBatches` batches of `batchSize` events wait; the decoder waits when the
/// writer falls behind. `end` waits for every event to be written, then calls the wrapped sink's `end` on the
/// caller's thread.
public final class BackgroundSink: EventSink, @unchecked Sendable {
    let next: EventSink
    static let batchSize = 512
    static let maxBatches = 8

    let condition = NSCondition()
    /// Batches handed over and not yet written (guarded by `condition`).
    var waiting: [[TraceEvent]] = []
    /// Batches written and handed back, to be freed by the thread that allocated them (guarded by `condition`).
    var written: [[TraceEvent]] = []
    var closed = false
    let done = DispatchSemaphore(value: 0)
    var started = false
    /// The batch being filled by the decoding thread.
    var current: [TraceEvent] = []

    public init(next: EventSink) {
        self.next = next
        current.reserveCapacity(BackgroundSink.batchSize)
    }

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
        current.append(e)
        if current.count >= BackgroundSink.batchSize { handOver() }
    }

    /// The event moved into the batch, not copied (the pipeline drops what it lent).
    public func event(taking e: inout TraceEvent) {
        current.append(moveOut(&e, leaving: TraceEvent(record: e.record, timestamp: e.timestamp, direction: e.direction, body: .empty)))
        if current.count >= BackgroundSink.batchSize { handOver() }
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
            written.removeAll()
        }
        next.end(summary)
    }

    func handOver() {
        guard !current.isEmpty else { return }
        let batch = current
        current = []
        current.reserveCapacity(BackgroundSink.batchSize)
        condition.lock()
        while waiting.count >= BackgroundSink.maxBatches { condition.wait() }
        waiting.append(batch)
        let freed = written
        written = []
        condition.broadcast()
        condition.unlock()
        // Freed here: on the decoding thread, which allocated them, and outside the lock.
        withExtendedLifetime(freed) {}
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
            var batch = waiting.removeFirst()
            condition.broadcast()
            condition.unlock()
            // The batch is this thread's alone: each event is lent to the wrapped sink in place.
            for i in batch.indices { next.event(taking: &batch[i]) }
            condition.lock()
            written.append(batch)
            condition.unlock()
        }
        done.signal()
    }
}
