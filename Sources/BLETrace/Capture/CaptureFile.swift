/// Opens a capture by its magic bytes (never by its name) and returns a reader for it.
public enum CaptureFile {
    /// Identifies the format from the first bytes of a file.
    public static func detect(_ head: ArraySlice<UInt8>) -> CaptureFormat? {
        let h = Array(head.prefix(8))
        if h.count >= 8 && h == BTSnoopReader.magic { return .btsnoop }
        if h.count >= 4 {
            let m = Array(h[0..<4])
            if m == [0xD4, 0xC3, 0xB2, 0xA1] || m == [0xA1, 0xB2, 0xC3, 0xD4]
                || m == [0x4D, 0x3C, 0xB2, 0xA1] || m == [0xA1, 0xB2, 0x3C, 0x4D] {
                return .pcap
            }
            if m == [0x0A, 0x0D, 0x0D, 0x0A] { return .pcapng }
        }
        if PacketLoggerReader.detectByteOrder(head) != nil { return .packetLogger }
        return nil
    }

    /// Opens `path` and returns the reader for its format. Throws `CaptureError` for a missing, empty,
    /// unknown or unsupported file.
    public static func open(path: String) throws -> RecordReader {
        let input = InputBuffer(source: try FileSource(path: path))
        let head = try input.peek(4096)
        if head.isEmpty { throw CaptureError.emptyFile }
        guard let format = detect(head) else {
            throw CaptureError.unknownFormat(magic: Array(head.prefix(8)))
        }
        switch format {
        case .btsnoop: return try BTSnoopReader(input: input)
        case .packetLogger: return try PacketLoggerReader(input: input)
        case .pcap, .pcapng: return try PcapReader(path: path, format: format)
        }
    }

    /// Opens capture bytes held in memory.
    public static func open(bytes: [UInt8]) throws -> RecordReader {
        let input = InputBuffer(source: MemorySource(bytes))
        let head = try input.peek(4096)
        if head.isEmpty { throw CaptureError.emptyFile }
        guard let format = detect(head) else { throw CaptureError.unknownFormat(magic: Array(head.prefix(8))) }
        switch format {
        case .btsnoop: return try BTSnoopReader(input: input)
        case .packetLogger: return try PacketLoggerReader(input: input)
        case .pcap, .pcapng: return try PcapReader(bytes: bytes, format: format)
        }
    }
}
