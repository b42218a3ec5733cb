/// Names of the fixed L2CAP channels, for text.
public enum L2CAPText {
    public static func channelName(_ cid: UInt16) -> String {
        switch cid {
        case 0x0001: return "BR/EDR signaling (CID 0x0001)"
        case 0x0002: return "connectionless (CID 0x0002)"
        case 0x0004: return "ATT (CID 0x0004)"
        case 0x0005: return "LE signaling (CID 0x0005)"
        case 0x0006: return "SMP (CID 0x0006)"
        case 0x0007: return "BR/EDR SMP (CID 0x0007)"
        default: return "CID \(Hex.hex(cid, width: 4))"
        }
    }
}
