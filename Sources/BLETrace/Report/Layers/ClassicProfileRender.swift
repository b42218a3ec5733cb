/// Text and JSON of RFCOMM frames and SDP PDUs, with the names of SDP service classes and protocols.
public enum ClassicProfileNames {
    public static func serviceClass(_ u: UInt32) -> String? {
        switch u {
        case 0x0001: return "SDP"
        case 0x0003: return "RFCOMM"
        case 0x0008: return "OBEX"
        case 0x000F: return "BNEP"
        case 0x0011: return "HIDP"
        case 0x0017: return "AVCTP"
        case 0x0019: return "AVDTP"
        case 0x0100: return "L2CAP"
        case 0x1000: return "Service Discovery Server"
        case 0x1002: return "Public Browse Root"
        case 0x1101: return "Serial Port"
        case 0x1103: return "Dial-up Networking"
        case 0x1105: return "OBEX Object Push"
        case 0x1106: return "OBEX File Transfer"
        case 0x1108: return "Headset"
        case 0x110A: return "Audio Source"
        case 0x110B: return "Audio Sink"
        case 0x110C: return "A/V Remote Control Target"
        case 0x110D: return "Advanced Audio Distribution"
        case 0x110E: return "A/V Remote Control"
        case 0x110F: return "A/V Remote Control Controller"
        case 0x1112: return "Headset Audio Gateway"
        case 0x1115: return "PANU"
        case 0x1116: return "NAP"
        case 0x111E: return "Handsfree"
        case 0x111F: return "Handsfree Audio Gateway"
        case 0x1124: return "Human Interface Device"
        case 0x112D: return "SIM Access"
        case 0x112F: return "Phonebook Access Server"
        case 0x1132: return "Message Access Server"
        case 0x1200: return "PnP Information"
        case 0x1203: return "Generic Audio"
        default:
            // The rest from the SIG's lists: service classes 0x1000…, protocols below.
            guard u <= 0xFFFF else { return nil }
            let v = UInt16(u)
            return AssignedNumbers.serviceClassName(v) ?? AssignedNumbers.protocolName(v)
        }
    }

    public static func sdpPDU(_ id: UInt8) -> String {
        switch id {
        case 0x01: return "Error Response"
        case 0x02: return "Service Search Request"
        case 0x03: return "Service Search Response"
        case 0x04: return "Service Attribute Request"
        case 0x05: return "Service Attribute Response"
        case 0x06: return "Service Search Attribute Request"
        case 0x07: return "Service Search Attribute Response"
        default: return "PDU \(Hex.hex(id, width: 2))"
        }
    }

    public static func sdpError(_ e: UInt16) -> String {
        switch e {
        case 0x0001: return "Invalid/unsupported SDP version"
        case 0x0002: return "Invalid Service Record Handle"
        case 0x0003: return "Invalid request syntax"
        case 0x0004: return "Invalid PDU Size"
        case 0x0005: return "Invalid Continuation State"
        case 0x0006: return "Insufficient Resources"
        default: return "error \(Hex.hex(e, width: 4))"
        }
    }

    public static func rfcommFrame(_ t: UInt8) -> String {
        switch t {
        case 0x2F: return "SABM"
        case 0x63: return "UA"
        case 0x0F: return "DM"
        case 0x43: return "DISC"
        case 0xEF: return "UIH"
        default: return "frame \(Hex.hex(t, width: 2))"
        }
    }

    public static func multiplexerCommand(_ t: UInt8) -> String {
        switch t {
        case 0x20: return "PN"
        case 0x38: return "MSC"
        case 0x24: return "RPN"
        case 0x14: return "RLS"
        case 0x08: return "Test"
        case 0x28: return "FCon"
        case 0x18: return "FCoff"
        case 0x04: return "NSC"
        default: return "type \(Hex.hex(t, width: 2))"
        }
    }

    static func uuidName(_ u: UInt32) -> String {
        serviceClass(u) ?? Hex.hex(u, width: u > 0xFFFF ? 8 : 4)
    }

    /// Printable ASCII (AT commands) as a quoted string with CR and LF shown, anything else as hex.
    static func payloadText(_ data: ArraySlice<UInt8>) -> String {
        if !data.isEmpty, data.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0D || $0 == 0x0A }) {
            var s = "\""
            for b in data {
                switch b {
                case 0x0D: s += "\\r"
                case 0x0A: s += "\\n"
                case 0x22: s += "\\\""
                case 0x5C: s += "\\\\"
                default: s.unicodeScalars.append(Unicode.Scalar(b))
                }
            }
            return s + "\""
        }
        return Hex.spaced(data, limit: 16)
    }
}

