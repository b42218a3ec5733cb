import CPcap
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads pcap and pcapng through libpcap. Link types 187 (HCI H4), 201 (H4 with a direction pseudo-header)
/// and 254 (Linux monitor) yield HCI records; 251, 256 and 272 (sniffer captures) yield link-layer records, and
/// so does 192 (PPI) when it wraps Ubertooth's LE packets: its first packet is checked when the file is opened.
public final class PcapReader: RecordReader {
    public let format: CaptureFormat
    public let linkType: Int
    let handle: OpaquePointer
    var number = 0
    var scratch: [UInt8] = []

    public static let supportedLinkTypes: Set<Int> = [187, 201, 254, 251, 256, 272, 192]

    /// The first packet of a PPI file, read when opening to check what the PPI header holds.
    var first: (header: pcap_pkthdr, bytes: [UInt8])?
    /// Why the first packet of a PPI file could not be read (thrown by the first `next()`).
    var firstError: CaptureError?

    /// Keeps the bytes alive while libpcap reads them through `fmemopen`.
    var memory: UnsafeMutableRawBufferPointer?

    /// Reads pcap or pcapng bytes held in memory (tests, fuzzing, small decompressed inputs).
    public convenience init(bytes: [UInt8], format: CaptureFormat) throws {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { src in if !src.isEmpty { copy.baseAddress!.copyMemory(from: src.baseAddress!, byteCount: src.count) } }
        guard let file = fmemopen(copy.baseAddress, bytes.count, "rb") else {
            copy.deallocate()
            throw CaptureError.badHeader("cannot open pcap bytes in memory")
        }
        do {
            try self.init(file: file, format: format)
        } catch {
            copy.deallocate()
            throw error
        }
        memory = copy
    }

    /// Reads through an open `FILE`; libpcap closes it.
    convenience init(file: UnsafeMutablePointer<FILE>, format: CaptureFormat) throws {
        var errbuf = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        guard let h = pcap_fopen_offline(file, &errbuf) else {
            fclose(file)
            let reason = PcapReader.text(errbuf)
            if reason.contains("truncated") { throw CaptureError.truncated(record: 1, offset: 0, reason: reason) }
            throw CaptureError.badHeader(reason)
        }
        try self.init(handle: h, format: format)
    }

    public convenience init(path: String, format: CaptureFormat) throws {
        var errbuf = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        guard let h = pcap_open_offline(path, &errbuf) else {
            let reason = PcapReader.text(errbuf)
            if reason.contains("truncated") {
                throw CaptureError.truncated(record: 1, offset: 0, reason: reason)
            }
            throw CaptureError.badHeader(reason)
        }
        try self.init(handle: h, format: format)
    }

    init(handle h: OpaquePointer, format: CaptureFormat) throws {
        let link = Int(pcap_datalink(h))
        guard PcapReader.supportedLinkTypes.contains(link) else {
            pcap_close(h)
            throw CaptureError.unsupportedLinkType(format: format.rawValue, linkType: link)
        }
        self.handle = h
        self.format = format
        self.linkType = link
        scratch.reserveCapacity(65_536)
        if link == LinkType.ppi { try checkPPI() }
    }

