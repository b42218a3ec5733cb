/// Attribute Protocol PDUs (Core 5.4 Vol 3 Part F 3.4), parsed from the bytes of one L2CAP SDU.
/// Values are slices of the frame (no copy).
public enum ATTPDU: Sendable {
    case errorResponse(requestOpcode: UInt8, handle: UInt16, error: UInt8)
    case exchangeMTURequest(mtu: UInt16)
    case exchangeMTUResponse(mtu: UInt16)
    case findInformationRequest(start: UInt16, end: UInt16)
    /// `format` 1: 16-bit UUIDs, 2: 128-bit UUIDs.
    case findInformationResponse(format: UInt8, entries: [(handle: UInt16, uuid: BLEUUID)])
    case findByTypeValueRequest(start: UInt16, end: UInt16, type: UInt16, value: ArraySlice<UInt8>)
    case findByTypeValueResponse(entries: [(found: UInt16, groupEnd: UInt16)])
    case readByTypeRequest(start: UInt16, end: UInt16, type: BLEUUID)
    case readByTypeResponse(entries: ATTReadByTypeList)
    case readRequest(handle: UInt16)
    case readResponse(value: ArraySlice<UInt8>)
    case readBlobRequest(handle: UInt16, offset: UInt16)
    case readBlobResponse(value: ArraySlice<UInt8>)
    case readMultipleRequest(handles: [UInt16])
    /// The concatenated values, without lengths (the request's handles say what they are).
    case readMultipleResponse(values: ArraySlice<UInt8>)
    case readByGroupTypeRequest(start: UInt16, end: UInt16, type: BLEUUID)
    case readByGroupTypeResponse(entries: ATTReadByGroupTypeList)
    case writeRequest(handle: UInt16, value: ArraySlice<UInt8>)
    case writeResponse
    case writeCommand(handle: UInt16, value: ArraySlice<UInt8>)
    /// Write Command with a 12-byte authentication signature (opcode 0xD2).
    case signedWriteCommand(handle: UInt16, value: ArraySlice<UInt8>, signature: ArraySlice<UInt8>)
    case prepareWriteRequest(handle: UInt16, offset: UInt16, value: ArraySlice<UInt8>)
    case prepareWriteResponse(handle: UInt16, offset: UInt16, value: ArraySlice<UInt8>)
    /// `flags` 0x00 cancels the queued writes, 0x01 writes them.
    case executeWriteRequest(flags: UInt8)
    case executeWriteResponse
    case notification(handle: UInt16, value: ArraySlice<UInt8>)
    case indication(handle: UInt16, value: ArraySlice<UInt8>)
    case confirmation
    case readMultipleVariableRequest(handles: [UInt16])
    /// Length/value tuples; `truncated` when the last value is shorter than its length says (allowed by the spec
    /// when the response would exceed ATT_MTU).
    case readMultipleVariableResponse(values: [ArraySlice<UInt8>], truncated: Bool)
    case multipleNotification(entries: [(handle: UInt16, value: ArraySlice<UInt8>)])
    /// An opcode Core 5.4 does not define; its parameters kept as they are.
    case unknown(opcode: UInt8, parameters: ArraySlice<UInt8>)

