/// Builds HCI packets byte by byte (little-endian fields as on the wire), for samples and tests.
public enum HCIBuilder {
    public static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    public static func le24(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF)] }
    public static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
    public static func addr(_ a: BDAddr) -> [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: a.value >> (8 * UInt64($0))) } }

    /// An HCI command: opcode, parameter length, parameters.
    public static func command(_ opcode: UInt16, _ params: [UInt8] = []) -> [UInt8] {
        le16(opcode) + [UInt8(truncatingIfNeeded: params.count)] + params
    }

    /// An HCI event: code, parameter length, parameters.
    public static func event(_ code: UInt8, _ params: [UInt8]) -> [UInt8] {
        [code, UInt8(truncatingIfNeeded: params.count)] + params
    }

    public static func leMeta(_ subevent: UInt8, _ params: [UInt8]) -> [UInt8] {
        event(0x3E, [subevent] + params)
    }

    public static func commandComplete(_ opcode: UInt16, status: UInt8 = 0, _ ret: [UInt8] = []) -> [UInt8] {
        event(0x0E, [1] + le16(opcode) + [status] + ret)
    }

    public static func commandStatus(_ opcode: UInt16, status: UInt8 = 0) -> [UInt8] {
        event(0x0F, [status, 1] + le16(opcode))
    }

    /// LE Connection Complete (v1).
    public static func leConnectionComplete(handle: UInt16, role: UInt8, peerType: UInt8, peer: BDAddr,
                                            interval: UInt16, latency: UInt16 = 0, timeout: UInt16, status: UInt8 = 0) -> [UInt8] {
        leMeta(0x01, [status] + le16(handle) + [role, peerType] + addr(peer) + le16(interval) + le16(latency)
               + le16(timeout) + [0x00])
    }

    public static func disconnectionComplete(handle: UInt16, reason: UInt8, status: UInt8 = 0) -> [UInt8] {
        event(0x05, [status] + le16(handle) + [reason])
    }

    /// One legacy advertising report in one LE Advertising Report event.
    public static func advertisingReport(type: UInt8, addressType: UInt8, address: BDAddr, data: [UInt8], rssi: Int8) -> [UInt8] {
        leMeta(0x02, [1, type, addressType] + addr(address) + [UInt8(truncatingIfNeeded: data.count)] + data
               + [UInt8(bitPattern: rssi)])
    }

    /// One extended advertising report.
    public static func extendedAdvertisingReport(eventType: UInt16, addressType: UInt8, address: BDAddr, sid: UInt8 = 0xFF,
                                                 txPower: Int8 = 127, rssi: Int8, data: [UInt8]) -> [UInt8] {
        leMeta(0x0D, [1] + le16(eventType) + [addressType] + addr(address) + [0x01, 0x00, sid, UInt8(bitPattern: txPower),
               UInt8(bitPattern: rssi)] + le16(0) + [0x00] + [0, 0, 0, 0, 0, 0] + [UInt8(truncatingIfNeeded: data.count)] + data)
    }

    /// An ACL packet: handle with packet-boundary flag, length, data.
    public static func acl(handle: UInt16, start: Bool = true, _ data: [UInt8]) -> [UInt8] {
        let pb: UInt16 = start ? 0x2000 : 0x1000
        return le16(handle & 0x0FFF | pb) + le16(UInt16(truncatingIfNeeded: data.count)) + data
    }

    /// An L2CAP basic frame: length, channel, payload.
    public static func l2cap(cid: UInt16, _ payload: [UInt8]) -> [UInt8] {
        le16(UInt16(truncatingIfNeeded: payload.count)) + le16(cid) + payload
    }

    /// AD structure: length, type, data.
    public static func ad(_ type: UInt8, _ data: [UInt8]) -> [UInt8] {
        [UInt8(truncatingIfNeeded: data.count + 1), type] + data
    }
}
