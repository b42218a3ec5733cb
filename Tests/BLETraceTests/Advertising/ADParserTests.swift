import Testing
@testable import BLETrace

/// One AD structure: length, type, data.
func ad(_ type: UInt8, _ data: [UInt8]) -> [UInt8] { [UInt8(data.count + 1), type] + data }

/// Decodes a payload holding exactly one structure.
func decodeOne(_ type: UInt8, _ data: [UInt8], rssi: Int? = nil) -> ADDescription {
    let ads = ADParser.parse(ad(type, data))
    #expect(ads.count == 1)
    return ADDecode.describe(ads[0], rssi: rssi)
}

@Suite("AD structure splitting")
struct ADSplittingTests {
    @Test("structures are split in order and share the payload")
    func split() {
        let payload = ad(0x01, [0x06]) + ad(0x09, Array("Tag".utf8))
        let ads = ADParser.parse(payload)
        #expect(ads.map(\.type) == [0x01, 0x09])
        #expect(Array(ads[1].data) == Array("Tag".utf8))
        #expect(ads.allSatisfy { $0.malformed == nil })
    }

    @Test("zero-length padding is skipped without complaint")
    func padding() {
        let payload = ad(0x01, [0x06]) + [0, 0, 0] + ad(0x0A, [0xF8]) + [UInt8](repeating: 0, count: 20)
        let ads = ADParser.parse(payload)
        #expect(ads.map(\.type) == [0x01, 0x0A])
        #expect(ads.allSatisfy { $0.malformed == nil })
        #expect(ADParser.parse([0, 0, 0]).isEmpty)
        #expect(ADParser.parse([]).isEmpty)
    }

    @Test("a structure running past the payload is flagged and keeps the rest as raw bytes")
    func overrun() {
        let payload = ad(0x01, [0x06]) + [0x09, 0x09, 0x41, 0x42]
        let ads = ADParser.parse(payload)
        #expect(ads.count == 2)
        #expect(ads[0].malformed == nil)
        #expect(ads[1].type == 0x09)
        #expect(Array(ads[1].data) == [0x09, 0x09, 0x41, 0x42])
        #expect(ads[1].malformed == ADOverrun(length: 9, left: 3))
        #expect(ads[1].malformed?.description == "AD structure length 9 runs past the payload (3 bytes left)")
        let d = ADDecode.describe(ads[1])
        #expect(d.fields["malformed"] != nil)
        #expect(d.fields["data"] == .hex([0x09, 0x09, 0x41, 0x42]))
        #expect(d.fields["local_name"] == nil)
        // A lone length byte at the end.
        let lone = ADParser.parse(ad(0x01, [0x06]) + [0x05])
        #expect(lone.count == 2)
        #expect(lone[1].malformed == ADOverrun(length: 5, left: 0))
        #expect(lone[1].malformed?.description == "AD structure length 5 runs past the payload (0 bytes left)")
    }

    @Test("slices with non-zero start indices parse the same")
    func slices() {
        let buffer: [UInt8] = [0xEE, 0xEE] + ad(0x0A, [0x04]) + [0xEE]
        let ads = ADParser.parse(buffer[2..<5])
        #expect(ads.count == 1)
        #expect(ADDecode.describe(ads[0]).fields["tx_power"] == .int(4))
    }

    @Test("summary joins the per-structure texts")
    func summary() {
        let ads = ADParser.parse(ad(0x01, [0x06]) + ad(0x09, Array("Tag".utf8)) + ad(0x0A, [0xF4]))
        #expect(ADParser.summary(ads) == "flags 0x06, name \"Tag\", tx power -12 dBm")
        #expect(ADParser.summary([]) == "no data")
    }
}

