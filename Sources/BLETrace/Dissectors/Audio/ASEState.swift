/// A Sink ASE or Source ASE value (ASCS 1.0 4.1–4.3): ASE_ID, ASE_State and the state's additional parameters.
public struct ASEValue: DecodedValue, Equatable {
    /// What the state carries.
    public enum Parameters: Equatable, Sendable {
        /// Idle, Releasing: nothing.
        case empty
        case codecConfigured(CodecConfigured)
        case qosConfigured(QoSParameters)
        /// Enabling, Streaming, Disabling.
        case enabled(cigID: UInt8, cisID: UInt8, metadata: AudioMetadata)
    }

    /// Additional parameters of the Codec Configured state (ASCS Table 4.3).
    public struct CodecConfigured: Equatable, Sendable {
        public var framing: UInt8
        public var preferredPHY: UInt8
        public var preferredRetransmissionNumber: UInt8
        public var maxTransportLatency: UInt16
        public var presentationDelayMin: UInt32
        public var presentationDelayMax: UInt32
        public var preferredPresentationDelayMin: UInt32
        public var preferredPresentationDelayMax: UInt32
        public var codecID: AudioCodecID
        public var configuration: CodecConfiguration
    }

    public var aseID: UInt8
    /// True for a Sink ASE (0x2BC4), false for a Source ASE (0x2BC5).
    public var sink: Bool
    public var state: UInt8
    /// The state's parameters; nil when the value ended before them.
    public var parameters: Parameters?

    /// Reads one ASE value; throws where the bytes end early.
    static func read(_ c: inout ByteCursor, sink: Bool, into v: inout ASEValue?) throws {
        let id = try c.u8()
        let state = try c.u8()
        v = ASEValue(aseID: id, sink: sink, state: state, parameters: nil)
        switch state {
        case 1:
            let framing = try c.u8(), phy = try c.u8(), rtn = try c.u8(), latency = try c.u16le()
            let pdMin = try c.u24le(), pdMax = try c.u24le(), ppdMin = try c.u24le(), ppdMax = try c.u24le()
            let id = try AudioCodecID.read(&c)
            let conf = CodecConfiguration(try AudioLTV.prefixed(&c))
            v?.parameters = .codecConfigured(CodecConfigured(
                framing: framing, preferredPHY: phy, preferredRetransmissionNumber: rtn, maxTransportLatency: latency,
                presentationDelayMin: pdMin, presentationDelayMax: pdMax, preferredPresentationDelayMin: ppdMin,
                preferredPresentationDelayMax: ppdMax, codecID: id, configuration: conf))
        case 2:
            v?.parameters = .qosConfigured(try QoSParameters.read(&c))
        case 3, 4, 5:
            let cig = try c.u8(), cis = try c.u8()
            v?.parameters = .enabled(cigID: cig, cisID: cis, metadata: AudioMetadata(try AudioLTV.prefixed(&c)))
        default:
            v?.parameters = .empty
        }
    }

    /// A problem inside the LTVs the state carries.
    var innerProblem: String? {
        switch parameters {
        case let .codecConfigured(p)?: return p.configuration.problem
        case let .enabled(_, _, m)?: return m.problem
        default: return nil
        }
    }

    public func writeFields<S: FieldSink>(into s: inout S) {
        s.field("direction", sink ? "sink" : "source")
        s.field("ase_id", aseID)
        s.field("ase_state", state)
        s.field("ase_state_name", AudioNames.aseState(state))
        switch parameters {
        case let .codecConfigured(p)?:
            s.field("framing", p.framing)
            s.field("framing_name", p.framing == 0 ? "Unframed ISOAL PDUs supported" : "Unframed ISOAL PDUs not supported")
            s.key("preferred_phy"); s.value(DissectorText.list(AudioNames.phys(p.preferredPHY)))
            s.field("preferred_retransmission_number", p.preferredRetransmissionNumber)
            s.field("max_transport_latency_ms", p.maxTransportLatency)
            s.field("presentation_delay_min_us", Int(p.presentationDelayMin))
            s.field("presentation_delay_max_us", Int(p.presentationDelayMax))
            s.field("preferred_presentation_delay_min_us", Int(p.preferredPresentationDelayMin))
            s.field("preferred_presentation_delay_max_us", Int(p.preferredPresentationDelayMax))
            p.codecID.write(into: &s)
            s.object("codec_specific_configuration") { p.configuration.write(into: &$0) }
        case let .qosConfigured(q)?:
            q.write(into: &s)
        case let .enabled(cig, cis, m)?:
            s.field("cig_id", cig)
            s.field("cis_id", cis)
            s.object("metadata") { m.write(into: &$0) }
        default: break
        }
    }

    /// "Sink ASE 1 Codec Configured: LC3 48 kHz, 10 ms, 100 octets, Front Left".
    public var text: String {
        var t = (sink ? "Sink" : "Source") + " ASE \(aseID) " + AudioNames.aseState(state)
        switch parameters {
        case let .codecConfigured(p)?:
            let conf = p.configuration.text
            t += ": " + p.codecID.name + (conf.isEmpty ? "" : " " + conf)
        case let .qosConfigured(q)?: t += ": " + q.text
        case let .enabled(cig, cis, m)?:
            let meta = m.text
            t += ": CIG \(cig) CIS \(cis)" + (meta.isEmpty ? "" : ", " + meta)
        default: break
        }
        return t
    }

