/// ASE Control Point 0x2BC6 (ASCS 1.0 5): the operations a client writes and the notified response.
public enum ASEControlPointValue: DecodedValue, Equatable {
    /// A written operation: Opcode, Number_of_ASEs and each ASE's parameters (as far as the bytes went).
    case operation(opcode: UInt8, count: UInt8, ases: [ASEOperation])
    /// The notification: Opcode, Number_of_ASEs and each ASE's Response_Code and Reason.
    case response(ASEControlResponse)

    public func writeFields<S: FieldSink>(into s: inout S) {
        switch self {
        case let .operation(op, n, ases):
            s.field("opcode", op)
            s.field("operation", AudioNames.aseOpcode(op))
            s.field("number_of_ases", n)
            s.list("ases") { l in for a in ases { l.beginObject(); a.write(into: &l); l.endObject() } }
        case let .response(r):
            s.field("opcode", r.opcode)
            s.field("operation", AudioNames.aseOpcode(r.opcode))
            s.field("number_of_ases", r.count)
            s.list("responses") { l in
                for e in r.entries {
                    l.beginObject()
                    l.field("ase_id", e.aseID)
                    l.field("response_code", e.responseCode)
                    l.field("response", AudioNames.responseCode(e.responseCode))
                    l.field("reason", e.reason)
                    if let n = AudioNames.reason(e.reason, response: e.responseCode) { l.field("reason_name", n) }
                    l.endObject()
                }
            }
        }
    }

    /// "Config Codec ASE 1: LC3 48 kHz, 10 ms…", "Config Codec response: ASE 1 Success".
    public var text: String {
        switch self {
        case let .operation(op, _, ases):
            let each = ases.map { $0.text }.filter { !$0.isEmpty }
            return AudioNames.aseOpcode(op) + (each.isEmpty ? "" : " " + each.joined(separator: "; "))
        case let .response(r):
            let each = r.entries.map { e -> String in
                var t = "ASE \(e.aseID) " + AudioNames.responseCode(e.responseCode)
                if let n = AudioNames.reason(e.reason, response: e.responseCode) { t += " (" + n + ")" }
                return t
            }
            return AudioNames.aseOpcode(r.opcode) + " response: " + (each.isEmpty ? "no ASEs" : each.joined(separator: ", "))
        }
    }

    public var summaryFact: SummaryFact? {
        if case let .response(r) = self { return .aseControlResponse(r) }
        return nil
    }

    var innerProblem: String? {
        guard case let .operation(_, _, ases) = self else { return nil }
        return ases.lazy.compactMap { $0.innerProblem }.first
    }
}

/// One ASE's part of a written ASE Control Point operation.
public struct ASEOperation: Equatable, Sendable {
    public enum Parameters: Equatable, Sendable {
        /// Receiver Start Ready, Disable, Receiver Stop Ready, Release: the ASE_ID only.
        case empty
        case configCodec(targetLatency: UInt8, targetPHY: UInt8, codecID: AudioCodecID, configuration: CodecConfiguration)
        case configQoS(QoSParameters)
        /// Enable, Update Metadata.
        case metadata(AudioMetadata)
    }
    public var aseID: UInt8
    public var parameters: Parameters

    static func read(_ c: inout ByteCursor, opcode: UInt8) throws -> ASEOperation {
        let id = try c.u8()
        switch opcode {
        case 0x01:
            let latency = try c.u8(), phy = try c.u8()
            let codec = try AudioCodecID.read(&c)
            let conf = CodecConfiguration(try AudioLTV.prefixed(&c))
            return ASEOperation(aseID: id, parameters: .configCodec(targetLatency: latency, targetPHY: phy, codecID: codec, configuration: conf))
        case 0x02:
            return ASEOperation(aseID: id, parameters: .configQoS(try QoSParameters.read(&c)))
        case 0x03, 0x07:
            return ASEOperation(aseID: id, parameters: .metadata(AudioMetadata(try AudioLTV.prefixed(&c))))
        default:
            return ASEOperation(aseID: id, parameters: .empty)
        }
    }

    var innerProblem: String? {
        switch parameters {
        case let .configCodec(_, _, _, conf): return conf.problem
        case let .metadata(m): return m.problem
        default: return nil
        }
    }

    func write<S: FieldSink>(into s: inout S) {
        s.field("ase_id", aseID)
        switch parameters {
        case .empty: break
        case let .configCodec(latency, phy, codec, conf):
            s.field("target_latency", latency)
            s.field("target_latency_name", AudioNames.targetLatency(latency))
            s.field("target_phy", phy)
            s.field("target_phy_name", AudioNames.targetPHY(phy))
            codec.write(into: &s)
            s.object("codec_specific_configuration") { conf.write(into: &$0) }
        case let .configQoS(q): q.write(into: &s)
        case let .metadata(m): s.object("metadata") { m.write(into: &$0) }
        }
    }

    var text: String {
        switch parameters {
        case .empty: return "ASE \(aseID)"
        case let .configCodec(_, _, codec, conf):
            let c = conf.text
            return "ASE \(aseID): " + codec.name + (c.isEmpty ? "" : " " + c)
        case let .configQoS(q): return "ASE \(aseID): " + q.text
        case let .metadata(m):
            let t = m.text
            return "ASE \(aseID)" + (t.isEmpty ? "" : ": " + t)
        }
    }
}

/// The ASE Control Point notification (`SummaryFact.aseControlResponse`): the operation's opcode and, per
/// ASE, its Response_Code (0x00 Success … 0x0E Unspecified Error) and Reason.
public struct ASEControlResponse: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var aseID: UInt8
        public var responseCode: UInt8
        public var reason: UInt8
        public init(aseID: UInt8, responseCode: UInt8, reason: UInt8) {
            self.aseID = aseID
            self.responseCode = responseCode
            self.reason = reason
        }
    }
    public var opcode: UInt8
    /// Number_of_ASEs as sent: 0xFF for an Unsupported Opcode or Invalid Length response (one entry follows).
    public var count: UInt8
    public var entries: [Entry]
}