@Suite("AD types")
struct ADTypeTests {
    @Test("0x01 flags")
    func flags() {
        let d = decodeOne(0x01, [0x1A])
        #expect(d.fields["flags_value"] == .int(0x1A))
        #expect(d.fields["flags"] == .list([.string("LE General Discoverable"),
                                             .string("Simultaneous LE and BR/EDR (Controller)"),
                                             .string("Simultaneous LE and BR/EDR (Host)")]))
        #expect(decodeOne(0x01, []).fields["malformed"] != nil)
    }

    @Test("0x02/0x03 16-bit service UUIDs, incomplete and complete, little-endian")
    func uuid16() {
        let inc = decodeOne(0x02, [0x0F, 0x18, 0x0D, 0x18])
        #expect(inc.fields["uuids"] == .list([.string("180F"), .string("180D")]))
        #expect(inc.fields["complete"] == .bool(false))
        #expect(inc.fields["uuid_names"]?.objectValue?["180F"] == .string("Battery"))
        let comp = decodeOne(0x03, [0xAA, 0xFE])
        #expect(comp.fields["complete"] == .bool(true))
        #expect(comp.text.hasPrefix("services FEAA"))
        let odd = decodeOne(0x03, [0x0F, 0x18, 0x0D])
        #expect(odd.fields["uuids"] == .list([.string("180F")]))
        #expect(odd.fields["trailing"] == .hex([0x0D]))
        #expect(odd.fields["malformed"]?.stringValue == "3 bytes is not a whole number of 16-bit UUIDs")
    }

    @Test("0x04/0x05 32-bit service UUIDs")
    func uuid32() {
        let d = decodeOne(0x05, [0x78, 0x56, 0x34, 0x12])
        #expect(d.fields["uuids"] == .list([.string("12345678")]))
        #expect(d.fields["complete"] == .bool(true))
        #expect(decodeOne(0x04, [1, 2, 3, 4]).fields["complete"] == .bool(false))
    }

    @Test("0x06/0x07 128-bit service UUIDs are little-endian on the wire")
    func uuid128() {
        // 6E400001-B5A3-F393-E0A9-E50E24DCCA9E reversed.
        let wire: [UInt8] = [0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E]
        let d = decodeOne(0x07, wire)
        #expect(d.fields["uuids"] == .list([.string("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")]))
        #expect(d.text == "services 6E400001-B5A3-F393-E0A9-E50E24DCCA9E (Nordic UART Service)")
        #expect(decodeOne(0x06, wire).fields["complete"] == .bool(false))
    }

    @Test("0x14, 0x15, 0x1F service solicitation; ANCS solicitation means \"wants ANCS\"")
    func solicitation() {
        let s16 = decodeOne(0x14, [0x12, 0x18])
        #expect(s16.fields["uuids"] == .list([.string("1812")]))
        #expect(s16.fields["solicitation"] == .bool(true))
        #expect(s16.fields["wants_ancs"] == nil)
        let s32 = decodeOne(0x1F, [0x01, 0x00, 0x01, 0x00])
        #expect(s32.fields["uuids"] == .list([.string("00010001")]))
        // 7905F431-B5CE-4E99-A40F-4B1E122D00D0, little-endian.
        let ancs: [UInt8] = [0xD0, 0x00, 0x2D, 0x12, 0x1E, 0x4B, 0x0F, 0xA4, 0x99, 0x4E, 0xCE, 0xB5, 0x31, 0xF4, 0x05, 0x79]
        let s128 = decodeOne(0x15, ancs)
        #expect(s128.fields["uuids"] == .list([.string("7905F431-B5CE-4E99-A40F-4B1E122D00D0")]))
        #expect(s128.fields["wants_ancs"] == .bool(true))
        #expect(s128.text.hasSuffix("wants ANCS"))
        // The same UUID in a service list is not a solicitation.
        #expect(decodeOne(0x07, ancs).fields["wants_ancs"] == nil)
    }

    @Test("0x08/0x09 shortened and complete local name")
    func names() {
        let full = decodeOne(0x09, Array("Nest Cam".utf8))
        #expect(full.fields["local_name"] == .string("Nest Cam"))
        #expect(full.fields["complete"] == .bool(true))
        #expect(full.text == "name \"Nest Cam\"")
        let short = decodeOne(0x08, Array("Nes".utf8) + [0, 0])
        #expect(short.fields["local_name"] == .string("Nes"))
        #expect(short.fields["complete"] == .bool(false))
        #expect(decodeOne(0x09, [0xFF, 0x41]).fields["local_name"] == .string("\u{FFFD}A"))
    }

    @Test("0x0A TX power level is signed")
    func txPower() {
        #expect(decodeOne(0x0A, [0xF6]).fields["tx_power"] == .int(-10))
        #expect(decodeOne(0x0A, [0x04]).text == "tx power 4 dBm")
        #expect(decodeOne(0x0A, [0x04, 0x00]).fields["malformed"] != nil)
    }

    @Test("0x0D class of device")
    func classOfDevice() {
        // 0x5A020C: services Networking, Capturing, Object Transfer, Telephony; major Phone (2); minor 3 (smartphone).
        let d = decodeOne(0x0D, [0x0C, 0x02, 0x5A])
        #expect(d.fields["class_of_device"] == .int(0x5A020C))
        #expect(d.fields["major_class"] == .string("Phone"))
        #expect(d.fields["minor_class"] == .int(3))
        #expect(d.fields["service_classes"] == .list([.string("Networking"), .string("Capturing"),
                                                      .string("Object Transfer"), .string("Telephony")]))
        #expect(decodeOne(0x0D, [0x0C, 0x02]).fields["malformed"] != nil)
    }

    @Test("0x0E/0x0F/0x1D/0x1E/0x22/0x23 16-byte pairing values")
    func pairingValues() {
        let v = [UInt8](0..<16)
        for t: UInt8 in [0x0E, 0x0F, 0x1D, 0x1E, 0x22, 0x23] {
            let d = decodeOne(t, v)
            #expect(d.fields["value"] == .hex(v))
            #expect(d.fields["malformed"] == nil)
        }
        #expect(decodeOne(0x0E, [1, 2, 3]).fields["malformed"] != nil)
    }

    @Test("0x10 Device ID (8 bytes) or TK value (16 bytes)")
    func deviceID() {
        let d = decodeOne(0x10, [0x01, 0x00, 0x4C, 0x00, 0x34, 0x12, 0x00, 0x01])
        #expect(d.fields["vendor_id_source"] == .int(1))
        #expect(d.fields["vendor_id"] == .int(0x004C))
        #expect(d.fields["vendor_name"] == .string("Apple, Inc."))
        #expect(d.fields["product_id"] == .int(0x1234))
        #expect(d.fields["version"] == .int(0x0100))
        let tk = decodeOne(0x10, [UInt8](repeating: 7, count: 16))
        #expect(tk.fields["tk_value"] == .hex([UInt8](repeating: 7, count: 16)))
        #expect(decodeOne(0x10, [1, 2, 3]).fields["malformed"] != nil)
    }

    @Test("0x11 security manager OOB flags")
    func oobFlags() {
        let d = decodeOne(0x11, [0x0B])
        #expect(d.fields["oob_data_present"] == .bool(true))
        #expect(d.fields["le_supported_host"] == .bool(true))
        #expect(d.fields["simultaneous_le_bredr_host"] == .bool(false))
        #expect(d.fields["address_type"] == .string("random"))
    }

    @Test("0x12 peripheral connection interval range")
    func intervalRange() {
        let d = decodeOne(0x12, [0x06, 0x00, 0xFF, 0xFF])
        #expect(d.fields["interval_min"] == .int(6))
        #expect(d.fields["interval_max"] == .int(0xFFFF))
        #expect(d.text == "connection interval 7.50 ms – no specific value")
        #expect(decodeOne(0x12, [0x06, 0x00]).fields["malformed"] != nil)
    }

    @Test("0x16/0x20/0x21 service data with 16-, 32- and 128-bit UUIDs")
    func serviceData() {
        let s16 = decodeOne(0x16, [0x0F, 0x18, 0x64])
        #expect(s16.fields["uuid"] == .string("180F"))
        #expect(s16.fields["uuid_name"] == .string("Battery"))
        #expect(s16.fields["service_data"] == .hex([0x64]))
        let s32 = decodeOne(0x20, [0x04, 0x03, 0x02, 0x01, 0xAA])
        #expect(s32.fields["uuid"] == .string("01020304"))
        #expect(s32.fields["service_data"] == .hex([0xAA]))
        let s128 = decodeOne(0x21, [UInt8](1...16) + [0xBB, 0xCC])
        #expect(s128.fields["uuid"] == .string("100F0E0D-0C0B-0A09-0807-060504030201"))
        #expect(s128.fields["service_data"] == .hex([0xBB, 0xCC]))
        #expect(decodeOne(0x21, [1, 2, 3]).fields["malformed"] != nil)
        #expect(decodeOne(0x16, [0x0F]).fields["malformed"] != nil)
    }

    @Test("0x17/0x18 public and random target addresses")
    func targetAddresses() {
        let d = decodeOne(0x17, [0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x01, 0x02, 0x03, 0x04, 0x05, 0xC6])
        #expect(d.fields["addresses"] == .list([.string("11:22:33:44:55:66"), .string("C6:05:04:03:02:01")]))
        #expect(d.text == "public target 11:22:33:44:55:66 C6:05:04:03:02:01")
        #expect(decodeOne(0x18, [1, 2, 3, 4, 5, 6]).text == "random target 06:05:04:03:02:01")
        #expect(decodeOne(0x18, [1, 2, 3]).fields["malformed"] != nil)
    }

    @Test("0x19 appearance")
    func appearance() {
        // 0x0341: Heart Rate Sensor, Heart Rate Belt.
        let d = decodeOne(0x19, [0x41, 0x03])
        #expect(d.fields["appearance"] == .int(0x0341))
        #expect(d.fields["category"] == .string("Heart Rate Sensor"))
        #expect(d.fields["subcategory"] == .string("Heart Rate Belt"))
        #expect(d.text == "appearance Heart Rate Sensor: Heart Rate Belt")
        #expect(decodeOne(0x19, [0x41]).fields["malformed"] != nil)
    }

    @Test("0x1A advertising interval and 0x2F the long form")
    func advertisingInterval() {
        let d = decodeOne(0x1A, [0xA0, 0x00])
        #expect(d.fields["interval"] == .int(160))
        #expect(d.text == "advertising interval 100.000 ms")
        #expect(decodeOne(0x2F, [0x00, 0x00, 0x01]).fields["interval"] == .int(65536))
        #expect(decodeOne(0x2F, [0x00, 0x00, 0x01, 0x00]).fields["interval"] == .int(65536))
        #expect(decodeOne(0x1A, [0xA0]).fields["malformed"] != nil)
        #expect(decodeOne(0x2F, [0xA0, 0x00]).fields["malformed"] != nil)
    }

    @Test("0x1B LE device address and 0x1C LE role")
    func addressAndRole() {
        let a = decodeOne(0x1B, [0x01, 0x02, 0x03, 0x04, 0x05, 0xC6, 0x01])
        #expect(a.fields["address"] == .string("C6:05:04:03:02:01"))
        #expect(a.fields["address_type"] == .string("random"))
        #expect(decodeOne(0x1B, [1, 2, 3, 4, 5, 6]).fields["malformed"] != nil)
        let r = decodeOne(0x1C, [0x02])
        #expect(r.fields["role"] == .int(2))
        #expect(r.fields["role_name"] == .string("peripheral and central, peripheral preferred"))
        #expect(decodeOne(0x1C, [0x00]).text == "LE role: peripheral only")
    }

    @Test("0x24 URI with a scheme code")
    func uri() {
        let d = decodeOne(0x24, [0x17] + Array("//example.org/x".utf8))
        #expect(d.fields["uri"] == .string("https://example.org/x"))
        #expect(d.fields["scheme_code"] == .int(0x17))
        // 0x01: the scheme is part of the text.
        #expect(decodeOne(0x24, [0x01] + Array("mailto:a@b".utf8)).fields["uri"] == .string("mailto:a@b"))
        // Unknown code: body kept, no made-up scheme.
        let u = decodeOne(0x24, [0x05] + Array("x".utf8))
        #expect(u.fields["uri"] == nil)
        #expect(u.fields["uri_body"] == .string("x"))
        #expect(decodeOne(0x24, []).fields["malformed"] != nil)
    }

    @Test("0x26 transport discovery data blocks")
    func transportDiscovery() {
        let d = decodeOne(0x26, [0x01, 0x02, 0x02, 0xAA, 0xBB])
        let blocks = d.fields["blocks"]
        #expect(blocks == .list([.object(["organization_id": .int(1), "flags": .int(2), "role": .string("provider"),
                                           "data": .hex([0xAA, 0xBB])])]))
        #expect(decodeOne(0x26, [0x01, 0x02, 0x05, 0xAA]).fields["malformed"] != nil)
    }

    @Test("0x27 LE supported features")
    func features() {
        let d = decodeOne(0x27, [0x01, 0x01])
        #expect(d.fields["features"] == .list([.string("LE Encryption"), .string("LE 2M PHY")]))
    }

    @Test("0x28 channel map update indication")
    func channelMap() {
        let d = decodeOne(0x28, [0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0x34, 0x12])
        #expect(d.fields["channel_map"] == .hex([0xFF, 0xFF, 0xFF, 0xFF, 0x1F]))
        #expect(d.fields["instant"] == .int(0x1234))
        #expect(decodeOne(0x28, [0xFF]).fields["malformed"] != nil)
    }

    @Test("0x29 PB-ADV, 0x2A mesh message, 0x2B mesh beacon")
    func mesh() {
        let pb = decodeOne(0x29, [0x00, 0x00, 0x01, 0x02, 0x05, 0x03])
        #expect(pb.fields["link_id"] == .int(0x0102))
        #expect(pb.fields["transaction"] == .int(5))
        #expect(pb.fields["pdu"] == .hex([0x03]))
        let msg = decodeOne(0x2A, [0x85, 0x00, 0x00])
        #expect(msg.fields["ivi"] == .int(1))
        #expect(msg.fields["nid"] == .int(5))
        let beacon = decodeOne(0x2B, [0x00] + [UInt8](1...16) + [0x40, 0x00])
        #expect(beacon.fields["beacon_type_name"] == .string("unprovisioned device"))
        #expect(beacon.fields["device_uuid"] == .string("01020304-0506-0708-090A-0B0C0D0E0F10"))
        #expect(beacon.fields["oob_information"] == .int(0x4000))
        #expect(decodeOne(0x2B, [0x01, 0x00]).fields["beacon_type_name"] == .string("secure network"))
        #expect(decodeOne(0x2B, [0x00, 0x01]).fields["malformed"] != nil)
    }

    @Test("0x2E RSI, 0x30 broadcast name, 0x31 encrypted data, 0x3D 3D information")
    func leAudioAndOthers() {
        #expect(decodeOne(0x2E, [1, 2, 3, 4, 5, 6]).fields["rsi"] == .hex([1, 2, 3, 4, 5, 6]))
        #expect(decodeOne(0x2E, [1, 2, 3]).fields["malformed"] != nil)
        #expect(decodeOne(0x30, Array("Gate 5".utf8)).fields["broadcast_name"] == .string("Gate 5"))
        let enc = decodeOne(0x31, [1, 2, 3, 4, 5, 0xAA, 0xBB, 9, 9, 9, 9])
        #expect(enc.fields["randomizer"] == .hex([1, 2, 3, 4, 5]))
        #expect(enc.fields["payload"] == .hex([0xAA, 0xBB]))
        #expect(enc.fields["mic"] == .hex([9, 9, 9, 9]))
        #expect(decodeOne(0x31, [1, 2, 3]).fields["malformed"] != nil)
        let three = decodeOne(0x3D, [0x01, 0x30])
        #expect(three.fields["flags"] == .int(1))
        #expect(three.fields["path_loss_threshold"] == .int(0x30))
    }

    @Test("0xFF manufacturer data names the company")
    func manufacturer() {
        let d = decodeOne(0xFF, [0x59, 0x00, 0x01, 0x02])
        #expect(d.fields["company"] == .int(0x0059))
        #expect(d.fields["company_name"] == .string("Nordic Semiconductor ASA"))
        #expect(d.fields["manufacturer_data"] == .hex([0x01, 0x02]))
        #expect(d.text == "manufacturer Nordic Semiconductor ASA 0102")
        let unknown = decodeOne(0xFF, [0xFE, 0xFF])
        #expect(unknown.fields["company_name"] == nil)
        #expect(unknown.text == "manufacturer 0xFFFE")
        #expect(decodeOne(0xFF, [0x4C]).fields["malformed"] != nil)
    }

    @Test("other types are shown by name with their bytes")
    func others() {
        let d = decodeOne(0x2C, [0xAB, 0xCD])
        #expect(d.fields["name"] == .string("BIGInfo"))
        #expect(d.fields["data"] == .hex([0xAB, 0xCD]))
        #expect(d.text == "BIGInfo abcd")
        #expect(decodeOne(0x77, [0x01]).text == "AD type 0x77 01")
    }
}
