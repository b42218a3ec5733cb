/// Which way a packet travelled across the host/controller interface.
public enum Direction: UInt8, Sendable {
    case hostToController
    case controllerToHost
    case unknown

    /// The name used in JSON output.
    public var jsonName: String { jsonStaticName.description }

    /// `jsonName` as static bytes (the JSON event writer copies them without a String).
    public var jsonStaticName: StaticString {
        switch self {
        case .hostToController: return "host_to_controller"
        case .controllerToHost: return "controller_to_host"
        case .unknown: return "unknown"
        }
    }

    /// One-character marker for the text timeline, in the manner of btmon: `<` sent to the controller, `>` received.
    public var marker: String { String(UnicodeScalar(markerByte)) }

    /// `marker`'s one byte (the timeline writes it for every event).
    var markerByte: UInt8 {
        switch self {
        case .hostToController: return UInt8(ascii: "<")
        case .controllerToHost: return UInt8(ascii: ">")
        case .unknown: return UInt8(ascii: "=")
        }
    }
}

/// What a record carries.
public enum PacketKind: UInt8, Sendable {
    case command, event, acl, sco, iso, vendor, note
    /// An over-the-air link-layer packet from a sniffer (pcap link types 251, 256, 272).
    case linkLayer

    public var jsonName: String {
        switch self {
        case .command: return "command"
        case .event: return "event"
        case .acl: return "acl"
        case .sco: return "sco"
        case .iso: return "iso"
        case .vendor: return "vendor"
        case .note: return "note"
        case .linkLayer: return "link_layer"
        }
    }
}

extension PacketKind {
    /// The kind named by an H4 (UART) packet-type byte; nil for bytes H4 does not define.
    public init?(h4 type: UInt8) {
        switch type {
        case 0x01: self = .command
        case 0x02: self = .acl
        case 0x03: self = .sco
        case 0x04: self = .event
        case 0x05: self = .iso
        default: return nil
        }
    }
}

/// A point in time, in microseconds since 1970-01-01 00:00:00 UTC.
public struct Timestamp: Hashable, Comparable, Sendable {
    public var micros: Int64
    /// Timestamps from files are clamped to ±2^55 µs (about ±1,100 years around 1970), so that any difference
    /// or sum of two of them, or a timeout added to one, cannot overflow.
    public static let limit: Int64 = 1 << 55
    @inlinable public init(micros: Int64) { self.micros = min(max(micros, -Timestamp.limit), Timestamp.limit) }
    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.micros < b.micros }

    /// ISO-8601 UTC with microseconds: "2024-05-01T12:34:56.123456Z".
    public var iso8601: String {
        TextBytes.string { $0.append(iso8601: self) } // the same formatter the text writers use
    }

    /// The UTC calendar date, the second of that day and the microsecond of that second.
    var utc: (year: Int64, month: Int64, day: Int64, second: Int64, micros: Int64) {
        let (days, rem, us) = daysSecondsMicros
        let (y, m, d) = Timestamp.civil(fromDays: days)
        return (y, m, d, rem, us)
    }

    /// Days since 1970-01-01, the second of that day and the microsecond of that second.
    @inline(__always) var daysSecondsMicros: (days: Int64, second: Int64, micros: Int64) {
        var secs = micros / 1_000_000
        var us = micros % 1_000_000
        if us < 0 { us += 1_000_000; secs -= 1 }
        var days = secs / 86_400
        var rem = secs % 86_400
        if rem < 0 { rem += 86_400; days -= 1 }
        return (days, rem, us)
    }

    /// Proleptic Gregorian date from days since 1970-01-01 (Howard Hinnant's civil-from-days algorithm).
    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}

/// One record of a capture file, normalized across formats.
public struct Record: Sendable {
    /// 1-based position in the file; equal to Wireshark's frame number for the same file.
    public var number: Int
    public var timestamp: Timestamp
    public var direction: Direction
    public var kind: PacketKind
    /// The packet without any capture-format header (no H4 type byte, no direction pseudo-header).
    public var data: ArraySlice<UInt8>
    /// Controller index for multi-controller formats (btsnoop 2001 / Linux monitor); 0 otherwise.
    public var controller: UInt16
    /// Length on the wire when the capture cut the packet short (btsnoop "original length"); nil when complete.
    public var originalLength: Int?
    /// The format's own record type where it has one: the Linux monitor opcode (btsnoop 2001, pcap 254),
    /// the PacketLogger record type; 0 otherwise. Notes are rendered from it.
    public var sourceType: UInt16
    /// Which family of record types `sourceType` belongs to.
    public var origin: Origin

    public enum Origin: UInt8, Sendable {
        case plain, linuxMonitor, packetLogger, sniffer
    }

    public init(number: Int, timestamp: Timestamp, direction: Direction, kind: PacketKind,
                data: ArraySlice<UInt8>, controller: UInt16 = 0, originalLength: Int? = nil, sourceType: UInt16 = 0,
                origin: Origin = .plain) {
        self.number = number
        self.timestamp = timestamp
        self.direction = direction
        self.kind = kind
        self.data = data
        self.controller = controller
        self.originalLength = originalLength
        self.sourceType = sourceType
        self.origin = origin
    }
}

