/// Reads Apple PacketLogger (`.pklg`) files. The format has no file header: each record is
/// `length(4) seconds(4) microseconds(4) type(1) data`, where `length` counts everything after itself.
/// Older files store the header big-endian, newer iOS ones little-endian; the first record tells which.
public final class PacketLoggerReader: RecordReader {
    public let format = CaptureFormat.packetLogger
    public let linkType = 0
    public let littleEndian: Bool
    let input: InputBuffer
    var number = 0

    public enum RecordType {
        public static let command: UInt8 = 0x00
        public static let event: UInt8 = 0x01
        public static let aclSent: UInt8 = 0x02
        public static let aclReceived: UInt8 = 0x03
        public static let scoSent: UInt8 = 0x08
        public static let scoReceived: UInt8 = 0x09
        public static let lmpSent: UInt8 = 0x0A
        public static let lmpReceived: UInt8 = 0x0B
        public static let isoSent: UInt8 = 0x12
        public static let isoReceived: UInt8 = 0x13
        public static let syslog: UInt8 = 0xF7
        public static let kernel: UInt8 = 0xF8
        public static let kernelDebug: UInt8 = 0xF9
        public static let error: UInt8 = 0xFA
        public static let power: UInt8 = 0xFB
        public static let note: UInt8 = 0xFC
        public static let config: UInt8 = 0xFD
        public static let newController: UInt8 = 0xFE

        /// Records whose payload is binary (LMP PDUs, configuration), never text.
        static let binary: Set<UInt8> = [lmpSent, lmpReceived, config]

        static let known: Set<UInt8> = [0x00, 0x01, 0x02, 0x03, 0x08, 0x09, 0x0A, 0x0B, 0x10, 0x11, 0x12, 0x13,
                                        0xF7, 0xF8, 0xF9, 0xFA, 0xFB, 0xFC, 0xFD, 0xFE]

        public static func name(_ t: UInt8) -> String {
            switch t {
            case syslog: return "Syslog"
            case kernel: return "Kernel"
            case kernelDebug: return "Kernel debug"
            case error: return "Error"
            case power: return "Power"
            case note: return "Note"
            case config: return "Config"
            case newController: return "New controller"
            case lmpSent: return "LMP sent"
            case lmpReceived: return "LMP received"
            default: return "PacketLogger type \(Hex.hex(t, width: 2))"
            }
        }
    }

    static let maxRecord = 0x0100_0000

    /// Decides the byte order from the first two record headers; nil if neither order makes sense.
    public static func detectByteOrder(_ head: ArraySlice<UInt8>) -> Bool? {
        func plausible(_ little: Bool) -> Bool {
            var offset = head.startIndex
            var checked = 0
            while checked < 2 && offset + 13 <= head.endIndex {
                var c = ByteCursor(head[offset..<(offset + 13)])
                guard let length = try? (little ? c.u32le() : c.u32be()) else { return false }
                let type = head[offset + 12]
                guard length >= 9, Int(length) <= maxRecord, RecordType.known.contains(type) else { return false }
                offset += 4 + Int(length)
                checked += 1
            }
            return checked > 0
        }
        if plausible(true) { return true }
        if plausible(false) { return false }
        return nil
    }

    public init(input: InputBuffer) throws {
        self.input = input
        let head = try input.peek(4096)
        guard let little = PacketLoggerReader.detectByteOrder(head) else {
            throw CaptureError.badHeader("not a PacketLogger file")
        }
        self.littleEndian = little
    }

    public var position: Int { input.offset }

    public func next() throws -> Record? {
        if try input.atCleanEnd() { return nil }
        let recordNumber = number + 1
        let recordOffset = input.offset
        guard try input.ensure(13) else {
            throw CaptureError.truncated(record: recordNumber, offset: recordOffset,
                                         reason: "record header needs 13 bytes, file has \(input.available) left" + input.sourceNote)
        }
        var h = ByteCursor(try input.peek(13))
        let length = Int(littleEndian ? try h.u32le() : try h.u32be())
        let secs = littleEndian ? try h.u32le() : try h.u32be()
        let usecs = littleEndian ? try h.u32le() : try h.u32be()
        let type = try h.u8()
        guard length >= 9, length <= PacketLoggerReader.maxRecord else {
            throw CaptureError.truncated(record: recordNumber, offset: recordOffset,
                                         reason: "record length \(length) is implausible")
        }
        guard try input.ensure(4 + length) else {
            throw CaptureError.truncated(record: recordNumber, offset: recordOffset,
                                         reason: "record claims \(4 + length) bytes, file has \(input.available) left" + input.sourceNote)
        }
        let data = input.take(4 + length).dropFirst(13)
        number = recordNumber
        let micros = Int64(secs) &* 1_000_000 &+ Int64(usecs)
        let kind: PacketKind
        let direction: Direction
        switch type {
        case RecordType.command: (kind, direction) = (.command, .hostToController)
        case RecordType.event: (kind, direction) = (.event, .controllerToHost)
        case RecordType.aclSent: (kind, direction) = (.acl, .hostToController)
        case RecordType.aclReceived: (kind, direction) = (.acl, .controllerToHost)
        case RecordType.scoSent: (kind, direction) = (.sco, .hostToController)
        case RecordType.scoReceived: (kind, direction) = (.sco, .controllerToHost)
        case RecordType.isoSent: (kind, direction) = (.iso, .hostToController)
        case RecordType.isoReceived: (kind, direction) = (.iso, .controllerToHost)
        default: (kind, direction) = (.note, .unknown)
        }
        return Record(number: recordNumber, timestamp: Timestamp(micros: micros), direction: direction, kind: kind,
                      data: data, sourceType: UInt16(type), origin: .packetLogger)
    }
}
