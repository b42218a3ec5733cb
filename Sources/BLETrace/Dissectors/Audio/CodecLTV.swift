/// The LTV structures the LE Audio profiles share (BAP 1.0 4.3, Assigned Numbers 6.12.4–6.12.6): a Codec_ID,
/// Codec_Specific_Capabilities, Codec_Specific_Configuration and Metadata. Each LTV is Length (counting the
/// type), Type, Value. A known type whose value has the wrong length, and any unknown type, keeps its type and
/// bytes (`other`); a wrong length is the container's `problem`.

/// A Codec_ID: Coding_Format, Company_ID and Vendor-specific codec_ID (both 0 unless the format is 0xFF).
public struct AudioCodecID: Equatable, Sendable {
    public var codingFormat: UInt8
    public var companyID: UInt16
    public var vendorCodecID: UInt16

    static func read(_ c: inout ByteCursor) throws -> AudioCodecID {
        AudioCodecID(codingFormat: try c.u8(), companyID: try c.u16le(), vendorCodecID: try c.u16le())
    }

    /// "LC3", "Vendor Specific 0x0075/0x0001".
    public var name: String {
        guard codingFormat == 0xFF else { return AudioNames.codingFormat(codingFormat) }
        return "Vendor Specific " + Hex.hex(companyID, width: 4) + "/" + Hex.hex(vendorCodecID, width: 4)
    }

    func write<S: FieldSink>(into s: inout S) {
        s.field("coding_format", codingFormat)
        s.field("codec", AudioNames.codingFormat(codingFormat))
        if codingFormat == 0xFF {
            s.field("company_id", companyID)
            if let n = AssignedNumbers.companyName(companyID) { s.field("company", n) }
            s.field("vendor_codec_id", vendorCodecID)
        }
    }
}

/// Splitting an LTV sequence.
enum AudioLTV {
    /// The (type, value) pairs of `bytes`, and a problem when an LTV runs past the end or has length 0.
    static func split(_ bytes: ArraySlice<UInt8>, _ what: String) -> ([(UInt8, ArraySlice<UInt8>)], String?) {
        var c = ByteCursor(bytes)
        var out: [(UInt8, ArraySlice<UInt8>)] = []
        while !c.isAtEnd {
            guard let len = try? c.u8(), len > 0 else { return (out, "\(what): LTV of length 0") }
            guard let type = try? c.u8(), let value = try? c.bytes(Int(len) - 1) else {
                return (out, "\(what): LTV runs past the end of its \(bytes.count) bytes")
            }
            out.append((type, value))
        }
        return (out, nil)
    }

    /// A length-prefixed LTV field (Codec_Specific_Configuration_Length and the like): its bytes.
    static func prefixed(_ c: inout ByteCursor) throws -> ArraySlice<UInt8> {
        let n = try c.u8()
        return try c.bytes(Int(n))
    }

    /// The items of a sequence of fixed-length numeric LTVs (codec capabilities and configuration): a type
    /// `length` knows, with that many value bytes, becomes `make(type, value)`; any other is `other`, and the
    /// first wrong length is the problem ("`kind` type T LTV: …").
    static func numericItems<Item>(_ bytes: ArraySlice<UInt8>, _ what: String, kind: String, length: (UInt8) -> Int?,
                                   make: (UInt8, UInt32) -> Item, other: (UInt8, [UInt8]) -> Item) -> ([Item], String?) {
        let (ltvs, p) = split(bytes, what)
        var problem = p
        var items: [Item] = []
        for (t, v) in ltvs {
            guard let expected = length(t) else { items.append(other(t, Array(v))); continue }
            guard v.count == expected else {
                if problem == nil { problem = wrongLength("\(kind) type \(t)", v.count, expected) }
                items.append(other(t, Array(v)))
                continue
            }
            items.append(make(t, le(v)))
        }
        return (items, problem)
    }

    static func wrongLength(_ what: String, _ got: Int, _ expected: Int) -> String {
        "\(what) LTV: " + DissectorText.length(got, expected: expected)
    }

    static func le(_ v: ArraySlice<UInt8>) -> UInt32 {
        var x: UInt32 = 0
        for (i, b) in v.prefix(4).enumerated() { x |= UInt32(b) << (8 * UInt32(i)) }
        return x
    }

