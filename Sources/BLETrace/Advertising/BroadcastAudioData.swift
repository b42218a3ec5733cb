/// LE Audio service data in advertising and periodic advertising (BAP 1.0 3.7.2.1–3.7.2.2, PBP 1.0 4.1, ASCS
/// 1.0 4.5.1, CAP 1.0 8.1): the BASE (0x1851, what a broadcast carries: presentation delay, subgroups with their
/// codec configuration and metadata, BIS indices), the Broadcast Audio Announcement (0x1852, the Broadcast_ID),
/// the Public Broadcast Announcement (0x1856: features and metadata), and the ASCS and CAP announcements
/// (0x184E, 0x1853: general or targeted). Typed values; the text is made from them.
enum BroadcastAudioData {
    /// One BIS of a subgroup: its index and its codec configuration (added to the subgroup's).
    struct BIS: Equatable {
        var index: UInt8
        var configuration: CodecConfiguration
    }

    struct Subgroup: Equatable {
        var codec: AudioCodecID
        var configuration: CodecConfiguration
        var metadata: AudioMetadata
        var bis: [BIS]
    }

    struct BASE: Equatable {
        /// µs.
        var presentationDelay: UInt32
        var subgroups: [Subgroup]
        /// Bytes after the last subgroup.
        var trailing = 0

        static func parse(_ bytes: ArraySlice<UInt8>) throws -> BASE {
            var c = ByteCursor(bytes)
            let delay = try c.u24le()
            let n = Int(try c.u8())
            var groups: [Subgroup] = []
            for _ in 0..<n {
                let bisCount = Int(try c.u8())
                let codec = try AudioCodecID.read(&c)
                let config = CodecConfiguration(try c.bytes(Int(try c.u8())))
                let metadata = AudioMetadata(try c.bytes(Int(try c.u8())))
                var bis: [BIS] = []
                for _ in 0..<bisCount {
                    let index = try c.u8()
                    bis.append(BIS(index: index, configuration: CodecConfiguration(try c.bytes(Int(try c.u8())))))
                }
                groups.append(Subgroup(codec: codec, configuration: config, metadata: metadata, bis: bis))
            }
            return BASE(presentationDelay: delay, subgroups: groups, trailing: c.remaining)
        }
    }

    /// The decoded service data of `uuid`, as fields added to `f` and a text; nil for other UUIDs. A BASE that
    /// does not parse sets `problem`.
    static func describe(_ uuid: UInt16, _ data: ArraySlice<UInt8>, into f: inout Fields, problem: inout String?) -> String? {
        var c = ByteCursor(data)
        switch uuid {
        case 0x1851:
            do {
                let base = try BASE.parse(data)
                f.add("base", fields(base))
                if base.trailing > 0 { problem = "BASE: \(base.trailing) unexpected byte\(base.trailing == 1 ? "" : "s") after the last subgroup" }
                return "BASE: " + text(base)
            } catch {
                problem = "BASE: \(error)"
                return "BASE ?"
            }
        case 0x1852:
            guard data.count == 3, let id = try? c.u24le() else { problem = "Broadcast_ID: \(data.count) bytes, expected 3"; return "Broadcast Audio Announcement ?" }
            f.add("broadcast_id", Int(id))
            return "Broadcast Audio Announcement, Broadcast_ID " + Hex.hex(id, width: 6)
        case 0x1856:
            guard let features = try? c.u8(), let n = try? c.u8(), let raw = try? c.bytes(Int(n)) else {
                problem = "Public Broadcast Announcement shorter than its fields"
                return "Public Broadcast Announcement ?"
            }
            let metadata = AudioMetadata(raw)
            f.add("pba_features", Int(features))
            var names: [String] = []
            if features & 1 != 0 { names.append("encrypted") }
            if features & 2 != 0 { names.append("Standard Quality") }
            if features & 4 != 0 { names.append("High Quality") }
            f.add("pba_feature_names", .list(names.map { .string($0) }))
            f.add("metadata", .object(FieldsBuilder.object { metadata.write(into: &$0) }))
            let m = metadata.text
            return "Public Broadcast Announcement: " + (names.isEmpty ? "unencrypted" : names.joined(separator: ", ")) + (m.isEmpty ? "" : "; " + m)
        case 0x184E, 0x1853:
            guard let type = try? c.u8() else { problem = "announcement type missing"; return "announcement ?" }
            f.add("announcement_type", Int(type))
            let kind = type == 0 ? "general" : type == 1 ? "targeted" : "type \(type)"
            f.add("announcement_type_name", kind)
            let who = uuid == 0x184E ? "ASCS" : "CAP"
            guard uuid == 0x184E else { return "\(who) \(kind) announcement" }
            guard let sink = try? c.u16le(), let source = try? c.u16le(), let n = try? c.u8(), let raw = try? c.bytes(Int(n)) else {
                return "\(who) \(kind) announcement"
            }
            f.add("available_sink_contexts", Int(sink))
            f.add("available_source_contexts", Int(source))
            let metadata = AudioMetadata(raw)
            f.add("metadata", .object(FieldsBuilder.object { metadata.write(into: &$0) }))
            return "\(who) \(kind) announcement, available contexts sink " + AudioNames.joined(AudioNames.contextNames(sink))
                + ", source " + AudioNames.joined(AudioNames.contextNames(source))
        default:
            return nil
        }
    }

    static func fields(_ b: BASE) -> FieldValue {
        var f = Fields()
        f.add("presentation_delay_us", Int(b.presentationDelay))
        f.add("subgroups", .list(b.subgroups.map { g in
            var o = Fields()
            o.add("codec_id", .object(FieldsBuilder.object { g.codec.write(into: &$0) }))
            o.add("codec_specific_configuration", .object(FieldsBuilder.object { g.configuration.write(into: &$0) }))
            o.add("metadata", .object(FieldsBuilder.object { g.metadata.write(into: &$0) }))
            o.add("bis", .list(g.bis.map { bis in
                .object(["bis_index": .int(Int(bis.index)),
                         "codec_specific_configuration": .object(FieldsBuilder.object { bis.configuration.write(into: &$0) })])
            }))
            return .object(o)
        }))
        return .object(f)
    }

    /// "presentation delay 40000 µs; LC3 48 kHz, 10 ms, 100 octets; Media, …; BIS 1 Front Left, BIS 2 Front Right".
    static func text(_ b: BASE) -> String {
        "presentation delay \(b.presentationDelay) µs" + b.subgroups.map { g in
            var s = "; " + g.codec.name
            let config = g.configuration.text
            if !config.isEmpty { s += " " + config }
            let meta = g.metadata.text
            if !meta.isEmpty { s += "; " + meta }
            s += "; " + g.bis.map { "BIS \($0.index)" + ($0.configuration.text.isEmpty ? "" : " " + $0.configuration.text) }.joined(separator: ", ")
            return s
        }.joined()
    }
}
