/// A complete L2CAP basic-mode frame (B-frame), reassembled from one or more ACL packets.
public struct L2CAPFrame {
    public var handle: UInt16
    public var cid: UInt16
    public var payload: ArraySlice<UInt8>
    /// Record number of the first fragment.
    public var firstRecord: Int
    public var fragments: Int
}

/// What one ACL packet contributed.
public enum ACLOutcome {
    /// A whole frame is ready.
    case frame(L2CAPFrame)
    /// A fragment was stored; the frame is not complete yet.
    case partial(handle: UInt16, have: Int, expected: Int, start: Bool)
    /// Something was wrong; `dropped` is the number of bytes thrown away.
    case problem(handle: UInt16, reason: String)
}

/// Reassembles ACL fragments into L2CAP frames, per connection handle and direction: each side of a link
/// sends its own frames, so a packet sent one way between the fragments of a frame coming the other way
/// (a write while a long notification arrives) belongs to a frame of its own.
/// A continuation without a start, a start while a frame is still open, and a fragment overrunning the
/// announced length are all reported, never silently dropped.
public struct L2CAPReassembler {
    struct Pending {
        var expected: Int
        var cid: UInt16
        var bytes: [UInt8]
        var firstRecord: Int
        var fragments: Int
    }

    /// One direction of one connection handle.
    struct Stream: Hashable {
        var handle: UInt16
        var direction: Direction
    }

    var pending: [Stream: Pending] = [:]
    /// Upper bound on a frame: the L2CAP length field is 16 bits.
    static let maxFrame = 65_535 + 4
    /// Bound on the number of streams with an open frame (hostile input).
    static let maxPending = 4096

    public init() {}

    /// Feeds one ACL packet (with its 4-byte ACL header) sent in `direction`.
    public mutating func feed(_ acl: ArraySlice<UInt8>, record: Int, direction: Direction) throws -> (outcome: ACLOutcome, warning: String?) {
        // The usual packet, read in place: a start fragment that holds one whole frame, on a stream with no frame
        // open. What the general path below makes of it, without its cursor and second call.
        let s = acl.startIndex
        if acl.count >= 8, pending.isEmpty {
            let hf = UInt16(acl[s]) | UInt16(acl[s &+ 1]) << 8
            let length = Int(UInt16(acl[s &+ 2]) | UInt16(acl[s &+ 3]) << 8)
            let l2len = Int(UInt16(acl[s &+ 4]) | UInt16(acl[s &+ 5]) << 8)
            if (hf >> 12) & 0x3 != 0b01, l2len &+ 4 == length, length <= acl.count &- 4 {
                let cid = UInt16(acl[s &+ 6]) | UInt16(acl[s &+ 7]) << 8
                return (.frame(L2CAPFrame(handle: hf & 0x0FFF, cid: cid, payload: acl[(s &+ 8)..<(s &+ 4 &+ length)],
                                          firstRecord: record, fragments: 1)), nil)
            }
        }
        var c = ByteCursor(acl)
        let hf = try c.u16le()
        let handle = hf & 0x0FFF
        let pb = (hf >> 12) & 0x3
        let length = Int(try c.u16le())
        if c.remaining < length {
            throw ByteError.truncated(offset: c.offset, needed: length, available: c.remaining)
        }
        let data = try c.bytes(length)
        // Start of a frame: 0b00 non-flushable start, 0b10 flushable start; 0b11 is treated alike.
        return feed(handle: handle, direction: direction, start: pb != 0b01, data, record: record)
    }

