/// Names and text of HID messages (HID Profile 1.1, 3.1).
enum HIDNames {
    static func type(_ t: UInt8) -> String {
        switch t {
        case 0x0: return "HANDSHAKE"
        case 0x1: return "HID_CONTROL"
        case 0x4: return "GET_REPORT"
        case 0x5: return "SET_REPORT"
        case 0x6: return "GET_PROTOCOL"
        case 0x7: return "SET_PROTOCOL"
        case 0xA: return "DATA"
        default: return "reserved type \(Hex.hex(t, width: 1))"
        }
    }

    static func reportType(_ r: UInt8) -> String {
        switch r {
        case 1: return "Input"
        case 2: return "Output"
        case 3: return "Feature"
        default: return "Other"
        }
    }

    static func handshake(_ r: UInt8) -> String {
        switch r {
        case 0x0: return "successful"
        case 0x1: return "not ready"
        case 0x2: return "invalid report ID"
        case 0x3: return "unsupported request"
        case 0x4: return "invalid parameter"
        case 0xE: return "unknown error"
        case 0xF: return "fatal error"
        default: return "reserved result \(Hex.hex(r, width: 1))"
        }
    }

    static func control(_ c: UInt8) -> String {
        switch c {
        case 0x3: return "SUSPEND"
        case 0x4: return "EXIT_SUSPEND"
        case 0x5: return "VIRTUAL_CABLE_UNPLUG"
        default: return "reserved operation \(Hex.hex(c, width: 1))"
        }
    }
}

extension HIDMessage {
    /// What the header's parameter means for this type, if anything.
    var parameterText: String? {
        if let r = reportType { return HIDNames.reportType(r) + " report" }
        switch type {
        case 0x0: return HIDNames.handshake(parameter)
        case 0x1: return HIDNames.control(parameter)
        case 0x7: return parameter & 1 == 0 ? "Boot protocol" : "Report protocol"
        default: return nil
        }
    }

    func writeText(into b: inout TextBytes) {
        b.append(string: interrupt ? "HID Interrupt " : "HID Control ")
        b.append(string: HIDNames.type(type))
        if let p = parameterText {
            b.append(string: ": ")
            b.append(string: p)
        }
        if !payload.isEmpty {
            b.append(string: ", ")
            b.append(decimal: payload.count)
            b.append(string: payload.count == 1 ? " byte: " : " bytes: ")
            b.append(spacedHex: payload, limit: 16)
        }
    }

    func writeLayers<S: FieldSink>(into s: inout S) {
        s.object("hid") { s in
            s.field("channel", interrupt ? "interrupt" : "control")
            s.field("type", type)
            s.field("type_name", HIDNames.type(type))
            s.field("parameter", parameter)
            if let r = reportType { s.field("report_type", HIDNames.reportType(r).lowercased()) }
            if let p = parameterText, reportType == nil { s.field("parameter_name", p) }
            s.field("data", hex: payload)
        }
    }
}
