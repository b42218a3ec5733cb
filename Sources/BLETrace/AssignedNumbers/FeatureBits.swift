/// Names of feature bits: the LMP features of BR/EDR controllers and hosts (Core 5.4 Vol 2 Part C 3.3, pages 0,
/// 1 and 2) and the LE features (Vol 6 Part B 4.6, the table the link layer's feature exchange uses).
public enum FeatureBits {
    /// The 64 bits of a feature page, from its 8 bytes (least significant first).
    public static func value(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var v: UInt64 = 0
        for (i, b) in bytes.prefix(8).enumerated() { v |= UInt64(b) << UInt64(8 * i) }
        return v
    }

    /// The names of the bits set in an LE feature set.
    public static func le(_ bytes: ArraySlice<UInt8>) -> [String] { LLControl.featureNames(value(bytes)) }

    /// The names of the bits set in LMP feature page `page` (0, 1 or 2; others by number).
    public static func lmp(_ bytes: ArraySlice<UInt8>, page: Int) -> [String] {
        let table: [String]
        switch page {
        case 0: table = lmpPage0
        case 1: table = lmpPage1
        case 2: table = lmpPage2
        default: table = []
        }
        let v = value(bytes)
        var out: [String] = []
        for bit in 0..<64 where v >> UInt64(bit) & 1 != 0 {
            let name = bit < table.count ? table[bit] : ""
            out.append(name.isEmpty ? "bit \(bit)" : name)
        }
        return out
    }

    static let lmpPage0 = [
        "3 slot packets", "5 slot packets", "Encryption", "Slot offset", "Timing accuracy", "Role switch", "Hold mode",
        "Sniff mode", "Park state", "Power control requests", "Channel quality driven data rate", "SCO link",
        "HV2 packets", "HV3 packets", "μ-law log synchronous data", "A-law log synchronous data", "CVSD synchronous data",
        "Paging parameter negotiation", "Power control", "Transparent synchronous data", "Flow control lag (bit 0)",
        "Flow control lag (bit 1)", "Flow control lag (bit 2)", "Broadcast Encryption", "",
        "Enhanced Data Rate ACL 2 Mb/s mode", "Enhanced Data Rate ACL 3 Mb/s mode", "Enhanced inquiry scan",
        "Interlaced inquiry scan", "Interlaced page scan", "RSSI with inquiry results", "Extended SCO link (EV3 packets)",
        "EV4 packets", "EV5 packets", "", "AFH capable peripheral", "AFH classification peripheral",
        "BR/EDR Not Supported", "LE Supported (Controller)", "3-slot Enhanced Data Rate ACL packets",
        "5-slot Enhanced Data Rate ACL packets", "Sniff subrating", "Pause encryption", "AFH capable central",
        "AFH classification central", "Enhanced Data Rate eSCO 2 Mb/s mode", "Enhanced Data Rate eSCO 3 Mb/s mode",
        "3-slot Enhanced Data Rate eSCO packets", "Extended Inquiry Response",
        "Simultaneous LE and BR/EDR to Same Device Capable (Controller)", "", "Secure Simple Pairing (Controller Support)",
        "Encapsulated PDU", "Erroneous Data Reporting", "Non-flushable Packet Boundary Flag", "",
        "HCI_Link_Supervision_Timeout_Changed event", "Variable Inquiry TX Power Level", "Enhanced Power Control", "", "",
        "", "", "Extended features",
    ]

    static let lmpPage1 = [
        "Secure Simple Pairing (Host Support)", "LE Supported (Host)", "Simultaneous LE and BR/EDR to Same Device Capable (Host)",
        "Secure Connections (Host Support)",
    ]

    static let lmpPage2 = [
        "Connectionless Peripheral Broadcast - Transmitter", "Connectionless Peripheral Broadcast - Receiver",
        "Synchronization Train", "Synchronization Scan", "HCI_Inquiry_Response_Notification event",
        "Generalized interlaced scan", "Coarse Clock Adjustment", "", "Secure Connections (Controller Support)", "Ping",
        "Slot Availability Mask", "Train nudging",
    ]
}