    /// Feeds one fragment of the L2CAP stream of `handle` in `direction`: a start (ACL packet boundary
    /// 0b00/0b10, LL data LLID 0b10) or a continuation (packet boundary 0b01, LLID 0b01).
    public mutating func feed(handle: UInt16, direction: Direction, start: Bool, _ data: ArraySlice<UInt8>,
                              record: Int) -> (outcome: ACLOutcome, warning: String?) {
        let length = data.count
        let stream = Stream(handle: handle, direction: direction)
        var warning: String? = nil
        if !start { // continuation
            // Taken out of the table while it grows: a copy read from the table would share its bytes, and the
            // append would then copy all of them.
            guard var p = pending.removeValue(forKey: stream) else {
                return (.problem(handle: handle, reason: "continuation fragment (\(length) bytes) with no frame started"), nil)
            }
            p.bytes.append(contentsOf: data)
            p.fragments += 1
            if p.cid == 0xFFFF && p.bytes.count >= 4 {
                // The start fragment was shorter than the L2CAP header; now the header is complete.
                p.expected = Int(UInt16(p.bytes[0]) | UInt16(p.bytes[1]) << 8) + 4
                p.cid = UInt16(p.bytes[2]) | UInt16(p.bytes[3]) << 8
            }
            if p.bytes.count > p.expected {
                return (.problem(handle: handle,
                                 reason: "fragments overran the frame: \(p.bytes.count) bytes for an L2CAP length of \(p.expected - 4)"), nil)
            }
            if p.bytes.count == p.expected {
                return (.frame(L2CAPFrame(handle: handle, cid: p.cid, payload: p.bytes[4...],
                                          firstRecord: p.firstRecord, fragments: p.fragments)), nil)
            }
            pending[stream] = p
            return (.partial(handle: handle, have: p.bytes.count - 4, expected: p.expected - 4, start: false), nil)
        }
        // The basic L2CAP header, when the start fragment holds it.
        let header: (length: Int, cid: UInt16)? = data.count < 4 ? nil
            : (Int(UInt16(data[data.startIndex]) | UInt16(data[data.startIndex + 1]) << 8),
               UInt16(data[data.startIndex + 2]) | UInt16(data[data.startIndex + 3]) << 8)
        if pending[stream] != nil, direction == .unknown, let h = header, data.count == h.length + 4 {
            // Direction unknown (a sniffer that does not say it): a frame whole in this one packet may be the
            // other side's, sent between the open frame's fragments. The open frame stays open.
            return (.frame(L2CAPFrame(handle: handle, cid: h.cid, payload: data.dropFirst(4), firstRecord: record, fragments: 1)), nil)
        }
        if let old = pending[stream] {
            warning = "frame started at record \(old.firstRecord) lost its last fragment(s): \(old.bytes.count - 4) of \(old.expected - 4) bytes arrived"
            pending[stream] = nil
        }
        if let (l2len, cid) = header {
            if data.count == l2len + 4 {
                return (.frame(L2CAPFrame(handle: handle, cid: cid, payload: data.dropFirst(4), firstRecord: record,
                                          fragments: 1)), warning)
            }
            if data.count > l2len + 4 {
                // Surplus bytes after the frame: decode the frame, report the surplus.
                let extra = data.count - l2len - 4
                let w = "\(extra) byte\(extra == 1 ? "" : "s") after the end of the L2CAP frame"
                return (.frame(L2CAPFrame(handle: handle, cid: cid, payload: data.dropFirst(4).prefix(l2len),
                                          firstRecord: record, fragments: 1)), warning.map { $0 + "; " + w } ?? w)
            }
            if pending.count < L2CAPReassembler.maxPending {
                var bytes = [UInt8]()
                bytes.reserveCapacity(l2len + 4)
                bytes.append(contentsOf: data)
                pending[stream] = Pending(expected: l2len + 4, cid: cid, bytes: bytes, firstRecord: record, fragments: 1)
                return (.partial(handle: handle, have: data.count - 4, expected: l2len, start: true), warning)
            }
            return (.problem(handle: handle, reason: "too many open frames; fragment dropped"), warning)
        }
        // A start fragment shorter than the basic L2CAP header: keep it and wait for the rest of the header.
        if pending.count < L2CAPReassembler.maxPending {
            pending[stream] = Pending(expected: L2CAPReassembler.maxFrame, cid: 0xFFFF, bytes: Array(data), firstRecord: record,
                                      fragments: 1)
            return (.partial(handle: handle, have: data.count, expected: -1, start: true), warning)
        }
        return (.problem(handle: handle, reason: "too many open frames; fragment dropped"), warning)
    }

    /// Open frames that never completed (reported at the end of the capture).
    public var unfinished: [(handle: UInt16, firstRecord: Int, have: Int, expected: Int)] {
        pending.map { ($0.key.handle, $0.value.firstRecord, $0.value.bytes.count - 4, $0.value.expected - 4) }
            .sorted { $0.firstRecord < $1.firstRecord }
    }
}
