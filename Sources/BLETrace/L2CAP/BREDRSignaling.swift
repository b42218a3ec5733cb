/// One command on the BR/EDR signaling channel (ACL-U CID 0x0001, Core 5.4 Vol 3 Part A 4). Values only:
/// names and text are made by `Report/Layers/BREDRSignalingRender.swift`.
public enum BREDRSignalingCommand: Sendable, Equatable {
    case commandReject(reason: UInt16, data: ArraySlice<UInt8>)
    case connectionRequest(psm: UInt16, scid: UInt16)
    case connectionResponse(dcid: UInt16, scid: UInt16, result: UInt16, status: UInt16)
    case configurationRequest(dcid: UInt16, flags: UInt16, options: [ConfigurationOption])
    case configurationResponse(scid: UInt16, flags: UInt16, result: UInt16, options: [ConfigurationOption])
    case disconnectionRequest(dcid: UInt16, scid: UInt16)
    case disconnectionResponse(dcid: UInt16, scid: UInt16)
    case echoRequest(data: ArraySlice<UInt8>)
    case echoResponse(data: ArraySlice<UInt8>)
    case informationRequest(infoType: UInt16)
    /// The data is read by `infoType` when rendered: connectionless MTU, extended features mask, fixed channels.
    case informationResponse(infoType: UInt16, result: UInt16, data: ArraySlice<UInt8>)
    case createChannelRequest(psm: UInt16, scid: UInt16, controllerID: UInt8)
    case createChannelResponse(dcid: UInt16, scid: UInt16, result: UInt16, status: UInt16)
    case moveChannelRequest(icid: UInt16, controllerID: UInt8)
    case moveChannelResponse(icid: UInt16, result: UInt16)
    case moveChannelConfirmationRequest(icid: UInt16, result: UInt16)
    case moveChannelConfirmationResponse(icid: UInt16)
    case flowControlCredit(cid: UInt16, credits: UInt16)
    case creditBasedConnectionRequest(spsm: UInt16, mtu: UInt16, mps: UInt16, credits: UInt16, scids: [UInt16])
    case creditBasedConnectionResponse(mtu: UInt16, mps: UInt16, credits: UInt16, result: UInt16, dcids: [UInt16])
    case creditBasedReconfigureRequest(mtu: UInt16, mps: UInt16, dcids: [UInt16])
    case creditBasedReconfigureResponse(result: UInt16)
    case unknown(code: UInt8, data: ArraySlice<UInt8>)

    /// Reads one command's data (after code, identifier and length).
    static func parse(code: UInt8, _ d: inout ByteCursor) throws -> BREDRSignalingCommand {
        func cids(_ d: inout ByteCursor) throws -> [UInt16] {
            var out: [UInt16] = []
            while d.remaining >= 2 { out.append(try d.u16le()) }
            if !d.isAtEnd { throw d.invalid("odd byte after the CID list") }
            return out
        }
        switch code {
        case 0x01: return .commandReject(reason: try d.u16le(), data: d.rest())
        case 0x02: return .connectionRequest(psm: try d.u16le(), scid: try d.u16le())
        case 0x03: return .connectionResponse(dcid: try d.u16le(), scid: try d.u16le(), result: try d.u16le(), status: try d.u16le())
        case 0x04: return .configurationRequest(dcid: try d.u16le(), flags: try d.u16le(), options: try ConfigurationOption.parseAll(&d))
        case 0x05:
            let scid = try d.u16le(), flags = try d.u16le(), result = try d.u16le()
            return .configurationResponse(scid: scid, flags: flags, result: result, options: try ConfigurationOption.parseAll(&d))
        case 0x06: return .disconnectionRequest(dcid: try d.u16le(), scid: try d.u16le())
        case 0x07: return .disconnectionResponse(dcid: try d.u16le(), scid: try d.u16le())
        case 0x08: return .echoRequest(data: d.rest())
        case 0x09: return .echoResponse(data: d.rest())
        case 0x0A: return .informationRequest(infoType: try d.u16le())
        case 0x0B: return .informationResponse(infoType: try d.u16le(), result: try d.u16le(), data: d.rest())
        case 0x0C: return .createChannelRequest(psm: try d.u16le(), scid: try d.u16le(), controllerID: try d.u8())
        case 0x0D: return .createChannelResponse(dcid: try d.u16le(), scid: try d.u16le(), result: try d.u16le(), status: try d.u16le())
        case 0x0E: return .moveChannelRequest(icid: try d.u16le(), controllerID: try d.u8())
        case 0x0F: return .moveChannelResponse(icid: try d.u16le(), result: try d.u16le())
        case 0x10: return .moveChannelConfirmationRequest(icid: try d.u16le(), result: try d.u16le())
        case 0x11: return .moveChannelConfirmationResponse(icid: try d.u16le())
        case 0x16: return .flowControlCredit(cid: try d.u16le(), credits: try d.u16le())
        case 0x17:
            let spsm = try d.u16le(), mtu = try d.u16le(), mps = try d.u16le(), cr = try d.u16le()
            return .creditBasedConnectionRequest(spsm: spsm, mtu: mtu, mps: mps, credits: cr, scids: try cids(&d))
        case 0x18:
            let mtu = try d.u16le(), mps = try d.u16le(), cr = try d.u16le(), res = try d.u16le()
            return .creditBasedConnectionResponse(mtu: mtu, mps: mps, credits: cr, result: res, dcids: try cids(&d))
        case 0x19:
            let mtu = try d.u16le(), mps = try d.u16le()
            return .creditBasedReconfigureRequest(mtu: mtu, mps: mps, dcids: try cids(&d))
        case 0x1A: return .creditBasedReconfigureResponse(result: try d.u16le())
        default: return .unknown(code: code, data: d.rest())
        }
    }
}

