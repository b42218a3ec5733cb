/// `analyze --write-capture`: the records a run selected, written as a capture Wireshark opens, so that a
/// ticket can carry the records that matter instead of the whole log. HCI captures become btsnoop (H4, or
/// Linux monitor for btmon captures, which keeps their notes and controller indexes); sniffer captures stay
/// pcap with their own link type and pseudo-headers. Records the output format cannot hold (PacketLogger's
/// notes in an H4 btsnoop) are left out and counted. With comments (`CaptureComments`), the records are
/// written as pcapng instead, each carrying the comments on its record (HCI captures with link type 201 or
/// 254, sniffer captures with their own), and the section the summary's.
public struct CaptureExtract {
    public enum Format: Equatable, Sendable {
        /// btsnoop, datalink 1002 (H4).
        case btsnoopH4
        /// btsnoop, datalink 2001 (Linux monitor).
        case btsnoopMonitor
        /// pcap with the capture's own link type (sniffer captures).
        case pcap(linkType: Int)
        /// pcapng with packet comments: 201 (H4 with direction) or 254 (Linux monitor) for HCI captures, the
        /// capture's own link type for sniffer captures.
        case pcapng(linkType: Int)
    }

    public let format: Format
    var writer: CaptureWriter
    /// Records written and left out.
    public private(set) var written = 0
    public private(set) var leftOut = 0
    /// Records written with comments (pcapng).
    public private(set) var commented = 0

    /// The format for records read by `reader`; as pcapng, with the link type of the format it would have.
    public static func format(for reader: RecordReader, pcapng: Bool) -> Format {
        let plain = format(for: reader)
        guard pcapng else { return plain }
        switch plain {
        case .btsnoopH4: return .pcapng(linkType: LinkType.bluetoothHCIH4WithPHDR)
        case .btsnoopMonitor: return .pcapng(linkType: LinkType.bluetoothLinuxMonitor)
        case let .pcap(linkType), let .pcapng(linkType): return .pcapng(linkType: linkType)
        }
    }

    /// The format for records read by `reader`.
    public static func format(for reader: RecordReader) -> Format {
        if LinkType.isSniffer(reader.linkType) && reader.format != .btsnoop && reader.format != .packetLogger {
            return .pcap(linkType: reader.linkType)
        }
        if (reader.format == .btsnoop && reader.linkType == 2001)
            || (reader.format != .btsnoop && reader.format != .packetLogger && reader.linkType == LinkType.bluetoothLinuxMonitor) {
            return .btsnoopMonitor
        }
        return .btsnoopH4
    }

    /// `sectionComment`: pcapng's section comment.
    public init(format: Format, sectionComment: String? = nil) {
        self.format = format
        switch format {
        case .btsnoopH4: writer = CaptureWriter(format: .btsnoop(datalink: 1002))
        case .btsnoopMonitor: writer = CaptureWriter(format: .btsnoop(datalink: 2001))
        case let .pcap(linkType): writer = CaptureWriter(format: .pcap(linkType: linkType))
        case let .pcapng(linkType): writer = CaptureWriter(format: .pcapng(linkType: linkType, comment: sectionComment))
        }
    }

