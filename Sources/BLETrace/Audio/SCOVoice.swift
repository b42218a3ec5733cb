/// How an HFP voice link (SCO/eSCO) was negotiated, as far as the trace shows it: the Synchronous Connection
/// Complete (link type, air mode), the Setup/Accept Synchronous Connection command's voice setting (or Write
/// Voice Setting's default), the Enhanced Setup/Accept command's coding formats and data paths, and HFP's codec
/// negotiation over RFCOMM (+BCS / AT+BCS). Typed facts; `Report/AudioRender.swift` names them.
public struct SCONegotiation: Sendable, Equatable {
    /// Synchronous Connection Complete: 0x00 SCO, 0x02 eSCO; air mode 0x00 µ-law, 0x01 A-law, 0x02 CVSD,
    /// 0x03 transparent; and its record.
    public var linkType: UInt8?
    public var airMode: UInt8?
    public var record: Int?
    /// The voice setting (Core 5.4 Vol 4 Part E 6.12): bits 0–1 air coding, bit 5 sample size (16-bit when
    /// set), bits 6–7 input data format, bits 8–9 input coding (linear, µ-law, A-law); and its record.
    public var voiceSetting: UInt16?
    public var voiceRecord: Int?
    /// Enhanced Setup/Accept Synchronous Connection.
    public var enhanced: EnhancedSynchronous?
    public var enhancedRecord: Int?
    /// HFP codec ID from +BCS / AT+BCS (1 CVSD, 2 mSBC, 3 LC3-SWB), and its record.
    public var hfpCodec: UInt8?
    public var hfpCodecRecord: Int?

    public init() {}

    /// Whether the trace said anything about the link's voice.
    public var isEmpty: Bool { airMode == nil && voiceSetting == nil && enhanced == nil && hfpCodec == nil }

    /// What HCI carries in one direction (`sent`: host to controller), as negotiated; nil when the trace does
    /// not say.
    public func format(sent: Bool) -> SCOFormat? {
        if let e = enhanced, (sent ? e.inputPath : e.outputPath) == 0 {
            let bits = Int(sent ? e.inputSampleBits : e.outputSampleBits)
            switch sent ? e.inputCoding : e.outputCoding {
            case 0x00: return .muLaw
            case 0x01: return .aLaw
            case 0x02: return .cvsd
            case 0x03: return transparent
            case 0x04:
                let size = bits == 8 ? 8 : 16
                let bandwidth = Int(sent ? e.inputBandwidth : e.outputBandwidth)
                let rate = [8000, 16_000, 32_000, 48_000].first { $0 * size / 8 == bandwidth } ?? 8000
                // Enhanced PCM data format: 1 one's complement, 2 two's complement, 3 sign-magnitude, 4 unsigned.
                let f = sent ? e.inputPCMFormat : e.outputPCMFormat
                return .linear(rate: rate, bits: size, encoding: f >= 1 && f <= 4 ? f - 1 : 1)
            case 0x05: return .msbc
            case 0x06: return .lc3
            case let other: return .other(other)
            }
        }
        if airMode == 0x03 { return transparent }
        guard let v = voiceSetting ?? (airMode != nil ? 0x0060 : nil) else { return nil }
        if airMode == nil, v & 3 == 3 { return transparent }
        // The controller transcodes between the air and HCI, which carries the voice setting's input coding.
        switch (v >> 8) & 3 {
        case 1: return .muLaw
        case 2: return .aLaw
        default: return .linear(rate: 8000, bits: v & 0x20 != 0 ? 16 : 8, encoding: UInt8((v >> 6) & 3))
        }
    }

    /// Transparent data: what HFP's codec negotiation chose, if it did.
    var transparent: SCOFormat {
        switch hfpCodec {
        case 1?: return .cvsd
        case 2?: return .msbc
        case 3?: return .lc3
        default: return .transparent
        }
    }
}

/// The parameters of Enhanced Setup / Accept Synchronous Connection (Core 5.4 Vol 4 Part E 7.1.45, 7.1.46)
/// that say what crosses HCI: "input" is host to controller, "output" controller to host.
public struct EnhancedSynchronous: Sendable, Equatable {
    /// Coding format IDs (Assigned Numbers 2.11): 0x00 µ-law, 0x01 A-law, 0x02 CVSD, 0x03 transparent,
    /// 0x04 linear PCM, 0x05 mSBC, 0x06 LC3, 0xFF vendor.
    public var transmitCoding: UInt8
    public var receiveCoding: UInt8
    public var inputCoding: UInt8
    public var outputCoding: UInt8
    /// Bytes per second over HCI.
    public var inputBandwidth: UInt32
    public var outputBandwidth: UInt32
    /// Bits per sample over HCI.
    public var inputSampleBits: UInt16
    public var outputSampleBits: UInt16
    public var inputPCMFormat: UInt8
    public var outputPCMFormat: UInt8
    /// 0x00 HCI; anything else a vendor path (PCM, I2S): no voice on HCI.
    public var inputPath: UInt8
    public var outputPath: UInt8

