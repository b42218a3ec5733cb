import Testing
@testable import BLETrace

@Suite("Device Information values")
struct DeviceInformationTests {
    @Test("the six strings, each under its own key; bad UTF-8 is flagged")
    func strings() throws {
        let cases: [(UInt16, String)] = [(0x2A29, "manufacturer_name"), (0x2A24, "model_number"), (0x2A25, "serial_number"),
                                         (0x2A27, "hardware_revision"), (0x2A26, "firmware_revision"), (0x2A28, "software_revision")]
        for (u, key) in cases {
            let d = try #require(dissect(sig(u), Array("Acé 1.0".utf8)))
            #expect(d.dissector == "device_information")
            #expect(d.fields[key] == .string("Acé 1.0"), "\(key)")
            #expect(d.fact == .identity(.string(key: key, value: "Acé 1.0")))
        }
        // Trailing NULs (fixed-size buffers) are not part of the string.
        #expect(dissect(sig(0x2A26), Array("2.1".utf8) + [0, 0])?.fields["firmware_revision"] == .string("2.1"))
        let bad = try #require(dissect(sig(0x2A29), [0x41, 0xC3, 0x28]))
        #expect(bad.problem == "not valid UTF-8")
        #expect(bad.fact == nil)
        #expect(bad.summaryText(raw: [0x41, 0xC3, 0x28]).hasSuffix("[invalid: not valid UTF-8] 41 c3 28"))
    }

    @Test("PnP ID: SIG source names the company, USB does not; reserved source and wrong length flagged")
    func pnp() throws {
        let d = try #require(dissect(sig(0x2A50), [0x01] + le(0x0059) + le(0x1234) + le(0x0213)))
        guard case let .object(p)? = d.fields["pnp_id"] else { Issue.record("no pnp_id"); return }
        #expect(p["vendor_id_source"] == .int(1) && p["vendor_id_source_name"] == .string("Bluetooth SIG"))
        #expect(p["vendor_id"] == .int(0x59) && p["vendor_name"] == .string("Nordic Semiconductor ASA"))
        #expect(p["product_id"] == .int(0x1234) && p["product_version"] == .int(0x0213) && p["product_version_text"] == .string("2.1.3"))
        #expect(d.text == "SIG vendor 0x0059 (Nordic Semiconductor ASA) product 0x1234 version 2.1.3")

        let usb = try #require(dissect(sig(0x2A50), [0x02] + le(0x05AC) + le(0x0001) + le(0x0100)))
        guard case let .object(u)? = usb.fields["pnp_id"] else { Issue.record("no pnp_id"); return }
        #expect(u["vendor_name"] == nil && u["vendor_id_source_name"] == .string("USB"))
        #expect(dissect(sig(0x2A50), [0x03] + le(1) + le(1) + le(1))?.problem?.contains("reserved") == true)
        #expect(dissect(sig(0x2A50), [0x01, 0x59, 0x00])?.problem == "3 bytes, expected 7")
    }

    @Test("System ID: 40-bit manufacturer identifier, then the 24-bit OUI, little-endian")
    func systemID() throws {
        let d = try #require(dissect(sig(0x2A23), [0x01, 0x02, 0x03, 0x04, 0x05, 0x13, 0x71, 0xDA]))
        guard case let .object(s)? = d.fields["system_id"] else { Issue.record("no system_id"); return }
        #expect(s["manufacturer_identifier"] == .int(0x05_0403_0201))
        #expect(s["oui"] == .int(0xDA7113) && s["oui_text"] == .string("DA:71:13"))
        #expect(dissect(sig(0x2A23), [1, 2, 3])?.problem == "3 bytes, expected 8")
    }

    @Test("IEEE 11073-20601 Regulatory Certification Data List: items with authorizing body and data")
    func regulatory() throws {
        // count 2, length 12: Continua version 1.0 (body 2, type 1), and an IEEE 11073 item with 2 bytes.
        let item1: [UInt8] = [0x02, 0x01, 0x00, 0x02, 0x01, 0x00]
        let item2: [UInt8] = [0x01, 0x02, 0x00, 0x02, 0xAB, 0xCD]
        let d = try #require(dissect(sig(0x2A2A), [0x00, 0x02, 0x00, 0x0C] + item1 + item2))
        #expect(d.problem == nil)
        guard case let .list(items)? = d.fields["regulatory_certification"], items.count == 2,
              case let .object(a) = items[0], case let .object(b) = items[1] else { Issue.record("items"); return }
        #expect(a["authorizing_body_name"] == .string("Continua") && a["continua_version"] == .string("1.0"))
        #expect(b["authorizing_body"] == .int(1) && b["data"] == .hex([0xAB, 0xCD]))
        #expect(d.text == "Regulatory Certification Data List: 2 items (Continua, IEEE 11073)")
        // The list length must match the bytes, and an item may not run past them.
        #expect(dissect(sig(0x2A2A), [0x00, 0x01, 0x00, 0x09] + item1)?.problem == "list length 9 but 6 bytes follow")
        #expect(dissect(sig(0x2A2A), [0x00, 0x02, 0x00, 0x06] + item1)?.problem?.contains("truncated") == true)
        // The typed value: the header and the items as read; a cut list keeps the items before the damage.
        let list = try #require(d.value as? DeviceInformationDissector.RegulatoryList)
        #expect(list.count == 2 && list.length == 12 && list.complete && list.items.map(\.authorizingBody) == [2, 1])
        #expect(list.items[1].data == [0xAB, 0xCD][...])
        let cut = try #require(dissect(sig(0x2A2A), [0x00, 0x02, 0x00, 0x06] + item1))
        #expect((cut.value as? DeviceInformationDissector.RegulatoryList)?.items.count == 1 && cut.fields["items"] != nil)
        #expect(cut.text == "Regulatory Certification Data List" && cut.fields["regulatory_certification"] == nil)
        #expect(dissect(sig(0x2A2A), [0x00])?.fields["count"] == nil)
    }

    @Test("UDI for Medical Devices: the strings the flags announce, NUL-terminated")
    func udi() throws {
        let v: [UInt8] = [0x05] + Array("(01)123".utf8) + [0] + Array("GS1".utf8) + [0]
        let d = try #require(dissect(sig(0x2BFF), v))
        guard case let .object(u)? = d.fields["udi"] else { Issue.record("no udi"); return }
        #expect(u["label"] == .string("(01)123") && u["issuer"] == .string("GS1") && u["device_identifier"] == nil)
        #expect(d.problem == nil)
        #expect(dissect(sig(0x2BFF), [])?.problem != nil)
        #expect(d.text == "UDI: UDI \"(01)123\", issuer \"GS1\"")
        let typed = try #require(d.value as? DeviceInformationDissector.UDI)
        #expect(typed.flags == 5 && typed.strings.map(\.kind) == [0, 2])
        // A string that is not UTF-8 is named; the FDA flag alone gives no strings.
        #expect(dissect(sig(0x2BFF), [0x02, 0xC3, 0x28, 0x00])?.problem == "device_identifier is not valid UTF-8")
        let fda = try #require(dissect(sig(0x2BFF), [0x10]))
        #expect(fda.text == "UDI: none" && fda.fields["udi"] == .object(["fda_compliant": .bool(true)]))
    }
}