    /// Parses one ATT PDU. Throws `ByteError` when the bytes do not fit the opcode's layout.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws -> ATTPDU {
        // The usual PDUs, read in place: what the cursor below makes of them, without the cursor's own hold on
        // the bytes.
        let s = bytes.startIndex
        if bytes.count >= 3 {
            let h = UInt16(bytes[s &+ 1]) | UInt16(bytes[s &+ 2]) << 8
            switch bytes[s] {
            case 0x1B: return .notification(handle: h, value: bytes[(s &+ 3)...])
            case 0x1D: return .indication(handle: h, value: bytes[(s &+ 3)...])
            case 0x12: return .writeRequest(handle: h, value: bytes[(s &+ 3)...])
            case 0x52: return .writeCommand(handle: h, value: bytes[(s &+ 3)...])
            case 0x0A: return .readRequest(handle: h)
            case 0x0B: return .readResponse(value: bytes[(s &+ 1)...])
            default: break
            }
        }
        var c = ByteCursor(bytes)
        let op = try c.u8()
        switch op {
        case 0x01:
            let req = try c.u8(), h = try c.u16le(), err = try c.u8()
            return .errorResponse(requestOpcode: req, handle: h, error: err)
        case 0x02: return .exchangeMTURequest(mtu: try c.u16le())
        case 0x03: return .exchangeMTUResponse(mtu: try c.u16le())
        case 0x04:
            let s = try c.u16le(), e = try c.u16le()
            return .findInformationRequest(start: s, end: e)
        case 0x05:
            let format = try c.u8()
            let size: Int
            switch format {
            case 0x01: size = 2
            case 0x02: size = 16
            default: throw c.invalid("Find Information Response format \(format) is neither 1 (16-bit) nor 2 (128-bit)")
            }
            var entries: [(handle: UInt16, uuid: BLEUUID)] = []
            entries.reserveCapacity(c.remaining / (size + 2))
            if c.isAtEnd { throw c.invalid("Find Information Response with no entries") }
            while !c.isAtEnd {
                let h = try c.u16le()
                guard let u = BLEUUID(littleEndian: try c.bytes(size)) else { throw c.invalid("bad UUID") }
                entries.append((h, u))
            }
            return .findInformationResponse(format: format, entries: entries)
        case 0x06:
            let s = try c.u16le(), e = try c.u16le(), t = try c.u16le()
            return .findByTypeValueRequest(start: s, end: e, type: t, value: c.rest())
        case 0x07:
            var entries: [(found: UInt16, groupEnd: UInt16)] = []
            if c.isAtEnd { throw c.invalid("Find By Type Value Response with no entries") }
            while !c.isAtEnd {
                let f = try c.u16le(), g = try c.u16le()
                entries.append((f, g))
            }
            return .findByTypeValueResponse(entries: entries)
        case 0x08, 0x10:
            let s = try c.u16le(), e = try c.u16le()
            let raw = c.rest()
            guard raw.count == 2 || raw.count == 16, let u = BLEUUID(littleEndian: raw) else {
                throw ByteError.invalid(offset: 5, reason: "attribute type of \(raw.count) bytes (2 or 16 expected)")
            }
            return op == 0x08 ? .readByTypeRequest(start: s, end: e, type: u) : .readByGroupTypeRequest(start: s, end: e, type: u)
        case 0x09:
            let len = Int(try c.u8())
            guard len >= 2 else { throw c.invalid("Read By Type Response entry length \(len) (at least 2 expected)") }
            if c.isAtEnd { throw c.invalid("Read By Type Response with no entries") }
            // Checked as a whole number of elements by a copy of the cursor (the same offsets in errors).
            var probe = c
            while !probe.isAtEnd {
                _ = try probe.u16le()
                _ = try probe.bytes(len - 2)
            }
            return .readByTypeResponse(entries: ATTReadByTypeList(length: len, data: c.rest()))
        case 0x11:
            let len = Int(try c.u8())
            guard len >= 4 else { throw c.invalid("Read By Group Type Response entry length \(len) (at least 4 expected)") }
            if c.isAtEnd { throw c.invalid("Read By Group Type Response with no entries") }
            var probe = c
            while !probe.isAtEnd {
                _ = try probe.u16le()
                _ = try probe.u16le()
                _ = try probe.bytes(len - 4)
            }
            return .readByGroupTypeResponse(entries: ATTReadByGroupTypeList(length: len, data: c.rest()))
        case 0x0A: return .readRequest(handle: try c.u16le())
        case 0x0B: return .readResponse(value: c.rest())
        case 0x0C:
            let h = try c.u16le(), o = try c.u16le()
            return .readBlobRequest(handle: h, offset: o)
        case 0x0D: return .readBlobResponse(value: c.rest())
        case 0x0E, 0x20:
            var hs: [UInt16] = []
            hs.reserveCapacity(c.remaining / 2)
            if c.remaining < 4 { throw c.invalid("Read Multiple needs at least two handles") }
            if c.remaining % 2 != 0 { throw c.invalid("odd number of bytes in a handle list") }
            while !c.isAtEnd { hs.append(try c.u16le()) }
            return op == 0x0E ? .readMultipleRequest(handles: hs) : .readMultipleVariableRequest(handles: hs)
        case 0x0F: return .readMultipleResponse(values: c.rest())
        case 0x12:
            let h = try c.u16le()
            return .writeRequest(handle: h, value: c.rest())
        case 0x13: return .writeResponse
        case 0x16, 0x17:
            let h = try c.u16le(), o = try c.u16le()
            let v = c.rest()
            return op == 0x16 ? .prepareWriteRequest(handle: h, offset: o, value: v) : .prepareWriteResponse(handle: h, offset: o, value: v)
        case 0x18: return .executeWriteRequest(flags: try c.u8())
        case 0x19: return .executeWriteResponse
        case 0x1B, 0x1D:
            let h = try c.u16le()
            let v = c.rest()
            return op == 0x1B ? .notification(handle: h, value: v) : .indication(handle: h, value: v)
        case 0x1E: return .confirmation
        case 0x21:
            var values: [ArraySlice<UInt8>] = []
            var truncated = false
            while !c.isAtEnd {
                let len = Int(try c.u16le())
                if len > c.remaining {
                    values.append(c.rest())
                    truncated = true
                } else {
                    values.append(try c.bytes(len))
                }
            }
            return .readMultipleVariableResponse(values: values, truncated: truncated)
        case 0x23:
            var entries: [(handle: UInt16, value: ArraySlice<UInt8>)] = []
            if c.isAtEnd { throw c.invalid("Multiple Handle Value Notification with no entries") }
            while !c.isAtEnd {
                let h = try c.u16le(), len = Int(try c.u16le())
                entries.append((h, try c.bytes(len)))
            }
            return .multipleNotification(entries: entries)
        case 0x52:
            let h = try c.u16le()
            return .writeCommand(handle: h, value: c.rest())
        case 0xD2:
            let h = try c.u16le()
            guard c.remaining >= 12 else {
                throw ByteError.truncated(offset: c.offset, needed: 12, available: c.remaining)
            }
            let body = c.rest()
            let split = body.endIndex - 12
            return .signedWriteCommand(handle: h, value: body[body.startIndex..<split], signature: body[split...])
        default:
            return .unknown(opcode: op, parameters: c.rest())
        }
    }

    public var opcode: UInt8 {
        switch self {
        case .errorResponse: return 0x01
        case .exchangeMTURequest: return 0x02
        case .exchangeMTUResponse: return 0x03
        case .findInformationRequest: return 0x04
        case .findInformationResponse: return 0x05
        case .findByTypeValueRequest: return 0x06
        case .findByTypeValueResponse: return 0x07
        case .readByTypeRequest: return 0x08
        case .readByTypeResponse: return 0x09
        case .readRequest: return 0x0A
        case .readResponse: return 0x0B
        case .readBlobRequest: return 0x0C
        case .readBlobResponse: return 0x0D
        case .readMultipleRequest: return 0x0E
        case .readMultipleResponse: return 0x0F
        case .readByGroupTypeRequest: return 0x10
        case .readByGroupTypeResponse: return 0x11
        case .writeRequest: return 0x12
        case .writeResponse: return 0x13
        case .prepareWriteRequest: return 0x16
        case .prepareWriteResponse: return 0x17
        case .executeWriteRequest: return 0x18
        case .executeWriteResponse: return 0x19
        case .notification: return 0x1B
        case .indication: return 0x1D
        case .confirmation: return 0x1E
        case .readMultipleVariableRequest: return 0x20
        case .readMultipleVariableResponse: return 0x21
        case .multipleNotification: return 0x23
        case .writeCommand: return 0x52
        case .signedWriteCommand: return 0xD2
        case let .unknown(op, _): return op
        }
    }

    /// The attribute handle the PDU names, for PDUs that carry exactly one.
    public var handle: UInt16? {
        switch self {
        case let .errorResponse(_, h, _): return h
        case let .readRequest(h), let .readBlobRequest(h, _): return h
        case let .writeRequest(h, _), let .writeCommand(h, _), let .signedWriteCommand(h, _, _): return h
        case let .prepareWriteRequest(h, _, _), let .prepareWriteResponse(h, _, _): return h
        case let .notification(h, _), let .indication(h, _): return h
        default: return nil
        }
    }

    /// The attribute value the PDU carries, for PDUs that carry one.
    public var value: ArraySlice<UInt8>? {
        switch self {
        case let .readResponse(v), let .readBlobResponse(v), let .readMultipleResponse(v): return v
        case let .writeRequest(_, v), let .writeCommand(_, v), let .signedWriteCommand(_, v, _): return v
        case let .prepareWriteRequest(_, _, v), let .prepareWriteResponse(_, _, v): return v
        case let .notification(_, v), let .indication(_, v): return v
        case let .findByTypeValueRequest(_, _, _, v): return v
        default: return nil
        }
    }
}

