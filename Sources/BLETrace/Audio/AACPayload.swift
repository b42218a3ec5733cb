/// How an A2DP AAC stream frames its access units (A2DP 1.4 4.5.4: RFC 3016's MP4A-LATM).
public enum AACFraming: Sendable, Equatable, Hashable {
    /// LATM AudioMuxElements with muxConfigPresent 1: each starts with useSameStreamMux, and a StreamMuxConfig
    /// when that is 0.
    case latmInBand
    /// LATM AudioMuxElements with muxConfigPresent 0: the StreamMuxConfig is out of band, so one access unit per
    /// PayloadLengthInfo is assumed (one program, one layer).
    case latmOutOfBand
    /// ADTS frames (syncword 0xFFF), as some stacks send instead.
    case adts
}

/// What of an LATM StreamMuxConfig (ISO/IEC 14496-3 1.7.3) the AudioMuxElements after it need: access units
/// per element, streams (programs × layers) per access unit, other data, and the first stream's configuration.
public struct LATMMuxConfig: Sendable, Equatable {
    public var audioMuxVersion: Int
    /// numSubFrames + 1.
    public var subFrames: Int
    /// The streams of all programs and layers (each with frameLengthType 0).
    public var streams: Int
    public var configuration: AACConfiguration
    var otherDataBits = 0
}

/// Why an AAC media payload could not be taken apart.
public enum AACPayloadProblem: Error, Sendable, Equatable, Hashable {
    /// The packet ended after the RTP header.
    case noPayload
    /// Neither ADTS (no syncword) nor an LATM AudioMuxElement whose lengths fit the payload.
    case noFraming
    /// A header or a length reaching beyond the payload's end (byte offset in the payload).
    case truncated(offset: Int)
    /// useSameStreamMux with no StreamMuxConfig before it in the stream.
    case noStreamMuxConfig
    /// A configuration field with a value the format does not allow or that is not AAC (offset in the payload).
    case invalidConfiguration(offset: Int)
    /// LATM features left out: audioMuxVersionA 1, a frameLengthType other than 0, streams not sharing their
    /// time framing.
    case unsupported(LATMFeature)
}

public enum LATMFeature: Sendable, Equatable, Hashable {
    case audioMuxVersionA
    case frameLengthType(Int)
    case separateTimeFraming
}

/// One A2DP AAC media payload taken apart: its access units (frames) and the configuration it carries.
public struct AACPayload: Sendable, Equatable {
    public var framing: AACFraming
    /// Access units (of the first program's first layer) in the payload.
    public var frames: Int
    /// The configuration the payload carries: its StreamMuxConfig's (or the one before it, with
    /// useSameStreamMux) or its first ADTS header's; nil out of band.
    public var configuration: AACConfiguration?
    /// The StreamMuxConfig in force after this payload (in band).
    public var muxConfig: LATMMuxConfig?

    /// The payload taken apart as `framing`; `previous`: the StreamMuxConfig in force before it.
    public static func parse(_ bytes: ArraySlice<UInt8>, as framing: AACFraming, previous: LATMMuxConfig?) -> Result<AACPayload, AACPayloadProblem> {
        guard !bytes.isEmpty else { return .failure(.noPayload) }
        do {
            switch framing {
            case .adts: return .success(try adts(bytes))
            case .latmInBand, .latmOutOfBand: return .success(try latm(bytes, inBand: framing == .latmInBand, previous: previous))
            }
        } catch let p as AACPayloadProblem {
            return .failure(p)
        } catch let ByteError.truncated(offset, _, _) {
            return .failure(.truncated(offset: offset))
        } catch let ByteError.invalid(offset, _) {
            return .failure(.invalidConfiguration(offset: offset))
        } catch {
            return .failure(.noFraming)
        }
    }

    /// The framing of a stream's first payload: ADTS when it starts with the syncword and its frames fill it, else
    /// LATM with the configuration in band when that fits the payload exactly, else out of band. The payload is
    /// taken apart as the first that fits; nil when none does.
    public static func detect(_ bytes: ArraySlice<UInt8>) -> AACPayload? {
        for f in [AACFraming.adts, .latmInBand, .latmOutOfBand] {
            if case let .success(p) = parse(bytes, as: f, previous: nil) { return p }
        }
        return nil
    }

