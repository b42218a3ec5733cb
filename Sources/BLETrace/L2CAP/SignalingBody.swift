/// The typed body of an event on a signaling channel or on a channel signaling opened: an LE or BR/EDR
/// signaling command, a K-frame on a credit-based channel, or a BR/EDR profile's frame (AVDTP, A2DP media,
/// RFCOMM, SDP, AVCTP, HID). Names and text are made by the renderers (`Report/Layers/SignalingBodyRender.swift`
/// and the profiles' own).
public struct SignalingBody: Sendable {
    public enum Content: Sendable {
        /// A C-frame that did not parse: why, and the whole frame.
        case malformed(reason: String, data: ArraySlice<UInt8>)
        case command(SignalingCommandFrame)
        /// A frame on a dynamic channel (kind `l2cap`): its SDU is in `TraceEvent.l2cap`.
        case kFrame(KFrame)
        /// A BR/EDR C-frame (CID 0x0001): its commands, and why it stops being readable where it does.
        case bredr(BREDRSignalingFrame)
        /// AVDTP signaling on a BR/EDR channel with PSM 0x0019 (kind `l2cap`).
        case avdtp(AVDTPSignal)
        /// A media packet of an A2DP stream (the second AVDTP channel of a connection; kind `l2cap`).
        case a2dpMedia(A2DPMediaPacket)
        /// An RFCOMM frame (PSM 0x0003; kind `l2cap`).
        case rfcomm(RFCOMMFrame)
        /// An SDP PDU (PSM 0x0001; kind `l2cap`).
        case sdp(SDPPDU)
        /// An AVCTP frame (PSM 0x0017 or 0x001B; kind `l2cap`).
        case avctp(AVCTPFrame)
        /// A HID message (PSM 0x0011 control or 0x0013 interrupt; kind `l2cap`).
        case hid(HIDMessage)
    }

    public var content: Content
    /// Disconnection Response: the PSM of the channel it closed.
    public var closedPSM: UInt16?
    /// Credit-based connection responses whose request was seen: the request's SPSM and the channels opened.
    public var opened: OpenedChannels?

    public init(_ content: Content) { self.content = content }

    public var kind: EventKind {
        switch content {
        case .kFrame, .avdtp, .a2dpMedia, .rfcomm, .sdp, .avctp, .hid: return .l2cap
        case .malformed, .command, .bredr: return .signaling
        }
    }

    public var malformedReason: String? {
        switch content {
        case let .malformed(reason, _): return reason
        case let .kFrame(k):
            if case .malformed = k.part { return "K-frame shorter than its SDU length field" }
            return nil
        case .command, .avdtp, .a2dpMedia, .rfcomm, .sdp, .avctp, .hid: return nil
        case let .bredr(f): return f.problem
        }
    }

    /// The command, when the frame parsed.
    public var command: LESignalingCommand? {
        if case let .command(c) = content { return c.command }
        return nil
    }
}

/// One parsed C-frame: code, identifier, command and the bytes after it.
public struct SignalingCommandFrame: Sendable {
    public var code: UInt8
    public var identifier: UInt8
    public var command: LESignalingCommand
    public var surplus: Int
}

public struct OpenedChannels: Sendable, Equatable {
    public var spsm: UInt16
    /// Channels opened (at most one per destination CID of the response).
    public var count: UInt16
}

/// A K-frame (Core 5.4 Vol 3 Part A 3.4.3) on a credit-based channel whose opening was seen.
public struct KFrame: Sendable {
    public enum Part: Sendable {
        /// Too short for the SDU length field that starts an SDU.
        case malformed
        /// Completes an SDU (the SDU is `TraceEvent.l2cap.sdu`); `beyond` bytes past the SDU length.
        case sdu(ArraySlice<UInt8>, beyond: Int)
        case start(have: Int, expected: Int)
        case continuation(have: Int, expected: Int)
    }
    public var cid: UInt16
    public var psm: UInt16
    public var part: Part
    /// Bytes in this frame.
    public var length: Int
}