/// One command of a C-frame, with its code and identifier and the bytes its length covered beyond what the
/// command uses.
public struct BREDRSignalingEntry: Sendable, Equatable {
    public var code: UInt8
    public var identifier: UInt8
    public var command: BREDRSignalingCommand
    public var surplus: Int
    /// The PSM of the channel the command opens, configures or closes, where the channel table knows it.
    public var psm: UInt16? = nil
}

/// A BR/EDR C-frame: one or more commands (Core 5.4 Vol 3 Part A 4: on ACL-U a C-frame may carry several).
public struct BREDRSignalingFrame: Sendable {
    public var commands: [BREDRSignalingEntry]
    /// Why the frame stops being readable after `commands`, when it does.
    public var problem: String?
    /// The whole frame.
    public var bytes: ArraySlice<UInt8> = []

    /// Parses every command of the frame; a command that does not parse ends it with a problem. Throws only
    /// when not even the first command parses.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws -> BREDRSignalingFrame {
        var c = ByteCursor(bytes)
        var out = BREDRSignalingFrame(commands: [], problem: nil, bytes: bytes)
        repeat {
            do {
                let code = try c.u8(), id = try c.u8(), len = Int(try c.u16le())
                var d = ByteCursor(try c.bytes(len))
                let command = try BREDRSignalingCommand.parse(code: code, &d)
                out.commands.append(BREDRSignalingEntry(code: code, identifier: id, command: command, surplus: d.remaining))
            } catch {
                if out.commands.isEmpty { throw error }
                out.problem = "command \(out.commands.count + 1): " + ((error as? ByteError)?.description ?? "\(error)")
                return out
            }
        } while !c.isAtEnd
        return out
    }
}

/// A configuration option of a Configuration Request or Response (Core 5.4 Vol 3 Part A 5).
public struct ConfigurationOption: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case mtu(UInt16)
        /// Milliseconds; 0xFFFF: infinite (retransmit until the link is lost).
        case flushTimeout(UInt16)
        case qos(flags: UInt8, serviceType: UInt8, tokenRate: UInt32, tokenBucketSize: UInt32, peakBandwidth: UInt32,
                 latency: UInt32, delayVariation: UInt32)
        case retransmissionAndFlowControl(mode: UInt8, txWindow: UInt8, maxTransmit: UInt8, retransmissionTimeout: UInt16,
                                          monitorTimeout: UInt16, mps: UInt16)
        /// 0: no FCS, 1: 16-bit FCS.
        case fcs(UInt8)
        case extendedFlowSpec(identifier: UInt8, serviceType: UInt8, maxSDUSize: UInt16, sduInterArrivalTime: UInt32,
                              accessLatency: UInt32, flushTimeout: UInt32)
        case extendedWindowSize(UInt16)
        /// An option type this decoder does not know (or a known one of the wrong length): its bytes.
        case other(ArraySlice<UInt8>)
    }

    /// The option type without the hint bit.
    public var type: UInt8
    /// The hint bit: the receiver may skip the option if it does not know it.
    public var hint: Bool
    public var value: Value

    static func parseAll(_ d: inout ByteCursor) throws -> [ConfigurationOption] {
        var out: [ConfigurationOption] = []
        while !d.isAtEnd {
            let t = try d.u8(), len = Int(try d.u8())
            var o = ByteCursor(try d.bytes(len))
            let type = t & 0x7F
            let value: Value
            switch (type, len) {
            case (0x01, 2): value = .mtu(try o.u16le())
            case (0x02, 2): value = .flushTimeout(try o.u16le())
            case (0x03, 22):
                value = .qos(flags: try o.u8(), serviceType: try o.u8(), tokenRate: try o.u32le(), tokenBucketSize: try o.u32le(),
                             peakBandwidth: try o.u32le(), latency: try o.u32le(), delayVariation: try o.u32le())
            case (0x04, 9):
                value = .retransmissionAndFlowControl(mode: try o.u8(), txWindow: try o.u8(), maxTransmit: try o.u8(),
                                                      retransmissionTimeout: try o.u16le(), monitorTimeout: try o.u16le(),
                                                      mps: try o.u16le())
            case (0x05, 1): value = .fcs(try o.u8())
            case (0x06, 16):
                value = .extendedFlowSpec(identifier: try o.u8(), serviceType: try o.u8(), maxSDUSize: try o.u16le(),
                                          sduInterArrivalTime: try o.u32le(), accessLatency: try o.u32le(), flushTimeout: try o.u32le())
            case (0x07, 2): value = .extendedWindowSize(try o.u16le())
            default: value = .other(o.rest())
            }
            out.append(ConfigurationOption(type: type, hint: t & 0x80 != 0, value: value))
        }
        return out
    }
}
