/// Text and JSON of AVCTP frames and the AVRCP they carry.
public enum AVRCPNames {
    public static func ctype(_ c: UInt8) -> String {
        switch c {
        case 0x0: return "control"
        case 0x1: return "status"
        case 0x2: return "specific inquiry"
        case 0x3: return "notify"
        case 0x4: return "general inquiry"
        case 0x8: return "not implemented"
        case 0x9: return "accepted"
        case 0xA: return "rejected"
        case 0xB: return "in transition"
        case 0xC: return "stable"
        case 0xD: return "changed"
        case 0xF: return "interim"
        default: return "ctype \(Hex.hex(c, width: 1))"
        }
    }

    public static func opcode(_ o: UInt8) -> String {
        switch o {
        case 0x00: return "vendor dependent"
        case 0x30: return "unit info"
        case 0x31: return "subunit info"
        case 0x7C: return "pass through"
        default: return "opcode \(Hex.hex(o, width: 2))"
        }
    }

    public static func operation(_ op: UInt8) -> String {
        switch op {
        case 0x41: return "Volume Up"
        case 0x42: return "Volume Down"
        case 0x43: return "Mute"
        case 0x44: return "Play"
        case 0x45: return "Stop"
        case 0x46: return "Pause"
        case 0x47: return "Record"
        case 0x48: return "Rewind"
        case 0x49: return "Fast Forward"
        case 0x4A: return "Eject"
        case 0x4B: return "Forward"
        case 0x4C: return "Backward"
        default: return "operation \(Hex.hex(op, width: 2))"
        }
    }

    public static func pdu(_ p: UInt8) -> String {
        switch p {
        case 0x10: return "Get Capabilities"
        case 0x11: return "List Player Application Setting Attributes"
        case 0x13: return "Get Current Player Application Setting Value"
        case 0x14: return "Set Player Application Setting Value"
        case 0x20: return "Get Element Attributes"
        case 0x30: return "Get Play Status"
        case 0x31: return "Register Notification"
        case 0x40: return "Request Continuing Response"
        case 0x41: return "Abort Continuing Response"
        case 0x50: return "Set Absolute Volume"
        case 0x60: return "Set Addressed Player"
        case 0x74: return "Play Item"
        default: return "PDU \(Hex.hex(p, width: 2))"
        }
    }

    public static func event(_ e: UInt8) -> String {
        let names = ["", "Playback Status Changed", "Track Changed", "Track Reached End", "Track Reached Start",
                     "Playback Position Changed", "Battery Status Changed", "System Status Changed",
                     "Player Application Setting Changed", "Now Playing Content Changed", "Available Players Changed",
                     "Addressed Player Changed", "UIDs Changed", "Volume Changed"]
        return Int(e) < names.count && e > 0 ? names[Int(e)] : "event \(Hex.hex(e, width: 2))"
    }
}

extension AVCTPFrame {
    func writeText(into b: inout TextBytes) {
        guard let avc else {
            b.append(string: "AVCTP ")
            b.append(string: response ? "response" : "command")
            b.append(string: " (label ")
            b.append(decimal: Int(label))
            b.append(string: "), ")
            b.append(decimal: message.count)
            b.append(string: " bytes")
            if invalidProfile { b.append(string: ", profile not supported") }
            return
        }
        if let p = avc.passThrough {
            b.append(string: "AVRCP pass through ")
            b.append(string: AVRCPNames.ctype(avc.ctype))
            b.append(string: ": ")
            b.append(string: AVRCPNames.operation(p.operation))
            b.append(string: p.released ? " released" : " pressed")
        } else if let r = avc.avrcp {
            b.append(string: "AVRCP ")
            b.append(string: AVRCPNames.pdu(r.pdu))
            b.append(UInt8(ascii: " "))
            b.append(string: AVRCPNames.ctype(avc.ctype))
            if r.pdu == 0x31, let ev = r.parameters.first {
                b.append(string: ": ")
                b.append(string: AVRCPNames.event(ev))
                if ev == 0x0D, r.parameters.count >= 2 {
                    b.append(string: ", volume ")
                    b.append(decimal: Int(r.parameters[r.parameters.startIndex + 1] & 0x7F))
                    b.append(string: "/127")
                }
            } else if r.pdu == 0x50, let v = r.parameters.first {
                b.append(string: ": volume ")
                b.append(decimal: Int(v & 0x7F))
                b.append(string: "/127")
            }
        } else {
            b.append(string: "AV/C ")
            b.append(string: AVRCPNames.opcode(avc.opcode))
            b.append(UInt8(ascii: " "))
            b.append(string: AVRCPNames.ctype(avc.ctype))
        }
        b.append(string: " (label ")
        b.append(decimal: Int(label))
        b.append(UInt8(ascii: ")"))
    }

    func writeLayers<S: FieldSink>(into s: inout S) {
        s.object("avctp") { s in
            s.field("label", label)
            s.field("packet_type", packetType)
            s.field("response", response)
            if invalidProfile { s.field("invalid_profile", true) }
            if let p = pid { s.field("pid", p) }
            if let avc {
                s.field("ctype", avc.ctype)
                s.field("ctype_name", AVRCPNames.ctype(avc.ctype))
                s.field("subunit_type", avc.subunitType)
                s.field("opcode", avc.opcode)
                s.field("opcode_name", AVRCPNames.opcode(avc.opcode))
                if let p = avc.passThrough {
                    s.field("operation", p.operation)
                    s.field("operation_name", AVRCPNames.operation(p.operation))
                    s.field("released", p.released)
                } else if let r = avc.avrcp {
                    s.field("avrcp_pdu", r.pdu)
                    s.field("avrcp_pdu_name", AVRCPNames.pdu(r.pdu))
                    if !r.parameters.isEmpty { s.field("parameters", hex: r.parameters) }
                } else if !avc.operands.isEmpty {
                    s.field("operands", hex: avc.operands)
                }
            } else if !message.isEmpty {
                s.field("message", hex: message)
            }
        }
    }
}