    public var summaryFact: SummaryFact? { .ase(fact) }
    /// The state and its parameters hold even when an LTV inside them is malformed or bytes follow them.
    public var factDespiteProblem: Bool { parameters != nil && state <= 6 }

    /// What the stream view needs: the ASE's direction, state, codec settings and CIG/CIS.
    public var fact: ASEFact {
        var f = ASEFact(aseID: aseID, direction: sink ? .sink : .source, state: state)
        switch parameters {
        case let .codecConfigured(p)?:
            f.codec = AudioCodecSettings(codecID: p.codecID, configuration: p.configuration)
        case let .qosConfigured(q)?:
            f.cigID = q.cigID
            f.cisID = q.cisID
            f.sduIntervalMicros = q.sduInterval
            f.maxSDU = q.maxSDU
            f.presentationDelayMicros = q.presentationDelay
        case let .enabled(cig, cis, m)?:
            f.cigID = cig
            f.cisID = cis
            f.streamingContexts = m.streamingContexts
        default: break
        }
        return f
    }
}

/// The QoS parameters of the QoS Configured state and of the Config QoS operation (which adds the ASE_ID).
public struct QoSParameters: Equatable, Sendable {
    public var cigID: UInt8
    public var cisID: UInt8
    /// SDU_Interval in µs (24 bits).
    public var sduInterval: UInt32
    /// 0x00 unframed, 0x01 framed.
    public var framing: UInt8
    public var phy: UInt8
    public var maxSDU: UInt16
    public var retransmissionNumber: UInt8
    /// Max_Transport_Latency in ms.
    public var maxTransportLatency: UInt16
    /// Presentation_Delay in µs.
    public var presentationDelay: UInt32

    static func read(_ c: inout ByteCursor) throws -> QoSParameters {
        QoSParameters(cigID: try c.u8(), cisID: try c.u8(), sduInterval: try c.u24le(), framing: try c.u8(), phy: try c.u8(),
                      maxSDU: try c.u16le(), retransmissionNumber: try c.u8(), maxTransportLatency: try c.u16le(),
                      presentationDelay: try c.u24le())
    }

    func write<S: FieldSink>(into s: inout S) {
        s.field("cig_id", cigID)
        s.field("cis_id", cisID)
        s.field("sdu_interval_us", Int(sduInterval))
        s.field("framing", framing)
        s.field("framing_name", framing == 0 ? "unframed" : framing == 1 ? "framed" : "reserved")
        s.key("phy"); s.value(DissectorText.list(AudioNames.phys(phy)))
        s.field("max_sdu", maxSDU)
        s.field("retransmission_number", retransmissionNumber)
        s.field("max_transport_latency_ms", maxTransportLatency)
        s.field("presentation_delay_us", Int(presentationDelay))
    }

    /// "CIG 0 CIS 1, SDU interval 10000 µs, max SDU 100, 40000 µs delay".
    var text: String {
        "CIG \(cigID) CIS \(cisID), SDU interval \(sduInterval) µs, " + (framing == 1 ? "framed, " : "")
            + "max SDU \(maxSDU), RTN \(retransmissionNumber), latency \(maxTransportLatency) ms, delay \(presentationDelay) µs"
    }
}

/// A codec and its configuration as numbers, for the summaries (`ASEFact`).
public struct AudioCodecSettings: Equatable, Sendable {
    public var codingFormat: UInt8
    /// Company_ID and vendor codec ID (0 unless the coding format is 0xFF).
    public var companyID: UInt16
    public var vendorCodecID: UInt16
    public var samplingFrequencyHz: Int?
    public var frameDurationMicros: Int?
    public var octetsPerFrame: Int?
    public var frameBlocksPerSDU: Int?
    public var channelAllocation: UInt32?

    public init(codecID: AudioCodecID, configuration: CodecConfiguration) {
        codingFormat = codecID.codingFormat
        companyID = codecID.companyID
        vendorCodecID = codecID.vendorCodecID
        samplingFrequencyHz = configuration.samplingFrequencyHz
        frameDurationMicros = configuration.frameDurationMicros
        octetsPerFrame = configuration.octetsPerFrame
        frameBlocksPerSDU = configuration.frameBlocksPerSDU
        channelAllocation = configuration.channelAllocation
    }
}

/// What a Sink or Source ASE value says (`SummaryFact.ase`): the ASE, its direction and state, the codec
/// configuration in the Codec Configured state, the CIG/CIS and QoS in QoS Configured, the CIG/CIS and
/// streaming contexts in Enabling, Streaming and Disabling. Fields the state does not carry are nil.
public struct ASEFact: Equatable, Sendable {
    public enum Direction: String, Sendable { case sink, source }
    public var aseID: UInt8
    public var direction: Direction
    /// ASE_State: 0 Idle … 6 Releasing (`AudioNames.aseStates`).
    public var state: UInt8
    public var codec: AudioCodecSettings?
    public var cigID: UInt8?
    public var cisID: UInt8?
    public var sduIntervalMicros: UInt32?
    public var maxSDU: UInt16?
    public var presentationDelayMicros: UInt32?
    public var streamingContexts: UInt16?

    public init(aseID: UInt8, direction: Direction, state: UInt8) {
        self.aseID = aseID
        self.direction = direction
        self.state = state
    }
}
