/// Scripts HCI traffic with a running clock into a `CaptureWriter`: the building block of the bundled
/// samples, the tests and the benchmark's large captures.
public final class Scenario {
    public let writer: CaptureWriter
    /// Current time in microseconds since 1970.
    public var clock: Int64
    /// ACL payload size per fragment (the controller's LE buffer size).
    public var aclMTU = 27

    public init(format: CaptureWriter.Format, start: Int64 = 1_700_000_000_000_000) {
        writer = CaptureWriter(format: format)
        clock = start
    }

    public func advance(micros: Int64) { clock += micros }
    public func advance(ms: Int64) { clock += ms * 1000 }

    public func host(_ kind: PacketKind, _ data: [UInt8]) {
        writer.add(kind: kind, direction: .hostToController, at: Timestamp(micros: clock), data)
    }

    public func controller(_ kind: PacketKind, _ data: [UInt8]) {
        writer.add(kind: kind, direction: .controllerToHost, at: Timestamp(micros: clock), data)
    }

    public func note(_ text: String) {
        writer.add(kind: .note, direction: .unknown, at: Timestamp(micros: clock), Array(text.utf8))
    }

    /// A command answered by Command Complete (status Success unless given).
    public func command(_ opcode: UInt16, _ params: [UInt8] = [], status: UInt8 = 0, returning ret: [UInt8] = []) {
        host(.command, HCIBuilder.command(opcode, params))
        advance(micros: 600)
        controller(.event, HCIBuilder.commandComplete(opcode, status: status, ret))
        advance(micros: 400)
    }

    /// A command answered by Command Status.
    public func commandWithStatus(_ opcode: UInt16, _ params: [UInt8] = [], status: UInt8 = 0) {
        host(.command, HCIBuilder.command(opcode, params))
        advance(micros: 600)
        controller(.event, HCIBuilder.commandStatus(opcode, status: status))
        advance(micros: 400)
    }

    /// The usual controller bring-up.
    public func powerOn(local: BDAddr) {
        command(0x0C03) // Reset
        command(0x1001, returning: [0x0C, 0x00, 0x00, 0x0C] + HCIBuilder.le16(0x0059) + HCIBuilder.le16(0x1234))
        command(0x1009, returning: HCIBuilder.addr(local))
        command(0x2002, returning: HCIBuilder.le16(251) + [8])
        command(0x0C01, HCIBuilder.le32(0xFFFF_FFFF) + HCIBuilder.le32(0x3DBF_F807))
        command(0x2001, HCIBuilder.le32(0x000F_FFFF) + HCIBuilder.le32(0))
    }

    public func startScan(active: Bool = true) {
        command(0x200B, [active ? 1 : 0] + HCIBuilder.le16(0x0060) + HCIBuilder.le16(0x0030) + [0x00, 0x00])
        command(0x200C, [0x01, 0x00])
    }

    public func stopScan() { command(0x200C, [0x00, 0x00]) }

    public func advert(type: UInt8 = 0, addressType: UInt8, address: BDAddr, data: [UInt8], rssi: Int8) {
        controller(.event, HCIBuilder.advertisingReport(type: type, addressType: addressType, address: address, data: data, rssi: rssi))
    }

    /// LE Create Connection followed by LE Connection Complete.
    public func connect(handle: UInt16, peer: BDAddr, peerType: UInt8, interval: UInt16 = 24, timeout: UInt16 = 400) {
        commandWithStatus(0x200D, HCIBuilder.le16(0x0060) + HCIBuilder.le16(0x0030) + [0x00, peerType] + HCIBuilder.addr(peer)
                          + [0x00] + HCIBuilder.le16(interval) + HCIBuilder.le16(interval) + HCIBuilder.le16(0)
                          + HCIBuilder.le16(timeout) + HCIBuilder.le16(0) + HCIBuilder.le16(0))
        advance(ms: 20)
        controller(.event, HCIBuilder.leConnectionComplete(handle: handle, role: 0, peerType: peerType, peer: peer,
                                                           interval: interval, timeout: timeout))
        advance(ms: 2)
    }

    public func disconnect(handle: UInt16, reason: UInt8 = 0x13, byHost: Bool = true) {
        if byHost {
            commandWithStatus(0x0406, HCIBuilder.le16(handle) + [reason])
            advance(ms: 30)
            controller(.event, HCIBuilder.disconnectionComplete(handle: handle, reason: 0x16))
        } else {
            controller(.event, HCIBuilder.disconnectionComplete(handle: handle, reason: reason))
        }
        advance(ms: 5)
    }

    /// Sends an L2CAP frame on `cid`, split into ACL fragments of `aclMTU` bytes.
    public func l2cap(handle: UInt16, cid: UInt16, fromHost: Bool, _ payload: [UInt8]) {
        let frame = HCIBuilder.l2cap(cid: cid, payload)
        var offset = 0
        var first = true
        while offset < frame.count {
            let end = min(frame.count, offset + aclMTU)
            let packet = HCIBuilder.acl(handle: handle, start: first, Array(frame[offset..<end]))
            if fromHost { host(.acl, packet) } else { controller(.acl, packet) }
            first = false
            offset = end
            if offset < frame.count { advance(micros: 150) }
        }
        if fromHost {
            advance(micros: 300)
            controller(.event, HCIBuilder.event(0x13, [1] + HCIBuilder.le16(handle) + HCIBuilder.le16(UInt16(truncatingIfNeeded: (frame.count + aclMTU - 1) / aclMTU))))
        }
    }

    /// ATT PDU from the local host (client role in most samples).
    public func attOut(_ handle: UInt16, _ pdu: [UInt8]) {
        l2cap(handle: handle, cid: 0x0004, fromHost: true, pdu)
        advance(ms: 15)
    }

    /// ATT PDU from the peer.
    public func attIn(_ handle: UInt16, _ pdu: [UInt8]) {
        l2cap(handle: handle, cid: 0x0004, fromHost: false, pdu)
        advance(ms: 5)
    }

    public func smpOut(_ handle: UInt16, _ pdu: [UInt8]) {
        l2cap(handle: handle, cid: 0x0006, fromHost: true, pdu)
        advance(ms: 15)
    }

    public func smpIn(_ handle: UInt16, _ pdu: [UInt8]) {
        l2cap(handle: handle, cid: 0x0006, fromHost: false, pdu)
        advance(ms: 5)
    }
}