extension RFCOMMFrame {
    func writeText(into b: inout TextBytes) {
        b.append(string: "RFCOMM ")
        b.append(string: ClassicProfileNames.rfcommFrame(frameType))
        b.append(string: " DLCI ")
        b.append(decimal: Int(dlci))
        if dlci > 0 {
            b.append(string: " (channel ")
            b.append(decimal: Int(dlci >> 1))
            b.append(UInt8(ascii: ")"))
        }
        if let c = credits {
            b.append(string: ", ")
            b.append(decimal: Int(c))
            b.append(string: c == 1 ? " credit" : " credits")
        }
        if let m = control {
            b.append(string: ": ")
            b.append(string: ClassicProfileNames.multiplexerCommand(m.type))
            b.append(string: m.command ? " command" : " response")
            if (m.type == 0x20 || m.type == 0x38 || m.type == 0x24), let d = m.value.first {
                // PN carries the DLCI itself; MSC and RPN an address field (EA, C/R, DLCI).
                b.append(string: ", DLCI ")
                b.append(decimal: Int(m.type == 0x20 ? d & 0x3F : d >> 2))
            }
            if m.type == 0x20, m.value.count >= 8 {
                let v = Array(m.value)
                b.append(string: ", frame size ")
                b.append(decimal: Int(v[4]) | Int(v[5]) << 8)
            }
        } else if frameType == 0xEF, !information.isEmpty {
            b.append(string: ": ")
            b.append(string: ClassicProfileNames.payloadText(information))
        }
    }

    func writeLayers<S: FieldSink>(into s: inout S) {
        s.object("rfcomm") { s in
            s.field("dlci", dlci)
            if dlci > 0 { s.field("server_channel", dlci >> 1) }
            s.field("frame_type", frameType)
            s.field("frame_name", ClassicProfileNames.rfcommFrame(frameType))
            s.field("poll_final", pollFinal)
            if let c = credits { s.field("credits", c) }
            if let m = control {
                s.field("control", ClassicProfileNames.multiplexerCommand(m.type))
                s.field("control_command", m.command)
                s.field("control_value", hex: m.value)
            } else {
                s.field("length", information.count)
                if !information.isEmpty { s.field("data", hex: information) }
            }
        }
    }
}

extension SDPPDU {
    func writeText(into b: inout TextBytes) {
        b.append(string: "SDP ")
        b.append(string: ClassicProfileNames.sdpPDU(id))
        b.append(string: " (transaction ")
        b.append(decimal: Int(transaction))
        b.append(UInt8(ascii: ")"))
        var parts = uuids.map { ClassicProfileNames.uuidName($0) }
        if longUUIDs > 0 { parts.append("\(longUUIDs) 128-bit UUID\(longUUIDs == 1 ? "" : "s")") }
        if let r = records { parts.append("\(r) record\(r == 1 ? "" : "s")") }
        if let n = attributeBytes { parts.append("\(n) bytes of attributes") }
        if let e = error { parts.append(ClassicProfileNames.sdpError(e)) }
        if !parts.isEmpty {
            b.append(string: ": ")
            b.append(string: parts.joined(separator: ", "))
        }
    }

    func writeLayers<S: FieldSink>(into s: inout S) {
        s.object("sdp") { s in
            s.field("pdu", id)
            s.field("name", ClassicProfileNames.sdpPDU(id))
            s.field("transaction", transaction)
            if id == 0x02 || id == 0x06 {
                s.list("service_search_pattern") { l in
                    for u in uuids {
                        l.beginObject()
                        l.field("uuid", Hex.hex(u, width: u > 0xFFFF ? 8 : 4).dropFirst(2).uppercased())
                        if let n = ClassicProfileNames.serviceClass(u) { l.field("name", n) }
                        l.endObject()
                    }
                }
            }
            if let r = records { s.field("records", r) }
            if let n = attributeBytes { s.field("attribute_bytes", n) }
            if let e = error {
                s.field("error", e)
                s.field("error_name", ClassicProfileNames.sdpError(e))
            }
        }
    }
}
