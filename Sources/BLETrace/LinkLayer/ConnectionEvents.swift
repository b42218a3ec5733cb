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
    /// one in force.
    mutating func packet(at t: Int64, central: Bool, newEvent: Bool, payload: Int, record: Int, interval: Int? = nil) {
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
                    step = max(1, Int(min((Double(gap.partialValue) / Double(i * 1250)).rounded(), 65536)))
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
