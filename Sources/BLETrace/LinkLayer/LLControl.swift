/// LL control PDUs (LLID 0b11; Core 5.4 Vol 6 Part B 2.4.2): the parsed PDU, its names, and what it does to
/// the connection. Text and fields are written by the renderer (`Report/Layers/LLControlRender.swift`).
public enum LLControl {
    public typealias Decoded = LLControlPDU

    public enum Effect: Equatable {
        case update(interval: Int, latency: Int, timeout: Int, instant: Int, windowOffset: Int = 0)
        case terminate(reason: UInt8)
        case encryptionRequest
        case encryptionResponse
        case startEncryption
        case reject
    }

    public static func name(_ op: UInt8) -> String {
        switch op {
        case 0x00: return "LL_CONNECTION_UPDATE_IND"
        case 0x01: return "LL_CHANNEL_MAP_IND"
        case 0x02: return "LL_TERMINATE_IND"
        case 0x03: return "LL_ENC_REQ"
        case 0x04: return "LL_ENC_RSP"
        case 0x05: return "LL_START_ENC_REQ"
        case 0x06: return "LL_START_ENC_RSP"
        case 0x07: return "LL_UNKNOWN_RSP"
        case 0x08: return "LL_FEATURE_REQ"
        case 0x09: return "LL_FEATURE_RSP"
        case 0x0A: return "LL_PAUSE_ENC_REQ"
        case 0x0B: return "LL_PAUSE_ENC_RSP"
        case 0x0C: return "LL_VERSION_IND"
        case 0x0D: return "LL_REJECT_IND"
        case 0x0E: return "LL_PERIPHERAL_FEATURE_REQ"
        case 0x0F: return "LL_CONNECTION_PARAM_REQ"
        case 0x10: return "LL_CONNECTION_PARAM_RSP"
        case 0x11: return "LL_REJECT_EXT_IND"
        case 0x12: return "LL_PING_REQ"
        case 0x13: return "LL_PING_RSP"
        case 0x14: return "LL_LENGTH_REQ"
        case 0x15: return "LL_LENGTH_RSP"
        case 0x16: return "LL_PHY_REQ"
        case 0x17: return "LL_PHY_RSP"
        case 0x18: return "LL_PHY_UPDATE_IND"
        case 0x19: return "LL_MIN_USED_CHANNELS_IND"
        case 0x1A: return "LL_CTE_REQ"
        case 0x1B: return "LL_CTE_RSP"
        case 0x1C: return "LL_PERIODIC_SYNC_IND"
        case 0x1D: return "LL_CLOCK_ACCURACY_REQ"
        case 0x1E: return "LL_CLOCK_ACCURACY_RSP"
        case 0x1F: return "LL_CIS_REQ"
        case 0x20: return "LL_CIS_RSP"
        case 0x21: return "LL_CIS_IND"
        case 0x22: return "LL_CIS_TERMINATE_IND"
        case 0x23: return "LL_POWER_CONTROL_REQ"
        case 0x24: return "LL_POWER_CONTROL_RSP"
        case 0x25: return "LL_POWER_CHANGE_IND"
        case 0x26: return "LL_SUBRATE_REQ"
        case 0x27: return "LL_SUBRATE_IND"
        case 0x28: return "LL_CHANNEL_REPORTING_IND"
        case 0x29: return "LL_CHANNEL_STATUS_IND"
        case 0x2A: return "LL_PERIODIC_SYNC_WR_IND"
        case 0x2B: return "LL_FEATURE_EXT_REQ"
        case 0x2C: return "LL_FEATURE_EXT_RSP"
        default: return "LL control opcode \(Hex.hex(op, width: 2))"
        }
    }

    /// Bluetooth Core version from the LL_VERSION_IND VersNr (Assigned Numbers 2.1).
    public static func versionName(_ v: UInt8) -> String {
        let names = ["1.0b", "1.1", "1.2", "2.0+EDR", "2.1+EDR", "3.0+HS", "4.0", "4.1", "4.2", "5.0", "5.1", "5.2",
                     "5.3", "5.4", "6.0", "6.1"]
        return Int(v) < names.count ? "Bluetooth \(names[Int(v)])" : "version \(v)"
    }

    public static func phys(_ v: UInt8) -> [String] {
        var out: [String] = []
        if v & 1 != 0 { out.append("LE 1M") }
        if v & 2 != 0 { out.append("LE 2M") }
        if v & 4 != 0 { out.append("LE Coded") }
        return out
    }

