/// The MPEG-4 Audio configuration an AAC stream carries in band (ISO/IEC 14496-3 1.6.2.1 AudioSpecificConfig, or
/// an ADTS header): what a decoder would need, and what the audio layer checks against the AVDTP negotiation.
public struct AACConfiguration: Sendable, Equatable, Hashable {
    /// The audio object type: 1 AAC Main, 2 AAC LC, 3 AAC SSR, 4 AAC LTP, 5 SBR (HE-AAC), 6 AAC scalable,
    /// 29 PS (HE-AAC v2), 39 ER AAC ELD; for SBR and PS the core's type is `coreObjectType`.
    public var objectType: Int
    public var coreObjectType: Int
    /// The core's sampling rate (Hz) and, with SBR, the output's.
    public var coreSampleRate: Int
    public var sampleRate: Int
    /// 1…7 (7: 7.1, eight channels); 0: a program config element gives the layout.
    public var channelConfiguration: Int
    /// 1024, or 960 with GASpecificConfig's frameLengthFlag; twice that with SBR (at the output rate).
    public var samplesPerFrame: Int
    /// ADTS only: the header's ID bit (MPEG-2 rather than MPEG-4; either fits A2DP's two AAC LC bits).
    public var mpeg2 = false

    /// Channels the configuration gives (nil for 0: the program config element's, not parsed).
    public var channels: Int? {
        switch channelConfiguration {
        case 1...6: return channelConfiguration
        case 7: return 8
        default: return nil
        }
    }

    /// The sampling rates of samplingFrequencyIndex 0…12 (13 and 14 are reserved, 15 escapes to 24 bits).
    static let rates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350]

    static func rate(_ r: inout BitCursor) throws -> Int {
        let index = try r.bits(4)
        if index == 15 { return try r.bits(24) }
        guard index < rates.count else { throw r.invalid("reserved sampling frequency index \(index)") }
        return rates[index]
    }

    static func objectType(_ r: inout BitCursor) throws -> Int {
        let t = try r.bits(5)
        guard t == 31 else { return t }
        return 32 + (try r.bits(6))
    }

    /// AudioSpecificConfig with a GASpecificConfig (the AAC object types); throws for object types that are not
    /// AAC, a program config element (channel configuration 0), or bits beyond the end.
    static func parse(_ r: inout BitCursor) throws -> AACConfiguration {
        var type = try objectType(&r)
        let outer = type
        let core = try rate(&r)
        var output = core
        let channels = try r.bits(4)
        if type == 5 || type == 29 {
            output = try rate(&r)
            type = try objectType(&r)
            if type == 22 { _ = try r.bits(4) }
        }
        guard [1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23, 39].contains(type) else { throw r.invalid("audio object type \(type) is not AAC") }
        var frame = 1024
        if type == 39 {
            // ELDSpecificConfig: frameLengthFlag (480 or 512 samples); the rest is not needed for counting.
            let short = try r.flag()
            frame = short ? 480 : 512
            return AACConfiguration(objectType: outer, coreObjectType: type, coreSampleRate: core, sampleRate: output,
                                    channelConfiguration: channels, samplesPerFrame: frame)
        }
        // GASpecificConfig.
        if try r.flag() { frame = 960 }
        if try r.flag() { _ = try r.bits(14) }   // dependsOnCoreCoder: coreCoderDelay
        let extensionFlag = try r.flag()
        guard channels != 0 else { throw r.invalid("program config element") }
        if type == 6 || type == 20 { _ = try r.bits(3) }
        if extensionFlag {
            if type == 22 { _ = try r.bits(16) }
            if [17, 19, 20, 23].contains(type) { _ = try r.bits(3) }
            _ = try r.bits(1)
        }
        if [17, 19, 20, 21, 22, 23].contains(type) { _ = try r.bits(2) }   // epConfig
        let sbr = outer == 5 || outer == 29
        return AACConfiguration(objectType: outer, coreObjectType: type, coreSampleRate: core, sampleRate: output,
                                channelConfiguration: channels, samplesPerFrame: sbr && output != core ? frame * output / max(1, core) : frame)
    }

    /// Whether the configuration fits an A2DP AAC configuration (A2DP 1.4 4.5.2: object type, sampling
    /// frequency and channels bits); nil when the configuration is not six bytes long.
    public func matches(configuration p: ArraySlice<UInt8>) -> Bool? {
        guard let n = A2DPAACConfiguration(p) else { return nil }
        let typeBits: UInt8
        switch (objectType, coreObjectType) {
        case (29, _): typeBits = 0x04
        case (5, _): typeBits = 0x08
        case (_, 2): typeBits = 0xC0
        case (_, 4): typeBits = 0x20
        case (_, 6): typeBits = 0x10
        case (_, 39): typeBits = 0x02
        default: typeBits = 0
        }
        let channelsFit = channels.map { c in c > 2 || n.channels.contains(c) } ?? true
        return n.objectTypes & typeBits != 0 && (n.sampleRates.contains(sampleRate) || n.sampleRates.contains(coreSampleRate)) && channelsFit
    }
}

/// An A2DP MPEG-2,4 AAC codec configuration (A2DP 1.4 4.5.2, six bytes): the object types, sampling rates and
/// channel counts it allows (one of each in a Set Configuration), variable bit rate, and the bit rate.
public struct A2DPAACConfiguration: Sendable, Equatable {
    /// The object type bits: 0x80 MPEG-2 AAC LC, 0x40 MPEG-4 AAC LC, 0x20 LTP, 0x10 scalable, 0x08 HE-AAC,
    /// 0x04 HE-AAC v2, 0x02 AAC-ELD v2.
    public var objectTypes: UInt8
    public var sampleRates: [Int]
    public var channels: [Int]
    public var vbr: Bool
    /// Bits per second (0: not given).
    public var bitRate: Int

    static let rateBits = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 64_000, 88_200, 96_000]

    public init?(_ p: ArraySlice<UInt8>) {
        var c = ByteCursor(p)
        guard let types = try? c.u8(), let rates = try? c.u16be(), let rate = try? c.u8(), let low = try? c.u16be() else { return nil }
        objectTypes = types
        // Twelve sampling frequency bits (8 kHz first), the channel bits (1, 2), two reserved.
        let rateField = Int(rates) >> 4
        sampleRates = A2DPAACConfiguration.rateBits.enumerated().filter { rateField & (0x800 >> $0.offset) != 0 }.map(\.element)
        channels = (rates & 0x08 != 0 ? [1] : []) + (rates & 0x04 != 0 ? [2] : [])
        vbr = rate & 0x80 != 0
        bitRate = Int(rate & 0x7F) << 16 | Int(low)
    }
}

extension BitCursor {
    func invalid(_ reason: String) -> ByteError { .invalid(offset: byteOffset, reason: reason) }
}