/// The entries of a Read By Type Response: (handle, value) elements of one length, read from the PDU's bytes
/// when asked for (no array is made).
public struct ATTReadByTypeList: RandomAccessCollection, Sendable {
    /// The length of one element: the handle and the value (a byte in the PDU; kept as one so that the
    /// PDU enum stays as small as its largest other case).
    let width: UInt8
    /// The elements, one after the other (a whole number of them).
    public let data: ArraySlice<UInt8>

    public init(length: Int, data: ArraySlice<UInt8>) {
        self.width = UInt8(truncatingIfNeeded: length)
        self.data = data
    }

    public var length: Int { Int(width) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { data.count / length }

    public subscript(i: Int) -> (handle: UInt16, value: ArraySlice<UInt8>) {
        let s = data.startIndex + i * length
        return (UInt16(data[s]) | UInt16(data[s + 1]) << 8, data[(s + 2)..<(s + length)])
    }
}

/// The entries of a Read By Group Type Response: (handle, end group handle, value) elements of one length,
/// read from the PDU's bytes when asked for.
public struct ATTReadByGroupTypeList: RandomAccessCollection, Sendable {
    let width: UInt8
    public let data: ArraySlice<UInt8>

    public init(length: Int, data: ArraySlice<UInt8>) {
        self.width = UInt8(truncatingIfNeeded: length)
        self.data = data
    }

