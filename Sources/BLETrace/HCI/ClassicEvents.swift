/// The parameters of the BR/EDR (classic) HCI events bletrace decodes (Core 5.4 Vol 4 Part E 7.7): inquiry,
/// connection requests, names, features, pairing (legacy and Secure Simple Pairing), roles, modes and
/// synchronous (SCO/eSCO) links. Values only; names and text are made by `ClassicEventRender`.
public enum ClassicEventParams: Sendable, Equatable {
    /// 0x01
    case inquiryComplete(status: UInt8)
    /// 0x02 Inquiry Result, 0x22 Inquiry Result with RSSI, 0x2F Extended Inquiry Result.
    case inquiryResult([InquiryResponse])
    /// 0x04
    case connectionRequest(address: BDAddr, classOfDevice: UInt32, linkType: UInt8)
    /// 0x06
    case authenticationComplete(status: UInt8, handle: UInt16)
    /// 0x07: the name as sent (UTF-8, NUL-terminated within 248 bytes).
    case remoteNameComplete(status: UInt8, address: BDAddr, name: ArraySlice<UInt8>)
    /// 0x0B Read Remote Supported Features Complete (page 0), 0x23 Read Remote Extended Features Complete.
    case remoteFeatures(status: UInt8, handle: UInt16, page: UInt8, maxPage: UInt8, features: ArraySlice<UInt8>)
    /// 0x12
    case roleChange(status: UInt8, address: BDAddr, role: UInt8)
    /// 0x14: mode 0 active, 1 hold, 2 sniff; interval in 0.625 ms slots.
    case modeChange(status: UInt8, handle: UInt16, mode: UInt8, interval: UInt16)
    /// 0x16
    case pinCodeRequest(address: BDAddr)
    /// 0x17
    case linkKeyRequest(address: BDAddr)
    /// 0x18: the key (redacted by `--redact`) and its type.
    case linkKeyNotification(address: BDAddr, key: ArraySlice<UInt8>, keyType: UInt8)
    /// 0x2C Synchronous Connection Complete.
    case synchronousConnectionComplete(status: UInt8, handle: UInt16, address: BDAddr, linkType: UInt8, interval: UInt8,
                                       window: UInt8, rxLength: UInt16, txLength: UInt16, airMode: UInt8)
    /// 0x2D Synchronous Connection Changed.
    case synchronousConnectionChanged(status: UInt8, handle: UInt16, interval: UInt8, window: UInt8, rxLength: UInt16, txLength: UInt16)
    /// 0x2E Sniff Subrating (latencies and timeouts in 0.625 ms slots).
    case sniffSubrating(status: UInt8, handle: UInt16, maxTxLatency: UInt16, maxRxLatency: UInt16, minRemoteTimeout: UInt16,
                        minLocalTimeout: UInt16)
    /// 0x31
    case ioCapabilityRequest(address: BDAddr)
    /// 0x32
    case ioCapabilityResponse(address: BDAddr, ioCapability: UInt8, oobPresent: UInt8, authenticationRequirements: UInt8)
    /// 0x33: the six-digit value to compare.
    case userConfirmationRequest(address: BDAddr, value: UInt32)
    /// 0x34
    case userPasskeyRequest(address: BDAddr)
    /// 0x36
    case simplePairingComplete(status: UInt8, address: BDAddr)
    /// 0x3B
    case userPasskeyNotification(address: BDAddr, passkey: UInt32)

    /// The event codes read here.
    static func handles(_ code: UInt8) -> Bool {
        switch code {
        case 0x01, 0x02, 0x04, 0x06, 0x07, 0x0B, 0x12, 0x14, 0x16, 0x17, 0x18, 0x22, 0x23, 0x2C, 0x2D, 0x2E, 0x2F, 0x31, 0x32,
             0x33, 0x34, 0x36, 0x3B:
            return true
        default:
            return false
        }
    }

