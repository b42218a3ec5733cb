/// One command on the LE signaling channel (CID 0x0005, Core 5.4 Vol 3 Part A 4).
public enum LESignalingCommand: Sendable {
    case commandReject(reason: UInt16, data: ArraySlice<UInt8>)
    case disconnectionRequest(dcid: UInt16, scid: UInt16)
    case disconnectionResponse(dcid: UInt16, scid: UInt16)
    case connectionParameterUpdateRequest(minInterval: UInt16, maxInterval: UInt16, latency: UInt16, timeout: UInt16)
    case connectionParameterUpdateResponse(result: UInt16)
    case leCreditBasedConnectionRequest(spsm: UInt16, scid: UInt16, mtu: UInt16, mps: UInt16, credits: UInt16)
    case leCreditBasedConnectionResponse(dcid: UInt16, mtu: UInt16, mps: UInt16, credits: UInt16, result: UInt16)
    case flowControlCredit(cid: UInt16, credits: UInt16)
    case creditBasedConnectionRequest(spsm: UInt16, mtu: UInt16, mps: UInt16, credits: UInt16, scids: [UInt16])
    case creditBasedConnectionResponse(mtu: UInt16, mps: UInt16, credits: UInt16, result: UInt16, dcids: [UInt16])
    case creditBasedReconfigureRequest(mtu: UInt16, mps: UInt16, dcids: [UInt16])
    case creditBasedReconfigureResponse(result: UInt16)
    case unknown(code: UInt8, data: ArraySlice<UInt8>)

    /// Parses one C-frame: code, identifier, length, data. On LE-U a C-frame holds one command.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws -> (code: UInt8, identifier: UInt8, command: LESignalingCommand, surplus: Int) {
        var c = ByteCursor(bytes)
        let code = try c.u8(), id = try c.u8(), len = Int(try c.u16le())
        var d = ByteCursor(try c.bytes(len))
        let surplus = c.remaining
        func cids(_ d: inout ByteCursor) throws -> [UInt16] {
            var out: [UInt16] = []
            while d.remaining >= 2 { out.append(try d.u16le()) }
            if !d.isAtEnd { throw d.invalid("odd byte after the CID list") }
            return out
        }
        let cmd: LESignalingCommand
        switch code {
        case 0x01: cmd = .commandReject(reason: try d.u16le(), data: d.rest())
        case 0x06: cmd = .disconnectionRequest(dcid: try d.u16le(), scid: try d.u16le())
        case 0x07: cmd = .disconnectionResponse(dcid: try d.u16le(), scid: try d.u16le())
        case 0x12:
            cmd = .connectionParameterUpdateRequest(minInterval: try d.u16le(), maxInterval: try d.u16le(), latency: try d.u16le(), timeout: try d.u16le())
        case 0x13: cmd = .connectionParameterUpdateResponse(result: try d.u16le())
        case 0x14:
            cmd = .leCreditBasedConnectionRequest(spsm: try d.u16le(), scid: try d.u16le(), mtu: try d.u16le(), mps: try d.u16le(), credits: try d.u16le())
        case 0x15:
            cmd = .leCreditBasedConnectionResponse(dcid: try d.u16le(), mtu: try d.u16le(), mps: try d.u16le(), credits: try d.u16le(), result: try d.u16le())
        case 0x16: cmd = .flowControlCredit(cid: try d.u16le(), credits: try d.u16le())
        case 0x17:
            let spsm = try d.u16le(), mtu = try d.u16le(), mps = try d.u16le(), cr = try d.u16le()
            cmd = .creditBasedConnectionRequest(spsm: spsm, mtu: mtu, mps: mps, credits: cr, scids: try cids(&d))
        case 0x18:
            let mtu = try d.u16le(), mps = try d.u16le(), cr = try d.u16le(), res = try d.u16le()
            cmd = .creditBasedConnectionResponse(mtu: mtu, mps: mps, credits: cr, result: res, dcids: try cids(&d))
        case 0x19:
            let mtu = try d.u16le(), mps = try d.u16le()
            cmd = .creditBasedReconfigureRequest(mtu: mtu, mps: mps, dcids: try cids(&d))
        case 0x1A: cmd = .creditBasedReconfigureResponse(result: try d.u16le())
        default: cmd = .unknown(code: code, data: d.rest())
        }
        return (code, id, cmd, surplus)
    }
}

