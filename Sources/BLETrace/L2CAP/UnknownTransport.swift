/// ACL data on a handle whose transport is unknown (no Connection Complete opened it): decoded as L2CAP only
/// where the packet is consistent with the ACL length.
extension L2CAPReassembler {
    /// A start fragment whose L2CAP length covers at least its own bytes (a whole frame, or the first part of
    /// one); a continuation of a frame open on the handle in that direction. Anything else (bytes after the
    /// end of the frame the header announces, a continuation of nothing) is not known to be L2CAP.
    func consistent(_ acl: ArraySlice<UInt8>, direction: Direction) -> Bool {
        var c = ByteCursor(acl)
        guard let hf = try? c.u16le(), let length = try? c.u16le(), c.remaining == Int(length) else { return false }
        if (hf >> 12) & 0x3 == 0b01 { return pending[Stream(handle: hf & 0x0FFF, direction: direction)] != nil }
        guard let l2 = try? c.u16le() else { return false }
        return Int(l2) + 4 >= Int(length)
    }
}

/// What the first ACL packets on a handle no event opened say about it. Phones send their own data on
/// pseudo-handles (0x0EDC and others) that are not connections; a capture that began mid-connection shows a
/// real one. A packet is `plausible` when it starts an L2CAP frame on a channel that exists with content that
/// channel carries; `implausible` when its channel or content cannot be (the handle is then vendor data for
/// good); `unsure` otherwise (a continuation, a long frame's first part): shown as data, deciding nothing.
enum PseudoHandleVerdict: Equatable {
    case plausible, implausible, unsure

    /// A frame on a dynamic channel (nothing to check its content by) is plausible when each direction's frames
    /// have stayed on one channel for two frames running: a channel carries traffic both ways, each way on its
    /// own CID. A pseudo-handle's "channel" changes with its data, and phones' debug handles (0x0EDC) carry
    /// data from the controller only: those stay data. A whole frame that is A2DP SBC media by every check of
    /// `SBCMediaEvidence` (RTP, payload header, each frame's syncword and header CRC) is plausible at once: a
    /// capture that starts while music plays may show nothing but the media, one way.
    init(_ acl: ArraySlice<UInt8>, direction: Direction, dynamic: inout [UInt16: UInt32]) {
        self.init(acl)
        guard self == .unsure, let (handle, cid) = PseudoHandleVerdict.dynamicStart(acl) else { return }
        if SBCMediaEvidence.check(acl.dropFirst(8)) != nil {
            self = .plausible
            return
        }
        let key = handle | (direction == .hostToController ? 0x8000 : 0)
        let previous = dynamic[key]
        let steady = previous.map { UInt16(truncatingIfNeeded: $0) == cid } ?? false
        if dynamic.count < 1024 || previous != nil { dynamic[key] = UInt32(cid) | (steady ? PseudoHandleVerdict.steady : 0) }
        if steady, let other = dynamic[key ^ 0x8000], other & PseudoHandleVerdict.steady != 0 { self = .plausible }
    }

    /// The mark of a direction whose last two frames were on one channel.
    static let steady: UInt32 = 0x1_0000

    /// The handle and channel of a whole frame on a dynamic channel.
    static func dynamicStart(_ acl: ArraySlice<UInt8>) -> (UInt16, UInt16)? {
        var c = ByteCursor(acl)
        guard let hf = try? c.u16le(), let length = try? c.u16le(), (hf >> 12) & 0x3 != 0b01,
              let l2 = try? c.u16le(), let cid = try? c.u16le(), cid >= 0x0040, Int(l2) + 4 == Int(length) else { return nil }
        return (hf & 0x0FFF, cid)
    }

    init(_ acl: ArraySlice<UInt8>) {
        var c = ByteCursor(acl)
        guard let hf = try? c.u16le(), let length = try? c.u16le(), c.remaining == Int(length) else { self = .implausible; return }
        let pb = (hf >> 12) & 0x3
        guard pb != 0b01 else { self = .unsure; return }
        guard let l2 = try? c.u16le(), let cid = try? c.u16le() else { self = .unsure; return }
        guard Int(l2) + 4 >= Int(length) else { self = .implausible; return }
        guard (0x0001...0x0007).contains(cid) || cid >= 0x0040 else { self = .implausible; return }
        let complete = Int(l2) + 4 == Int(length)
        guard let first = try? c.u8() else { self = .unsure; return }
        let knownContent: Bool
        switch cid {
        case 0x0004: knownContent = ATTNames.isKnown(first)
        case 0x0006, 0x0007: knownContent = (0x01...0x0E).contains(first)
        case 0x0001, 0x0005: knownContent = (0x01...0x1A).contains(first)
        default: self = .unsure; return // a dynamic channel: see init(_:direction:dynamic:)
        }
        if !knownContent { self = .implausible; return }
        if complete { self = .plausible; return }
        // The first part of a longer frame: believable at the sizes links use.
        self = Int(l2) <= 1024 ? .plausible : .unsure
    }
}
