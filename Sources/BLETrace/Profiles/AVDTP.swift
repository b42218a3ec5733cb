/// AVDTP (Audio/Video Distribution Transport Protocol 1.3) on a BR/EDR channel with PSM 0x0019: the first
/// such channel of a connection carries signaling, later ones the media stream. Values only; names and text
/// are made by `Report/Layers/AVDTPRender.swift`.
public struct AVDTPSignal: Sendable, Equatable {
    public enum MessageType: UInt8, Sendable {
        case command = 0, generalReject = 1, accept = 2, reject = 3
    }

    public enum Content: Sendable, Equatable {
        /// Discover response: the stream end-points.
        case endpoints([AVDTPEndpoint])
        /// Get (All) Capabilities response, Set Configuration, Reconfigure, Get Configuration response.
        case capabilities(acpSEID: UInt8?, intSEID: UInt8?, [AVDTPCapability])
        /// Commands naming stream end-points (Get Capabilities, Open, Start, Close, Suspend, Abort, …).
        case seids([UInt8])
        /// A reject: the service category it concerns (Set Configuration, Reconfigure) and the error code.
        case error(category: UInt8?, code: UInt8)
        /// Delay Report: ACP SEID and delay in 1/10 ms.
        case delay(seid: UInt8, tenthsOfMs: UInt16)
        /// Nothing beyond the header, or parameters not read.
        case none
        /// A fragment of a message split over several packets (packet type start, continue, end).
        case fragment
    }

    public var label: UInt8
    /// 0 single, 1 start, 2 continue, 3 end.
    public var packetType: UInt8
    public var messageType: MessageType
    /// The signal identifier (not carried by continue and end packets).
    public var signal: UInt8?
    public var content: Content

    public static func parse(_ bytes: ArraySlice<UInt8>) throws -> AVDTPSignal {
        var c = ByteCursor(bytes)
        let h = try c.u8()
        let label = h >> 4, packetType = (h >> 2) & 3
        let message = MessageType(rawValue: h & 3) ?? .command
        var signal: UInt8? = nil
        switch packetType {
        case 0: signal = try c.u8() & 0x3F
        case 1:
            _ = try c.u8()   // number of signal packets
            signal = try c.u8() & 0x3F
        default:
            return AVDTPSignal(label: label, packetType: packetType, messageType: message, signal: nil, content: .fragment)
        }
        var s = AVDTPSignal(label: label, packetType: packetType, messageType: message, signal: signal, content: .none)
        guard packetType == 0, let sig = signal else { s.content = .fragment; return s }
        func seid(_ c: inout ByteCursor) throws -> UInt8 { try c.u8() >> 2 }
        switch (sig, message) {
        case (0x01, .accept):
            var list: [AVDTPEndpoint] = []
            while c.remaining >= 2 {
                let a = try c.u8(), b = try c.u8()
                list.append(AVDTPEndpoint(seid: a >> 2, inUse: a & 2 != 0, mediaType: b >> 4, sink: b & 0x08 != 0))
            }
            s.content = .endpoints(list)
        case (0x02, .accept), (0x0C, .accept), (0x04, .accept):
            s.content = .capabilities(acpSEID: nil, intSEID: nil, try AVDTPCapability.parseAll(&c))
        case (0x03, .command):
            let acp = try seid(&c), int = try seid(&c)
            s.content = .capabilities(acpSEID: acp, intSEID: int, try AVDTPCapability.parseAll(&c))
        case (0x05, .command):
            let acp = try seid(&c)
            s.content = .capabilities(acpSEID: acp, intSEID: nil, try AVDTPCapability.parseAll(&c))
        case (0x02, .command), (0x04, .command), (0x06, .command), (0x0A, .command), (0x0C, .command), (0x07, .command),
             (0x08, .command), (0x09, .command):
            var list: [UInt8] = []
            while !c.isAtEnd { list.append(try seid(&c)) }
            s.content = .seids(list)
        case (0x0D, .command):
            let acp = try seid(&c)
            s.content = .delay(seid: acp, tenthsOfMs: try c.u16be())
        case (0x03, .reject), (0x05, .reject):
            s.content = .error(category: try c.u8(), code: try c.u8())
        case (0x07, .reject), (0x09, .reject):
            _ = try c.u8()   // the first SEID that failed
            s.content = .error(category: nil, code: try c.u8())
        case (_, .reject):
            s.content = c.isAtEnd ? .none : .error(category: nil, code: try c.u8())
        default:
            s.content = .none
        }
        return s
    }
}

