/// The parameters of the BR/EDR (classic) HCI commands bletrace decodes (Core 5.4 Vol 4 Part E 7.1–7.3):
/// inquiry, connections, names, features, pairing replies, synchronous links, sniff and roles, scan and
/// identity settings. Values only; names and text are made by `ClassicCommandRender`.
public enum ClassicCommandParams: Sendable, Equatable {
    /// 0x0401: LAP, length in 1.28 s units, the number of responses wanted (0: unlimited).
    case inquiry(lap: UInt32, length: UInt8, responses: UInt8)
    /// 0x0405
    case createConnection(address: BDAddr, packetType: UInt16, allowRoleSwitch: UInt8)
    /// 0x0409: the role the local device takes (0 central, 1 peripheral).
    case acceptConnection(address: BDAddr, role: UInt8)
    /// 0x040A
    case rejectConnection(address: BDAddr, reason: UInt8)
    /// 0x040B: the key (replaced under `--redact`).
    case linkKeyReply(address: BDAddr, key: ArraySlice<UInt8>)
    /// 0x040D: the PIN (its first `length` bytes count).
    case pinCodeReply(address: BDAddr, length: UInt8, pin: ArraySlice<UInt8>)
    /// Commands whose only parameter is an address: 0x040C, 0x040E Link Key / PIN Code Negative Reply,
    /// 0x041A Remote Name Request Cancel, 0x042C, 0x042D User Confirmation (Negative) Reply, 0x042F User
    /// Passkey Negative Reply.
    case addressOnly(BDAddr)
    /// 0x0413
    case setConnectionEncryption(handle: UInt16, enable: UInt8)
    /// 0x0419
    case remoteNameRequest(address: BDAddr, pageScanRepetitionMode: UInt8, clockOffset: UInt16)
    /// 0x041C
    case readRemoteExtendedFeatures(handle: UInt16, page: UInt8)
    /// 0x0428 Setup Synchronous Connection (handle) and 0x0429 Accept Synchronous Connection Request (address).
    case synchronousConnection(handle: UInt16?, address: BDAddr?, txBandwidth: UInt32, rxBandwidth: UInt32, maxLatency: UInt16,
                               voiceSetting: UInt16, retransmissionEffort: UInt8, packetType: UInt16)
    /// 0x042B
    case ioCapabilityReply(address: BDAddr, ioCapability: UInt8, oobPresent: UInt8, authenticationRequirements: UInt8)
    /// 0x042E
    case userPasskeyReply(address: BDAddr, passkey: UInt32)
    /// 0x0803: intervals and timeouts in 0.625 ms slots.
    case sniffMode(handle: UInt16, maxInterval: UInt16, minInterval: UInt16, attempt: UInt16, timeout: UInt16)
    /// 0x080B
    case switchRole(address: BDAddr, role: UInt8)
    /// 0x0811
    case sniffSubrating(handle: UInt16, maxLatency: UInt16, minRemoteTimeout: UInt16, minLocalTimeout: UInt16)
    /// 0x0C13: the name (UTF-8, NUL-terminated within 248 bytes).
    case writeLocalName(ArraySlice<UInt8>)
    /// 0x0C1A: bit 0 inquiry scan, bit 1 page scan.
    case writeScanEnable(UInt8)
    /// 0x0C24
    case writeClassOfDevice(UInt32)

    static func parse(_ opcode: UInt16, _ p: inout ByteCursor) throws -> ClassicCommandParams? {
        switch opcode {
        case 0x0401: return .inquiry(lap: try p.u24le(), length: try p.u8(), responses: try p.u8())
        case 0x0405:
            let a = try p.address(), packets = try p.u16le()
            _ = try p.u8(); _ = try p.u8(); _ = try p.u16le()
            return .createConnection(address: a, packetType: packets, allowRoleSwitch: try p.u8())
        case 0x0409: return .acceptConnection(address: try p.address(), role: try p.u8())
        case 0x040A: return .rejectConnection(address: try p.address(), reason: try p.u8())
        case 0x040B: return .linkKeyReply(address: try p.address(), key: try p.bytes(16))
        case 0x040D:
            let a = try p.address(), n = try p.u8()
            return .pinCodeReply(address: a, length: n, pin: try p.bytes(16))
        case 0x040C, 0x040E, 0x041A, 0x042C, 0x042D, 0x042F: return .addressOnly(try p.address())
        case 0x0413: return .setConnectionEncryption(handle: try p.u16le() & 0x0FFF, enable: try p.u8())
        case 0x0419:
            let a = try p.address(), psrm = try p.u8()
            _ = try p.u8()
            return .remoteNameRequest(address: a, pageScanRepetitionMode: psrm, clockOffset: try p.u16le())
        case 0x041C: return .readRemoteExtendedFeatures(handle: try p.u16le() & 0x0FFF, page: try p.u8())
        case 0x0428, 0x0429:
            let h: UInt16? = opcode == 0x0428 ? try p.u16le() & 0x0FFF : nil
            let a: BDAddr? = opcode == 0x0429 ? try p.address() : nil
            return .synchronousConnection(handle: h, address: a, txBandwidth: try p.u32le(), rxBandwidth: try p.u32le(),
                                          maxLatency: try p.u16le(), voiceSetting: try p.u16le(),
                                          retransmissionEffort: try p.u8(), packetType: try p.u16le())
        case 0x042B:
            return .ioCapabilityReply(address: try p.address(), ioCapability: try p.u8(), oobPresent: try p.u8(),
                                      authenticationRequirements: try p.u8())
        case 0x042E: return .userPasskeyReply(address: try p.address(), passkey: try p.u32le())
        case 0x0803:
            return .sniffMode(handle: try p.u16le() & 0x0FFF, maxInterval: try p.u16le(), minInterval: try p.u16le(),
                              attempt: try p.u16le(), timeout: try p.u16le())
        case 0x080B: return .switchRole(address: try p.address(), role: try p.u8())
        case 0x0811:
            return .sniffSubrating(handle: try p.u16le() & 0x0FFF, maxLatency: try p.u16le(), minRemoteTimeout: try p.u16le(),
                                   minLocalTimeout: try p.u16le())
        case 0x0C13: return .writeLocalName(p.rest().prefix(while: { $0 != 0 }))
        case 0x0C1A: return .writeScanEnable(try p.u8())
        case 0x0C24: return .writeClassOfDevice(try p.u24le())
        default: return nil
        }
    }

    var handle: UInt16? {
        switch self {
        case let .setConnectionEncryption(h, _), let .readRemoteExtendedFeatures(h, _), let .sniffMode(h, _, _, _, _),
             let .sniffSubrating(h, _, _, _):
            return h
        case let .synchronousConnection(h, _, _, _, _, _, _, _): return h
        default: return nil
        }
    }

    var address: BDAddr? {
        switch self {
        case let .createConnection(a, _, _), let .acceptConnection(a, _), let .rejectConnection(a, _), let .linkKeyReply(a, _),
             let .pinCodeReply(a, _, _), let .addressOnly(a), let .remoteNameRequest(a, _, _), let .ioCapabilityReply(a, _, _, _),
             let .userPasskeyReply(a, _), let .switchRole(a, _):
            return a
        case let .synchronousConnection(_, a, _, _, _, _, _, _): return a
        default: return nil
        }
    }
}