public enum LESignalingNames {
    public static func code(_ c: UInt8) -> String {
        switch c {
        case 0x01: return "Command Reject"
        case 0x06: return "Disconnection Request"
        case 0x07: return "Disconnection Response"
        case 0x12: return "Connection Parameter Update Request"
        case 0x13: return "Connection Parameter Update Response"
        case 0x14: return "LE Credit Based Connection Request"
        case 0x15: return "LE Credit Based Connection Response"
        case 0x16: return "Flow Control Credit Indication"
        case 0x17: return "Credit Based Connection Request"
        case 0x18: return "Credit Based Connection Response"
        case 0x19: return "Credit Based Reconfigure Request"
        case 0x1A: return "Credit Based Reconfigure Response"
        default: return "Unknown signaling code \(Hex.hex(c, width: 2))"
        }
    }

    public static func rejectReason(_ r: UInt16) -> String {
        switch r {
        case 0x0000: return "Command not understood"
        case 0x0001: return "Signaling MTU exceeded"
        case 0x0002: return "Invalid CID in request"
        default: return "Reserved reason \(Hex.hex(r, width: 4))"
        }
    }

    /// Results of the credit-based connection responses (Core 5.4 Vol 3 Part A 4.23, 4.26).
    public static func connectionResult(_ r: UInt16) -> String {
        switch r {
        case 0x0000: return "Connection successful"
        case 0x0002: return "SPSM not supported"
        case 0x0004: return "Insufficient resources"
        case 0x0005: return "Insufficient authentication"
        case 0x0006: return "Insufficient authorization"
        case 0x0007: return "Encryption key size too short"
        case 0x0008: return "Insufficient encryption"
        case 0x0009: return "Invalid Source CID"
        case 0x000A: return "Source CID already allocated"
        case 0x000B: return "Unacceptable parameters"
        case 0x000C: return "Invalid parameters"
        case 0x000D: return "Pending, no further information"
        case 0x000E: return "Pending, authentication"
        case 0x000F: return "Pending, authorization"
        default: return "Reserved result \(Hex.hex(r, width: 4))"
        }
    }

    public static func reconfigureResult(_ r: UInt16) -> String {
        switch r {
        case 0x0000: return "Reconfiguration successful"
        case 0x0001: return "MTU reduction not allowed"
        case 0x0002: return "MPS reduction not allowed for multiple channels"
        case 0x0003: return "One or more Destination CIDs invalid"
        case 0x0004: return "Unacceptable parameters"
        default: return "Reserved result \(Hex.hex(r, width: 4))"
        }
    }

    /// PSMs the SIG assigned (Assigned Numbers 5.4: one table for BR/EDR and LE).
    public static func psm(_ p: UInt16) -> String? {
        switch p {
        case 0x0001: return "SDP"
        case 0x0003: return "RFCOMM"
        case 0x0005: return "TCS-BIN"
        case 0x0007: return "TCS-BIN-CORDLESS"
        case 0x000F: return "BNEP"
        case 0x0011: return "HID Control"
        case 0x0013: return "HID Interrupt"
        case 0x0015: return "UPnP"
        case 0x0017: return "AVCTP"
        case 0x0019: return "AVDTP"
        case 0x001B: return "AVCTP Browsing"
        case 0x001D: return "UDI C-Plane"
        case 0x001F: return "ATT"
        case 0x0021: return "3DSP"
        case 0x0023: return "IPSP"
        case 0x0025: return "OTS"
        case 0x0027: return "EATT"
        default: return nil
        }
    }
}

