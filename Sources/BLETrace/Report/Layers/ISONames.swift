/// Names and small formats of the isochronous layer: PHYs, framing, data path directions, codecs, ISO intervals.
enum ISONames {
    static func eachWay<T: Sendable & Equatable>(_ w: EachWay<T>) -> String { w.cToP == w.pToC ? "\(w.cToP)" : "\(w.cToP)/\(w.pToC)" }

    static func eachWayFields<S: FieldSink, T: FixedWidthInteger & Sendable>(_ name: String, _ w: EachWay<T>, into s: inout S) {
        s.field(name: name + "_c_to_p", w.cToP)
        s.field(name: name + "_p_to_c", w.pToC)
    }

    /// An HCI PHY value (1 1M, 2 2M, 3 Coded).
    static func phy(_ p: UInt8) -> String {
        switch p {
        case 1: return "1M"
        case 2: return "2M"
        case 3: return "Coded"
        default: return "PHY \(p)"
        }
    }

    /// A PHY bit field (bit 0 1M, bit 1 2M, bit 2 Coded).
    static func phyBits(_ p: UInt8) -> String {
        var names: [String] = []
        if p & 1 != 0 { names.append("1M") }
        if p & 2 != 0 { names.append("2M") }
        if p & 4 != 0 { names.append("Coded") }
        return names.isEmpty ? "none" : names.joined(separator: "|")
    }

    static func framing(_ f: UInt8) -> String { f == 0 ? "unframed" : f == 1 ? "framed" : "framing \(f)" }

    /// "10.00 ms"; 0 and values past 0x0C80 are forbidden (Core 5.4 Vol 4 Part E 7.7.65.25: 5 ms to 4 s).
    static func isoInterval(_ i: UInt16) -> String {
        (4...0x0C80).contains(i) ? Fmt.interval1250(Int(i)) : "\(i) (invalid: 5 ms to 4 s)"
    }

    static func pathDirection(_ d: UInt8) -> String {
        switch d {
        case 0: return "input (host to controller)"
        case 1: return "output (controller to host)"
        default: return "direction \(d)"
        }
    }

    static func pathDirections(_ bits: UInt8) -> String {
        switch bits & 3 {
        case 1: return "input"
        case 2: return "output"
        case 3: return "input and output"
        default: return "no direction"
        }
    }

    /// A codec ID: its coding format (Assigned Numbers 2.11), or the company and vendor codec.
    static func codec(_ format: UInt8, company: UInt16, vendor: UInt16) -> String {
        format == 0xFF ? "vendor codec \(Hex.hex(vendor, width: 4)) of " + (AssignedNumbers.companyName(company) ?? Hex.hex(company, width: 4))
            : AudioNames.codingFormat(format)
    }

    static func addressType(_ t: UInt8) -> String {
        switch t {
        case 0: return "public"
        case 1: return "random"
        default: return "type \(t)"
        }
    }

    /// Periodic advertising report data status.
    static func dataStatus(_ s: UInt8) -> String {
        switch s {
        case 0: return "complete"
        case 1: return "incomplete, more to come"
        case 2: return "truncated"
        default: return "status \(s)"
        }
    }
}
