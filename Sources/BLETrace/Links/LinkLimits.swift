/// What limits an LE link's throughput: the negotiated ATT_MTU, the data length each way (LE Data Length
/// Change), the PHY each way (LE PHY Update Complete) and the connection interval; and from these the ceiling of
/// one direction: notifications of ATT_MTU − 3 bytes back to back, each data PDU answered by an empty one, as
/// many exchanges as fit in a connection event (controllers often allow fewer, so the real ceiling is lower).
public struct LinkLimits: Sendable, Equatable {
    public var attMTU: Int?
    /// LE Data Length Change: the most payload octets of a data PDU each way (27 without one).
    public var txOctets: Int?
    public var rxOctets: Int?
    /// LE PHY Update Complete: 1 LE 1M, 2 LE 2M, 3 LE Coded (1M without one).
    public var txPHY: UInt8?
    public var rxPHY: UInt8?
    /// The connection interval in 1.25 ms units (the last value).
    public var interval: Int?

    /// Air time of a data PDU with `octets` of payload on `phy`, in µs (Core Vol 6 Part B 2.1: preamble, access
    /// address, header, payload, MIC not counted, CRC; Coded PHY with S=8).
    static func airTime(octets: Int, phy: UInt8) -> Int {
        switch phy {
        case 2: return (2 + 4 + 2 + octets + 3) * 4
        case 3: return 80 + 256 + 16 + 24 + (2 + octets + 3) * 64 + 24
        default: return (1 + 4 + 2 + octets + 3) * 8
        }
    }

    /// The ceiling of one direction in bits per second: data PDUs of `octets` on `phy`, the empty answers on
    /// `back`; nil without an interval, or with a data length of no octets (below the 27 every link allows: a
    /// damaged or made-up length exchange, from which no ceiling follows).
    public func ceiling(tx: Bool) -> Int? {
        guard let i = interval, i > 0 else { return nil }
        let octets = (tx ? txOctets : rxOctets) ?? 27
        guard octets > 0 else { return nil }
        let phy = (tx ? txPHY : rxPHY) ?? 1
        let back = (tx ? rxPHY : txPHY) ?? 1
        let mtu = max(23, attMTU ?? 23)
        let exchange = LinkLimits.airTime(octets: octets, phy: phy) + 150 + LinkLimits.airTime(octets: 0, phy: back) + 150
        let intervalMicros = i * 1250
        let pdusPerEvent = max(1, intervalMicros / exchange)
        let pdusPerFrame = (mtu + 4 + octets - 1) / octets
        let framesPerSecond = Double(pdusPerEvent) * 1_000_000 / Double(intervalMicros) / Double(pdusPerFrame)
        return Int((framesPerSecond * Double(mtu - 3) * 8).rounded())
    }

    static func phyName(_ p: UInt8?) -> String {
        switch p ?? 1 {
        case 2: return "2M"
        case 3: return "Coded"
        default: return "1M"
        }
    }
}
