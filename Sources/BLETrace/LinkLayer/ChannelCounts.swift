/// Packets a sniffer saw on one channel: how many, how many with a bad CRC, and their RSSI.
public struct ChannelCounts: Sendable, Equatable {
    public var packets = 0
    public var crcBad = 0
    public var rssiSum = 0
    public var rssiCount = 0
    /// The RSSI readings of exactly 0 dBm.
    public var rssiZero = 0

    mutating func add(bad: Bool, rssi: Int?) {
        packets += 1
        if bad { crcBad += 1 }
        if let r = rssi {
            rssiSum += r
            rssiCount += 1
            if r == 0 { rssiZero += 1 }
        }
    }

    /// Every RSSI reading was 0 dBm: a sniffer that marks the signal valid but writes a constant, not a measurement.
    public var rssiConstantZero: Bool { rssiCount > 0 && rssiZero == rssiCount }

    /// The packet error rate: bad CRCs over packets.
    public var per: Double? { packets > 0 ? Double(crcBad) / Double(packets) : nil }
    public var rssiMean: Double? { rssiCount > 0 ? Double(rssiSum) / Double(rssiCount) : nil }
}

extension ChannelCounts {
    /// The channels with packets, as JSON: `channel`, `packets`, `crc_errors`, `per`, `rssi_mean`.
    static func fields(_ list: [ChannelCounts]) -> FieldValue {
        .list(list.enumerated().filter { $0.element.packets > 0 }.map { i, c in
            var f = Fields()
            f.add("channel", i)
            f.add("packets", c.packets)
            f.add("crc_errors", c.crcBad)
            f.add("per", c.per.map { .double(($0 * 10_000).rounded() / 10_000) } ?? .null)
            f.add("rssi_mean", c.rssiMean.map { .double(($0 * 10).rounded() / 10) } ?? .null)
            return .object(f)
        })
    }

    /// "37 channels with packets, bad CRC on 12 (worst: 38 9.1 % of 2304, …)".
    static func overview(_ list: [ChannelCounts]) -> String {
        let used = list.filter { $0.packets > 0 }.count
        let bad = list.filter { $0.crcBad > 0 }.count
        var s = "\(used) with packets, bad CRCs on \(bad)"
        if let w = worst(list, limit: 3) { s += " (highest packet error rate: \(w))" }
        return s
    }

    /// A link's data channels whose packet error rate stands out, or nil when none had bad CRCs.
    static func worstText(_ list: [ChannelCounts]) -> String? {
        worst(list, limit: 3).map { "highest packet error rate by channel: " + $0 }
    }

    /// The `limit` channels with the highest packet error rate among those with at least 10 packets.
    static func worst(_ list: [ChannelCounts], limit: Int) -> String? {
        let ranked = list.enumerated().filter { $0.element.packets >= 10 && $0.element.crcBad > 0 }
            .sorted { ($0.element.per ?? 0, $0.element.packets) > ($1.element.per ?? 0, $1.element.packets) }
        guard !ranked.isEmpty else { return nil }
        return ranked.prefix(limit).map { i, c in
            "\(i) \(Fmt.fixed(Int(((c.per ?? 0) * 1000).rounded()), scale: 10)) % of \(c.packets)"
        }.joined(separator: ", ")
    }
}