    /// PPI is read only when it holds Ubertooth's LE packets: anything else stops with what the header holds.
    func checkPPI() throws {
        var header: UnsafeMutablePointer<pcap_pkthdr>? = nil
        var data: UnsafePointer<UInt8>? = nil
        let offset = fileOffset
        let rc = pcap_next_ex(handle, &header, &data)
        if rc != 1 && rc != -2 && rc != PCAP_ERROR_BREAK {
            // A first packet cut short (or unreadable) is the file's damage, reported by the first `next()` as
            // it is for every other link type.
            let reason = String(cString: pcap_geterr(handle))
            firstError = reason.contains("truncated") ? .truncated(record: 1, offset: offset, reason: reason)
                : .readFailed(record: 1, offset: offset, reason: reason)
            return
        }
        guard rc == 1, let hdr = header?.pointee, let bytes = data else { return }
        let packet = Array(UnsafeBufferPointer(start: bytes, count: Int(hdr.caplen)))
        guard let (dlt, fields) = PPIHeader.peek(packet[...]) else {
            throw CaptureError.unsupportedPPI(format: format.rawValue, dlt: -1, fields: [])
        }
        if dlt != PPIHeader.ubertoothDLT || !fields.contains(PPIHeader.btleFieldType) {
            throw CaptureError.unsupportedPPI(format: format.rawValue, dlt: Int(dlt), fields: fields.map { Int($0) })
        }
        first = (hdr, packet)
    }

    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        pcap_close(handle)
        memory?.deallocate()
    }

    var fileOffset: Int {
        guard let f = pcap_file(handle) else { return -1 }
        return Int(ftell(f))
    }

    public var position: Int { fileOffset }

    public func next() throws -> Record? {
        var header: UnsafeMutablePointer<pcap_pkthdr>? = nil
        var data: UnsafePointer<UInt8>? = nil
        let offsetBefore = fileOffset
        let recordNumber = number + 1
        if let e = firstError {
            firstError = nil
            throw e
        }
        if let held = first {
            first = nil
            return held.bytes.withUnsafeBufferPointer { record(held.header, $0.baseAddress, recordNumber) }
        }
        let rc = pcap_next_ex(handle, &header, &data)
        switch rc {
        case 1:
            break
        case PCAP_ERROR_BREAK, -2:
            return nil
        default:
            let reason = String(cString: pcap_geterr(handle))
            if reason.contains("truncated") {
                throw CaptureError.truncated(record: recordNumber, offset: offsetBefore, reason: reason)
            }
            throw CaptureError.readFailed(record: recordNumber, offset: offsetBefore, reason: reason)
        }
        guard let hdr = header?.pointee, let bytes = data else { return nil }
        return record(hdr, bytes, recordNumber)
    }

    func record(_ hdr: pcap_pkthdr, _ bytes: UnsafePointer<UInt8>?, _ recordNumber: Int) -> Record {
        number = recordNumber
        let secs = Int64(hdr.ts.tv_sec)
        let secLimit = Timestamp.limit / 1_000_000
        // Saturate instead of wrapping: a nonsense timestamp shows as the far past or future, never as 1970.
        let micros = secs > secLimit ? Timestamp.limit : secs < -secLimit ? -Timestamp.limit
            : secs * 1_000_000 + Int64(hdr.ts.tv_usec)
        let caplen = Int(hdr.caplen)
        scratch.removeAll(keepingCapacity: true)
        if caplen > 0, let bytes = bytes { scratch.append(contentsOf: UnsafeBufferPointer(start: bytes, count: caplen)) }
        let all = scratch[...]
        let original = Int(hdr.len) > caplen ? Int(hdr.len) : nil
        let ts = Timestamp(micros: micros)
        switch linkType {
        case 187:
            return PcapReader.h4Record(number: recordNumber, timestamp: ts, direction: nil, packet: all, original: original)
        case 201:
            var c = ByteCursor(all)
            guard let dir = try? c.u32be() else {
                return Record(number: recordNumber, timestamp: ts, direction: .unknown, kind: .vendor, data: all,
                              originalLength: original)
            }
            return PcapReader.h4Record(number: recordNumber, timestamp: ts,
                                       direction: dir & 1 == 0 ? .hostToController : .controllerToHost,
                                       packet: c.rest(), original: original)
        case 254:
            var c = ByteCursor(all)
            guard let index = try? c.u16be(), let opcode = try? c.u16be() else {
                return Record(number: recordNumber, timestamp: ts, direction: .unknown, kind: .vendor, data: all,
                              originalLength: original)
            }
            let (kind, direction) = MonitorOpcode.classify(opcode)
            return Record(number: recordNumber, timestamp: ts, direction: direction, kind: kind, data: c.rest(),
                          controller: index, originalLength: original, sourceType: opcode, origin: .linuxMonitor)
        default:
            return Record(number: recordNumber, timestamp: ts, direction: .unknown, kind: .linkLayer, data: all,
                          originalLength: original, sourceType: UInt16(linkType), origin: .sniffer)
        }
    }

    /// An H4 packet: the first byte names the kind. Without a direction header, commands go to the
    /// controller, events come from it, and data direction is unknown.
    static func h4Record(number: Int, timestamp: Timestamp, direction: Direction?, packet: ArraySlice<UInt8>,
                         original: Int?) -> Record {
        guard let type = packet.first, let kind = PacketKind(h4: type) else {
            return Record(number: number, timestamp: timestamp, direction: direction ?? .unknown, kind: .vendor,
                          data: packet, originalLength: original)
        }
        let dir = direction ?? (kind == .command ? .hostToController : kind == .event ? .controllerToHost : .unknown)
        return Record(number: number, timestamp: timestamp, direction: dir, kind: kind, data: packet.dropFirst(),
                      originalLength: original)
    }
}
