import Testing
@testable import BLETrace

@Suite("Typed decoded values")
struct TypedValueTests {
    @Test("dissectors return typed values, and their JSON is the same through either field sink")
    func typedValues() throws {
        let battery = try #require(dissect(sig(0x2A19), [0x5A]))
        #expect(battery.value as? BatteryReading == BatteryReading(percent: 90))

        let name = try #require(dissect(sig(0x2A00), Array("Thermo-42".utf8)))
        let s = try #require(name.value as? StringValue)
        #expect(s.key == "device_name" && s.value == "Thermo-42" && s.identity)
        #expect(name.fact == .identity(.string(key: "device_name", value: "Thermo-42")))

        let appearance = try #require(dissect(sig(0x2A01), [0xC1, 0x03]))
        #expect(appearance.value as? GAPDissector.Appearance == GAPDissector.Appearance(value: 0x03C1))
        #expect(appearance.fact == .identity(.appearance(0x03C1)))

        let pnp = try #require(dissect(sig(0x2A50), [0x01, 0x0D, 0x00, 0x34, 0x12, 0x00, 0x01]))
        #expect(pnp.value as? PnPID == PnPID(vendorIDSource: 1, vendorID: 0x000D, productID: 0x1234, productVersion: 0x0100))

        let changed = try #require(dissect(sig(0x2A05), [0x01, 0x00, 0xFF, 0xFF]))
        #expect(changed.value as? GATTServiceDissector.ServiceChanged == GATTServiceDissector.ServiceChanged(start: 1, end: 0xFFFF))

        let features = try #require(dissect(sig(0x2B29), [0x05]))
        #expect((features.value as? GATTServiceDissector.Features)?.set == ["robust caching", "multiple handle value notifications"])

        for d in [battery, name, appearance, pnp, changed, features] {
            var bytes = JSONBytes()
            bytes.beginObject()
            d.writeJSON(into: &bytes)
            bytes.endObject()
            #expect(String(decoding: bytes.bytes, as: UTF8.self) == JSONOut.text(.object(d.jsonFields)))
        }
    }

    @Test("a CCCD value carries the subscription it sets, and names the characteristic it configures")
    func cccd() throws {
        let d = DescriptorDissector().dissect([0x01, 0x00][...], ValueContext(uuid: BLEUUID(UInt16(0x2902)),
                                                                             characteristic: BLEUUID(UInt16(0x2A19)),
                                                                             isDescriptor: true, opcode: 0x12, fromClient: true))
        #expect(d.text == "notifications on, indications off")
        #expect((d.value as? DescribedValue)?.inner is DescriptorDissector.CCCDValue && d.fact == nil)
        #expect(((d.value as? DescribedValue)?.inner as? DescriptorDissector.CCCDValue)?.subscription
                == DescriptorDissector.Subscription(characteristic: BLEUUID(UInt16(0x2A19)), notifications: true, indications: false))
        #expect(d.fields["characteristic"] == .string("2A19"))
        #expect(d.fields["characteristic_name"] == .string("Battery Level"))
    }

    @Test("an invalid typed value gives the summary layers no payload")
    func invalid() throws {
        let d = try #require(dissect(sig(0x2A19), [150]))
        #expect(d.problem != nil && d.fact == nil)
        #expect(d.value as? BatteryReading == BatteryReading(percent: 150))
    }
}
