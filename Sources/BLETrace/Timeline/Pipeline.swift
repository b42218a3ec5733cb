/// Decodes an L2CAP channel's frames into timeline events (ATT, SMP, LE signaling, …).
public protocol ChannelDecoder: AnyObject {
    /// Turns a complete frame into an event. `event` arrives pre-filled with record, time, direction,
    /// handle and connection; the decoder sets kind, summary and layers.
    func decode(_ frame: L2CAPFrame, connection: Connection, event: inout TraceEvent)
}

/// Options that change how a capture is decoded.
public struct DecodeOptions: Sendable {
    public init() {}
}

/// Counts kept while decoding, for the summary.
public struct CaptureStats: Sendable {
    public var records = 0
    public var first: Timestamp?
    public var last: Timestamp?
    public var kinds: [String: Int] = [:]
    public var malformed = 0
    public var malformedRecords: [Int] = []
    public var notes = 0
}

/// Drives the stages: record → HCI → L2CAP → channel decoders → timeline events.
/// Every record yields exactly one event, handed to `emit` in record order.
public final class Pipeline {
    public let options: DecodeOptions
    public let connections = ConnectionTracker()
    public private(set) var stats = CaptureStats()
    var l2cap = L2CAPReassembler()
    var advertising = AdvertisingDecoder()
    /// Fixed and dynamic channels → decoder. Layers register themselves here.
    public var channels: [UInt16: ChannelDecoder] = [:]
    /// Observers of advertising reports (device inventory, beacons). They see each report with complete data
    /// once: split extended advertising data arrives reassembled, on the report that completes it.
    public var advertisingObservers: [(AdvertisingReport, Int, Timestamp) -> Void] = []
    let emit: (TraceEvent) -> Void

    public init(options: DecodeOptions = DecodeOptions(), emit: @escaping (TraceEvent) -> Void) {
        self.options = options
        self.emit = emit
    }

    public func process(_ r: Record) {
        stats.records += 1
        if stats.first == nil { stats.first = r.timestamp }
        stats.last = r.timestamp
        var e = TraceEvent(record: r.number, timestamp: r.timestamp, direction: r.direction, kind: .vendor, summary: "")
        switch r.kind {
        case .command: decodeCommand(r, &e)
        case .event: decodeEvent(r, &e)
        case .acl: decodeACL(r, &e)
        case .sco:
            e.kind = .sco
            e.summary = "SCO data, \(r.data.count) bytes"
            e.layers = [("sco", ["length": .int(r.data.count)])]
        case .iso:
            e.kind = .iso
            decodeISO(r, &e)
        case .vendor:
            e.kind = .vendor
            e.summary = "Vendor packet, \(r.data.count) bytes: \(Hex.spaced(r.data, limit: 16))"
            e.layers = [("vendor", ["data": .hex(Array(r.data))])]
        case .note:
            e.kind = .note
            Notes.describe(r, &e)
            stats.notes += 1
        case .linkLayer:
            e.kind = .linkLayer
            e.summary = "Link-layer packet (\(LinkType.name(Int(r.sourceType)))), \(r.data.count) bytes"
            e.layers = [("link_layer", ["link_type": .int(Int(r.sourceType)), "data": .hex(Array(r.data))])]
        }
        if let o = r.originalLength, e.malformed == nil {
            e.summary += " [captured \(r.data.count) of \(o) bytes]"
        }
        stats.kinds[e.kind.rawValue, default: 0] += 1
        if e.malformed != nil {
            stats.malformed += 1
            if stats.malformedRecords.count < 1000 { stats.malformedRecords.append(r.number) }
        }
        emit(e)
    }

    func markMalformed(_ e: inout TraceEvent, _ r: Record, layer: String, _ error: Error) {
        let reason = (error as? ByteError)?.description ?? "\(error)"
        e.malformed = reason
        if r.originalLength != nil {
            e.malformed = "\(reason) (the capture kept only \(r.data.count) of \(r.originalLength!) bytes)"
        }
        e.summary = "Malformed \(layer): \(e.malformed!) — \(Hex.spaced(r.data, limit: 24))"
        e.layers.append(("raw", ["layer": .string(layer), "data": .hex(Array(r.data))]))
    }

    func decodeCommand(_ r: Record, _ e: inout TraceEvent) {
        e.kind = .hciCommand
        do {
            let d = try HCICommandDecoder.decode(r.data)
            e.summary = d.summary
            e.layers = [("hci", d.fields)]
            if let h = d.handle {
                e.handle = h
                e.connection = connections.existing(h)?.id
            }
        } catch {
            markMalformed(&e, r, layer: "HCI command", error)
        }
    }

    func decodeEvent(_ r: Record, _ e: inout TraceEvent) {
        e.kind = .hciEvent
        do {
            let d = try HCIEventDecoder.decode(r.data)
            e.summary = d.summary
            e.layers = [("hci", d.fields)]
            if let ch = d.change { connections.apply(ch, record: r.number, at: r.timestamp) }
            if let h = d.handle {
                e.handle = h
                e.connection = connections.existing(h)?.id
                    ?? connections.all.last(where: { $0.handle == h })?.id
            }
            if !d.reports.isEmpty || d.subevent == 0x02 || d.subevent == 0x0D || d.subevent == 0x0B {
                let complete = advertising.describe(d, record: r.number, &e)
                for report in complete {
                    for o in advertisingObservers { o(report, r.number, r.timestamp) }
                }
            }
        } catch {
            markMalformed(&e, r, layer: "HCI event", error)
        }
    }