    static func writeOther<S: FieldSink>(_ others: [(UInt8, [UInt8])], into s: inout S) {
        guard !others.isEmpty else { return }
        s.list("other") { l in
            for (t, v) in others {
                l.beginObject()
                l.field("type", t)
                l.field("value", hex: v)
                l.endObject()
            }
        }
    }
}

/// Codec_Specific_Capabilities (Assigned Numbers 6.12.4).
public struct CodecCapabilities: Equatable, Sendable {
    public enum Item: Equatable, Sendable {
        /// Supported_Sampling_Frequencies bits (bit 0 8 kHz … bit 12 384 kHz).
        case samplingFrequencies(UInt16)
        /// Supported_Frame_Durations bits.
        case frameDurations(UInt8)
        /// Supported_Audio_Channel_Counts bits (bit n: n + 1 channels).
        case channelCounts(UInt8)
        case octetsPerFrame(min: UInt16, max: UInt16)
        case maxFramesPerSDU(UInt8)
        case other(type: UInt8, value: [UInt8])
    }
    public var items: [Item] = []
    public var problem: String?

    public init(_ bytes: ArraySlice<UInt8>) {
        (items, problem) = AudioLTV.numericItems(bytes, "Codec_Specific_Capabilities", kind: "capability", length: { t in
            switch t {
            case 0x01: return 2
            case 0x02, 0x03, 0x05: return 1
            case 0x04: return 4
            default: return nil
            }
        }, make: { t, x in
            switch t {
            case 0x01: return .samplingFrequencies(UInt16(truncatingIfNeeded: x))
            case 0x02: return .frameDurations(UInt8(truncatingIfNeeded: x))
            case 0x03: return .channelCounts(UInt8(truncatingIfNeeded: x))
            case 0x04: return .octetsPerFrame(min: UInt16(truncatingIfNeeded: x), max: UInt16(truncatingIfNeeded: x >> 16))
            default: return .maxFramesPerSDU(UInt8(truncatingIfNeeded: x))
            }
        }, other: { .other(type: $0, value: $1) })
    }

    /// The supported sampling frequencies in Hz.
    public var samplingFrequenciesHz: [Int] {
        var out: [Int] = []
        for case let .samplingFrequencies(bits) in items {
            for (i, hz) in AudioNames.samplingFrequencies.enumerated() where bits >> UInt16(i) & 1 != 0 { out.append(hz) }
        }
        return out
    }

    static func channelCounts(_ bits: UInt8) -> [Int] { (0..<8).filter { bits >> UInt8($0) & 1 != 0 }.map { $0 + 1 } }

    func write<S: FieldSink>(into s: inout S) {
        var others: [(UInt8, [UInt8])] = []
        for item in items {
            switch item {
            case .samplingFrequencies:
                s.list("supported_sampling_frequencies_hz") { l in for hz in samplingFrequenciesHz { l.int(hz) } }
            case let .frameDurations(b):
                s.key("supported_frame_durations"); s.value(DissectorText.list(DissectorText.bits(Int(b), AudioNames.frameDurationBits)))
            case let .channelCounts(b):
                s.list("supported_audio_channel_counts") { l in for n in CodecCapabilities.channelCounts(b) { l.int(n) } }
            case let .octetsPerFrame(lo, hi):
                s.field("supported_octets_per_codec_frame_min", lo)
                s.field("supported_octets_per_codec_frame_max", hi)
            case let .maxFramesPerSDU(n): s.field("supported_max_codec_frames_per_sdu", n)
            case let .other(t, v): others.append((t, v))
            }
        }
        AudioLTV.writeOther(others, into: &s)
    }

    /// "16, 24, 48 kHz; 7.5, 10 ms; 40–120 octets".
    public var text: String {
        var parts: [String] = []
        for item in items {
            switch item {
            case .samplingFrequencies:
                let k = samplingFrequenciesHz.map { AudioNames.kHz($0).replacingOccurrences(of: " kHz", with: "") }
                parts.append(k.joined(separator: ", ") + " kHz")
            case let .frameDurations(b):
                let d = DissectorText.bits(Int(b & 0x03), AudioNames.frameDurationBits).map { $0.replacingOccurrences(of: " ms", with: "") }
                parts.append(d.joined(separator: ", ") + " ms")
            case let .channelCounts(b):
                parts.append(CodecCapabilities.channelCounts(b).map(String.init).joined(separator: ", ") + " channel(s)")
            case let .octetsPerFrame(lo, hi): parts.append("\(lo)–\(hi) octets")
            case let .maxFramesPerSDU(n): parts.append("\(n) frame(s)/SDU")
            case .other: break
            }
        }
        return parts.joined(separator: "; ")
    }
}

