/// Writes captures in the formats bletrace reads, for samples, tests and benchmarks.
public final class CaptureWriter {
    public enum Format: Sendable {
        /// btsnoop with datalink 1001 (un-encapsulated), 1002 (H4) or 2001 (Linux monitor).
        case btsnoop(datalink: Int)
        /// Classic pcap (microsecond timestamps) with link type 187 (H4), 201 (H4 + direction) or 254 (monitor).
        case pcap(linkType: Int)
        /// Apple PacketLogger, with little- or big-endian record headers.
        case packetLogger(littleEndian: Bool)
        /// pcapng with one interface of this link type (as `pcap`), a section comment when given
        /// (`PcapngBlocks.swift`).
        case pcapng(linkType: Int, comment: String?)
    }

    public let format: Format
    /// The file so far.
    public internal(set) var bytes: [UInt8] = []
    public internal(set) var count = 0

    public init(format: Format) {
        self.format = format
        switch format {
        case let .btsnoop(datalink):
            bytes.append(contentsOf: BTSnoopReader.magic)
            put32be(1)
            put32be(UInt32(datalink))
        case let .pcap(linkType):
            put32le(0xA1B2_C3D4)
            put16le(2); put16le(4)
            put32le(0); put32le(0)
            put32le(65_535)
            put32le(UInt32(linkType))
        case .packetLogger:
            break
        case let .pcapng(linkType, comment):
            addPcapngHeader(linkType: linkType, comment: comment)
        }
    }

    /// Returns the bytes written so far and forgets them (for streaming a large capture to a file).
    public func drain() -> [UInt8] {
        let out = bytes
        bytes.removeAll(keepingCapacity: true)
        return out
    }

    /// Appends one HCI packet (without H4 type byte) or note.
    public func add(kind: PacketKind, direction: Direction, at time: Timestamp, _ data: [UInt8]) {
        count += 1
        switch format {
        case let .btsnoop(datalink):
            var payload = data
            var flags: UInt32 = direction == .controllerToHost ? 1 : 0
            switch datalink {
            case 1001:
                if kind == .command || kind == .event { flags |= 2 }
            case 2001:
                flags = UInt32(CaptureWriter.monitorOpcode(kind, direction))
            default:
                payload = [CaptureWriter.h4Type(kind)] + data
                if kind == .command || kind == .event { flags |= 2 }
            }
            put32be(UInt32(payload.count)); put32be(UInt32(payload.count))
            put32be(flags); put32be(0)
            put64be(UInt64(bitPattern: time.micros &+ 0x00DC_DDB3_0F2F_8000))
            bytes.append(contentsOf: payload)
        case let .pcapng(linkType, _):
            count -= 1
            let payload = CaptureWriter.pcapPayload(linkType: linkType, kind: kind, direction: direction, data)
            addPcapngPacket(payload: payload, original: payload.count, at: time, comments: [])
        case let .pcap(linkType):
            let payload = CaptureWriter.pcapPayload(linkType: linkType, kind: kind, direction: direction, data)
            put32le(UInt32(truncatingIfNeeded: time.micros / 1_000_000))
            put32le(UInt32(truncatingIfNeeded: time.micros % 1_000_000))
            put32le(UInt32(payload.count)); put32le(UInt32(payload.count))
            bytes.append(contentsOf: payload)
        case let .packetLogger(little):
            let type: UInt8
            switch (kind, direction) {
            case (.command, _): type = PacketLoggerReader.RecordType.command
            case (.event, _): type = PacketLoggerReader.RecordType.event
            case (.acl, .hostToController): type = PacketLoggerReader.RecordType.aclSent
            case (.acl, _): type = PacketLoggerReader.RecordType.aclReceived
            case (.sco, .hostToController): type = PacketLoggerReader.RecordType.scoSent
            case (.sco, _): type = PacketLoggerReader.RecordType.scoReceived
            default: type = PacketLoggerReader.RecordType.note
            }
            let length = UInt32(9 + data.count)
            let secs = UInt32(truncatingIfNeeded: time.micros / 1_000_000)
            let usecs = UInt32(truncatingIfNeeded: time.micros % 1_000_000)
            if little { put32le(length); put32le(secs); put32le(usecs) } else { put32be(length); put32be(secs); put32be(usecs) }
            bytes.append(type)
            bytes.append(contentsOf: data)
        }
    }

    /// An HCI packet as a pcap link type carries it: 201 with the direction, 254 with the monitor opcode,
    /// otherwise (187) with the H4 type.
    static func pcapPayload(linkType: Int, kind: PacketKind, direction: Direction, _ data: [UInt8]) -> [UInt8] {
        switch linkType {
        case 201:
            return [0, 0, 0, direction == .controllerToHost ? 1 : 0, CaptureWriter.h4Type(kind)] + data
        case 254:
            let op = CaptureWriter.monitorOpcode(kind, direction)
            return [0, 0, UInt8(op >> 8), UInt8(op & 0xFF)] + data
        default:
            return [CaptureWriter.h4Type(kind)] + data
        }
    }

    static func h4Type(_ kind: PacketKind) -> UInt8 {
        switch kind {
        case .command: return 0x01
        case .acl: return 0x02
        case .sco: return 0x03
        case .event: return 0x04
        case .iso: return 0x05
        default: return 0xFF
        }
    }

    static func monitorOpcode(_ kind: PacketKind, _ d: Direction) -> UInt16 {
        let rx = d == .controllerToHost
        switch kind {
        case .command: return 2
        case .event: return 3
        case .acl: return rx ? 5 : 4
        case .sco: return rx ? 7 : 6
        case .iso: return rx ? 19 : 18
        default: return 12 // system note
        }
    }

    func put16le(_ v: UInt16) { bytes.append(UInt8(v & 0xFF)); bytes.append(UInt8(v >> 8)) }
    func put32le(_ v: UInt32) { for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
    func put32be(_ v: UInt32) { for i in (0..<4).reversed() { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
    func put64be(_ v: UInt64) { for i in (0..<8).reversed() { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
}