    /// The parameters after the handle (0x043D) or address (0x043E).
    static func parse(_ c: inout ByteCursor) throws -> EnhancedSynchronous {
        _ = try c.u32le(); _ = try c.u32le()                       // transmit, receive bandwidth
        let tx = try c.u8(); try c.skip(4)
        let rx = try c.u8(); try c.skip(4)
        _ = try c.u16le(); _ = try c.u16le()                       // codec frame sizes
        let inBW = try c.u32le(), outBW = try c.u32le()
        let input = try c.u8(); try c.skip(4)
        let output = try c.u8(); try c.skip(4)
        let inBits = try c.u16le(), outBits = try c.u16le()
        let inFormat = try c.u8(), outFormat = try c.u8()
        _ = try c.u8(); _ = try c.u8()                             // sample payload MSB positions
        let inPath = try c.u8(), outPath = try c.u8()
        return EnhancedSynchronous(transmitCoding: tx, receiveCoding: rx, inputCoding: input, outputCoding: output,
                                   inputBandwidth: inBW, outputBandwidth: outBW, inputSampleBits: inBits, outputSampleBits: outBits,
                                   inputPCMFormat: inFormat, outputPCMFormat: outFormat, inputPath: inPath, outputPath: outPath)
    }
}

/// What an SCO stream's bytes are over HCI.
public enum SCOFormat: Sendable, Equatable {
    /// Linear PCM: sample rate, 8 or 16 bits (little-endian), and the voice setting's input data format (0 one's
    /// complement, 1 two's complement, 2 sign-magnitude, 3 unsigned).
    case linear(rate: Int, bits: Int, encoding: UInt8)
    /// G.711 at 8 kHz.
    case muLaw, aLaw
    /// HFP wideband speech: H2-framed mSBC at 16 kHz.
    case msbc
    /// CVSD bits (transparent air mode with the host's own CVSD codec): 64 kbit/s, decoded by `CVSDDecoder` to
    /// 8 kHz.
    case cvsd
    /// HFP super-wideband speech (HFP 1.9): H2-framed 58-byte LC3 frames, 7.5 ms of 32 kHz mono each, decoded
    /// through liblc3.
    case lc3
    /// Transparent data of an unknown codec: not decoded.
    case transparent
    /// A coding format bletrace does not know.
    case other(UInt8)

    /// Samples per second of the decoded audio.
    public var sampleRate: Int {
        switch self {
        case let .linear(rate, _, _): return rate
        case .msbc: return 16_000
        case .lc3: return 32_000
        default: return 8000
        }
    }

    /// Bytes per second over HCI.
    public var bytesPerSecond: Int {
        switch self {
        case let .linear(rate, bits, _): return rate * bits / 8
        default: return 8000
        }
    }

    /// Whether bletrace turns these bytes into PCM.
    public var decoded: Bool {
        switch self {
        case .linear, .muLaw, .aLaw, .msbc, .cvsd, .lc3: return true
        default: return false
        }
    }

    /// Whether frames travel behind H2 synchronization headers (mSBC, LC3-SWB).
    public var h2Framed: Bool { self == .msbc || self == .lc3 }
}

/// The SCO facts of an audio stream: the link, the negotiation, the format its bytes were taken as, and what the
/// controller flagged.
public struct SCOVoice: Sendable, Equatable {
    public var handle: UInt16
    /// Host to controller (the local voice) or controller to host (the peer's).
    public var sent: Bool
    public var negotiation: SCONegotiation
    /// The negotiated format, and the one the bytes were decoded as (the negotiated one, unless the bytes carry
    /// H2-framed mSBC; with no negotiation in the trace, 16-bit PCM at 8 kHz unless they do).
    public var negotiated: SCOFormat?
    public var found: SCOFormat
    public var foundRecord: Int
    /// Packets with each erroneous data reporting status (packet status flag 1 possibly invalid, 2 no data
    /// received, 3 partially lost).
    public var possiblyInvalid = 0
    public var noData = 0
    public var partiallyLost = 0
    /// The nominal interval of one frame (mSBC and LC3-SWB 7.5 ms; PCM: the first packet's duration), microseconds.
    public var frameMicros: Int64 = 0

    /// The negotiation said one format and the bytes carry another (transparent data may be any codec's).
    public var mismatch: Bool { negotiated.map { $0 != found && $0 != .transparent } ?? false }

    public var erroneousPackets: Int { possiblyInvalid + noData + partiallyLost }
}
