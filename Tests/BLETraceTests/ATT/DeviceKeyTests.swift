import Testing
@testable import BLETrace

/// A GATT server's key is a plain value whose text is the one the summary and `--gatt` files use.
@Suite struct DeviceKeyTests {
    @Test("the text of each kind of key, and the key read back from it")
    func textRoundTrip() throws {
        let address = DeviceKey(address: BDAddr(0xC4_7C_8D_6A_11_22))
        let handle = DeviceKey(handle: 0x0040)
        #expect(address.description == "C4:7C:8D:6A:11:22")
        #expect(DeviceKey.local.description == "local")
        #expect(handle.description == "handle-0x0040")
        for key in [address, handle, DeviceKey.local, DeviceKey(handle: 0x0EFF)] {
            #expect(DeviceKey(key.description) == key)
        }
        #expect(DeviceKey("peer") == nil)
        #expect(DeviceKey("handle-0x40") == nil)
        #expect(DeviceKey("handle-0x+0FF") == nil)
        #expect(DeviceKey("c4:7c:8d:6a:11:22") == nil)
        #expect(DeviceKey.local.isLocal && !address.isLocal && !handle.isLocal)
    }

    @Test("keys of different kinds never meet, even when their low bits do")
    func kindsAreDistinct() {
        let keys: Set<DeviceKey> = [DeviceKey(address: BDAddr(0x40)), DeviceKey(handle: 0x40), .local, DeviceKey(address: BDAddr(0))]
        #expect(keys.count == 4)
    }

    @Test("a connection's key is its peer's address, or its handle until the address is known")
    func connectionKey() {
        let c = Connection(id: 1, handle: 0x0041, implicit: true)
        #expect(DeviceKey(c) == DeviceKey(handle: 0x0041))
        #expect(ATTLayer.deviceKey(c) == c.peerKey)
        c.peer = BDAddr(0x11_22_33_44_55_66)
        #expect(DeviceKey(c) == DeviceKey(address: BDAddr(0x11_22_33_44_55_66)))
        #expect(ATTLayer.deviceKey(c) == c.peerKey)
    }

    @Test("a database stored under a key is found by the key's text")
    func databaseByText() {
        let layer = ATTLayer()
        let key = DeviceKey(address: BDAddr(0xC4_7C_8D_6A_11_22))
        #expect(layer.serverSlot(key) == 0)
        #expect(layer.database(stored: "C4:7C:8D:6A:11:22")?.device == "C4:7C:8D:6A:11:22")
        #expect(layer.databaseOrder == ["C4:7C:8D:6A:11:22"])
        #expect(layer.database(stored: "local") == nil)
    }
}
