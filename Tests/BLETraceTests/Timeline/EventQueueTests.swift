import Testing
@testable import BLETrace

@Suite("The held events' queue: a ring decoded into in place")
struct EventQueueTests {
    static func put(_ q: EventQueue, _ record: Int) {
        q.reserve().initialize(to: TraceEvent(record: record, timestamp: Timestamp(micros: Int64(record)), direction: .unknown,
                                              body: .sco(length: record)))
        q.commit()
    }

    static func records(_ q: EventQueue) -> [Int] { (0..<q.count).map { q[$0].pointee.record } }

    @Test("events leave oldest first across the ring's end, and growing a wrapped ring keeps their order")
    func wrapsAndGrowsInOrder() {
        let q = EventQueue(capacity: 4)
        for r in 1...3 { Self.put(q, r) }
        q.removeFirst()
        q.removeFirst()
        for r in 4...6 { Self.put(q, r) } // 3 4 5 6: the last two wrap to the front
        #expect(Self.records(q) == [3, 4, 5, 6])
        Self.put(q, 7) // full: grown while wrapped
        #expect(Self.records(q) == [3, 4, 5, 6, 7])
        var left: [Int] = []
        while !q.isEmpty { left.append(q.first.pointee.record); q.removeFirst() }
        #expect(left == [3, 4, 5, 6, 7])
    }

    @Test("a slot reserved before the events ahead of it leave is the one counted after them")
    func reservedSlotSurvivesDraining() {
        let q = EventQueue(capacity: 4)
        for r in 1...3 { Self.put(q, r) }
        let slot = q.reserve()
        slot.initialize(to: TraceEvent(record: 9, timestamp: Timestamp(micros: 9), direction: .unknown, body: .sco(length: 9)))
        while !q.isEmpty { q.removeFirst() } // delivered while the new event is decoded
        q.commit()
        #expect(Self.records(q) == [9])
        #expect(q.first == slot)
    }

    @Test("a request's event waits in the queue with the events behind it, and all leave in record order")
    func pipelineKeepsRecordOrderThroughTheQueue() throws {
        let (events, _) = try TestSupport.analyze(Samples.gattSession())
        #expect(events.map(\.record) == Array(1...events.count))
        // Requests name their responses, which came later: they waited in the queue for them.
        var answered = 0
        for e in events {
            guard case let .att(a) = e.body, let r = a.response?.record else { continue }
            answered += 1
            #expect(r > e.record)
            guard case let .att(answer) = events[r - 1].body else { Issue.record("record \(r) is not ATT"); continue }
            #expect(answer.request?.record == e.record)
        }
        #expect(answered > 0)
    }
}