/// LE signaling (CID 0x0005), BR/EDR signaling (CID 0x0001, `BREDRChannels.swift`) and the dynamic channels
/// they open. Frames on a credit-based channel are reassembled into SDUs; those with PSM 0x0027 (EATT) are
/// handed to the ATT layer as a separate bearer, as are the basic-mode frames of a BR/EDR channel with PSM
/// 0x001F (ATT over BR/EDR).
public final class SignalingLayer: ChannelDecoder, AnalysisLayer {
    let att: ATTLayer?

    /// A channel as seen on the wire: the CID a frame carries is the receiver's, so it is keyed with the
    /// direction of travel.
    struct WireKey: Hashable {
        var connection: Int
        var direction: Direction
        var cid: UInt16
    }

    final class Channel {
        let psm: UInt16
        /// Identifies the bearer to the ATT layer: the requester's source CID.
        let bearer: UInt16
        let openedRecord: Int
        var mtu: UInt16
        /// Credit-based (K-frames with SDUs); false for a BR/EDR channel opened by a Connection Request.
        let creditBased: Bool
        /// A BR/EDR channel's mode as configured (Core 5.4 Vol 3 Part A 5.4): 0 basic, 3 enhanced
        /// retransmission, 4 streaming, …
        var mode: UInt8 = 0
        /// The last Configuration Request on the channel had its continuation flag set: the next one goes on with it.
        var configurationContinues = false
        /// An AVDTP channel opened while the connection's signaling channel was open: the media stream.
        var avdtpMedia = false
        /// A media channel recognised from its frames, its opening never seen (`A2DPMediaCandidates`): its PSM
        /// is not known from the capture, so events do not name one.
        var inferred = false
        /// SDU reassembly per direction: expected length and bytes so far.
        var sdu: [Direction: (expected: Int, bytes: [UInt8])] = [:]
        init(psm: UInt16, bearer: UInt16, openedRecord: Int, mtu: UInt16, creditBased: Bool = true) {
            self.psm = psm; self.bearer = bearer; self.openedRecord = openedRecord; self.mtu = mtu
            self.creditBased = creditBased
        }
    }

    struct PendingOpen {
        var spsm: UInt16
        var scids: [UInt16]
        var direction: Direction
        var mtu: UInt16
    }

    @exclusivity(unchecked) var channels: [WireKey: Channel] = [:]
    @exclusivity(unchecked) var pendingOpens: [Int: [UInt8: PendingOpen]] = [:]
    /// BR/EDR Connection and Create Channel Requests waiting for their response, per connection and identifier.
    @exclusivity(unchecked) var bredrOpens: [Int: [UInt8: PendingBREDROpen]] = [:]
    @exclusivity(unchecked) var commands = 0
    @exclusivity(unchecked) var bredrCommands = 0
    /// Connections whose AVDTP signaling channel is open.
    @exclusivity(unchecked) var avdtpSignaling: Set<Int> = []
    /// BR/EDR dynamic channels never seen opened whose frames may be A2DP media.
    @exclusivity(unchecked) var mediaCandidates = A2DPMediaCandidates()
    /// The A2DP streams followed from AVDTP (a layer of its own for the summary).
    public let a2dp = A2DPStreams()
    /// HID reports counted per connection (a layer of its own for the summary).
    public let hid = HIDReports()
    @exclusivity(unchecked) var opened: [(record: Int, connection: Int, psm: UInt16, cids: String)] = []
    static let maxChannels = 65_536

    public init(att: ATTLayer?) { self.att = att }

    /// The layer keeps no reference to the pipeline: `decode` is lent it.
    public func attach(to pipeline: Pipeline) {}

    static func opposite(_ d: Direction) -> Direction {
        switch d {
        case .hostToController: return .controllerToHost
        case .controllerToHost: return .hostToController
        case .unknown: return .unknown
        }
    }

