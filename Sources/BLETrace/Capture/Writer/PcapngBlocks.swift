/// pcapng (the format Wireshark writes): a section header, one interface and enhanced packet blocks, each
/// block and option little-endian and padded to 4 bytes. Comments are `opt_comment` options: on the section
/// and on packets, where Wireshark shows them as `frame.comment` (and editcap keeps them).
extension CaptureWriter {
    static let pcapngSectionType: UInt32 = 0x0A0D_0D0A
    static let pcapngInterfaceType: UInt32 = 1
    static let pcapngPacketType: UInt32 = 6
    /// An option's value holds at most 65,535 bytes; longer comments are cut at a character.
    static let pcapngOptionLimit = 65_532

    /// The section header (with `comment` and the writing application) and the one interface (microsecond
    /// timestamps, the default resolution).
    func addPcapngHeader(linkType: Int, comment: String?) {
        var shb: [UInt8] = []
        CaptureWriter.le32(0x1A2B_3C4D, into: &shb)
        CaptureWriter.le16(1, into: &shb); CaptureWriter.le16(0, into: &shb)
        // Section length unknown: the file is written as it goes.
        for _ in 0..<8 { shb.append(0xFF) }
        if let c = comment, !c.isEmpty { CaptureWriter.option(1, CaptureWriter.optionText(c), into: &shb) }
        CaptureWriter.option(4, Array("bletrace \(BLETraceVersion.string)".utf8), into: &shb)
        CaptureWriter.le32(0, into: &shb) // opt_endofopt
        pcapngBlock(CaptureWriter.pcapngSectionType, shb)
        var idb: [UInt8] = []
        CaptureWriter.le16(UInt16(truncatingIfNeeded: linkType), into: &idb); CaptureWriter.le16(0, into: &idb)
        CaptureWriter.le32(0, into: &idb) // no snapshot length limit
        pcapngBlock(CaptureWriter.pcapngInterfaceType, idb)
    }

    /// An enhanced packet block with a comment option per comment.
    func addPcapngPacket(payload: [UInt8], original: Int, at time: Timestamp, comments: [String]) {
        count += 1
        var body: [UInt8] = []
        body.reserveCapacity(32 + payload.count)
        CaptureWriter.le32(0, into: &body) // interface 0
        let micros = UInt64(time.micros >= 0 ? time.micros : 0)
        CaptureWriter.le32(UInt32(truncatingIfNeeded: micros >> 32), into: &body)
        CaptureWriter.le32(UInt32(truncatingIfNeeded: micros), into: &body)
        CaptureWriter.le32(UInt32(truncatingIfNeeded: payload.count), into: &body)
        CaptureWriter.le32(UInt32(truncatingIfNeeded: max(original, payload.count)), into: &body)
        body.append(contentsOf: payload)
        while body.count % 4 != 0 { body.append(0) }
        if !comments.isEmpty {
            for c in comments { CaptureWriter.option(1, CaptureWriter.optionText(c), into: &body) }
            CaptureWriter.le32(0, into: &body)
        }
        pcapngBlock(CaptureWriter.pcapngPacketType, body)
    }

    func pcapngBlock(_ type: UInt32, _ body: [UInt8]) {
        let total = UInt32(truncatingIfNeeded: 12 + body.count)
        put32le(type); put32le(total)
        bytes.append(contentsOf: body)
        put32le(total)
    }

    /// UTF-8 text cut to fit an option (at a character boundary).
    static func optionText(_ s: String) -> [UInt8] {
        let b = Array(s.utf8)
        guard b.count > pcapngOptionLimit else { return b }
        var end = pcapngOptionLimit
        while end > 0 && b[end] & 0xC0 == 0x80 { end -= 1 }
        return Array(b[..<end])
    }

    static func option(_ code: UInt16, _ value: [UInt8], into b: inout [UInt8]) {
        le16(code, into: &b); le16(UInt16(truncatingIfNeeded: value.count), into: &b)
        b.append(contentsOf: value)
        while b.count % 4 != 0 { b.append(0) }
    }

    static func le16(_ v: UInt16, into b: inout [UInt8]) { b.append(UInt8(v & 0xFF)); b.append(UInt8(v >> 8)) }
    static func le32(_ v: UInt32, into b: inout [UInt8]) { for i in 0..<4 { b.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
}
