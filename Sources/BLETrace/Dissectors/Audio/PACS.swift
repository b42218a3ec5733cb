/// Published Audio Capabilities Service 0x1850 (PACS 1.0): Sink PAC 0x2BC9, Sink Audio Locations 0x2BCA,
/// Source PAC 0x2BCB, Source Audio Locations 0x2BCC, Available Audio Contexts 0x2BCD, Supported Audio
/// Contexts 0x2BCE.
public struct PACSDissector: ValueDissector {
    public let name = "pacs"
    public let uuids: [BLEUUID] = [0x2BC9, 0x2BCA, 0x2BCB, 0x2BCC, 0x2BCD, 0x2BCE].map { BLEUUID(UInt16($0)) }
    public init() {}

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        switch ctx.uuid.uuid16 {
        case 0x2BC9, 0x2BCB: return PACSDissector.pac(v, sink: ctx.uuid.uuid16 == 0x2BC9)
        case 0x2BCA, 0x2BCC:
            var c = ByteCursor(v)
            guard v.count == 4, let x = try? c.u32le() else { return .invalid(name, DissectorText.length(v.count, expected: 4)) }
            return Dissection(name, value: AudioLocations(locations: x))
        default:
            var c = ByteCursor(v)
            guard v.count == 4, let sink = try? c.u16le(), let source = try? c.u16le() else {
                return .invalid(name, DissectorText.length(v.count, expected: 4))
            }
            return Dissection(name, value: AudioContexts(available: ctx.uuid.uuid16 == 0x2BCD, sink: sink, source: source))
        }
    }

    /// Number_of_PAC_records, then per record Codec_ID, Codec_Specific_Capabilities_Length and capabilities,
    /// Metadata_Length and metadata.
    public static func pac(_ v: ArraySlice<UInt8>, sink: Bool) -> Dissection {
        var c = ByteCursor(v)
        var value = PAC(sink: sink, records: [])
        do {
            let n = try c.u8()
            for _ in 0..<n {
                let id = try AudioCodecID.read(&c)
                let caps = CodecCapabilities(try AudioLTV.prefixed(&c))
                let meta = AudioMetadata(try AudioLTV.prefixed(&c))
                value.records.append(PAC.Record(codecID: id, capabilities: caps, metadata: meta))
            }
        } catch {
            return Dissection("pacs", value: value, problem: "\(error)")
        }
        let inner = value.records.lazy.compactMap { $0.capabilities.problem ?? $0.metadata.problem }.first
        return Dissection("pacs", value: value, problem: inner ?? DissectorText.extra(c))
    }

    /// A Sink or Source PAC: its PAC records, as far as the bytes went.
    public struct PAC: DecodedValue, Equatable {
        public struct Record: Equatable, Sendable {
            public var codecID: AudioCodecID
            public var capabilities: CodecCapabilities
            public var metadata: AudioMetadata
        }
        public var sink: Bool
        public var records: [Record]

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("direction", sink ? "sink" : "source")
            s.field("number_of_pac_records", records.count)
            s.list("pac_records") { l in
                for r in records {
                    l.beginObject()
                    r.codecID.write(into: &l)
                    l.object("codec_specific_capabilities") { r.capabilities.write(into: &$0) }
                    l.object("metadata") { r.metadata.write(into: &$0) }
                    l.endObject()
                }
            }
        }

        /// "LC3 16, 24, 48 kHz; 7.5, 10 ms; 40–120 octets".
        public var text: String {
            if records.isEmpty { return "no PAC records" }
            return records.map { r in
                let caps = r.capabilities.text
                let meta = r.metadata.text
                return r.codecID.name + (caps.isEmpty ? "" : " " + caps) + (meta.isEmpty ? "" : "; " + meta)
            }.joined(separator: " | ")
        }
    }

    /// Sink or Source Audio Locations.
    public struct AudioLocations: DecodedValue, Equatable {
        public var locations: UInt32
        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("audio_locations", Int(locations))
            s.key("audio_location_names"); s.value(DissectorText.list(AudioNames.locationNames(locations)))
        }
        public var text: String { AudioNames.locationNames(locations).joined(separator: ", ") }
    }

    /// Available or Supported Audio Contexts: the sink and source context bitfields.
    public struct AudioContexts: DecodedValue, Equatable {
        public var available: Bool
        public var sink: UInt16
        public var source: UInt16
        public func writeFields<S: FieldSink>(into s: inout S) {
            let kind = available ? "available" : "supported"
            s.field(name: kind + "_sink_contexts", sink)
            s.key(name: kind + "_sink_context_names"); s.value(DissectorText.list(AudioNames.contextNames(sink)))
            s.field(name: kind + "_source_contexts", source)
            s.key(name: kind + "_source_context_names"); s.value(DissectorText.list(AudioNames.contextNames(source)))
        }
        public var text: String {
            "sink " + AudioNames.joined(AudioNames.contextNames(sink)) + "; source " + AudioNames.joined(AudioNames.contextNames(source))
        }
    }
}