    public var length: Int { Int(width) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { data.count / length }

    public subscript(i: Int) -> (handle: UInt16, end: UInt16, value: ArraySlice<UInt8>) {
        let s = data.startIndex + i * length
        return (UInt16(data[s]) | UInt16(data[s + 1]) << 8, UInt16(data[s + 2]) | UInt16(data[s + 3]) << 8,
                data[(s + 4)..<(s + length)])
    }
}

/// Names and classes of ATT opcodes and error codes.
public enum ATTNames {
    /// Whether the Core specification defines `op`.
    public static func isKnown(_ op: UInt8) -> Bool {
        switch op {
        case 0x01...0x13, 0x16...0x19, 0x1B, 0x1D, 0x1E, 0x20, 0x21, 0x23, 0x52, 0xD2: return true
        default: return false
        }
    }

    public static func opcode(_ op: UInt8) -> String {
        switch op {
        case 0x01: return "Error Response"
        case 0x02: return "Exchange MTU Request"
        case 0x03: return "Exchange MTU Response"
        case 0x04: return "Find Information Request"
        case 0x05: return "Find Information Response"
        case 0x06: return "Find By Type Value Request"
        case 0x07: return "Find By Type Value Response"
        case 0x08: return "Read By Type Request"
        case 0x09: return "Read By Type Response"
        case 0x0A: return "Read Request"
        case 0x0B: return "Read Response"
        case 0x0C: return "Read Blob Request"
        case 0x0D: return "Read Blob Response"
        case 0x0E: return "Read Multiple Request"
        case 0x0F: return "Read Multiple Response"
        case 0x10: return "Read By Group Type Request"
        case 0x11: return "Read By Group Type Response"
        case 0x12: return "Write Request"
        case 0x13: return "Write Response"
        case 0x16: return "Prepare Write Request"
        case 0x17: return "Prepare Write Response"
        case 0x18: return "Execute Write Request"
        case 0x19: return "Execute Write Response"
        case 0x1B: return "Handle Value Notification"
        case 0x1D: return "Handle Value Indication"
        case 0x1E: return "Handle Value Confirmation"
        case 0x20: return "Read Multiple Variable Request"
        case 0x21: return "Read Multiple Variable Response"
        case 0x23: return "Multiple Handle Value Notification"
        case 0x52: return "Write Command"
        case 0xD2: return "Signed Write Command"
        default: return "Unknown opcode \(Hex.hex(op, width: 2))"
        }
    }

