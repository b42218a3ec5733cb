import Testing
@testable import BLETrace

/// btmon's own records in a Linux monitor btsnoop are decoded (issue #27): Index Info and the control channel's
/// Open, Command, Event and Close, with the process name and version.
@Suite struct MonitorRecordsTests {
    static func capture() -> [UInt8] {
        let w = CaptureWriter(format: .btsnoop(datalink: 2001))
        var t = Timestamp(micros: 1_700_000_000_000_000)
        func add(_ opcode: UInt16, _ payload: [UInt8]) {
            t = Timestamp(micros: t.micros + 1000)
            w.addBTSnoop(payload: payload, original: payload.count, flags: UInt32(opcode), at: t)
        }
        add(10, HCIBuilder.addr(BDAddr(0x00_1A_7D_DA_71_13)) + HCIBuilder.le16(0x0002))
        let name = Array("bluetoothd".utf8) + [UInt8](repeating: 0, count: 6)
        add(14, HCIBuilder.le32(0x1234_5678) + HCIBuilder.le16(2) + [1] + HCIBuilder.le16(22) + HCIBuilder.le32(1) + [UInt8(name.count)] + name)
        add(16, HCIBuilder.le32(0x1234_5678) + HCIBuilder.le16(0x0005) + [0x01])
        add(17, HCIBuilder.le32(0x1234_5678) + HCIBuilder.le16(0x0001) + [0x05, 0x00, 0x00])
        add(15, HCIBuilder.le32(0x1234_5678))
        return w.bytes
    }

    @Test func controlRecordsAndIndexInfoAreDecoded() throws {
        let (events, _) = TestSupport.analyze(try CaptureFile.open(bytes: Self.capture()))
        let text = events.map(\.summary)
        #expect(text == [
            "Index Info: hci0 00:1A:7D:DA:71:13, manufacturer Intel Corp.",
            "Control Open: MGMT socket of bluetoothd (privileged), version 1.22, cookie 0x12345678",
            "Control Command: opcode 0x0005, cookie 0x12345678, 1 bytes: 01",
            "Control Event: opcode 0x0001, cookie 0x12345678, 3 bytes: 05 00 00",
            "Control Close: cookie 0x12345678",
        ])
        let open = events[1].layer("note")
        #expect(open?["process"] == .string("bluetoothd") && open?["format_name"] == .string("MGMT") && open?["privileged"] == .bool(true))
        #expect(events[0].layer("note")?["manufacturer"] == .int(2))
    }
}
