/// Parses HCI ISO data packets (Core 5.4 Vol 4 Part E 5.4.5).
enum ISOData {
    /// The headers of `data`; throws where the packet ends before a header field or its stated length.
    static func parse(_ data: ArraySlice<UInt8>) throws -> ISOHeader {
        var c = ByteCursor(data)
        let hf = try c.u16le(), lf = try c.u16le()
        var h = ISOHeader(handle: hf & 0x0FFF, length: lf & 0x3FFF)
        h.boundary = UInt8((hf >> 12) & 0x3)
        let ts = hf & 0x4000 != 0
        guard c.remaining >= Int(h.length) else {
            throw ByteError.truncated(offset: c.offset, needed: Int(h.length), available: c.remaining)
        }
        var load = ByteCursor(try c.bytes(Int(h.length)))
        if h.startsSDU {
            if ts { h.timestamp = try load.u32le() }
            h.sequence = try load.u16le()
            let sl = try load.u16le()
            h.sduLength = sl & 0x0FFF
            h.status = UInt8(sl >> 14)
        }
        h.dataLength = load.remaining
        return h
    }
}