/// The capture formats bletrace reads.
public enum CaptureFormat: String, Sendable {
    case btsnoop
    case pcap
    case pcapng
    case packetLogger = "packetlogger"
}

/// Errors that stop reading a capture. Everything read before the error has already been delivered.
public enum CaptureError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case emptyFile
    case unknownFormat(magic: [UInt8])
    case unsupportedLinkType(format: String, linkType: Int)
    /// PPI (link type 192) that does not wrap Ubertooth's LE packets: its DLT and field types.
    case unsupportedPPI(format: String, dlt: Int, fields: [Int])
    case badHeader(String)
    /// `--log N` names a log the container does not hold.
    case noSuchLog(requested: Int, count: Int)
    /// The file ends inside a record (or a record claims more bytes than the file holds).
    case truncated(record: Int, offset: Int, reason: String)
    /// A compressed stream (gzip, zlib) that ends before its end: the compressed bytes read and the bytes they
    /// gave.
    case truncatedStream(container: String, compressed: Int, decompressed: Int)
    case readFailed(record: Int, offset: Int, reason: String)

    /// The file (or the stream inside it) ends early: what came before it is readable.
    public var isTruncation: Bool {
        switch self {
        case .truncated, .truncatedStream: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "cannot open \(path): \(reason)"
        case .emptyFile: return "the file is empty (0 bytes)"
        case let .unknownFormat(magic):
            return "unknown capture format: first bytes \(Hex.spaced(magic, limit: 8)) match no btsnoop, pcap, pcapng or PacketLogger header"
        case let .unsupportedLinkType(format, linkType):
            return "\(format) link type \(linkType) (\(LinkType.name(linkType))) is not a Bluetooth link type bletrace reads"
        case let .unsupportedPPI(format, dlt, _) where dlt < 0:
            return "\(format) link type 192 (PPI): the first packet holds no complete PPI header"
        case let .unsupportedPPI(format, dlt, fields):
            return "\(format) link type 192 (PPI): " + PPIHeader.describe(dlt: UInt32(truncatingIfNeeded: dlt), fields: fields.map { UInt16(truncatingIfNeeded: $0) })
        case let .badHeader(reason): return "bad file header: \(reason)"
        case let .noSuchLog(requested, count):
            return "--log \(requested): there is no log \(requested); the file holds \(count == 1 ? "1 Bluetooth log" : "\(count) Bluetooth logs") (--list-logs lists them)"
        case let .truncated(record, offset, reason):
            return "record \(record) at byte offset \(offset) is truncated: \(reason)"
        case let .truncatedStream(container, compressed, decompressed) where decompressed == 0:
            return "truncated \(container) stream: it ends after \(compressed) compressed bytes, before any data"
        case let .truncatedStream(container, compressed, decompressed):
            return "truncated \(container) stream: it ends after \(compressed) compressed bytes (\(decompressed) byte\(decompressed == 1 ? "" : "s") decompressed)"
        case let .readFailed(record, offset, reason):
            return "reading record \(record) at byte offset \(offset) failed: \(reason)"
        }
    }
}

/// Sequential access to a capture's records.
public protocol RecordReader: AnyObject {
    var format: CaptureFormat { get }
    /// The btsnoop datalink or pcap link type; for PacketLogger 0.
    var linkType: Int { get }
    /// The next record, or nil at a clean end of file. Throws `CaptureError` on damage.
    /// The returned record's bytes may share storage with the reader; drop it before asking for the next.
    func next() throws -> Record?
    /// Bytes of the file consumed so far, for progress reports; -1 when unknown.
    var position: Int { get }
}

/// pcap link types bletrace knows of.
public enum LinkType {
    public static let bluetoothHCIH4 = 187
    public static let bluetoothHCIH4WithPHDR = 201
    public static let bluetoothLELL = 251
    public static let bluetoothLinuxMonitor = 254
    public static let bluetoothLELLWithPHDR = 256
    public static let nordicBLE = 272
    /// Per-Packet Information; read when it wraps Ubertooth's LE link-layer packets (DLT 147, field 30006).
    public static let ppi = 192

    /// Over-the-air link types: a sniffer between two devices, with no local host.
    public static func isSniffer(_ t: Int) -> Bool { t == bluetoothLELL || t == bluetoothLELLWithPHDR || t == nordicBLE || t == ppi }

    public static func name(_ t: Int) -> String {
        switch t {
        case 1: return "Ethernet"
        case 105: return "IEEE 802.11"
        case 127: return "IEEE 802.11 radiotap"
        case 192: return "PPI"
        case 187: return "BLUETOOTH_HCI_H4"
        case 201: return "BLUETOOTH_HCI_H4_WITH_PHDR"
        case 251: return "BLUETOOTH_LE_LL"
        case 254: return "BLUETOOTH_LINUX_MONITOR"
        case 256: return "BLUETOOTH_LE_LL_WITH_PHDR"
        case 272: return "NORDIC_BLE"
        case 1001: return "btsnoop HCI un-encapsulated"
        case 1002: return "btsnoop HCI UART (H4)"
        case 2001: return "btsnoop Linux monitor"
        default: return "unknown"
        }
    }
}