    /// Requests expecting a response (Core 5.4 Vol 3 Part F 3.3: sequential protocol).
    public static func isRequest(_ op: UInt8) -> Bool {
        switch op {
        case 0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20: return true
        default: return false
        }
    }

    /// Responses to requests (including Error Response).
    public static func isResponse(_ op: UInt8) -> Bool {
        switch op {
        case 0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x21: return true
        default: return false
        }
    }

    /// True for PDUs a GATT client sends (requests, commands, confirmations); false for a server's
    /// (responses, notifications, indications). Unknown opcodes: by the command flag and the low bit.
    public static func sentByClient(_ op: UInt8) -> Bool {
        switch op {
        case 0x1B, 0x1D, 0x23: return false
        case 0x1E, 0x52, 0xD2: return true
        default:
            if isRequest(op) { return true }
            if isResponse(op) { return false }
            return op & 0x40 != 0 || op & 0x01 == 0
        }
    }

    /// Error Response codes (Core 5.4 Vol 3 Part F 3.4.1.1 Table 3.4; Core Specification Supplement Part B
    /// for the common profile and service error codes 0xE0–0xFF).
    public static func error(_ code: UInt8) -> String {
        switch code {
        case 0x01: return "Invalid Handle"
        case 0x02: return "Read Not Permitted"
        case 0x03: return "Write Not Permitted"
        case 0x04: return "Invalid PDU"
        case 0x05: return "Insufficient Authentication"
        case 0x06: return "Request Not Supported"
        case 0x07: return "Invalid Offset"
        case 0x08: return "Insufficient Authorization"
        case 0x09: return "Prepare Queue Full"
        case 0x0A: return "Attribute Not Found"
        case 0x0B: return "Attribute Not Long"
        case 0x0C: return "Encryption Key Size Too Short"
        case 0x0D: return "Invalid Attribute Value Length"
        case 0x0E: return "Unlikely Error"
        case 0x0F: return "Insufficient Encryption"
        case 0x10: return "Unsupported Group Type"
        case 0x11: return "Insufficient Resources"
        case 0x12: return "Database Out Of Sync"
        case 0x13: return "Value Not Allowed"
        case 0x80...0x9F: return "Application Error \(Hex.hex(code, width: 2))"
        case 0xFC: return "Write Request Rejected"
        case 0xFD: return "Client Characteristic Configuration Descriptor Improperly Configured"
        case 0xFE: return "Procedure Already in Progress"
        case 0xFF: return "Out of Range"
        case 0xE0...0xFB: return "Common Profile and Service Error \(Hex.hex(code, width: 2))"
        default: return "Reserved error \(Hex.hex(code, width: 2))"
        }
    }

    /// Characteristic properties (Core 5.4 Vol 3 Part G 3.3.1.1).
    static let propertyNames = ["broadcast", "read", "write_without_response", "write", "notify", "indicate",
                                "authenticated_signed_writes", "extended_properties"]

    public static func properties(_ p: UInt8) -> [String] {
        var out: [String] = []
        out.reserveCapacity(p.nonzeroBitCount)
        for i in 0..<8 where p & (1 << UInt8(i)) != 0 { out.append(propertyNames[i]) }
        return out
    }
}
