import Testing
@testable import BLETrace

@Suite("Battery Service values")
struct BatteryTests {
    @Test("Battery Level: percent, with 101 and wrong lengths flagged and shown raw")
    func level() throws {
        let d = try #require(dissect(sig(0x2A19), [0x5A]))
        #expect(d.dissector == "battery" && d.fields["battery_level"] == .int(90) && d.text == "90%" && d.problem == nil)
        #expect(d.fact == .battery(BatteryReading(percent: 90)))
        #expect(dissect(sig(0x2A19), [0x00])?.text == "0%")
        #expect(dissect(sig(0x2A19), [100])?.problem == nil)

        let high = try #require(dissect(sig(0x2A19), [101]))
        #expect(high.fields["battery_level"] == .int(101))
        #expect(high.problem == "battery level 101 is above 100%")
        #expect(high.fact == nil)
        #expect(high.summaryText(raw: [101]) == "101% [invalid: battery level 101 is above 100%] 65")
        #expect(high.jsonFields["problem"] == .string("battery level 101 is above 100%"))

        #expect(dissect(sig(0x2A19), [])?.problem == "0 bytes, expected 1")
        #expect(dissect(sig(0x2A19), [50, 1])?.problem == "2 bytes, expected 1")
    }

    @Test("Battery Level Status: power state bits, then identifier, level and additional status as flagged")
    func levelStatus() throws {
        // flags: identifier + level + additional status; power state: present, wired yes, charging, level good,
        // charging type constant current.
        let power: UInt16 = 0x0001 | 1 << 1 | 1 << 5 | 1 << 7 | 1 << 9
        let d = try #require(dissect(sig(0x2BED), [0x07] + le(power) + le(0x0102) + [77, 0x05]))
        #expect(d.problem == nil)
        #expect(d.fields["battery_present"] == .bool(true))
        #expect(d.fields["wired_external_power"] == .string("yes"))
        #expect(d.fields["wireless_external_power"] == .string("no"))
        #expect(d.fields["charge_state"] == .string("charging"))
        #expect(d.fields["charge_level"] == .string("good"))
        #expect(d.fields["charging_type"] == .string("constant current"))
        #expect(d.fields["identifier"] == .int(0x0102))
        #expect(d.fields["battery_level"] == .int(77))
        #expect(d.fields["service_required"] == .string("yes"))
        #expect(d.fields["battery_fault"] == .bool(true))
        #expect(d.text == "77%, battery present, charging, level good, wired power, service required, battery fault")
        #expect(d.fact == .battery(BatteryReading(percent: 77)))

        // Flags promise a level the value lacks.
        let short = try #require(dissect(sig(0x2BED), [0x02] + le(0x0001)))
        #expect(short.problem?.contains("truncated") == true)
        #expect(short.fact == nil && short.text == "battery present")
        let high = try #require(dissect(sig(0x2BED), [0x06, 0x01, 0x00, 150, 0x01]))
        #expect(high.problem == "battery level 150 is above 100%" && high.fact == nil)
        #expect(high.fields["battery_level"] == .int(150) && high.fields["service_required"] == nil)

        // The typed value holds the raw fields; a byte left over keeps the level for the battery history.
        let typed = try #require(d.value as? BatteryDissector.LevelStatus)
        #expect(typed.flags == 0x07 && typed.powerState == power && typed.identifier == 0x0102)
        #expect(typed.level == 77 && typed.additionalStatus == 0x05 && typed.complete)
        let extra = try #require(dissect(sig(0x2BED), [0x02, 0x01, 0x00, 40, 0xFF]))
        #expect(extra.problem != nil && extra.fact == .battery(BatteryReading(percent: 40)))
    }

    @Test("Battery Critical Status flags")
    func critical() {
        #expect(dissect(sig(0x2BE9), [0x03])?.text == "critical power state, immediate service required")
        #expect(dissect(sig(0x2BE9), [0x00])?.text == "not critical")
        #expect(dissect(sig(0x2BE9), [0x01])?.fields["critical_power_state"] == .bool(true))
        #expect(dissect(sig(0x2BE9), [])?.problem != nil)
    }
}