    func decodeACL(_ r: Record, _ e: inout TraceEvent) {
        e.kind = .acl
        do {
            let (outcome, warning) = try l2cap.feed(r.data, record: r.number)
            switch outcome {
            case let .frame(frame):
                let conn = connections.connection(for: frame.handle)
                e.handle = frame.handle
                e.connection = conn.id
                var l2 = Fields()
                l2.add("cid", Int(frame.cid))
                l2.add("length", frame.payload.count)
                if frame.fragments > 1 {
                    l2.add("fragments", frame.fragments)
                    l2.add("first_record", frame.firstRecord)
                }
                e.layers = [("l2cap", l2)]
                if let decoder = channels[frame.cid] {
                    decoder.decode(frame, connection: conn, event: &e)
                } else {
                    e.kind = .l2cap
                    e.summary = "L2CAP \(L2CAPText.channelName(frame.cid)), \(frame.payload.count) bytes: \(Hex.spaced(frame.payload, limit: 16))"
                    e.layers[0].1.add("payload", hex: frame.payload)
                }
                if frame.fragments > 1 { e.summary += " (reassembled from \(frame.fragments) fragments, records \(frame.firstRecord)–\(r.number))" }
            case let .partial(handle, have, expected, start):
                e.handle = handle
                e.connection = connections.connection(for: handle).id
                e.summary = "ACL \(start ? "start" : "continuation") fragment: \(have)" + (expected >= 0 ? " of \(expected)" : "") + " bytes of an L2CAP frame"
                e.layers = [("acl", ["handle": .int(Int(handle)), "fragment": .string(start ? "start" : "continuation"),
                                      "have": .int(have), "expected": .int(expected)])]
            case let .problem(handle, reason):
                e.handle = handle
                e.connection = connections.connection(for: handle).id
                e.malformed = reason
                e.summary = "ACL: \(reason)"
                e.layers = [("acl", ["handle": .int(Int(handle)), "data": .hex(Array(r.data))])]
            }
            if let w = warning {
                e.layers.append(("warning", ["reason": .string(w)]))
                e.summary += " [\(w)]"
            }
        } catch {
            markMalformed(&e, r, layer: "ACL", error)
        }
    }

    func decodeISO(_ r: Record, _ e: inout TraceEvent) {
        var c = ByteCursor(r.data)
        if let hf = try? c.u16le(), let len = try? c.u16le() {
            let h = hf & 0x0FFF
            e.handle = h
            e.summary = "ISO data, handle \(Hex.hex(h, width: 4)), \(len) bytes"
            e.layers = [("iso", ["handle": .int(Int(h)), "length": .int(Int(len))])]
        } else {
            markMalformed(&e, r, layer: "ISO", ByteError.truncated(offset: 0, needed: 4, available: r.data.count))
        }
    }

    /// Call after the last record: reports frames left half-assembled.
    public func finish() -> [String] {
        l2cap.unfinished.map { "L2CAP frame on handle \(Hex.hex($0.handle, width: 4)) started at record \($0.firstRecord) never completed (\($0.have) of \($0.expected) bytes)" }
            + advertising.finish()
    }
}

public enum L2CAPText {
    public static func channelName(_ cid: UInt16) -> String {
        switch cid {
        case 0x0001: return "BR/EDR signaling (CID 0x0001)"
        case 0x0002: return "connectionless (CID 0x0002)"
        case 0x0004: return "ATT (CID 0x0004)"
        case 0x0005: return "LE signaling (CID 0x0005)"
        case 0x0006: return "SMP (CID 0x0006)"
        case 0x0007: return "BR/EDR SMP (CID 0x0007)"
        default: return "CID \(Hex.hex(cid, width: 4))"
        }
    }
}

/// Text and fields for the non-HCI records formats carry (PacketLogger notes, btmon system notes, index events).
enum Notes {
    static func describe(_ r: Record, _ e: inout TraceEvent) {
        let text = String(decoding: r.data.prefix(while: { $0 != 0 }), as: UTF8.self)
        var f = Fields()
        if r.sourceType != 0 || r.kind == .note {
            f.add("source_type", Int(r.sourceType))
        }
        let label: String
        if r.controller != 0 || isMonitor(r) {
            label = MonitorOpcode.name(r.sourceType)
        } else {
            label = PacketLoggerReader.RecordType.name(UInt8(truncatingIfNeeded: r.sourceType))
        }
        f.add("label", label)
        let printable = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.value >= 0x20 || $0 == "\n" || $0 == "\t" }
        if printable {
            f.add("text", text)
            e.summary = "\(label): \(text.replacingNewlines())"
        } else {
            f.add("data", hex: r.data)
            e.summary = "\(label)" + (r.data.isEmpty ? "" : ", \(r.data.count) bytes: \(Hex.spaced(r.data, limit: 16))")
        }
        e.layers = [("note", f)]
    }

    static func isMonitor(_ r: Record) -> Bool { r.sourceType < 0x20 }
}

extension String {
    func replacingNewlines() -> String {
        var s = ""
        s.reserveCapacity(utf8.count)
        for ch in self { s.append(ch == "\n" || ch == "\r" ? " " : ch) }
        return s
    }
}
