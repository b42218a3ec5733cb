/// A sniffed link's data channel map (Core Vol 6 Part B 4.5.8): the map in force, its updates
/// (LL_CHANNEL_MAP_IND, applied at their instant), and packets seen on a data channel that the map in force
/// excluded. The event counter comes from the sniffer (nRF Sniffer) or is counted from the timing; without
/// either (a capture that starts mid-connection), a pending map's old and new channels are both allowed until
/// a packet shows the switch.
public struct ChannelMapHistory: Sendable, Equatable {
    public struct Update: Sendable, Equatable {
        public var record: Int
        public var instant: Int
        public var map: UInt64
        public var channels: Int { map.nonzeroBitCount }
    }

    /// The map in force (bit n: data channel n), once the CONNECT_IND or an update gave one.
    public private(set) var current: UInt64?
    var pending: Update?
    /// Updates in order (at most `maxUpdates`).
    public private(set) var updates: [Update] = []
    public private(set) var updateCount = 0
    /// Good packets on a channel the map in force excluded, which channels, and the first such record.
    public private(set) var outside = 0
    public private(set) var outsideChannels: UInt64 = 0
    public private(set) var outsideFirstRecord: Int?
    static let maxUpdates = 64

    /// The 37 data channel bits of a 5-byte map.
    static func bits(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var m: UInt64 = 0
        for (i, b) in bytes.prefix(5).enumerated() { m |= UInt64(b) << (8 * i) }
        return m & 0x1F_FFFF_FFFF
    }

    mutating func start(_ map: ArraySlice<UInt8>) {
        current = ChannelMapHistory.bits(map)
        pending = nil
    }

    mutating func update(_ map: ArraySlice<UInt8>, instant: UInt16, record: Int) {
        let u = Update(record: record, instant: Int(instant), map: ChannelMapHistory.bits(map))
        pending = u
        updateCount += 1
        if updates.count < ChannelMapHistory.maxUpdates { updates.append(u) }
    }

    /// A good packet on data channel `channel` in connection event `counter` (if known).
    mutating func packet(channel: Int, counter: Int?, record: Int) {
        guard channel >= 0, channel < 37 else { return }
        let bit = UInt64(1) << UInt64(channel)
        if let p = pending {
            if let n = counter {
                // The instant has come when the counter reached it (16-bit arithmetic, Vol 6 Part B 5.5.1).
                if UInt16(truncatingIfNeeded: n &- p.instant) < 0x8000 { current = p.map; pending = nil }
            } else if let old = current, old & bit == 0, p.map & bit != 0 {
                current = p.map
                pending = nil
            }
        }
        guard let map = current else { return }
        let allowed = pending.map { map | $0.map } ?? map
        if allowed & bit == 0 {
            outside += 1
            outsideChannels |= bit
            if outsideFirstRecord == nil { outsideFirstRecord = record }
        }
    }

    /// The channel numbers set in `map`.
    static func list(_ map: UInt64) -> [Int] { (0..<37).filter { map & (UInt64(1) << UInt64($0)) != 0 } }
}

extension ChannelMapHistory {
    /// The `channel_map` object: channels in force, updates, packets outside the map.
    var fields: Fields {
        var f = Fields()
        f.add("channels", current.map { .int($0.nonzeroBitCount) } ?? .null)
        f.add("map", current.map { .string(Hex.hex($0, width: 10)) } ?? .null)
        f.add("update_count", updateCount)
        f.add("updates", .list(updates.map { u in
            .object(["record": .int(u.record), "instant": .int(u.instant), "channels": .int(u.channels),
                     "map": .string(Hex.hex(u.map, width: 10))])
        }))
        f.add("outside_map_packets", outside)
        f.add("outside_map_channels", .list(ChannelMapHistory.list(outsideChannels).map { .int($0) }))
        f.add("outside_map_first_record", outsideFirstRecord.map { .int($0) } ?? .null)
        return f
    }

    /// "channel map: 37 channels; 2 updates (record 120: 20 channels at event 300, …); 5 packets on channels it excluded (3, 7) from record 140".
    var text: String? {
        guard let map = current else { return nil }
        var s = "channel map: \(map.nonzeroBitCount) channels in force"
        if updateCount > 0 {
            s += "; \(updateCount) update\(updateCount == 1 ? "" : "s") ("
                + updates.prefix(3).map { "record \($0.record): \($0.channels) channels at event \($0.instant)" }.joined(separator: ", ")
                + (updateCount > 3 ? ", …" : "") + ")"
        }
        if outside > 0 {
            s += "; \(outside) packet\(outside == 1 ? "" : "s") on channels the map excluded ("
                + ChannelMapHistory.list(outsideChannels).map(String.init).joined(separator: ", ") + ")"
                + (outsideFirstRecord.map { " from record \($0)" } ?? "")
        }
        return s
    }
}
