/// HID over BR/EDR (HID Profile 1.1, 3.1): the transaction header of each message on the HID Control
/// (PSM 0x0011) and HID Interrupt (PSM 0x0013) channels, and the report it carries. Reports are counted per
/// connection by `HIDReports`; their contents are not dissected (that needs the device's report descriptor).
public struct HIDMessage: Sendable, Equatable {
    /// The transaction type (high nibble of the header): 0x0 HANDSHAKE, 0x1 HID_CONTROL, 0x4 GET_REPORT,
    /// 0x5 SET_REPORT, 0x6 GET_PROTOCOL, 0x7 SET_PROTOCOL, 0xA DATA.
    public var type: UInt8
    /// The header's low nibble: a result code, a control operation, a report type (bits 0–1), a protocol.
    public var parameter: UInt8
    /// True on the interrupt channel.
    public var interrupt: Bool
    public var payload: ArraySlice<UInt8>

    /// DATA, GET_REPORT and SET_REPORT: 1 input, 2 output, 3 feature.
    public var reportType: UInt8? {
        switch type {
        case 0x4, 0x5, 0xA: return parameter & 0x3
        default: return nil
        }
    }

    public static func parse(_ bytes: ArraySlice<UInt8>, interrupt: Bool) throws -> HIDMessage {
        var c = ByteCursor(bytes)
        let header = try c.u8()
        return HIDMessage(type: header >> 4, parameter: header & 0x0F, interrupt: interrupt, payload: c.rest())
    }
}

/// HID reports counted per BR/EDR connection: input, output and feature reports in DATA messages, with the
/// bytes and the span they arrived over.
public final class HIDReports: AnalysisLayer {
    public final class Counts {
        public let connection: Int
        /// DATA reports by type: [input, output, feature].
        public internal(set) var reports = [0, 0, 0]
        public internal(set) var bytes = 0
        /// Control-channel transactions (handshakes, GET/SET_REPORT, protocol, control operations).
        public internal(set) var control = 0
        public internal(set) var first: Timestamp?
        public internal(set) var last: Timestamp?
        init(connection: Int) { self.connection = connection }
    }

    public private(set) var connections: [Counts] = []
    var byConnection: [Int: Counts] = [:]
    static let maxConnections = 10_000

    public init() {}

    public func attach(to pipeline: Pipeline) {}

    func take(_ m: HIDMessage, connection: Int, at t: Timestamp) {
        let c: Counts
        if let x = byConnection[connection] {
            c = x
        } else {
            guard connections.count < HIDReports.maxConnections else { return }
            c = Counts(connection: connection)
            connections.append(c)
            byConnection[connection] = c
        }
        if m.type == 0xA, let r = m.reportType, r >= 1 {
            c.reports[Int(r) - 1] += 1
            c.bytes += m.payload.count
            if c.first == nil { c.first = t }
            c.last = t
        } else {
            c.control += 1
        }
    }

    public func summary() -> SummarySection? {
        guard !connections.isEmpty else { return nil }
        let list = connections
        return SummarySection(name: "hid", value: {
            .object(["connections": .list(list.map { c in
                var f = Fields()
                f.add("connection", c.connection)
                f.add("input_reports", c.reports[0])
                f.add("output_reports", c.reports[1])
                f.add("feature_reports", c.reports[2])
                f.add("bytes", c.bytes)
                f.add("control_messages", c.control)
                if let a = c.first { f.add("first", a.iso8601) }
                if let b = c.last { f.add("last", b.iso8601) }
                return .object(f)
            })])
        }, text: {
            var lines = ["  HID:         \(list.count) connection\(list.count == 1 ? "" : "s")"]
            for c in list.prefix(SummaryRender.textListed) {
                func n(_ k: Int, _ what: String) -> String { "\(k) \(what) report\(k == 1 ? "" : "s")" }
                var line = "    connection #\(c.connection): " + n(c.reports[0], "input") + ", " + n(c.reports[1], "output")
                    + ", " + n(c.reports[2], "feature") + ", \(c.bytes) bytes"
                if let a = c.first, let b = c.last, b.micros > a.micros {
                    line += " over " + Fmt.seconds(micros: b.micros - a.micros) + " s"
                }
                line += "; \(c.control) control message\(c.control == 1 ? "" : "s")"
                lines.append(line)
            }
            lines.append(contentsOf: SummaryRender.more(list.count))
            return lines
        })
    }
}
