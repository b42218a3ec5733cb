/// The names of BR/EDR signaling (Core 5.4 Vol 3 Part A 4 and 5): command codes, results, information types,
/// extended features, fixed channels, modes and configuration options.
public enum BREDRSignalingNames {
    public static func code(_ c: UInt8) -> String {
        switch c {
        case 0x01: return "Command Reject"
        case 0x02: return "Connection Request"
        case 0x03: return "Connection Response"
        case 0x04: return "Configuration Request"
        case 0x05: return "Configuration Response"
        case 0x06: return "Disconnection Request"
        case 0x07: return "Disconnection Response"
        case 0x08: return "Echo Request"
        case 0x09: return "Echo Response"
        case 0x0A: return "Information Request"
        case 0x0B: return "Information Response"
        case 0x0C: return "Create Channel Request"
        case 0x0D: return "Create Channel Response"
        case 0x0E: return "Move Channel Request"
        case 0x0F: return "Move Channel Response"
        case 0x10: return "Move Channel Confirmation Request"
        case 0x11: return "Move Channel Confirmation Response"
        case 0x16...0x1A: return LESignalingNames.code(c)
        default: return "Unknown signaling code \(Hex.hex(c, width: 2))"
        }
    }

    /// Connection and Create Channel Response results (Core 5.4 Vol 3 Part A 4.3, 4.15).
    public static func connectionResult(_ r: UInt16) -> String {
        switch r {
        case 0x0000: return "Connection successful"
        case 0x0001: return "Connection pending"
        case 0x0002: return "Connection refused - PSM not supported"
        case 0x0003: return "Connection refused - security block"
        case 0x0004: return "Connection refused - no resources available"
        case 0x0005: return "Connection refused - Controller ID not supported"
        case 0x0006: return "Connection refused - invalid Source CID"
        case 0x0007: return "Connection refused - Source CID already allocated"
        default: return "Reserved result \(Hex.hex(r, width: 4))"
        }
    }

    public static func connectionStatus(_ s: UInt16) -> String {
        switch s {
        case 0x0000: return "No further information available"
        case 0x0001: return "Authentication pending"
        case 0x0002: return "Authorization pending"
        default: return "Reserved status \(Hex.hex(s, width: 4))"
        }
    }

    public static func configurationResult(_ r: UInt16) -> String {
        switch r {
        case 0x0000: return "Success"
        case 0x0001: return "Failure - unacceptable parameters"
        case 0x0002: return "Failure - rejected"
        case 0x0003: return "Failure - unknown options"
        case 0x0004: return "Pending"
        case 0x0005: return "Failure - flow spec rejected"
        default: return "Reserved result \(Hex.hex(r, width: 4))"
        }
    }

    public static func infoType(_ t: UInt16) -> String {
        switch t {
        case 0x0001: return "Connectionless MTU"
        case 0x0002: return "Extended features supported"
        case 0x0003: return "Fixed channels supported"
        default: return "Reserved type \(Hex.hex(t, width: 4))"
        }
    }

    static let extendedFeatures = ["Flow Control Mode", "Retransmission Mode", "Bi-directional QoS", "Enhanced Retransmission Mode",
                                   "Streaming Mode", "FCS Option", "Extended Flow Specification for BR/EDR", "Fixed Channels",
                                   "Extended Window Size", "Unicast Connectionless Data Reception",
                                   "Enhanced Credit Based Flow Control Mode"]

    public static func extendedFeatureNames(_ mask: UInt32) -> [String] {
        (0..<32).compactMap { i in
            guard mask & (1 << UInt32(i)) != 0 else { return nil }
            return i < extendedFeatures.count ? extendedFeatures[i] : "bit \(i)"
        }
    }

    public static func fixedChannelNames(_ mask: UInt64) -> [String] {
        (0..<64).compactMap { i in
            guard mask & (1 << UInt64(i)) != 0 else { return nil }
            switch i {
            case 0: return "null identifier"
            case 3: return "AMP Manager (CID 0x0003)"
            case 63: return "AMP Test Manager (CID 0x003F)"
            default: return L2CAPText.channelName(UInt16(i))
            }
        }
    }

    public static func mode(_ m: UInt8) -> String {
        switch m {
        case 0x00: return "Basic"
        case 0x01: return "Retransmission"
        case 0x02: return "Flow control"
        case 0x03: return "Enhanced Retransmission"
        case 0x04: return "Streaming"
        default: return "Reserved mode \(Hex.hex(m, width: 2))"
        }
    }

    public static func optionName(_ t: UInt8) -> String {
        switch t {
        case 0x01: return "MTU"
        case 0x02: return "Flush Timeout"
        case 0x03: return "QoS"
        case 0x04: return "Retransmission and Flow Control"
        case 0x05: return "FCS"
        case 0x06: return "Extended Flow Specification"
        case 0x07: return "Extended Window Size"
        default: return "Unknown option \(Hex.hex(t, width: 2))"
        }
    }

    public static func moveResult(_ r: UInt16) -> String {
        switch r {
        case 0x0000: return "Move success"
        case 0x0001: return "Move pending"
        case 0x0002: return "Move refused - Controller ID not supported"
        case 0x0003: return "Move refused - new Controller ID is same as old"
        case 0x0004: return "Move refused - configuration not supported"
        case 0x0005: return "Move refused - move channel collision"
        case 0x0006: return "Move refused - channel not allowed to be moved"
        default: return "Reserved result \(Hex.hex(r, width: 4))"
        }
    }
}