    /// ADTS frames (ISO/IEC 13818-7 6.2, ISO/IEC 14496-3 1.A.2): a 7-byte header (9 with a CRC) with the frame's
    /// length; each frame holds number_of_raw_data_blocks_in_frame + 1 access units.
    static func adts(_ bytes: ArraySlice<UInt8>) throws -> AACPayload {
        var p = AACPayload(framing: .adts, frames: 0)
        var rest = bytes
        while !rest.isEmpty {
            let at = rest.startIndex - bytes.startIndex
            var r = BitCursor(rest)
            guard rest.count >= 7 else { throw AACPayloadProblem.truncated(offset: at) }
            guard try r.bits(12) == 0xFFF else { throw AACPayloadProblem.noFraming }
            let mpeg2 = try r.flag()
            guard try r.bits(2) == 0 else { throw AACPayloadProblem.noFraming }   // layer
            _ = try r.bits(1)   // protection_absent
            let profile = try r.bits(2)
            let index = try r.bits(4)
            _ = try r.bits(1)
            let channels = try r.bits(3)
            _ = try r.bits(4)
            let length = try r.bits(13)
            _ = try r.bits(11)
            let blocks = try r.bits(2) + 1
            guard index < AACConfiguration.rates.count else { throw AACPayloadProblem.invalidConfiguration(offset: at + 2) }
            guard length >= 7 else { throw AACPayloadProblem.noFraming }
            guard length <= rest.count else { throw AACPayloadProblem.truncated(offset: at) }
            let rate = AACConfiguration.rates[index]
            if p.configuration == nil {
                p.configuration = AACConfiguration(objectType: profile + 1, coreObjectType: profile + 1, coreSampleRate: rate, sampleRate: rate,
                                                   channelConfiguration: channels, samplesPerFrame: 1024, mpeg2: mpeg2)
            }
            p.frames += blocks
            rest = rest.dropFirst(length)
        }
        return p
    }

    /// LATM AudioMuxElements (ISO/IEC 14496-3 1.7.3), one after another to the payload's end, each byte aligned.
    static func latm(_ bytes: ArraySlice<UInt8>, inBand: Bool, previous: LATMMuxConfig?) throws -> AACPayload {
        var p = AACPayload(framing: inBand ? .latmInBand : .latmOutOfBand, frames: 0, muxConfig: previous)
        var r = BitCursor(bytes)
        while r.remaining > 0 {
            var mux = p.muxConfig
            if inBand {
                if try !r.flag() {
                    mux = try streamMuxConfig(&r)
                    p.muxConfig = mux
                }
                guard let m = mux else { throw AACPayloadProblem.noStreamMuxConfig }
                if p.configuration == nil { p.configuration = m.configuration }
            }
            let subFrames = mux?.subFrames ?? 1, streams = mux?.streams ?? 1
            for _ in 0..<subFrames {
                // PayloadLengthInfo: each stream's MuxSlotLengthBytes (a run of 255s and the byte ending it), then
                // PayloadMux: each stream's bytes.
                var lengths: [Int] = []
                for _ in 0..<streams {
                    var n = 0, b = 255
                    while b == 255 {
                        b = try r.bits(8)
                        n += b
                    }
                    lengths.append(n)
                }
                for n in lengths { try r.skip(bits: n * 8) }
                p.frames += 1
            }
            try r.skip(bits: mux?.otherDataBits ?? 0)
            r.align()
        }
        return p
    }

    /// LatmGetValue: 2 bits giving the bytes that follow, less one.
    static func latmValue(_ r: inout BitCursor) throws -> Int {
        var v = 0
        let extra = try r.bits(2)
        for _ in 0...extra {
            let b = try r.bits(8)
            v = v << 8 | b
        }
        return v
    }

    /// StreamMuxConfig: versions 0 and 1 (audioMuxVersionA 0), every program and layer with frameLengthType 0,
    /// all streams on the same time framing.
    static func streamMuxConfig(_ r: inout BitCursor) throws -> LATMMuxConfig {
        let version = try r.bits(1)
        if version == 1 {
            guard try !r.flag() else { throw AACPayloadProblem.unsupported(.audioMuxVersionA) }
            _ = try latmValue(&r)   // taraBufferFullness
        }
        guard try r.flag() else { throw AACPayloadProblem.unsupported(.separateTimeFraming) }
        let subFrames = try r.bits(6) + 1
        let programs = try r.bits(4) + 1
        var streams = 0
        var first: AACConfiguration?
        for program in 0..<programs {
            let layers = try r.bits(3) + 1
            for layer in 0..<layers {
                // useSameConfig, except for the very first stream.
                var fresh = program + layer == 0
                if !fresh { fresh = try !r.flag() }
                if fresh {
                    let config: AACConfiguration
                    if version == 0 {
                        config = try AACConfiguration.parse(&r)
                    } else {
                        let length = try latmValue(&r), start = r.position
                        config = try AACConfiguration.parse(&r)
                        let used = r.position - start
                        guard used <= length else { throw r.invalid("AudioSpecificConfig longer than ascLen") }
                        try r.skip(bits: length - used)
                    }
                    if first == nil { first = config }
                }
                let lengthType = try r.bits(3)
                guard lengthType == 0 else { throw AACPayloadProblem.unsupported(.frameLengthType(lengthType)) }
                _ = try r.bits(8)   // latmBufferFullness
                streams += 1
            }
        }
        var otherData = 0
        if try r.flag() {
            if version == 1 {
                otherData = try latmValue(&r)
            } else {
                var more = true
                while more {
                    more = try r.flag()
                    let b = try r.bits(8)
                    otherData = otherData << 8 + b
                    guard otherData < 1 << 20 else { throw r.invalid("other data longer than a payload") }
                }
            }
        }
        if try r.flag() { _ = try r.bits(8) }   // crcCheckSum
        guard let c = first else { throw AACPayloadProblem.noStreamMuxConfig }
        return LATMMuxConfig(audioMuxVersion: version, subFrames: subFrames, streams: streams, configuration: c, otherDataBits: otherData)
    }
}
