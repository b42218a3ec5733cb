import Testing
@testable import BLETrace

@Suite struct ByteCursorTests {
    @Test func readsLittleAndBigEndian() throws {
        var c = ByteCursor([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09])
        #expect(try c.u8() == 0x01)
        #expect(try c.u16le() == 0x0302)
        #expect(try c.u16be() == 0x0405)
        #expect(try c.u32le() == 0x0908_0706)
        #expect(c.isAtEnd)
        var d = ByteCursor([0xDE, 0xAD, 0xBE, 0xEF, 0xFF])
        #expect(try d.u32be() == 0xDEAD_BEEF)
        #expect(try d.i8() == -1)
    }

    @Test func truncationThrowsWithOffset() {
        var c = ByteCursor([0x01, 0x02, 0x03])
        _ = try? c.u16le()
        #expect(throws: ByteError.truncated(offset: 2, needed: 2, available: 1)) { try c.u16le() }
        // A failed read consumes nothing.
        #expect(c.remaining == 1)
        #expect(throws: ByteError.self) { try c.bytes(-1) }
    }

    @Test func slicesKeepParentIndices() throws {
        let whole: [UInt8] = [9, 9, 0xAA, 0xBB, 0xCC]
        var c = ByteCursor(whole[2...])
        #expect(try c.u8() == 0xAA)
        #expect(c.offset == 1)
        #expect(Array(c.rest()) == [0xBB, 0xCC])
    }

    @Test func addressIsLeastSignificantByteFirst() throws {
        var c = ByteCursor([0x66, 0x55, 0x44, 0x33, 0x22, 0x11])
        let a = try c.address()
        #expect(a.description == "11:22:33:44:55:66")
        #expect(BDAddr(string: "11:22:33:44:55:66") == a)
        #expect(BDAddr(string: "11:22:33") == nil)
        #expect(BDAddr(string: "c4:7c:8d:6A:11:22") == BDAddr(0xC4_7C_8D_6A_11_22))
        for bad in ["11:22:33:44:55:6G", "11-22-33-44-55-66", "11:22:33:44:55:666", "1:22:33:44:55:66:", "+1:22:33:44:55:66", "11:22:33:44:55"] {
            #expect(BDAddr(string: bad) == nil, "\(bad)")
        }
    }

    @Test func hexFormatting() {
        #expect(Hex.string([0x0A, 0xFF]) == "0aff")
        #expect(Hex.hex(0x40, width: 4) == "0x0040")
        #expect(Hex.hex(0x12345, width: 4) == "0x12345")
        #expect(Hex.parse("0a ff:10") == [0x0A, 0xFF, 0x10])
        #expect(Hex.parse("abc") == nil)
        #expect(Hex.spaced([1, 2, 3], limit: 2) == "01 02 …")
    }

    @Test func formatting() {
        #expect(Fmt.fixed(3125, scale: 100) == "31.25")
        #expect(Fmt.fixed(-5, scale: 1000) == "-0.005")
        #expect(Fmt.interval1250(24) == "30.00 ms")
        #expect(Fmt.interval625(160) == "100.000 ms")
        #expect(Fmt.seconds(micros: 1_000_001) == "1.000001")
    }

    @Test func uuidForms() throws {
        let battery = BLEUUID(0x180F as UInt16)
        #expect(battery.description == "180F")
        #expect(battery.canonical == "0000180F-0000-1000-8000-00805F9B34FB")
        #expect(battery.name == "Battery")
        let ancs = try #require(BLEUUID(string: "7905F431-B5CE-4E99-A40F-4B1E122D00D0"))
        #expect(ancs.uuid16 == nil)
        #expect(ancs.canonical == "7905F431-B5CE-4E99-A40F-4B1E122D00D0")
        let wire: [UInt8] = [0xD0, 0x00, 0x2D, 0x12, 0x1E, 0x4B, 0x0F, 0xA4, 0x99, 0x4E, 0xCE, 0xB5, 0x31, 0xF4, 0x05, 0x79]
        #expect(BLEUUID(littleEndian: wire[...]) == ancs)
        #expect(BLEUUID(bigEndian: wire.reversed()[...]) == ancs)
        #expect(ancs.littleEndianBytes == wire)
        #expect(ancs.name == "Apple Notification Center Service")
        #expect(BLEUUID(string: "2A19") == BLEUUID(0x2A19 as UInt16))
        #expect(BLEUUID(string: "not-a-uuid") == nil)
    }

    @Test func iso8601() {
        #expect(Timestamp(micros: 0).iso8601 == "1970-01-01T00:00:00.000000Z")
        #expect(Timestamp(micros: 1_700_000_000_123_456).iso8601 == "2023-11-14T22:13:20.123456Z")
        #expect(Timestamp(micros: 951_782_400_000_001).iso8601 == "2000-02-29T00:00:00.000001Z")
        #expect(Timestamp(micros: -1).iso8601 == "1969-12-31T23:59:59.999999Z")
    }
}
