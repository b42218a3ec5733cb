/// Reads btsnoop files (Android `btsnoop_hci.log`, BlueZ `btmon -w`, Samsung `.cfa`):
/// datalinks 1001 (HCI un-encapsulated), 1002 (HCI UART/H4) and 2001 (Linux monitor).
public final class BTSnoopReader: RecordReader {
    public let format = CaptureFormat.btsnoop
    public let linkType: Int
    let input: InputBuffer
    var number = 0

    /// Microseconds between 0000-01-01 (btsnoop's epoch) and 1970-01-01.
    static let epochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    public static let magic: [UInt8] = Array("btsnoop\0".utf8)

    public init(input: InputBuffer) throws {
        self.input = input
        guard try input.ensure(16) else {
            throw CaptureError.badHeader("btsnoop header is \(input.available) bytes, expected 16")
        }
        var c = ByteCursor(input.take(16))
        let magic = try c.array(8)
        guard magic == BTSnoopReader.magic else { throw CaptureError.badHeader("not a btsnoop file") }
        let version = try c.u32be()
        guard version == 1 else { throw CaptureError.badHeader("btsnoop version \(version), expected 1") }
        let link = Int(try c.u32be())
        guard link == 1001 || link == 1002 || link == 2001 else {
            throw CaptureError.unsupportedLinkType(format: "btsnoop", linkType: link)
        }
        self.linkType = link
    }

    public var position: Int { input.offset }

    public func next() throws -> Record? {
        if try input.atCleanEnd() { return nil }
        let recordNumber = number + 1
        let recordOffset = input.offset
        guard try input.ensure(24) else {
            throw CaptureError.truncated(record: recordNumber, offset: recordOffset,
                                         reason: "record header needs 24 bytes, file has \(input.available) left" + input.sourceNote)
        }
        // Original length, included length, flags, cumulative drops (not used), timestamp: read in place.
        let (originalLength, includedLength, flags, ts) = input.withNext(24) { h in
            (Int(UInt32(bigEndian: h.loadUnaligned(fromByteOffset: 0, as: UInt32.self))),
             Int(UInt32(bigEndian: h.loadUnaligned(fromByteOffset: 4, as: UInt32.self))),
             UInt32(bigEndian: h.loadUnaligned(fromByteOffset: 8, as: UInt32.self)),
             UInt64(bigEndian: h.loadUnaligned(fromByteOffset: 16, as: UInt64.self)))
        }
        input.skip(24)
        guard includedLength <= 0x0100_0000 else {
            throw CaptureError.truncated(record: recordNumber, offset: recordOffset,
                                         reason: "included length \(includedLength) is implausible")
        }
        guard try input.ensure(includedLength) else {
            throw CaptureError.truncated(record: recordNumber, offset: recordOffset,
                                         reason: "record claims \(includedLength) bytes, file has \(input.available) left" + input.sourceNote)
        }
        var data = input.take(includedLength)
        number = recordNumber
        let micros = Int64(bitPattern: ts) &- BTSnoopReader.epochOffset
        let received = flags & 1 != 0
        var direction: Direction = received ? .controllerToHost : .hostToController
        var kind: PacketKind
        var controller: UInt16 = 0
        var sourceType: UInt16 = 0
        switch linkType {
        case 1001:
            if flags & 2 != 0 { kind = received ? .event : .command } else { kind = .acl }
        case 1002:
            guard let first = data.first else {
                return Record(number: recordNumber, timestamp: Timestamp(micros: micros), direction: direction,
                              kind: .vendor, data: data)
            }
            if let k = PacketKind(h4: first) {
                kind = k
                data = data.dropFirst()
            } else {
                kind = .vendor // an H4 type byte outside 1…5: keep the whole packet as vendor bytes
            }
        default: // 2001, Linux monitor: opcode in the low 16 bits of the flags, controller index in the high 16.
            controller = UInt16(truncatingIfNeeded: flags >> 16)
            sourceType = UInt16(truncatingIfNeeded: flags)
            (kind, direction) = MonitorOpcode.classify(sourceType)
        }
        return Record(number: recordNumber, timestamp: Timestamp(micros: micros), direction: direction, kind: kind,
                      data: data, controller: controller,
                      originalLength: originalLength > includedLength ? originalLength - (includedLength - data.count) : nil,
                      sourceType: sourceType,
                      origin: linkType == 2001 ? .linuxMonitor : .plain)
    }
}

/// Linux monitor (btmon) opcodes, shared by btsnoop 2001 and pcap link type 254.
public enum MonitorOpcode {
    public static func classify(_ opcode: UInt16) -> (PacketKind, Direction) {
        switch opcode {
        case 2: return (.command, .hostToController)
        case 3: return (.event, .controllerToHost)
        case 4: return (.acl, .hostToController)
        case 5: return (.acl, .controllerToHost)
        case 6: return (.sco, .hostToController)
        case 7: return (.sco, .controllerToHost)
        case 18: return (.iso, .hostToController)
        case 19: return (.iso, .controllerToHost)
        case 11: return (.vendor, .controllerToHost) // vendor diagnostic
        default: return (.note, .unknown)
        }
    }

    public static func name(_ opcode: UInt16) -> String {
        switch opcode {
        case 0: return "New Index"
        case 1: return "Delete Index"
        case 8: return "Open Index"
        case 9: return "Close Index"
        case 10: return "Index Info"
        case 11: return "Vendor Diagnostic"
        case 12: return "System Note"
        case 13: return "User Logging"
        case 14: return "Control Open"
        case 15: return "Control Close"
        case 16: return "Control Command"
        case 17: return "Control Event"
        default: return "Monitor opcode \(opcode)"
        }
    }
}
