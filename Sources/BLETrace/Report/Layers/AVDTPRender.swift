/// Names of AVDTP signals, categories and errors, and of A2DP codecs and their parameters.
public enum A2DPNames {
    public static func signal(_ s: UInt8) -> String {
        switch s {
        case 0x01: return "Discover"
        case 0x02: return "Get Capabilities"
        case 0x03: return "Set Configuration"
        case 0x04: return "Get Configuration"
        case 0x05: return "Reconfigure"
        case 0x06: return "Open"
        case 0x07: return "Start"
        case 0x08: return "Close"
        case 0x09: return "Suspend"
        case 0x0A: return "Abort"
        case 0x0B: return "Security Control"
        case 0x0C: return "Get All Capabilities"
        case 0x0D: return "Delay Report"
        default: return "signal \(Hex.hex(s, width: 2))"
        }
    }

    public static func messageType(_ m: AVDTPSignal.MessageType) -> String {
        switch m {
        case .command: return "command"
        case .generalReject: return "general reject"
        case .accept: return "accept"
        case .reject: return "reject"
        }
    }

    public static func category(_ c: UInt8) -> String {
        let names = ["", "Media Transport", "Reporting", "Recovery", "Content Protection", "Header Compression", "Multiplexing",
                     "Media Codec", "Delay Reporting"]
        return Int(c) < names.count && c > 0 ? names[Int(c)] : "category \(Hex.hex(c, width: 2))"
    }

    public static func error(_ e: UInt8) -> String {
        switch e {
        case 0x01: return "Bad Header Format"
        case 0x11: return "Bad Length"
        case 0x12: return "Bad ACP SEID"
        case 0x13: return "SEP In Use"
        case 0x14: return "SEP Not In Use"
        case 0x17: return "Bad Service Category"
        case 0x18: return "Bad Payload Format"
        case 0x19: return "Not Supported Command"
        case 0x1A: return "Invalid Capabilities"
        case 0x22: return "Bad Recovery Type"
        case 0x23: return "Bad Media Transport Format"
        case 0x25: return "Bad Recovery Format"
        case 0x26: return "Bad ROHC Format"
        case 0x27: return "Bad CP Format"
        case 0x28: return "Bad Multiplexing Format"
        case 0x29: return "Unsupported Configuration"
        case 0x31: return "Bad State"
        default: return "error \(Hex.hex(e, width: 2))"
        }
    }

    public static func mediaType(_ t: UInt8) -> String {
        switch t {
        case 0: return "audio"
        case 1: return "video"
        case 2: return "multimedia"
        default: return "media type \(t)"
        }
    }

    public static func codecName(_ c: A2DPCodec) -> String {
        switch c.codecType {
        case 0x00: return "SBC"
        case 0x01: return "MPEG-1,2 Audio"
        case 0x02: return "MPEG-2,4 AAC"
        case 0x04: return "ATRAC"
        case 0xFF:
            guard let v = c.vendor else { return "vendor codec" }
            switch (v.id, v.codec) {
            case (0x004F, 0x0001): return "aptX"
            case (0x00D7, 0x0024): return "aptX HD"
            case (0x000A, 0x0002): return "aptX Low Latency"
            case (0x012D, 0x00AA): return "LDAC"
            default:
                return "vendor codec " + (AssignedNumbers.companyName(UInt16(truncatingIfNeeded: v.id)) ?? Hex.hex(v.id, width: 8))
                    + " " + Hex.hex(v.codec, width: 4)
            }
        default: return "codec \(Hex.hex(c.codecType, width: 2))"
        }
    }

    /// The bits of `byte` named by `names` (most significant bit first), joined by "/".
    static func bits(_ byte: UInt8, _ names: [(UInt8, String)]) -> String {
        let set = names.filter { byte & $0.0 != 0 }.map(\.1)
        return set.isEmpty ? "none" : set.joined(separator: "/")
    }

    /// The codec's parameters: "44.1 kHz, joint stereo, 16 blocks, 8 subbands, loudness, bitpool 2–53". A
    /// capability (several bits set) lists every choice.
    public static func configuration(_ c: A2DPCodec) -> String {
        let p = Array(c.parameters)
        switch c.codecType {
        case 0x00 where p.count >= 4:
            let rate = bits(p[0], [(0x80, "16"), (0x40, "32"), (0x20, "44.1"), (0x10, "48")]) + " kHz"
            let mode = bits(p[0], [(0x08, "mono"), (0x04, "dual channel"), (0x02, "stereo"), (0x01, "joint stereo")])
            let blocks = bits(p[1], [(0x80, "4"), (0x40, "8"), (0x20, "12"), (0x10, "16")]) + " blocks"
            let subbands = bits(p[1], [(0x08, "4"), (0x04, "8")]) + " subbands"
            let allocation = bits(p[1], [(0x02, "SNR"), (0x01, "loudness")])
            return "\(rate), \(mode), \(blocks), \(subbands), \(allocation), bitpool \(p[2])–\(p[3])"
        case 0x02:
            guard let a = A2DPAACConfiguration(c.parameters) else { return p.isEmpty ? "" : Hex.string(p) }
            let object = bits(a.objectTypes, [(0x80, "MPEG-2 AAC LC"), (0x40, "MPEG-4 AAC LC"), (0x20, "MPEG-4 AAC LTP"), (0x10, "MPEG-4 AAC scalable")])
            let rates = a.sampleRates.map { AudioRender.kHz($0) }.joined(separator: "/")
            let channels = a.channels.isEmpty ? "none" : a.channels.map { String($0) }.joined(separator: "/")
            return "\(object), \(rates.isEmpty ? "none" : rates) kHz, \(channels) channel(s)" + (a.vbr ? ", VBR" : "")
                + (a.bitRate > 0 ? ", \(a.bitRate / 1000) kbit/s" : "")
        default:
            return p.isEmpty ? "" : Hex.string(p)
        }
    }
}