    static func parse(_ code: UInt8, _ p: inout ByteCursor) throws -> ClassicEventParams {
        func cod(_ p: inout ByteCursor) throws -> UInt32 { try p.u24le() }
        switch code {
        case 0x01: return .inquiryComplete(status: try p.u8())
        case 0x02, 0x22, 0x2F:
            let n = Int(try p.u8())
            var out: [InquiryResponse] = []
            for _ in 0..<n {
                let a = try p.address(), psrm = try p.u8()
                _ = try p.u8()
                if code == 0x02 { _ = try p.u8() }
                let c = try cod(&p), offset = try p.u16le()
                var r = InquiryResponse(address: a, pageScanRepetitionMode: psrm, classOfDevice: c, clockOffset: offset)
                if code != 0x02 {
                    // 127 is the HCI's "RSSI not available" (valid values run -127 to +20 dBm).
                    let v = try p.i8()
                    r.rssi = v == 127 ? nil : v
                }
                if code == 0x2F { r.eir = InquiryResponse.significant(p.rest()) }
                out.append(r)
            }
            return .inquiryResult(out)
        case 0x04:
            let a = try p.address(), c = try cod(&p), link = try p.u8()
            return .connectionRequest(address: a, classOfDevice: c, linkType: link)
        case 0x06: return .authenticationComplete(status: try p.u8(), handle: try p.u16le() & 0x0FFF)
        case 0x07:
            let status = try p.u8(), a = try p.address()
            let name = p.rest()
            return .remoteNameComplete(status: status, address: a, name: name.prefix(while: { $0 != 0 }))
        case 0x0B:
            let status = try p.u8(), h = try p.u16le() & 0x0FFF
            return .remoteFeatures(status: status, handle: h, page: 0, maxPage: 0, features: try p.bytes(8))
        case 0x23:
            let status = try p.u8(), h = try p.u16le() & 0x0FFF, page = try p.u8(), maxPage = try p.u8()
            return .remoteFeatures(status: status, handle: h, page: page, maxPage: maxPage, features: try p.bytes(8))
        case 0x12: return .roleChange(status: try p.u8(), address: try p.address(), role: try p.u8())
        case 0x14:
            return .modeChange(status: try p.u8(), handle: try p.u16le() & 0x0FFF, mode: try p.u8(), interval: try p.u16le())
        case 0x16: return .pinCodeRequest(address: try p.address())
        case 0x17: return .linkKeyRequest(address: try p.address())
        case 0x18:
            let a = try p.address(), key = try p.bytes(16)
            return .linkKeyNotification(address: a, key: key, keyType: try p.u8())
        case 0x2C:
            let status = try p.u8(), h = try p.u16le() & 0x0FFF, a = try p.address(), link = try p.u8()
            let interval = try p.u8(), window = try p.u8(), rx = try p.u16le(), tx = try p.u16le(), air = try p.u8()
            return .synchronousConnectionComplete(status: status, handle: h, address: a, linkType: link, interval: interval,
                                                  window: window, rxLength: rx, txLength: tx, airMode: air)
        case 0x2D:
            let status = try p.u8(), h = try p.u16le() & 0x0FFF
            let interval = try p.u8(), window = try p.u8(), rx = try p.u16le(), tx = try p.u16le()
            return .synchronousConnectionChanged(status: status, handle: h, interval: interval, window: window, rxLength: rx, txLength: tx)
        case 0x2E:
            let status = try p.u8(), h = try p.u16le() & 0x0FFF
            return .sniffSubrating(status: status, handle: h, maxTxLatency: try p.u16le(), maxRxLatency: try p.u16le(),
                                   minRemoteTimeout: try p.u16le(), minLocalTimeout: try p.u16le())
        case 0x31: return .ioCapabilityRequest(address: try p.address())
        case 0x32:
            return .ioCapabilityResponse(address: try p.address(), ioCapability: try p.u8(), oobPresent: try p.u8(),
                                         authenticationRequirements: try p.u8())
        case 0x33: return .userConfirmationRequest(address: try p.address(), value: try p.u32le())
        case 0x34: return .userPasskeyRequest(address: try p.address())
        case 0x36: return .simplePairingComplete(status: try p.u8(), address: try p.address())
        case 0x3B: return .userPasskeyNotification(address: try p.address(), passkey: try p.u32le())
        default: throw ByteError.invalid(offset: 0, reason: "event \(Hex.hex(code, width: 2)) is not a classic event")
        }
    }

    /// The connection handle the event is about, where it names one.
    var handle: UInt16? {
        switch self {
        case let .authenticationComplete(_, h), let .remoteFeatures(_, h, _, _, _), let .modeChange(_, h, _, _),
             let .synchronousConnectionComplete(_, h, _, _, _, _, _, _, _), let .synchronousConnectionChanged(_, h, _, _, _, _),
             let .sniffSubrating(_, h, _, _, _, _):
            return h
        default:
            return nil
        }
    }

    /// The status of the events that carry one.
    var status: UInt8? {
        switch self {
        case let .inquiryComplete(s), let .authenticationComplete(s, _), let .remoteNameComplete(s, _, _),
             let .remoteFeatures(s, _, _, _, _), let .roleChange(s, _, _), let .modeChange(s, _, _, _),
             let .synchronousConnectionComplete(s, _, _, _, _, _, _, _, _), let .synchronousConnectionChanged(s, _, _, _, _, _),
             let .sniffSubrating(s, _, _, _, _, _), let .simplePairingComplete(s, _):
            return s
        default:
            return nil
        }
    }

    /// The peer address the event names, where it names one.
    var address: BDAddr? {
        switch self {
        case let .connectionRequest(a, _, _), let .remoteNameComplete(_, a, _), let .roleChange(_, a, _), let .pinCodeRequest(a),
             let .linkKeyRequest(a), let .linkKeyNotification(a, _, _), let .synchronousConnectionComplete(_, _, a, _, _, _, _, _, _),
             let .ioCapabilityRequest(a), let .ioCapabilityResponse(a, _, _, _), let .userConfirmationRequest(a, _),
             let .userPasskeyRequest(a), let .simplePairingComplete(_, a), let .userPasskeyNotification(a, _):
            return a
        default:
            return nil
        }
    }
}

/// One device found by an inquiry.
public struct InquiryResponse: Sendable, Equatable {
    public var address: BDAddr
    public var pageScanRepetitionMode: UInt8
    public var classOfDevice: UInt32
    public var clockOffset: UInt16
    /// Inquiry Result with RSSI and Extended Inquiry Result.
    public var rssi: Int8?
    /// Extended Inquiry Result: the EIR data up to its zero padding (AD structures).
    public var eir: ArraySlice<UInt8>?

    public init(address: BDAddr, pageScanRepetitionMode: UInt8, classOfDevice: UInt32, clockOffset: UInt16) {
        self.address = address
        self.pageScanRepetitionMode = pageScanRepetitionMode
        self.classOfDevice = classOfDevice
        self.clockOffset = clockOffset
    }

    /// EIR data without its padding: the structures up to the first zero length.
    static func significant(_ data: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var i = data.startIndex
        while i < data.endIndex, data[i] != 0 { i += Int(data[i]) + 1 }
        return data[data.startIndex..<min(i, data.endIndex)]
    }
}