    /// The name of LE feature bit `bit`, nil beyond the table.
    static func featureName(_ bit: Int) -> String? { bit >= 0 && bit < featureNames.count ? featureNames[bit] : nil }

    static func featureNames(_ set: UInt64) -> [String] {
        var out: [String] = []
        for bit in 0..<64 where set >> UInt64(bit) & 1 != 0 {
            out.append(bit < featureNames.count ? featureNames[bit] : "bit \(bit)")
        }
        return out
    }

    /// LE feature bits (Core 5.4 Vol 6 Part B 4.6).
    static let featureNames = [
        "LE Encryption", "Connection Parameters Request Procedure", "Extended Reject Indication",
        "Peripheral-initiated Features Exchange", "LE Ping", "LE Data Packet Length Extension", "LL Privacy",
        "Extended Scanner Filter Policies", "LE 2M PHY", "Stable Modulation Index - Transmitter",
        "Stable Modulation Index - Receiver", "LE Coded PHY", "LE Extended Advertising", "LE Periodic Advertising",
        "Channel Selection Algorithm #2", "LE Power Class 1", "Minimum Number of Used Channels Procedure",
        "Connection CTE Request", "Connection CTE Response", "Connectionless CTE Transmitter",
        "Connectionless CTE Receiver", "Antenna Switching During CTE Transmission (AoD)",
        "Antenna Switching During CTE Reception (AoA)", "Receiving Constant Tone Extensions",
        "Periodic Advertising Sync Transfer - Sender", "Periodic Advertising Sync Transfer - Recipient",
        "Sleep Clock Accuracy Updates", "Remote Public Key Validation", "Connected Isochronous Stream - Central",
        "Connected Isochronous Stream - Peripheral", "Isochronous Broadcaster", "Synchronized Receiver",
        "Connected Isochronous Stream (Host Support)", "LE Power Control Request", "LE Power Control Request",
        "LE Path Loss Monitoring", "Periodic Advertising ADI support", "Connection Subrating",
        "Connection Subrating (Host Support)", "Channel Classification",
    ]

    /// Decodes an LL control PDU's payload (opcode first).
    public static func decode(_ payload: ArraySlice<UInt8>) throws -> LLControlPDU {
        var c = ByteCursor(payload)
        let op = try c.u8()
        let p: LLControlPDU.Parameters
        switch op {
        case 0x00:
            p = .connectionUpdate(windowSize: try c.u8(), windowOffset: try c.u16le(), interval: try c.u16le(), latency: try c.u16le(),
                                  timeout: try c.u16le(), instant: try c.u16le())
        case 0x01: p = .channelMap(map: try c.bytes(5), instant: try c.u16le())
        case 0x02, 0x0D: p = .error(try c.u8())
        case 0x03: p = .encryptionRequest(rand: try c.bytes(8), ediv: try c.u16le(), skd: try c.bytes(8), iv: try c.bytes(4))
        case 0x04: p = .encryptionResponse(skd: try c.bytes(8), iv: try c.bytes(4))
        case 0x07: p = .unknownResponse(type: try c.u8())
        case 0x08, 0x09, 0x0E: p = .features(try c.u64le())
        case 0x0C: p = .version(version: try c.u8(), company: try c.u16le(), subversion: try c.u16le())
        case 0x0F, 0x10:
            let minI = try c.u16le(), maxI = try c.u16le(), latency = try c.u16le(), timeout = try c.u16le()
            let periodicity = try c.u8(), ref = try c.u16le()
            // Six offsets, read one by one (so that a short PDU fails where it runs out).
            var offsets = c
            for _ in 0..<6 { _ = try c.u16le() }
            p = .connectionParameters(minInterval: minI, maxInterval: maxI, latency: latency, timeout: timeout, periodicity: periodicity,
                                      referenceEventCount: ref, offsets: try offsets.bytes(12))
        case 0x11: p = .rejectExtended(opcode: try c.u8(), error: try c.u8())
        case 0x14, 0x15: p = .length(rxOctets: try c.u16le(), rxTime: try c.u16le(), txOctets: try c.u16le(), txTime: try c.u16le())
        case 0x16, 0x17: p = .phys(tx: try c.u8(), rx: try c.u8())
        case 0x18: p = .phyUpdate(centralToPeripheral: try c.u8(), peripheralToCentral: try c.u8(), instant: try c.u16le())
        case 0x19: p = .minUsedChannels(phys: try c.u8(), minUsed: try c.u8())
        case 0x1A: p = .cteRequest(try c.u8())
        case 0x1D, 0x1E: p = .clockAccuracy(try c.u8())
        case 0x22: p = .cisTerminate(cig: try c.u8(), cis: try c.u8(), error: try c.u8())
        case 0x1F: p = .cisRequest(try LLCISRequest.parse(&c))
        case 0x20: p = .cisResponse(offsetMin: try c.u24le(), offsetMax: try c.u24le(), eventCount: try c.u16le())
        case 0x21: p = .cisIndication(try LLCISIndication.parse(&c))
        case 0x05, 0x06, 0x0A, 0x0B, 0x12, 0x13: p = .none
        default: p = .other(c.rest())
        }
        return LLControlPDU(opcode: op, parameters: p, surplus: c.remaining)
    }
}