extension AVDTPSignal {
    func writeText(into b: inout TextBytes) {
        b.append(string: "AVDTP ")
        guard let s = signal else {
            b.append(string: packetType == 2 ? "continue packet" : "end packet")
            b.append(string: " (label ")
            b.append(decimal: Int(label))
            b.append(UInt8(ascii: ")"))
            return
        }
        b.append(string: A2DPNames.signal(s))
        b.append(UInt8(ascii: " "))
        b.append(string: A2DPNames.messageType(messageType))
        b.append(string: " (label ")
        b.append(decimal: Int(label))
        b.append(UInt8(ascii: ")"))
        var parts: [String] = []
        switch content {
        case let .endpoints(list):
            parts = list.map { "SEID \($0.seid) \(A2DPNames.mediaType($0.mediaType)) \($0.sink ? "sink" : "source")" + ($0.inUse ? " (in use)" : "") }
        case let .capabilities(acp, int, caps):
            if let a = acp { parts.append("ACP SEID \(a)") }
            if let i = int { parts.append("INT SEID \(i)") }
            for c in caps {
                if let codec = c.codec {
                    let conf = A2DPNames.configuration(codec)
                    parts.append(A2DPNames.codecName(codec) + (conf.isEmpty ? "" : " " + conf))
                } else {
                    parts.append(A2DPNames.category(c.category))
                }
            }
        case let .seids(list):
            parts = list.map { "SEID \($0)" }
        case let .error(category, code):
            parts.append(A2DPNames.error(code))
            if let c = category { parts.append("category " + A2DPNames.category(c)) }
        case let .delay(seid, tenths):
            parts = ["SEID \(seid)", "delay " + Fmt.fixed(Int(tenths), scale: 10) + " ms"]
        case .none:
            break
        case .fragment:
            parts = ["start of a fragmented message"]
        }
        if !parts.isEmpty {
            b.append(string: ": ")
            b.append(string: parts.joined(separator: ", "))
        }
    }

    func writeLayers<S: FieldSink>(into s: inout S) {
        s.object("avdtp") { s in
            s.field("label", label)
            s.field("packet_type", packetType)
            s.field("message_type", Int(messageType.rawValue))
            s.field("message_type_name", A2DPNames.messageType(messageType))
            if let sig = signal {
                s.field("signal", sig)
                s.field("signal_name", A2DPNames.signal(sig))
            }
            switch content {
            case let .endpoints(list):
                s.list("endpoints") { l in
                    for e in list {
                        l.beginObject()
                        l.field("seid", e.seid)
                        l.field("in_use", e.inUse)
                        l.field("media_type", A2DPNames.mediaType(e.mediaType))
                        l.field("tsep", e.sink ? "sink" : "source")
                        l.endObject()
                    }
                }
            case let .capabilities(acp, int, caps):
                if let a = acp { s.field("acp_seid", a) }
                if let i = int { s.field("int_seid", i) }
                s.list("capabilities") { l in
                    for c in caps {
                        l.beginObject()
                        l.field("category", c.category)
                        l.field("category_name", A2DPNames.category(c.category))
                        if let codec = c.codec {
                            l.field("media_type", A2DPNames.mediaType(codec.mediaType))
                            l.field("codec", codec.codecType)
                            l.field("codec_name", A2DPNames.codecName(codec))
                            l.field("configuration", A2DPNames.configuration(codec))
                            l.field("codec_parameters", hex: codec.parameters)
                        } else if !c.info.isEmpty {
                            l.field("info", hex: c.info)
                        }
                        l.endObject()
                    }
                }
            case let .seids(list):
                s.list("seids") { l in for x in list { l.int(Int(x)) } }
            case let .error(category, code):
                if let c = category { s.field("category", c) }
                s.field("error", code)
                s.field("error_name", A2DPNames.error(code))
            case let .delay(seid, tenths):
                s.field("acp_seid", seid)
                s.field("delay_tenths_ms", tenths)
            case .none, .fragment:
                break
            }
        }
    }
}

extension A2DPMediaPacket {
    func writeText(into b: inout TextBytes) {
        b.append(string: "A2DP media: RTP sequence ")
        b.append(decimal: Int(sequence))
        b.append(string: ", timestamp ")
        b.append(decimal: Int(timestamp))
        if let f = frames {
            b.append(string: ", ")
            b.append(decimal: Int(f))
            b.append(string: f == 1 ? " frame" : " frames")
        }
        b.append(string: ", ")
        b.append(decimal: length)
        b.append(string: " bytes")
    }

    func writeLayers<S: FieldSink>(into s: inout S) {
        s.object("a2dp_media") { s in
            s.field("sequence", sequence)
            s.field("timestamp", Int(timestamp))
            s.field("payload_type", payloadType)
            if let f = frames { s.field("frames", f) }
            s.field("length", length)
        }
    }
}
