/// What a CIS or BIS connection is (Core 5.4 Vol 6 Part B 4.5.13, 4.4.6): which group and stream, the ACL it
/// rides on, and its timing as the controller established it. Held by the isochronous `Connection`.
public struct ISOLink: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A connected isochronous stream: its CIG and CIS ids (from LE Set CIG Parameters or LE CIS Request)
        /// and the ACL connection handle it was created on.
        case cis(cig: UInt8?, cis: UInt8?, acl: UInt16?)
        /// A broadcast isochronous stream: its BIG handle and its index in the BIG (1…), `created` when the
        /// local controller is the broadcaster (LE Create BIG), false when it synchronised to one.
        case bis(big: UInt8, index: Int, created: Bool)
    }

    public var kind: Kind
    /// 1.25 ms units; 0 is forbidden (Bumble's virtual controller reports it).
    public var isoInterval: UInt16
    /// µs, each way (a BIS uses `cToP` for its one direction).
    public var sduInterval: EachWay<UInt32>?
    public var maxSDU: EachWay<UInt16>?
    public var maxPDU: EachWay<UInt16>
    public var phy: EachWay<UInt8>?
    public var transportLatency: EachWay<UInt32>
    public var nse: UInt8
    public var bn: EachWay<UInt8>
    public var flushTimeout: EachWay<UInt8>?
    public var framing: UInt8?
    /// ISO data paths set up (bit 0 input, host to controller; bit 1 output), and whether over HCI.
    public var dataPaths: UInt8 = 0
    public var hciPaths: UInt8 = 0

    /// The ISO interval is within 5 ms to 4 s (Vol 4 Part E 7.7.65.25).
    public var isoIntervalValid: Bool { (4...0x0C80).contains(isoInterval) }
}
