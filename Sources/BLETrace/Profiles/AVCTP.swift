/// AVCTP (PSM 0x0017, and 0x001B for browsing) carrying AV/C frames of AVRCP: pass-through key presses and
/// the AVRCP commands of the Bluetooth SIG's vendor-dependent PDUs. Summarized, not dissected to the last bit;
/// names and text are made by `AVCTPRender`.
public struct AVCTPFrame: Sendable, Equatable {
    public var label: UInt8
    /// 0 single, 1 start, 2 continue, 3 end.
    public var packetType: UInt8
    public var response: Bool
    /// IPID: the profile the command named is not supported (responses only).
    public var invalidProfile: Bool
    /// The profile: 0x110E A/V Remote Control (not carried by continue and end packets).
    public var pid: UInt16?
    /// The AV/C frame of a single packet on the control channel.
    public var avc: AVCFrame?
    /// The message bytes after the AVCTP header.
    public var message: ArraySlice<UInt8>

    public static func parse(_ bytes: ArraySlice<UInt8>, browsing: Bool) throws -> AVCTPFrame {
        var c = ByteCursor(bytes)
        let h = try c.u8()
        let type = (h >> 2) & 3
        var f = AVCTPFrame(label: h >> 4, packetType: type, response: h & 2 != 0, invalidProfile: h & 1 != 0, pid: nil, avc: nil,
                           message: [])
        if type == 1 { _ = try c.u8() }   // number of packets
        if type <= 1 { f.pid = try c.u16be() }
        f.message = c.rest()
        if type == 0, !browsing, f.message.count >= 3 {
            var m = ByteCursor(f.message)
            let ctype = try m.u8() & 0x0F, sub = try m.u8(), op = try m.u8()
            f.avc = AVCFrame(ctype: ctype, subunitType: sub >> 3, subunitID: sub & 7, opcode: op, operands: m.rest())
        }
        return f
    }
}

/// An AV/C frame (AV/C Digital Interface Command Set): command type or response code, subunit and opcode.
public struct AVCFrame: Sendable, Equatable {
    /// Commands: 0 control, 1 status, 2 specific inquiry, 3 notify, 4 general inquiry; responses: 8 not
    /// implemented, 9 accepted, 0xA rejected, 0xB in transition, 0xC implemented/stable, 0xD changed, 0xF interim.
    public var ctype: UInt8
    public var subunitType: UInt8
    public var subunitID: UInt8
    /// 0x00 vendor dependent, 0x30 unit info, 0x31 subunit info, 0x7C pass through.
    public var opcode: UInt8
    public var operands: ArraySlice<UInt8>

    /// A pass-through's operation ID and whether the key was released.
    public var passThrough: (operation: UInt8, released: Bool)? {
        guard opcode == 0x7C, let b = operands.first else { return nil }
        return (b & 0x7F, b & 0x80 != 0)
    }

    /// An AVRCP PDU (vendor dependent, company ID 0x001958): its ID and its parameters.
    public var avrcp: (pdu: UInt8, parameters: ArraySlice<UInt8>)? {
        guard opcode == 0x00, operands.count >= 7 else { return nil }
        let o = Array(operands.prefix(7))
        guard o[0] == 0x00, o[1] == 0x19, o[2] == 0x58 else { return nil }
        return (o[3], operands.dropFirst(7))
    }

    public static func == (a: AVCFrame, b: AVCFrame) -> Bool {
        a.ctype == b.ctype && a.subunitType == b.subunitType && a.subunitID == b.subunitID && a.opcode == b.opcode
            && a.operands == b.operands
    }
}