/// One stream end-point of a Discover response.
public struct AVDTPEndpoint: Sendable, Equatable {
    public var seid: UInt8
    public var inUse: Bool
    /// 0 audio, 1 video, 2 multimedia.
    public var mediaType: UInt8
    /// TSEP: true for a sink, false for a source.
    public var sink: Bool
}

/// One service capability (AVDTP 8.21).
public struct AVDTPCapability: Sendable, Equatable {
    /// 1 Media Transport, 2 Reporting, 3 Recovery, 4 Content Protection, 5 Header Compression, 6 Multiplexing,
    /// 7 Media Codec, 8 Delay Reporting.
    public var category: UInt8
    public var info: ArraySlice<UInt8>

    /// The codec of a Media Codec capability.
    public var codec: A2DPCodec? {
        guard category == 7, info.count >= 2 else { return nil }
        let i = info.startIndex
        return A2DPCodec(mediaType: info[i] >> 4, codecType: info[i + 1], parameters: info[(i + 2)...])
    }

    static func parseAll(_ c: inout ByteCursor) throws -> [AVDTPCapability] {
        var out: [AVDTPCapability] = []
        while !c.isAtEnd {
            let cat = try c.u8(), len = Int(try c.u8())
            out.append(AVDTPCapability(category: cat, info: try c.bytes(len)))
        }
        return out
    }
}

/// An A2DP codec and its parameters (A2DP 1.4 4.3–4.7): SBC, MPEG-1,2 Audio, MPEG-2,4 AAC, vendor codecs by
/// vendor and codec ID.
public struct A2DPCodec: Sendable, Equatable {
    public var mediaType: UInt8
    /// 0 SBC, 1 MPEG-1,2 Audio, 2 MPEG-2,4 AAC, 4 ATRAC, 0xFF vendor specific.
    public var codecType: UInt8
    public var parameters: ArraySlice<UInt8>

    /// Vendor-specific codecs: the vendor (company) ID and the vendor's codec ID.
    public var vendor: (id: UInt32, codec: UInt16)? {
        guard codecType == 0xFF, parameters.count >= 6 else { return nil }
        var c = ByteCursor(parameters)
        guard let v = try? c.u32le(), let k = try? c.u16le() else { return nil }
        return (v, k)
    }
}

/// A media packet of an A2DP stream: the RTP header's fields and the size of what follows.
public struct A2DPMediaPacket: Sendable, Equatable {
    public var sequence: UInt16
    public var timestamp: UInt32
    public var payloadType: UInt8
    /// SBC (and other codecs with a media payload header): the number of frames, from the first payload byte.
    public var frames: UInt8?
    public var length: Int

    public static func parse(_ bytes: ArraySlice<UInt8>) -> A2DPMediaPacket? {
        var c = ByteCursor(bytes)
        guard let vpxcc = try? c.u8(), vpxcc >> 6 == 2, let mpt = try? c.u8(), let seq = try? c.u16be(), let ts = try? c.u32be(),
              (try? c.u32be()) != nil, (try? c.bytes(Int(vpxcc & 0x0F) * 4)) != nil else { return nil }
        let first = c.rest().first
        return A2DPMediaPacket(sequence: seq, timestamp: ts, payloadType: mpt & 0x7F, frames: first.map { $0 & 0x0F }, length: bytes.count)
    }
}