    public func decode(_ frame: L2CAPFrame, connection: Connection, event e: inout TraceEvent, in p: Pipeline) {
        switch frame.cid {
        case 0x0005: decodeSignaling(frame, connection: connection, event: &e)
        case 0x0001: decodeBREDRSignaling(frame, connection: connection, event: &e)
        default: decodeDynamic(frame, connection: connection, event: &e, p)
        }
    }

    // MARK: Dynamic channels

    func decodeDynamic(_ frame: L2CAPFrame, connection: Connection, event e: inout TraceEvent, _ p: Pipeline) {
        let key = WireKey(connection: connection.id, direction: e.direction, cid: frame.cid)
        guard let ch = channels[key] else {
            e.body = .l2cap(L2CAPPayload(payload: frame.payload, noOpening: true))
            // A BR/EDR link (or one whose transport is unknown) may carry A2DP media whose opening came before the capture.
            if frame.cid >= 0x0040, !(connection.le && connection.transportKnown) { unopened(frame, key: key, connection: connection, event: &e, p) }
            return
        }
        if !ch.inferred {
            e.l2cap?.psm = ch.psm
            e.l2cap?.channel = ch.bearer
        }
        if !ch.creditBased {
            decodeBasic(frame, ch, connection: connection, event: &e, p)
            return
        }
        // K-frames (Core 5.4 Vol 3 Part A 3.4.3): the first of an SDU starts with the SDU length.
        var sdu: ArraySlice<UInt8>? = nil
        // Taken out of the channel while it grows (a copy read from it would share the bytes, and the append would
        // copy them); put back below.
        var state = ch.sdu.removeValue(forKey: e.direction)
        var beyond = 0
        var part = KFrame.Part.malformed
        if state == nil {
            var c = ByteCursor(frame.payload)
            guard let len = try? c.u16le() else {
                e.body = .signaling(SignalingBody(.kFrame(KFrame(cid: frame.cid, psm: ch.psm, part: .malformed, length: frame.payload.count))))
                return
            }
            let rest = c.rest()
            e.l2cap?.sduLength = Int(len)
            if rest.count >= Int(len) {
                sdu = rest.prefix(Int(len))
                beyond = rest.count - Int(len)
            } else {
                state = (Int(len), Array(rest))
                part = .start(have: rest.count, expected: Int(len))
            }
        } else if var s = state {
            state = nil
            s.bytes.append(contentsOf: frame.payload)
            if s.bytes.count >= s.expected {
                beyond = s.bytes.count - s.expected
                sdu = s.bytes[0..<s.expected]
                state = nil
            } else {
                state = s
                part = .continuation(have: s.bytes.count, expected: s.expected)
            }
        }
        ch.sdu[e.direction] = state
        if let s = sdu {
            if ch.psm == 0x0027, let att {
                att.decodeATT(s, connection: connection, bearer: ch.bearer, event: &e, p)
                if case var .att(a) = e.body {
                    e.body = .empty
                    a.eattBeyond = Int32(clamping: beyond)
                    e.body = .att(a)
                }
                return
            }
            e.l2cap?.sdu = s
            e.body = .signaling(SignalingBody(.kFrame(KFrame(cid: frame.cid, psm: ch.psm, part: .sdu(s, beyond: beyond), length: frame.payload.count))))
        } else {
            e.body = .signaling(SignalingBody(.kFrame(KFrame(cid: frame.cid, psm: ch.psm, part: part, length: frame.payload.count))))
        }
    }

    // MARK: Signaling

