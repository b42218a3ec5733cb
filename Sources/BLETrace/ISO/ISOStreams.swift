/// Each ISO stream's data, per handle and direction (host to controller: what the local side sends): packets,
/// SDUs (reassembled from fragments), bytes, sequence gaps (SDUs lost on the way to the HCI), SDUs the
/// controller flagged as possibly invalid or lost, and the SDU timing against the stream's SDU interval (the
/// controller's time stamps when the packets carry them, else the capture's). Summary section `iso`.
public final class ISOStreams: AnalysisLayer {
    public struct Stream: Sendable {
        public var handle: UInt16
        public var connection: Int?
        /// True for host to controller.
        public var outgoing: Bool
        public var packets = 0
        public var sdus = 0
        public var bytes = 0
        public var fragments = 0
        /// SDUs whose fragments did not add up to their SDU length (or a continuation with no start).
        public var broken = 0
        /// Packet sequence numbers skipped, and the number of skips.
        public var missing = 0
        public var gaps = 0
        public var firstGapRecord: Int?
        /// Packet status flags: possibly invalid, lost.
        public var invalid = 0
        public var lost = 0
        public var firstLostRecord: Int?
        /// When SDUs were lost (a sequence gap or a lost flag), the first 64 (µs, capture time).
        public var lossTimes: [Int64] = []
        /// Intervals between consecutive SDUs (µs): by the controller's time stamps, or the capture's.
        public var intervals = LatencyHistogram()
        public var timestamped = 0
        public var firstRecord = 0
        public var lastRecord = 0
        var lastSequence: UInt16?
        var lastTime: Int64?
        var open: (expected: Int, have: Int)?
    }

    /// Streams in order of their first packet (at most `maxStreams`).
    public private(set) var streams: [Stream] = []
    var index: [UInt32: Int] = [:]
    static let maxStreams = 256
    weak var pipeline: Pipeline?

    public init() {}

    public func attach(to pipeline: Pipeline) {
        self.pipeline = pipeline
    }

    func observe(_ e: TraceEvent) {
        guard case let .iso(h) = e.body else { return }
        let outgoing = e.direction == .hostToController
        let key = UInt32(h.handle) << 1 | (outgoing ? 1 : 0)
        let i: Int
        if let k = index[key], streams[k].connection == e.connection {
            i = k
        } else {
            // A new stream, or the handle reused by a new connection.
            guard streams.count < ISOStreams.maxStreams else { return }
            i = streams.count
            index[key] = i
            var s = Stream(handle: h.handle, connection: e.connection, outgoing: outgoing)
            s.firstRecord = e.record
            streams.append(s)
        }
        streams[i].add(h, record: e.record, time: e.timestamp)
    }

    public func summary() -> SummarySection? {
        guard !streams.isEmpty else { return nil }
        let list = streams
        let intervals = list.map { s in s.connection.flatMap { pipeline?.connections.connection(id: $0)?.iso?.sduInterval } }
        return SummarySection(name: "iso", value: { .object(ISOStreams.fields(list, intervals)) }, text: { ISOStreams.text(list, intervals) })
    }
}

extension ISOStreams.Stream {
    mutating func add(_ h: ISOHeader, record: Int, time: Timestamp) {
        packets += 1
        lastRecord = record
        if h.boundary != 2 { fragments += 1 }
        if h.startsSDU {
            if open != nil { broken += 1 }
            open = nil
            sdus += 1
            let length = Int(h.sduLength ?? 0)
            bytes += length
            if h.boundary == 0 { open = (length, h.dataLength) }
            else if h.dataLength != length { broken += 1 }
            if let st = h.status {
                if st == 1 { invalid += 1 }
                if st == 2 {
                    lost += 1
                    if firstLostRecord == nil { firstLostRecord = record }
                    if lossTimes.count < 64 { lossTimes.append(time.micros) }
                }
            }
            if let n = h.sequence {
                if let last = lastSequence {
                    let skipped = Int(n &- last &- 1)
                    // A step back or a huge jump is a restart, not a loss.
                    if skipped > 0 && skipped < 0x8000 {
                        missing += skipped
                        gaps += 1
                        if firstGapRecord == nil { firstGapRecord = record }
                        if lossTimes.count < 64 { lossTimes.append(time.micros) }
                    }
                }
                lastSequence = n
            }
            let t = h.timestamp.map { Int64($0) } ?? time.micros
            if h.timestamp != nil { timestamped += 1 }
            if let l = lastTime, t > l { intervals.add(t - l) }
            lastTime = t
        } else if var o = open {
            o.have += h.dataLength
            if h.boundary == 3 {
                if o.have != o.expected { broken += 1 }
                open = nil
            } else {
                open = o
            }
        } else {
            broken += 1
        }
    }
}