/// Codec_Specific_Configuration (Assigned Numbers 6.12.5).
public struct CodecConfiguration: Equatable, Sendable {
    public enum Item: Equatable, Sendable {
        /// Sampling_Frequency value (0x08: 48 kHz); `AudioNames.samplingFrequencyHz` gives Hz.
        case samplingFrequency(UInt8)
        /// Frame_Duration value: 0x00 7.5 ms, 0x01 10 ms.
        case frameDuration(UInt8)
        case channelAllocation(UInt32)
        case octetsPerFrame(UInt16)
        case frameBlocksPerSDU(UInt8)
        case other(type: UInt8, value: [UInt8])
    }
    public var items: [Item] = []
    public var problem: String?

    public init(_ bytes: ArraySlice<UInt8>) {
        (items, problem) = AudioLTV.numericItems(bytes, "Codec_Specific_Configuration", kind: "configuration", length: { t in
            switch t {
            case 0x01, 0x02, 0x05: return 1
            case 0x03: return 4
            case 0x04: return 2
            default: return nil
            }
        }, make: { t, x in
            switch t {
            case 0x01: return .samplingFrequency(UInt8(truncatingIfNeeded: x))
            case 0x02: return .frameDuration(UInt8(truncatingIfNeeded: x))
            case 0x03: return .channelAllocation(x)
            case 0x04: return .octetsPerFrame(UInt16(truncatingIfNeeded: x))
            default: return .frameBlocksPerSDU(UInt8(truncatingIfNeeded: x))
            }
        }, other: { .other(type: $0, value: $1) })
    }

    public var samplingFrequencyHz: Int? {
        for case let .samplingFrequency(v) in items { return AudioNames.samplingFrequencyHz(v) }
        return nil
    }
    public var frameDurationMicros: Int? {
        for case let .frameDuration(v) in items { return AudioNames.frameDurationMicros(v) }
        return nil
    }
    public var channelAllocation: UInt32? {
        for case let .channelAllocation(v) in items { return v }
        return nil
    }
    public var octetsPerFrame: Int? {
        for case let .octetsPerFrame(v) in items { return Int(v) }
        return nil
    }
    public var frameBlocksPerSDU: Int? {
        for case let .frameBlocksPerSDU(v) in items { return Int(v) }
        return nil
    }

    func write<S: FieldSink>(into s: inout S) {
        var others: [(UInt8, [UInt8])] = []
        for item in items {
            switch item {
            case let .samplingFrequency(v):
                s.field("sampling_frequency", v)
                if let hz = AudioNames.samplingFrequencyHz(v) { s.field("sampling_frequency_hz", hz) }
            case let .frameDuration(v):
                s.field("frame_duration", v)
                if let us = AudioNames.frameDurationMicros(v) { s.field("frame_duration_us", us) }
            case let .channelAllocation(v):
                s.field("audio_channel_allocation", Int(v))
                s.key("audio_channel_allocation_names"); s.value(DissectorText.list(AudioNames.locationNames(v)))
            case let .octetsPerFrame(v): s.field("octets_per_codec_frame", v)
            case let .frameBlocksPerSDU(v): s.field("codec_frame_blocks_per_sdu", v)
            case let .other(t, v): others.append((t, v))
            }
        }
        AudioLTV.writeOther(others, into: &s)
    }

    /// "48 kHz, 10 ms, 100 octets, Front Left".
    public var text: String {
        var parts: [String] = []
        for item in items {
            switch item {
            case let .samplingFrequency(v): parts.append(AudioNames.samplingFrequencyHz(v).map(AudioNames.kHz) ?? "sampling frequency \(v)")
            case let .frameDuration(v): parts.append(AudioNames.frameDurationMicros(v).map(AudioNames.ms) ?? "frame duration \(v)")
            case let .channelAllocation(v): parts.append(AudioNames.locationNames(v).joined(separator: "+"))
            case let .octetsPerFrame(v): parts.append("\(v) octets")
            case let .frameBlocksPerSDU(v): parts.append("\(v) block(s)/SDU")
            case .other: break
            }
        }
        return parts.joined(separator: ", ")
    }
}

