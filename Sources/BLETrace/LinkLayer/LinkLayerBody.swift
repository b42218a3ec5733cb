/// What a sniffer said about one over-the-air packet, as decoded: its pseudo-header, access address and CRC,
/// and the data channel PDU header or the advertising channel PDU. Rendered as the `sniffer` and `ll` layers:
/// by a `LinkLayerBody`, or, for a packet whose payload another layer decodes (an L2CAP frame, advertising
/// data), as `TraceEvent.radio` in front of that layer's.
public final class LinkLayerFacts: Sendable {
    /// The pseudo-header (nil for link type 251, which has none).
    public let sniffer: SnifferInfo?
    /// The packet's parts (nil when the packet could not be split).
    public let packet: PacketFacts?
    /// A data channel PDU's header and which way it went.
    public let data: DataPDUFacts?
    /// An advertising channel PDU.
    public let advertising: LLAdvertisingPDU?

    public init(sniffer: SnifferInfo?, packet: PacketFacts? = nil, data: DataPDUFacts? = nil, advertising: LLAdvertisingPDU? = nil) {
        self.sniffer = sniffer
        self.packet = packet
        self.data = data
        self.advertising = advertising
    }
}

public struct PacketFacts: Sendable, Equatable {
    public var accessAddress: UInt32
    /// On the advertising physical channel (its access address).
    public var advertising: Bool
    /// The sniffer's verdict, or the CRC computed where CRCInit is known.
    public var crc: CRCStatus
    /// The CRC the packet carries.
    public var crcValue: UInt32?
    /// Bytes after the CRC.
    public var trailing: Int
}

public struct DataPDUFacts: Sendable, Equatable {
    public var header: LLDataHeader
    public var direction: LLDirection
    /// The direction was inferred from timing (the pseudo-header does not give it).
    public var inferred: Bool
    /// bletrace decrypted the payload (its MIC verified).
    public var decrypted = false
}

/// A link-layer packet shown as itself (not as the L2CAP frame or advertising report it carries): the typed
/// body of its event. Text and JSON come from `Report/Layers/LinkLayerBodyRender.swift`.
public struct LinkLayerBody: Sendable {
    public enum Content: Sendable {
        /// Bad CRC: the PDU, not decoded.
        case badCRC(pdu: ArraySlice<UInt8>)
        /// A data PDU on an access address beyond the number followed.
        case untracked(pdu: ArraySlice<UInt8>)
        /// An advertising channel PDU (in `radio.advertising`) that carries no advertising report.
        case advertising
        /// The same SN and content again from the same side, not yet acknowledged.
        case retransmission(of: Int)
        case encrypted(payload: ArraySlice<UInt8>)
        /// Encrypted with a known key, but the MIC did not verify: not decoded.
        case micFailure(payload: ArraySlice<UInt8>)
        indirect case control(LLControlPDU)
        case empty
        /// A data PDU on a connection without a handle.
        case notFollowed
        /// Part of an L2CAP frame not yet complete.
        case fragment(start: Bool, have: Int, expected: Int)
        /// A data PDU the L2CAP reassembler could not place.
        case problem(reason: String, payload: ArraySlice<UInt8>)
        /// LLID 0.
        case reservedLLID
        /// A PDU on a CIS's access address (from LL_CIS_IND): ISO data of that stream, not ACL data.
        case cisPDU(CISPDU)
    }

    public let radio: LinkLayerFacts
    public var content: Content

    public init(radio: LinkLayerFacts, _ content: Content) {
        self.radio = radio
        self.content = content
    }

    public var kind: EventKind { .linkLayer }
}
