/// A sniffed connection's events as reconstructed from its packets: an event starts with a packet from the
/// central that does not answer the previous packet (Core Vol 6 Part B 4.5.1); from the events seen and the
/// connection interval, the events the sniffer missed. Also, per side, the payload bytes sent and the longest
/// time without a packet received with a good CRC (the supervision margin), and the share of events that
/// carried data.
public struct ConnectionEvents: Sendable, Equatable {
    public private(set) var seen = 0
    var withData = 0
    var currentHasData = false
    public private(set) var firstStart: Int64?
    public private(set) var lastStart: Int64 = 0
    /// Payload octets of data PDUs: central → peripheral, peripheral → central.
    public private(set) var payloadBytes = [0, 0]
    var lastGood: [Int64?] = [nil, nil]
    var lastGoodRecord: [Int] = [0, 0]
    /// Per side, the longest time between two good packets, and the records that bound it.
    public private(set) var longestSilence: [Int64] = [0, 0]
    public private(set) var silenceRecords: [(from: Int, to: Int)?] = [nil, nil]

    public static func == (a: ConnectionEvents, b: ConnectionEvents) -> Bool {
        a.seen == b.seen && a.withData == b.withData && a.payloadBytes == b.payloadBytes && a.longestSilence == b.longestSilence
    }

    /// The event counter of the last event, counted from the first one seen (event 0 when the capture holds the
    /// CONNECT_IND and the sniffer caught the first event) with the intervals between event starts.
    public private(set) var counter = 0
    /// Events from the first seen to the last, each gap counted with the interval in force then (not wrapped).
    var elapsed = 0

    /// A packet with a good CRC: `newEvent` when it opens a connection event; `interval` (1.25 ms units) the
    /// one in force; `update` a connection update waiting for its instant (its new interval and transmit window
    /// offset, 1.25 ms units).
    mutating func packet(at t: Int64, central: Bool, newEvent: Bool, payload: Int, record: Int, interval: Int? = nil,
                         update: (instant: Int, interval: Int, windowOffset: Int)? = nil) {
        if newEvent {
            // Data before the first event seen belongs to no event counted.
            if currentHasData && seen > 0 { withData += 1 }
            currentHasData = false
            seen += 1
            if firstStart == nil {
                firstStart = t
            } else {
                let gap = t.subtractingReportingOverflow(lastStart)
                var step = 1
                if let i = interval, i > 0, !gap.overflow, gap.partialValue > 0 {
                    step = ConnectionEvents.steps(Double(gap.partialValue), interval: i, from: counter, update: update)
                }
                counter = (counter + step) & 0xFFFF
                elapsed += step
            }
            lastStart = t
        }
        if payload > 0 { currentHasData = true }
        let side = central ? 0 : 1
        payloadBytes[side] += payload
        if let last = lastGood[side] {
            let gap = t - last
            if gap > longestSilence[side] {
                longestSilence[side] = gap
                silenceRecords[side] = (lastGoodRecord[side], record)
            }
        }
        lastGood[side] = t
        lastGoodRecord[side] = record
    }

    /// Events that carried at least one PDU with a payload.
    public var eventsWithData: Int { withData + (currentHasData && seen > 0 ? 1 : 0) }

    /// The events between two event starts `gap` µs apart, the first being event `counter`, at `interval`. Across
    /// a connection update's instant (Core Vol 6 Part B 5.1.1) the instant's event comes one old interval plus
    /// the transmit window offset after the event before it, and the events after it at the new interval.
    static func steps(_ gap: Double, interval: Int, from counter: Int,
                      update: (instant: Int, interval: Int, windowOffset: Int)?) -> Int {
        let old = Double(interval * 1250)
        let plain = max(1, Int(min((gap / old).rounded(), 65536)))
        guard let u = update, u.interval > 0 else { return plain }
        let k = (u.instant &- counter) & 0xFFFF
        guard k > 0, k < 0x8000 else { return plain }
        let instantAt = Double(k) * old + Double(u.windowOffset * 1250)
        // Before the instant's event (half an interval of slack): old intervals only.
        guard gap >= instantAt - old / 2 else { return plain }
        let after = max(0, ((gap - instantAt) / Double(u.interval * 1250)).rounded())
        return k + Int(min(after, 65536))
    }

    /// Events the connection had between the first and the last seen at `interval` (1.25 ms units) that the
    /// sniffer did not see.
    /// Events the sniffer did not see between the first and the last it saw: each gap between event starts
    /// counted in the interval in force at the time (a connection update applies from its instant), less the
    /// events seen. Nil until an interval is known.
    public func missed(interval: Int?) -> Int? {
        guard let i = interval, i > 0, firstStart != nil, seen > 0 else { return nil }
        return max(0, elapsed + 1 - seen)
    }
}
