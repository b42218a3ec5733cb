import Foundation

/// Android's btsnooz: the compressed ring buffer of recent HCI packets that `dumpsys bluetooth_manager`
/// writes into a bugreport as base64 between `--- BEGIN:BTSNOOP_LOG_SUMMARY` and `--- END:BTSNOOP_LOG_SUMMARY`.
/// Layout: version (1 byte, 1 or 2), last timestamp (8 bytes LE), then a zlib stream of records
/// `length(2) [original length(2), v2 only] delta time(4) type(1) data(length − 1)`, all little-endian.
/// Timestamps count back from the last one by the deltas.
public enum BTSnooz {
    public static let beginMarker = "--- BEGIN:BTSNOOP_LOG_SUMMARY"
    public static let endMarker = "--- END:BTSNOOP_LOG_SUMMARY"

    /// Converts btsnooz bytes (after base64) into a btsnoop file (datalink 1002) in memory.
    public static func toBTSnoop(_ snooz: [UInt8]) throws -> [UInt8] {
        var c = ByteCursor(snooz)
        let version: UInt8
        let last: UInt64
        do {
            version = try c.u8()
            last = try c.u64le()
        } catch {
            throw CaptureError.badHeader("btsnooz section is \(snooz.count) bytes, too short for its header")
        }
        guard version == 1 || version == 2 else { throw CaptureError.badHeader("btsnooz version \(version), expected 1 or 2") }
        let records = try InflateSource.inflateAll(Array(c.rest()), gzip: false, limit: 1 << 28)

        struct Entry { var included: Int; var original: Int; var delta: UInt32; var type: UInt8; var data: ArraySlice<UInt8> }
        var entries: [Entry] = []
        var r = ByteCursor(records)
        var truncatedAt: Int? = nil
        while !r.isAtEnd {
            let start = r.offset
            do {
                let length = Int(try r.u16le())
                let original = version == 2 ? Int(try r.u16le()) : length
                let delta = try r.u32le()
                let type = try r.u8()
                guard length >= 1 else { throw ByteError.invalid(offset: start, reason: "record length 0") }
                let data = try r.bytes(length - 1)
                entries.append(Entry(included: length, original: max(original, length), delta: delta, type: type, data: data))
            } catch {
                truncatedAt = start
                break
            }
        }
        // Timestamps: the last record is at `last`; earlier ones count back by the deltas.
        var total: UInt64 = 0
        for e in entries { total &+= UInt64(e.delta) }
        var t = last &- total
        let w = CaptureWriter(format: .btsnoop(datalink: 1002))
        var out = w.drain()
        for e in entries {
            t &+= UInt64(e.delta)
            let h4: UInt8
            var received = false
            switch e.type {
            case 0x10: h4 = 0x04; received = true
            case 0x11: h4 = 0x02; received = true
            case 0x12: h4 = 0x03; received = true
            case 0x17: h4 = 0x05; received = true
            case 0x20: h4 = 0x01
            case 0x21: h4 = 0x02
            case 0x22: h4 = 0x03
            case 0x2D: h4 = 0x05
            default: h4 = 0xFF
            }
            let flags: UInt32 = (received ? 1 : 0) | (h4 == 0x01 || h4 == 0x04 ? 2 : 0)
            func be32(_ v: UInt32) { for i in (0..<4).reversed() { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
            be32(UInt32(e.original)); be32(UInt32(e.included))
            be32(flags); be32(0)
            let ts = t &+ 0x00DC_DDB3_0F2F_8000
            be32(UInt32(truncatingIfNeeded: ts >> 32)); be32(UInt32(truncatingIfNeeded: ts))
            out.append(h4)
            out.append(contentsOf: e.data)
        }
        if let at = truncatedAt, entries.isEmpty {
            throw CaptureError.truncated(record: 1, offset: at, reason: "btsnooz records are damaged")
        }
        return out
    }

    /// Finds every btsnooz section in bugreport text and returns their decoded bytes (before decompression).
    public static func sections(inText lines: AnySequence<Substring>) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var collecting = false
        var base64 = ""
        for line in lines {
            if collecting {
                if line.contains(endMarker) {
                    if let d = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) { out.append([UInt8](d)) }
                    collecting = false
                    base64 = ""
                } else {
                    base64 += line.trimmingCharacters(in: .whitespacesAndNewlines)
                }
            } else if line.contains(beginMarker) {
                collecting = true
                base64 = ""
            }
        }
        return out
    }

    /// Makes btsnooz bytes (version 2) from records, for tests and samples: the inverse of `toBTSnoop`.
    public static func encode(_ records: [Record], lastTimestampMicros: Int64? = nil) throws -> [UInt8] {
        var body: [UInt8] = []
        var previous = records.first?.timestamp.micros ?? 0
        for r in records {
            let type: UInt8
            switch (r.kind, r.direction) {
            case (.event, _): type = 0x10
            case (.acl, .controllerToHost): type = 0x11
            case (.sco, .controllerToHost): type = 0x12
            case (.iso, .controllerToHost): type = 0x17
            case (.command, _): type = 0x20
            case (.acl, _): type = 0x21
            case (.sco, _): type = 0x22
            case (.iso, _): type = 0x2D
            default: continue
            }
            let length = r.data.count + 1
            body += HCIBuilder.le16(UInt16(truncatingIfNeeded: length))
            body += HCIBuilder.le16(UInt16(truncatingIfNeeded: (r.originalLength ?? r.data.count) + 1))
            body += HCIBuilder.le32(UInt32(truncatingIfNeeded: r.timestamp.micros - previous))
            body.append(type)
            body += r.data
            previous = r.timestamp.micros
        }
        let last = UInt64(bitPattern: lastTimestampMicros ?? records.last?.timestamp.micros ?? 0)
        var header: [UInt8] = [2]
        for i in 0..<8 { header.append(UInt8(truncatingIfNeeded: last >> (8 * UInt64(i)))) }
        return header + (try Deflate.compress(body))
    }
}