    /// Appends one record (its bytes redacted when `redactor` is given); `comments` go on it in pcapng.
    public mutating func add(_ r: Record, redactor: Redactor?, comments: [String] = []) {
        var data = Array(r.data)
        if let red = redactor { data = red.redact(bytes: data) }
        let original = r.originalLength ?? data.count
        switch format {
        case .btsnoopH4:
            let h4 = CaptureWriter.h4Type(r.kind)
            guard h4 != 0xFF else { leftOut += 1; return }
            var flags: UInt32 = r.direction == .controllerToHost ? 1 : 0
            if r.kind == .command || r.kind == .event { flags |= 2 }
            writer.addBTSnoop(payload: [h4] + data, original: original + 1, flags: flags, at: r.timestamp)
        case .btsnoopMonitor:
            let opcode = r.origin == .linuxMonitor ? r.sourceType : CaptureWriter.monitorOpcode(r.kind, r.direction)
            writer.addBTSnoop(payload: data, original: original, flags: UInt32(r.controller) << 16 | UInt32(opcode), at: r.timestamp)
        case .pcap:
            writer.addPcap(payload: data, original: original, at: r.timestamp)
        case let .pcapng(linkType):
            var payload = data
            var extra = 0
            if linkType == LinkType.bluetoothHCIH4WithPHDR {
                let h4 = CaptureWriter.h4Type(r.kind)
                guard h4 != 0xFF else { leftOut += 1; return }
                payload = [0, 0, 0, r.direction == .controllerToHost ? 1 : 0, h4] + data
                extra = 5
            } else if linkType == LinkType.bluetoothLinuxMonitor {
                let opcode = r.origin == .linuxMonitor ? r.sourceType : CaptureWriter.monitorOpcode(r.kind, r.direction)
                payload = [UInt8(r.controller >> 8 & 0xFF), UInt8(r.controller & 0xFF), UInt8(opcode >> 8), UInt8(opcode & 0xFF)] + data
                extra = 4
            }
            writer.addPcapngPacket(payload: payload, original: original + extra, at: r.timestamp, comments: comments)
            if !comments.isEmpty { commented += 1 }
        }
        written += 1
    }

    /// The file's bytes so far, forgotten once returned (to write as it goes).
    public mutating func drain() -> [UInt8] { writer.drain() }

    /// Reads `reader` to its end and writes the records `selected` holds (every record when nil) to `out`.
    /// A damaged file ends the copy where the damage is, with the error returned; what came before is written.
    /// With `comments`, the copy is pcapng with them.
    public static func copy(_ reader: RecordReader, selected: RecordSelection?, redactor: Redactor?,
                            comments: CaptureComments? = nil,
                            to out: OutputWriter) -> (extract: CaptureExtract, error: CaptureError?) {
        var x = CaptureExtract(format: format(for: reader, pcapng: comments != nil), sectionComment: comments?.section)
        out.write(bytes: x.drain())
        do {
            while let r = try reader.next() {
                guard selected?.contains(r.number) ?? true else { continue }
                x.add(r, redactor: redactor, comments: comments?.records[r.number] ?? [])
                if x.writer.bytes.count >= 1 << 16 { out.write(bytes: x.drain()) }
            }
        } catch let e as CaptureError {
            out.write(bytes: x.drain())
            return (x, e)
        } catch {
            out.write(bytes: x.drain())
            return (x, .readFailed(record: -1, offset: -1, reason: "\(error)"))
        }
        out.write(bytes: x.drain())
        return (x, nil)
    }
}

extension CaptureWriter {
    /// A btsnoop record as it is: payload, original length and flags.
    func addBTSnoop(payload: [UInt8], original: Int, flags: UInt32, at time: Timestamp) {
        count += 1
        put32be(UInt32(truncatingIfNeeded: original)); put32be(UInt32(truncatingIfNeeded: payload.count))
        put32be(flags); put32be(0)
        put64be(UInt64(bitPattern: time.micros &+ 0x00DC_DDB3_0F2F_8000))
        bytes.append(contentsOf: payload)
    }

    /// A pcap record with microsecond time.
    func addPcap(payload: [UInt8], original: Int, at time: Timestamp) {
        count += 1
        let micros = time.micros >= 0 ? time.micros : 0
        put32le(UInt32(truncatingIfNeeded: micros / 1_000_000))
        put32le(UInt32(truncatingIfNeeded: micros % 1_000_000))
        put32le(UInt32(truncatingIfNeeded: payload.count)); put32le(UInt32(truncatingIfNeeded: max(original, payload.count)))
        bytes.append(contentsOf: payload)
    }
}
