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