/// One LL control PDU: opcode, parameters, and the bytes after them.
public struct LLControlPDU: Sendable {
    public enum Parameters: Sendable {
        case connectionUpdate(windowSize: UInt8, windowOffset: UInt16, interval: UInt16, latency: UInt16, timeout: UInt16, instant: UInt16)
        case channelMap(map: ArraySlice<UInt8>, instant: UInt16)
        /// LL_TERMINATE_IND, LL_REJECT_IND: an HCI error code.
        case error(UInt8)
        case encryptionRequest(rand: ArraySlice<UInt8>, ediv: UInt16, skd: ArraySlice<UInt8>, iv: ArraySlice<UInt8>)
        case encryptionResponse(skd: ArraySlice<UInt8>, iv: ArraySlice<UInt8>)
        case unknownResponse(type: UInt8)
        case features(UInt64)
        case version(version: UInt8, company: UInt16, subversion: UInt16)
        /// LL_CONNECTION_PARAM_REQ/RSP; `offsets` holds the six 16-bit offsets.
        case connectionParameters(minInterval: UInt16, maxInterval: UInt16, latency: UInt16, timeout: UInt16, periodicity: UInt8,
                                  referenceEventCount: UInt16, offsets: ArraySlice<UInt8>)
        case rejectExtended(opcode: UInt8, error: UInt8)
        case length(rxOctets: UInt16, rxTime: UInt16, txOctets: UInt16, txTime: UInt16)
        case phys(tx: UInt8, rx: UInt8)
        case phyUpdate(centralToPeripheral: UInt8, peripheralToCentral: UInt8, instant: UInt16)
        case minUsedChannels(phys: UInt8, minUsed: UInt8)
        case cteRequest(UInt8)
        case clockAccuracy(UInt8)
        case cisTerminate(cig: UInt8, cis: UInt8, error: UInt8)
        /// LL_CIS_REQ, LL_CIS_RSP (µs offsets and the event count), LL_CIS_IND.
        case cisRequest(LLCISRequest)
        case cisResponse(offsetMin: UInt32, offsetMax: UInt32, eventCount: UInt16)
        case cisIndication(LLCISIndication)
        /// Opcodes without parameters.
        case none
        /// Opcodes not decoded: their parameter bytes.
        case other(ArraySlice<UInt8>)
    }

    public var opcode: UInt8
    public var parameters: Parameters
    /// Bytes after the parameters.
    public var surplus: Int
    /// Why bletrace did not apply this update to the link it follows (a sniffer capture), when it did not.
    public var notApplied: NotApplied?

    /// An update to a sniffed link that cannot take effect as sent (Core 5.4 Vol 6 Part B 4.5.1, 5.5.1).
    public enum NotApplied: String, Sendable {
        /// Interval or supervision timeout 0, or a channel map with fewer than two channels.
        case impossibleValues = "impossible_values"
        /// The instant is the event the PDU came in, or one already past.
        case instantPassed = "instant_passed"
    }

    public var name: String { LLControl.name(opcode) }

    /// What the PDU does to the connection, for the tracker.
    public var effect: LLControl.Effect? {
        switch parameters {
        case let .connectionUpdate(_, offset, interval, latency, timeout, instant):
            return .update(interval: Int(interval), latency: Int(latency), timeout: Int(timeout), instant: Int(instant),
                           windowOffset: Int(offset))
        case let .error(code): return opcode == 0x02 ? .terminate(reason: code) : .reject
        case .encryptionRequest: return .encryptionRequest
        case .encryptionResponse: return .encryptionResponse
        case .rejectExtended: return .reject
        case .none: return opcode == 0x05 ? .startEncryption : nil
        default: return nil
        }
    }

    /// The `control` object as a field tree (tests and tools).
    public var fields: Fields { FieldsBuilder.object { writeFields(into: &$0) } }

    /// The text after the name ("" when the PDU has none to show).
    public var detail: String {
        TextBytes.string { writeDetail(into: &$0) }
    }
}
