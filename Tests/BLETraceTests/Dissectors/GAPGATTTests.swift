import Testing
@testable import BLETrace

@Suite("GAP, GATT service and descriptor values")
struct GAPGATTTests {
    @Test("Device Name and Appearance with category and sub-category names")
    func nameAndAppearance() throws {
        let n = try #require(dissect(sig(0x2A00), Array("Thermo-42".utf8)))
        #expect(n.dissector == "gap" && n.fields["device_name"] == .string("Thermo-42") && n.text == "\"Thermo-42\"")
        #expect(n.fact == .identity(.string(key: "device_name", value: "Thermo-42")))

        let a = try #require(dissect(sig(0x2A01), le(0x00C1)))   // Watch: Sports Watch
        #expect(a.fields["appearance"] == .int(0xC1) && a.fields["category_value"] == .int(3) && a.fields["subcategory_value"] == .int(1))
        #expect(a.fields["category"] == .string("Watch") && a.fields["subcategory"] == .string("Sports Watch"))
        #expect(a.text == "0x00C1 Watch: Sports Watch")
        #expect(dissect(sig(0x2A01), le(0x0300))?.fields["subcategory"] == nil)
        #expect(dissect(sig(0x2A01), [0x00])?.problem == "1 byte, expected 2")
    }

    @Test("Peripheral Preferred Connection Parameters, with out-of-range values flagged")
    func ppcp() throws {
        let d = try #require(dissect(sig(0x2A04), le(24) + le(40) + le(0) + le(400)))
        #expect(d.fields["interval_min"] == .int(24) && d.fields["interval_max"] == .int(40) && d.fields["timeout"] == .int(400))
        #expect(d.text == "interval 30.00 ms–50.00 ms, latency 0, timeout 4000 ms" && d.problem == nil)
        #expect(dissect(sig(0x2A04), le(0xFFFF) + le(0xFFFF) + le(0) + le(0xFFFF))?.text == "interval any–any, latency 0, timeout any")
        let bad = try #require(dissect(sig(0x2A04), le(40) + le(24) + le(500) + le(5)))
        #expect(bad.problem == "minimum interval above maximum; latency 500 above 499; timeout 5 outside 10–3200")
    }

    @Test("Central Address Resolution and RPA Only are 0 or 1")
    func flags() {
        #expect(dissect(sig(0x2AA6), [1])?.fields["central_address_resolution"] == .int(1))
        #expect(dissect(sig(0x2AA6), [0])?.text == "no address resolution")
        #expect(dissect(sig(0x2AA6), [2])?.problem == "value 2 is reserved (0 or 1)")
        #expect(dissect(sig(0x2AC9), [0])?.fields["rpa_only"] == .int(0))
    }

    @Test("Service Changed range, supported features and database hash")
    func gattService() throws {
        let sc = try #require(dissect(sig(0x2A05), le(0x0010) + le(0xFFFF), opcode: 0x1D))
        #expect(sc.dissector == "gatt" && sc.fields["start_handle"] == .int(0x10) && sc.fields["end_handle"] == .int(0xFFFF))
        #expect(sc.text == "services changed in 0x0010–0xFFFF")
        #expect(dissect(sig(0x2A05), le(0x20) + le(0x10))?.problem == "invalid handle range")
        #expect(dissect(sig(0x2A05), le(0x20))?.problem == "2 bytes, expected 4")

        let csf = try #require(dissect(sig(0x2B29), [0x07], fromClient: true))
        #expect(csf.fields["features"] == .list([.string("robust caching"), .string("EATT"), .string("multiple handle value notifications")]))
        #expect(dissect(sig(0x2B3A), [0x01])?.text == "EATT")
        #expect(dissect(sig(0x2B3A), [0x00, 0x02])?.text == "bit 9")
        let hash = [UInt8](0..<16)
        #expect(dissect(sig(0x2B2A), hash)?.fields["database_hash"] == .hex(hash))
        #expect(dissect(sig(0x2B2A), [1, 2])?.problem == "2 bytes, expected 16")
    }

    @Test("CCCD tied to its characteristic; user description; presentation format with unit; extended properties")
    func descriptors() throws {
        let c = try #require(dissect(sig(0x2902), [0x01, 0x00], fromClient: true, characteristic: sig(0x2A19), descriptor: true))
        #expect(c.dissector == "descriptor" && c.fields["notifications"] == .bool(true) && c.fields["indications"] == .bool(false))
        #expect(c.fields["characteristic"] == .string("2A19") && c.fields["characteristic_name"] == .string("Battery Level"))
        #expect(c.text == "notifications on, indications off")
        let sub = try #require(((c.value as? DescribedValue)?.inner as? DescriptorDissector.CCCDValue)?.subscription)
        #expect(sub.characteristic == sig(0x2A19) && sub.notifications)
        #expect(dissect(sig(0x2902), [0x02, 0x00], descriptor: true)?.text == "notifications off, indications on")
        #expect(dissect(sig(0x2902), [0x04, 0x00], descriptor: true)?.problem == "reserved bits set (0x0004)")
        #expect(dissect(sig(0x2902), [0x01], descriptor: true)?.problem == "1 byte, expected 2")

        #expect(dissect(sig(0x2901), Array("Outside".utf8), descriptor: true)?.fields["user_description"] == .string("Outside"))

        // sint16, exponent -2, degrees Celsius (0x272F), SIG namespace, description 0.
        let pf = try #require(dissect(sig(0x2904), [0x0E, 0xFE] + le(0x272F) + [0x01] + le(0), descriptor: true))
        #expect(pf.fields["format_name"] == .string("sint16") && pf.fields["exponent"] == .int(-2))
        #expect(pf.fields["unit"] == .string("272F") && pf.fields["unit_name"] == .string("Celsius temperature (degree Celsius)"))
        #expect(pf.text == "sint16 × 10^-2, Celsius temperature (degree Celsius)")
        #expect(dissect(sig(0x2904), [0x00, 0x00] + le(0x2700) + [0x01] + le(0), descriptor: true)?.problem == "format 0 is reserved")

        #expect(dissect(sig(0x2900), le(0x0001), descriptor: true)?.text == "reliable write")
        #expect(dissect(sig(0x2903), le(0x0001), descriptor: true)?.fields["broadcasts"] == .bool(true))

        // The typed values hold the descriptor's numbers; names are made when rendered.
        let typed = try #require(DescriptorDissector.presentationFormat(([0x0E, 0xFE] + le(0x272F) + [0x01] + le(0))[...])
            .value as? DescriptorDissector.PresentationFormat)
        #expect(typed == DescriptorDissector.PresentationFormat(format: 0x0E, exponent: -2, unit: 0x272F, namespace: 1, description: 0))
        let ext = try #require(DescriptorDissector.extendedProperties(le(0x0003)[...]).value as? DescriptorDissector.ExtendedProperties)
        #expect(ext.bits == 3 && ext.text == "reliable write, writable auxiliaries")
        let sccd = DescriptorDissector.sccd(le(0x0002)[...])
        #expect(sccd.value as? DescriptorDissector.SCCDValue == DescriptorDissector.SCCDValue(bits: 2))
        #expect(sccd.text == "broadcasts off" && sccd.problem == "reserved bits set (0x0002)")
    }
}
