/// Text and JSON of an ISO data packet (`ISOHeader`).
enum ISOText {
    static func boundary(_ pb: UInt8) -> String {
        switch pb {
        case 0: return "first fragment"
        case 1: return "continuation fragment"
        case 2: return "complete SDU"
        default: return "last fragment"
        }
    }

    static func status(_ s: UInt8) -> String {
        switch s {
        case 0: return "valid"
        case 1: return "possibly invalid"
        case 2: return "lost"
        default: return "status \(s)"
        }
    }

    /// "ISO data, handle 0x0002, complete SDU #12 of 100 bytes, time stamp 1234567 µs" (", lost" when flagged).
    static func write(_ h: ISOHeader, into b: inout TextBytes) {
        b.append(string: "ISO data, handle ")
        b.append(hex: UInt64(h.handle), width: 4)
        b.append(string: ", ")
        b.append(string: boundary(h.boundary))
        if let n = h.sequence {
            b.append(string: " #")
            b.append(decimal: Int(n))
        }
        if let l = h.sduLength, h.boundary == 2 {
            b.append(string: " of ")
            b.append(decimal: Int(l))
            b.append(string: " bytes")
        } else {
            b.append(string: ", ")
            b.append(decimal: h.dataLength)
            b.append(string: " bytes")
            if let l = h.sduLength {
                b.append(string: " of an SDU of ")
                b.append(decimal: Int(l))
            }
        }
        if let t = h.timestamp {
            b.append(string: ", time stamp ")
            b.append(decimal: Int(t))
            b.append(string: " µs")
        }
        if let s = h.status, s != 0 {
            b.append(string: ", ")
            b.append(string: status(s))
        }
    }

    static func writeFields<S: FieldSink>(_ h: ISOHeader, into s: inout S) {
        s.field("handle", Int(h.handle))
        s.field("length", Int(h.length))
        s.field("pb_flag", h.boundary)
        s.field("pb_name", boundary(h.boundary))
        if let t = h.timestamp { s.field("time_stamp", Int(t)) }
        if let n = h.sequence { s.field("packet_sequence_number", n) }
        if let l = h.sduLength { s.field("sdu_length", l) }
        if let st = h.status {
            s.field("packet_status", st)
            s.field("packet_status_name", status(st))
        }
        s.field("data_length", h.dataLength)
    }
}