    func decodeSignaling(_ frame: L2CAPFrame, connection: Connection, event e: inout TraceEvent) {
        commands += 1
        let parsed: (code: UInt8, identifier: UInt8, command: LESignalingCommand, surplus: Int)
        do {
            parsed = try LESignalingCommand.parse(frame.payload)
        } catch {
            let reason = (error as? ByteError)?.description ?? "\(error)"
            e.body = .signaling(SignalingBody(.malformed(reason: reason, data: frame.payload)))
            return
        }
        var body = SignalingBody(.command(SignalingCommandFrame(code: parsed.code, identifier: parsed.identifier,
                                                                command: parsed.command, surplus: parsed.surplus)))
        switch parsed.command {
        case let .disconnectionResponse(dcid, scid):
            // The response's sender owns dcid; the request's sender owns scid.
            let d = e.direction
            let a = WireKey(connection: connection.id, direction: SignalingLayer.opposite(d), cid: dcid)
            let b = WireKey(connection: connection.id, direction: d, cid: scid)
            if let ch = channels[a] ?? channels[b] { body.closedPSM = ch.psm }
            channels[a] = nil
            channels[b] = nil
        case let .leCreditBasedConnectionRequest(spsm, scid, mtu, _, _):
            pendingOpens[connection.id, default: [:]][parsed.identifier] = PendingOpen(spsm: spsm, scids: [scid], direction: e.direction, mtu: mtu)
        case let .creditBasedConnectionRequest(spsm, mtu, _, _, scids):
            pendingOpens[connection.id, default: [:]][parsed.identifier] = PendingOpen(spsm: spsm, scids: scids, direction: e.direction, mtu: mtu)
        case let .leCreditBasedConnectionResponse(dcid, _, _, _, result):
            body.opened = open(connection, e, identifier: parsed.identifier, dcids: result == 0 ? [dcid] : [])
        case let .creditBasedConnectionResponse(_, _, _, _, dcids):
            body.opened = open(connection, e, identifier: parsed.identifier, dcids: dcids)
        default:
            break
        }
        e.body = .signaling(body)
    }

    /// Records the channels a successful response opens; 0x0000 destination CIDs were refused. Nil when the
    /// request was not seen.
    func open(_ connection: Connection, _ e: TraceEvent, identifier: UInt8, dcids: [UInt16]) -> OpenedChannels? {
        guard let req = pendingOpens[connection.id]?.removeValue(forKey: identifier) else { return nil }
        var n = 0
        for (i, d) in dcids.enumerated() where d != 0 && i < req.scids.count && channels.count < SignalingLayer.maxChannels {
            let s = req.scids[i]
            let ch = Channel(psm: req.spsm, bearer: s, openedRecord: e.record, mtu: req.mtu)
            // Frames to the requester carry its source CID; frames to the responder carry the destination CID.
            channels[WireKey(connection: connection.id, direction: SignalingLayer.opposite(req.direction), cid: s)] = ch
            channels[WireKey(connection: connection.id, direction: req.direction, cid: d)] = ch
            n += 1
            if opened.count < 1000 {
                opened.append((e.record, connection.id, req.spsm, "\(Hex.hex(s, width: 4))/\(Hex.hex(d, width: 4))"))
            }
        }
        return OpenedChannels(spsm: req.spsm, count: UInt16(truncatingIfNeeded: n))
    }

    public func summary() -> SummarySection? {
        guard commands > 0 || bredrCommands > 0 else { return nil }
        var f = Fields()
        f.add("commands", commands)
        if bredrCommands > 0 { f.add("bredr_commands", bredrCommands) }
        f.add("channels", .list(opened.map { .object(["record": .int($0.record), "connection": .int($0.connection), "psm": .int(Int($0.psm)), "cids": .string($0.cids)]) }))
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var text = bredrCommands == 0
            ? ["  LE signaling: \(plural(commands, "command")), \(plural(opened.count, "credit-based channel")) opened"]
            : ["  Signaling:   \(plural(commands, "LE command")), \(plural(bredrCommands, "BR/EDR command")), \(plural(opened.count, "channel")) opened"]
        for o in opened.prefix(20) {
            text.append("    connection #\(o.connection): PSM \(Hex.hex(o.psm, width: 4))" + (LESignalingNames.psm(o.psm).map { " (\($0))" } ?? "") + ", CIDs \(o.cids), opened at record \(o.record)")
        }
        return SummarySection(name: "signaling", value: .object(f), text: text)
    }
}
