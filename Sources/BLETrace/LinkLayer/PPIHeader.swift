/// Ubertooth's BTLE field in a PPI header (field type 30006): its version, the channel as a frequency in
/// MHz, the 100 ns clock and the RSSI it measured over the packet.
public struct PPIBTLEField: Sendable, Equatable {
    public var version: UInt8
    public var frequency: Int
    public var clockHigh: UInt8
    public var clock100ns: UInt32
    public var rssiMax: Int
    public var rssiMin: Int
    public var rssiAverage: Int
    public var rssiCount: Int

    /// The BLE channel index for the frequency (2402 MHz … 2480 MHz in 2 MHz steps), nil for any other.
    public var channel: Int? {
        let offset = frequency - 2402
        guard offset >= 0, offset <= 78, offset % 2 == 0 else { return nil }
        return SnifferHeader.channelIndex(rf: offset / 2)
    }
}

/// PPI (pcap link type 192) as Ubertooth writes it: a PPI header (version, flags, length, DLT) whose fields
/// include the BTLE field (type 30006), with DLT 147, followed by an LE link-layer packet (access address,
/// header, payload, CRC). Any other content is refused with what the header holds.
public enum PPIHeader {
    public static let btleFieldType: UInt16 = 30006
    public static let ubertoothDLT: UInt32 = 147

    /// What a PPI header that bletrace does not read holds, for the error.
    public static func describe(dlt: UInt32, fields: [UInt16]) -> String {
        let list = fields.isEmpty ? "no fields" : "field types " + fields.map { String($0) }.joined(separator: ", ")
        return "PPI header with DLT \(dlt) (\(LinkType.name(Int(dlt)))) and \(list): not an Ubertooth LE packet (DLT 147 with the BTLE field 30006)"
    }

    public static func parse(_ data: ArraySlice<UInt8>) throws -> (SnifferInfo, ArraySlice<UInt8>) {
        var c = ByteCursor(data)
        _ = try c.u8() // version
        _ = try c.u8() // flags
        let length = Int(try c.u16le())
        let dlt = try c.u32le()
        guard length >= 8 else { throw ByteError.invalid(offset: 2, reason: "PPI header length \(length) (at least 8)") }
        var fields = ByteCursor(try c.bytes(length - 8))
        var types: [UInt16] = []
        var btle: PPIBTLEField? = nil
        while fields.remaining > 0 {
            let type = try fields.u16le()
            let size = Int(try fields.u16le())
            var f = ByteCursor(try fields.bytes(size))
            if types.count < 16 { types.append(type) }
            if type == btleFieldType {
                btle = PPIBTLEField(version: try f.u8(), frequency: Int(try f.u16le()), clockHigh: try f.u8(),
                                    clock100ns: try f.u32le(), rssiMax: Int(try f.i8()), rssiMin: Int(try f.i8()),
                                    rssiAverage: Int(try f.i8()), rssiCount: Int(try f.u8()))
            }
        }
        guard dlt == ubertoothDLT, let field = btle else {
            throw ByteError.invalid(offset: 0, reason: describe(dlt: dlt, fields: types))
        }
        var s = SnifferInfo(linkType: LinkType.ppi)
        s.channel = field.channel
        s.rssi = field.rssiAverage
        s.radioMicros = (Int64(field.clockHigh) << 32 | Int64(field.clock100ns)) / 10
        s.header = .ppi(field)
        return (s, c.rest())
    }

    /// The DLT and field types of a PPI packet, or nil when the bytes hold no whole PPI header.
    public static func peek(_ data: ArraySlice<UInt8>) -> (dlt: UInt32, fields: [UInt16])? {
        var c = ByteCursor(data)
        guard (try? c.skip(2)) != nil, let length = try? c.u16le(), let dlt = try? c.u32le(), length >= 8,
              let body = try? c.bytes(Int(length) - 8) else { return nil }
        var f = ByteCursor(body)
        var types: [UInt16] = []
        while f.remaining > 0, let t = try? f.u16le(), let n = try? f.u16le(), (try? f.skip(Int(n))) != nil {
            if types.count < 16 { types.append(t) }
        }
        return (dlt, types)
    }
}
