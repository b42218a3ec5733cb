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
    // Read and written for every record, by the reading thread alone and never by two overlapping accesses: no
    // run-time exclusivity checks (they cost about 100 instructions a record).
    @exclusivity(unchecked) var number = 0
    /// Packets read ahead, copied one after another into a window made for them (libpcap keeps a packet only until
    /// its next read): a record is a slice of the window, and a window costs one allocation for up to
    /// `readAhead` packets, not one a packet. Events that keep a record's bytes keep its window.
    @exclusivity(unchecked) var window: [UInt8] = []
    /// The window's packets: header and where the packet starts; `nextPacket` is the next to hand out.
    @exclusivity(unchecked) var packets: [(header: pcap_pkthdr, start: Int)] = []
    @exclusivity(unchecked) var nextPacket = 0
    /// A packet read that did not fit the window: the next window's first.
    @exclusivity(unchecked) var carried: (header: pcap_pkthdr, bytes: [UInt8])?
    /// Why reading stopped, thrown once the packets read before it are handed out.
    @exclusivity(unchecked) var failure: CaptureError?
    /// The file ended (or reading failed): nothing more is read.
    @exclusivity(unchecked) var ended = false
    static let windowBytes = 1 << 18
    static let readAhead = 512

    public static let supportedLinkTypes: Set<Int> = [187, 201, 254, 251, 256, 272, 192]

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
            failure = readError(record: 1, offset: offset)
            ended = true
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
        // The packet checked is the first record.
        carried = (hdr, packet)
    }

    /// The error libpcap reports for a read that failed at `record`, which starts at `offset`.
    func readError(record: Int, offset: Int) -> CaptureError {
        let reason = String(cString: pcap_geterr(handle))
        return reason.contains("truncated") ? .truncated(record: record, offset: offset, reason: reason)
            : .readFailed(record: record, offset: offset, reason: reason)
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
        while nextPacket == packets.count {
            if let e = failure {
                failure = nil
                throw e
            }
            if ended { return nil }
            readAheadPackets()
        }
        let (header, start) = packets[nextPacket]
        nextPacket += 1
        return record(header, window[start..<(start + Int(header.caplen))], number + 1)
    }

    /// Reads the next packets into a new window: up to `readAhead`, as many as fit, and the one carried over
    /// first. Stops at the end of the file or at an error, kept for after the packets before it.
    func readAheadPackets() {
        // The list's memory is kept from window to window (taken, not shared: emptying a shared one would make another).
        var list: [(header: pcap_pkthdr, start: Int)] = []
        swap(&list, &packets)
        list.removeAll(keepingCapacity: true)
        let first = number + 1
        let held = carried
        carried = nil
        let room = max(PcapReader.windowBytes, held?.bytes.count ?? 0)
        window = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            if let (header, bytes) = held {
                bytes.withUnsafeBufferPointer { if let b = $0.baseAddress { base.initialize(from: b, count: $0.count) } }
                list.append((header, 0))
                count = bytes.count
            }
            while list.count < PcapReader.readAhead {
                var header: UnsafeMutablePointer<pcap_pkthdr>? = nil
                var data: UnsafePointer<UInt8>? = nil
                let offset = fileOffset
                let rc = pcap_next_ex(handle, &header, &data)
                guard rc == 1 else {
                    if rc != PCAP_ERROR_BREAK && rc != -2 { failure = readError(record: first + list.count, offset: offset) }
                    ended = true
                    return
                }
                guard let h = header?.pointee, let bytes = data else {
                    ended = true
                    return
                }
                let n = Int(h.caplen)
                guard count + n <= room else {
                    carried = (h, Array(UnsafeBufferPointer(start: bytes, count: n)))
                    return
                }
                (base + count).initialize(from: bytes, count: n)
                list.append((h, count))
                count += n
            }
        }
        packets = list
        nextPacket = 0
    }

    func record(_ hdr: pcap_pkthdr, _ all: ArraySlice<UInt8>, _ recordNumber: Int) -> Record {
        number = recordNumber
        let secs = Int64(hdr.ts.tv_sec)
        let secLimit = Timestamp.limit / 1_000_000
        // Saturate instead of wrapping: a nonsense timestamp shows as the far past or future, never as 1970.
        let micros = secs > secLimit ? Timestamp.limit : secs < -secLimit ? -Timestamp.limit
            : secs * 1_000_000 + Int64(hdr.ts.tv_usec)
        let caplen = Int(hdr.caplen)
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
