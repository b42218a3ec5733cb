/// Text and JSON of `LinkLayerBody`: the one-line text of a sniffed packet shown as itself, and its
/// `sniffer` and `ll` layers (with what the content adds to `ll`).
extension LinkLayerBody: LayerBody {
    public func writeText(_ e: TraceEvent, into b: inout TextBytes) {
        let h = radio.data?.header
        switch content {
        case let .badCRC(pdu):
            b.append(string: "LL packet with bad CRC, AA ")
            b.append(hex: UInt64(radio.packet?.accessAddress ?? 0), width: 8)
            b.append(string: ", ")
            b.append(decimal: pdu.count)
            b.append(string: " bytes (not decoded)")
        case .untracked:
            b.append(string: "LL data PDU on AA ")
            b.append(hex: UInt64(radio.packet?.accessAddress ?? 0), width: 8)
            b.append(string: " (too many access addresses to follow)")
        case .advertising:
            radio.advertising?.writeText(into: &b)
        case let .retransmission(of):
            b.append(string: "LL retransmission of record ")
            b.append(decimal: of)
            b.append(string: " (SN ")
            b.append(decimal: Int(h?.sn ?? 0))
            b.append(string: ", ")
            b.append(decimal: h?.length ?? 0)
            b.append(string: " bytes)")
        case .encrypted:
            b.append(string: h?.llid == 3 ? "LL control (encrypted, " : "LL data (encrypted, ")
            b.append(decimal: h?.length ?? 0)
            b.append(string: " bytes)")
        case .micFailure:
            b.append(string: h?.llid == 3 ? "LL control (encrypted, " : "LL data (encrypted, ")
            b.append(decimal: h?.length ?? 0)
            b.append(string: " bytes, MIC check failed)")
        case let .control(c):
            c.writeText(into: &b)
        case .empty:
            b.append(string: "LL empty PDU (SN ")
            b.append(decimal: Int(h?.sn ?? 0))
            b.append(string: ", NESN ")
            b.append(decimal: Int(h?.nesn ?? 0))
            b.append(UInt8(ascii: ")"))
        case .notFollowed:
            b.append(string: "LL data, ")
            b.append(decimal: h?.length ?? 0)
            b.append(string: " bytes (connection not followed)")
        case let .fragment(start, have, expected):
            b.append(string: start ? "LL data start fragment: " : "LL data continuation fragment: ")
            b.append(decimal: have)
            if expected >= 0 {
                b.append(string: " of ")
                b.append(decimal: expected)
            }
            b.append(string: " bytes of an L2CAP frame")
        case let .problem(reason, _):
            b.append(string: "LL data: ")
            b.append(string: reason)
        case .reservedLLID:
            b.append(string: "LL data PDU with reserved LLID 0, ")
            b.append(decimal: h?.length ?? 0)
            b.append(string: " bytes")
        case let .cisPDU(p):
            p.writeText(into: &b)
        }
    }

    public func writeLayers<S: FieldSink>(_ e: TraceEvent, into s: inout S) {
        radio.writeLayers(into: &s) { s in
            switch content {
            case let .badCRC(pdu):
                s.field("length", pdu.count)
                s.field("data", hex: pdu)
            case let .untracked(pdu):
                s.field("data", hex: pdu)
            case let .retransmission(of):
                s.field("retransmission", true)
                s.field("retransmission_of", of)
            case let .encrypted(payload):
                s.field("encrypted", true)
                s.field("payload", hex: payload)
            case let .micFailure(payload):
                s.field("encrypted", true)
                s.field("mic_failure", true)
                s.field("payload", hex: payload)
            case let .control(c):
                s.object("control") { c.writeFields(into: &$0) }
            case let .fragment(start, have, expected):
                s.field("fragment", start ? "start" : "continuation")
                s.field("have", have)
                s.field("expected", expected)
            case let .problem(_, payload):
                s.field("payload", hex: payload)
            case let .cisPDU(p):
                s.object("cis") { p.writeFields(into: &$0) }
            case .advertising, .empty, .notFollowed, .reservedLLID:
                break
            }
        }
        if case let .problem(reason, _) = content {
            s.object("warning") { $0.field("reason", reason) }
        }
    }
}
