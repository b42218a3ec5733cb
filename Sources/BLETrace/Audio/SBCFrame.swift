/// The header of one SBC frame (A2DP 1.4 appendix B, 12.6): what a decoder needs to know before it decodes,
/// and the frame's length in bytes, computed from the header as the specification's formula gives it. mSBC
/// (HFP 1.7 5.7.4) is SBC with a fixed configuration and its own syncword.
public struct SBCFrameHeader: Sendable, Equatable, Hashable {
    public enum ChannelMode: UInt8, Sendable {
        case mono = 0, dualChannel = 1, stereo = 2, jointStereo = 3
    }

    /// 0 16 kHz, 1 32 kHz, 2 44.1 kHz, 3 48 kHz (the header's two bits).
    public var frequencyCode: UInt8
    /// 4, 8, 12 or 16 (15 for mSBC).
    public var blocks: Int
    public var mode: ChannelMode
    /// false loudness, true SNR.
    public var snrAllocation: Bool
    /// 4 or 8.
    public var subbands: Int
    public var bitpool: Int
    /// true for an mSBC frame (syncword 0xAD).
    public var msbc: Bool

    public static let syncword: UInt8 = 0x9C
    public static let msbcSyncword: UInt8 = 0xAD

    public var sampleRate: Int {
        switch frequencyCode {
        case 0: return 16_000
        case 1: return 32_000
        case 2: return 44_100
        default: return 48_000
        }
    }

    public var channels: Int { mode == .mono ? 1 : 2 }

    /// PCM samples per channel one frame holds.
    public var samplesPerFrame: Int { blocks * subbands }

    /// The frame's duration in microseconds.
    public var durationMicros: Int64 { Int64(samplesPerFrame) * 1_000_000 / Int64(sampleRate) }

    /// The frame's length in bytes: the 4-byte header with its CRC, the scale factors and the audio samples.
    public var frameLength: Int {
        let scaleFactors = (4 * subbands * channels) / 8
        let bits: Int
        switch mode {
        case .mono, .dualChannel: bits = blocks * channels * bitpool
        case .stereo: bits = blocks * bitpool
        case .jointStereo: bits = subbands + blocks * bitpool
        }
        return 4 + scaleFactors + (bits + 7) / 8
    }

    /// The header at the start of `bytes`; throws if it is cut short or does not start with a syncword.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws -> SBCFrameHeader {
        var c = ByteCursor(bytes)
        let sync = try c.u8()
        let b1 = try c.u8(), b2 = try c.u8()
        _ = try c.u8()   // CRC
        switch sync {
        case syncword:
            let mode = ChannelMode(rawValue: (b1 >> 2) & 3) ?? .mono
            return SBCFrameHeader(frequencyCode: b1 >> 6, blocks: 4 * (Int((b1 >> 4) & 3) + 1), mode: mode,
                                  snrAllocation: b1 & 2 != 0, subbands: b1 & 1 != 0 ? 8 : 4, bitpool: Int(b2), msbc: false)
        case msbcSyncword:
            return SBCFrameHeader.msbcFrame
        default:
            throw ByteError.invalid(offset: 0, reason: "no SBC syncword")
        }
    }

    /// mSBC's one configuration: 16 kHz mono, 15 blocks, 8 subbands, loudness, bitpool 26 (57-byte frames).
    public static let msbcFrame = SBCFrameHeader(frequencyCode: 0, blocks: 15, mode: .mono, snrAllocation: false, subbands: 8,
                                                 bitpool: 26, msbc: true)

    /// Whether the frame fits an A2DP SBC configuration (the Media Codec capability's four bytes: one bit
    /// chosen for each of frequency, channel mode, blocks, subbands and allocation, then the bitpool range).
    /// Nil when the configuration is not four bytes long.
    public func matches(configuration p: ArraySlice<UInt8>) -> Bool? {
        guard p.count >= 4 else { return nil }
        let i = p.startIndex
        let b0 = p[i], b1 = p[i + 1], minPool = Int(p[i + 2]), maxPool = Int(p[i + 3])
        let freqBit: UInt8 = 0x80 >> frequencyCode
        let modeBit: UInt8 = 0x08 >> mode.rawValue
        let blockBit: UInt8 = 0x80 >> UInt8(max(0, min(3, blocks / 4 - 1)))
        let subbandBit: UInt8 = subbands == 4 ? 0x08 : 0x04
        let allocationBit: UInt8 = snrAllocation ? 0x02 : 0x01
        return b0 & freqBit != 0 && b0 & modeBit != 0 && b1 & blockBit != 0 && b1 & subbandBit != 0
            && b1 & allocationBit != 0 && bitpool >= minPool && bitpool <= maxPool
    }
}