/// Metadata (Assigned Numbers 6.12.6).
public struct AudioMetadata: Equatable, Sendable {
    public enum Item: Equatable, Sendable {
        case preferredContexts(UInt16)
        case streamingContexts(UInt16)
        case programInfo(String)
        /// ISO 639-3 code ("eng").
        case language(String)
        case ccidList([UInt8])
        case parentalRating(UInt8)
        case programInfoURI(String)
        case audioActiveState(UInt8)
        case immediateRendering
        case other(type: UInt8, value: [UInt8])
    }
    public var items: [Item] = []
    public var problem: String?

    public init(_ bytes: ArraySlice<UInt8>) {
        let (ltvs, p) = AudioLTV.split(bytes, "Metadata")
        problem = p
        for (t, v) in ltvs {
            func fixed(_ n: Int) -> Bool {
                if v.count == n { return true }
                if problem == nil { problem = AudioLTV.wrongLength(AudioNames.metadataType(t), v.count, n) }
                items.append(.other(type: t, value: Array(v)))
                return false
            }
            func utf8() -> String? {
                if let s = DissectorText.utf8(v) { return s }
                if problem == nil { problem = "\(AudioNames.metadataType(t)): not valid UTF-8" }
                items.append(.other(type: t, value: Array(v)))
                return nil
            }
            let x = AudioLTV.le(v)
            switch t {
            case 0x01: if fixed(2) { items.append(.preferredContexts(UInt16(truncatingIfNeeded: x))) }
            case 0x02: if fixed(2) { items.append(.streamingContexts(UInt16(truncatingIfNeeded: x))) }
            case 0x03: if let s = utf8() { items.append(.programInfo(s)) }
            case 0x04: if fixed(3), let s = utf8() { items.append(.language(s)) }
            case 0x05: items.append(.ccidList(Array(v)))
            case 0x06: if fixed(1) { items.append(.parentalRating(UInt8(truncatingIfNeeded: x))) }
            case 0x07: if let s = utf8() { items.append(.programInfoURI(s)) }
            case 0x08: if fixed(1) { items.append(.audioActiveState(UInt8(truncatingIfNeeded: x))) }
            case 0x09: if fixed(0) { items.append(.immediateRendering) }
            default: items.append(.other(type: t, value: Array(v)))
            }
        }
    }

    public var streamingContexts: UInt16? {
        for case let .streamingContexts(v) in items { return v }
        return nil
    }

    func write<S: FieldSink>(into s: inout S) {
        var others: [(UInt8, [UInt8])] = []
        for item in items {
            switch item {
            case let .preferredContexts(v):
                s.key("preferred_audio_contexts"); s.value(DissectorText.list(AudioNames.contextNames(v)))
            case let .streamingContexts(v):
                s.key("streaming_audio_contexts"); s.value(DissectorText.list(AudioNames.contextNames(v)))
            case let .programInfo(t): s.field("program_info", t)
            case let .language(t): s.field("language", t)
            case let .ccidList(l): s.list("ccid_list") { x in for i in l { x.int(Int(i)) } }
            case let .parentalRating(r): s.field("parental_rating", r)
            case let .programInfoURI(t): s.field("program_info_uri", t)
            case let .audioActiveState(a): s.field("audio_active_state", a)
            case .immediateRendering: s.field("broadcast_audio_immediate_rendering", true)
            case let .other(t, v): others.append((t, v))
            }
        }
        AudioLTV.writeOther(others, into: &s)
    }

    /// "streaming Media", "preferred Conversational, Media".
    public var text: String {
        var parts: [String] = []
        for item in items {
            switch item {
            case let .preferredContexts(v): parts.append("preferred " + AudioNames.joined(AudioNames.contextNames(v)))
            case let .streamingContexts(v): parts.append("streaming " + AudioNames.joined(AudioNames.contextNames(v)))
            case let .programInfo(t): parts.append("\"" + t + "\"")
            case let .language(t): parts.append("language " + t)
            case let .ccidList(l): parts.append("CCIDs " + l.map(String.init).joined(separator: ", "))
            default: break
            }
        }
        return parts.joined(separator: ", ")
    }
}
