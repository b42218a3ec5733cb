import Testing
@testable import BLETrace

@Suite("Heart rate, cycling speed and cadence, cycling power")
struct FitnessTests {
    @Test("Heart Rate Measurement: 8- and 16-bit rates, contact, energy, RR intervals")
    func heartRate() throws {
        let a = try #require(dissect(sig(0x2A37), [0x06, 72], opcode: 0x1B))
        #expect(a.fields["heart_rate_bpm"] == .int(72) && a.fields["sensor_contact"] == .bool(true) && a.text == "72 bpm")
        // 16-bit rate, contact supported but not detected, energy 300 kJ, two RR intervals (1024 = 1000 ms, 512 = 500 ms).
        let b = try #require(dissect(sig(0x2A37), [0x1D] + le(130) + le(300) + le(1024) + le(512), opcode: 0x1B))
        #expect(b.fields["heart_rate_bpm"] == .int(130) && b.fields["sensor_contact"] == .bool(false))
        #expect(b.fields["energy_expended_kj"] == .int(300) && b.fields["rr_intervals"] == .list([.int(1024), .int(512)]))
        #expect(b.text == "130 bpm, no skin contact, 300 kJ, RR 1000, 500 ms")
        #expect(b.problem == nil)
        #expect(dissect(sig(0x2A37), [0x01, 72])?.problem?.contains("truncated") == true)
        // The typed value: what the bytes said, as numbers; an odd trailing byte is left out of the RR list.
        let typed = try #require(HeartRateDissector.measurement(([0x1D] + le(130) + le(300) + le(1024) + le(512) + [7])[...])
            .value as? HeartRateDissector.Measurement)
        #expect(typed.bpm == 130 && typed.energyExpended == 300 && typed.sensorContact == false)
        #expect(typed.intervals == [1024, 512])
        #expect(HeartRateDissector.measurement(([0x1D] + le(130) + le(300) + le(1024) + [7])[...]).problem != nil)
        // A value that ends inside the energy field keeps what came before it.
        let cut = HeartRateDissector.measurement([0x08, 60, 0x01][...])
        let cutValue = try #require(cut.value as? HeartRateDissector.Measurement)
        #expect(cutValue.bpm == 60 && cutValue.energyExpended == nil && cut.text == "60 bpm" && cut.problem != nil)
        #expect(cut.fields["energy_expended_kj"] == nil && cut.fields["heart_rate_bpm"] == .int(60))
        #expect(dissect(sig(0x2A38), [1])?.fields["location"] == .string("Chest"))
        #expect(dissect(sig(0x2A38), [9])?.problem == "location 9 is reserved")
    }

    @Test("CSC Measurement: speed and cadence derived from two notifications, wrapping event times")
    func csc() throws {
        let state = DissectorState()
        func m(_ wheel: UInt32, _ wt: UInt16, _ crank: UInt16, _ ct: UInt16) -> [UInt8] {
            [0x03, UInt8(wheel & 0xFF), UInt8(wheel >> 8 & 0xFF), UInt8(wheel >> 16 & 0xFF), UInt8(wheel >> 24)] + le(wt) + le(crank) + le(ct)
        }
        let first = try #require(dissect(sig(0x2A5B), m(100, 1024, 50, 1024), opcode: 0x1B, state: state))
        #expect(first.fields["wheel_revolutions"] == .int(100) && first.fields["speed_kmh"] == nil)
        #expect(first.text == "wheel 100 rev, crank 50 rev")
        // One second later: 4 wheel revolutions (240 rpm × 2.096 m = 30.2 km/h), 1.5 crank revolutions… use 2 → 120 rpm.
        let second = try #require(dissect(sig(0x2A5B), m(104, 2048, 52, 2048), opcode: 0x1B, state: state))
        #expect(second.fields["wheel_rpm"] == .double(240) && second.fields["speed_kmh"] == .double(30.2))
        #expect(second.fields["cadence_rpm"] == .double(120))
        #expect(second.text == "wheel 104 rev, 30.2 km/h, crank 52 rev, 120.0 rpm")
        // The typed value: the counters as read, the derived figures in tenths.
        let reading = try #require(second.value as? CyclingSpeedCadenceDissector.Reading)
        #expect(reading.measurement == .init(wheelRevolutions: 104, wheelEventTime: 2048, crankRevolutions: 52, crankEventTime: 2048))
        #expect(reading.wheelRPMTenths == 2400 && reading.speedTenthsKmh == 302 && reading.cadenceTenthsRPM == 1200)
        #expect(dissect(sig(0x2A5B), [0x00], opcode: 0x1B)?.text == "no data")
        #expect((dissect(sig(0x2A5C), le(0x0004))?.value as? CyclingSpeedCadenceDissector.Features)?.bits == 4)
        #expect(dissect(sig(0x2A5D), [0x20])?.text == "sensor location reserved (32)")
        // The event time wraps at 65536/1024 s: 0xFE00 → 0x0200 is 1024 ticks.
        let s2 = DissectorState()
        _ = dissect(sig(0x2A5B), [0x02] + le(10) + le(0xFE00), opcode: 0x1B, state: s2)
        #expect(dissect(sig(0x2A5B), [0x02] + le(11) + le(0x0200), opcode: 0x1B, state: s2)?.fields["cadence_rpm"] == .double(60))
        #expect(dissect(sig(0x2A5B), [0x01, 0x01], opcode: 0x1B)?.problem?.contains("truncated") == true)
        #expect(dissect(sig(0x2A5C), le(0x0003))?.text == "wheel revolution data, crank revolution data")
        #expect(dissect(sig(0x2A5D), [5])?.fields["location"] == .string("Left crank"))
    }

    @Test("Cycling Power Measurement: power, balance, torque, crank data and energy in flag order")
    func power() throws {
        // flags: balance (bit 0, reference left bit 1), accumulated torque (bit 2), crank data (bit 5), energy (bit 11).
        let flags: UInt16 = 0x0001 | 0x0002 | 0x0004 | 0x0020 | 0x0800
        let v = le(flags) + le(250) + [101] + le(64) + le(300) + le(2048) + le(12)
        let d = try #require(dissect(sig(0x2A63), v, opcode: 0x1B))
        #expect(d.problem == nil)
        #expect(d.fields["power_w"] == .int(250) && d.fields["pedal_power_balance_percent"] == .double(50.5))
        #expect(d.fields["balance_reference"] == .string("left") && d.fields["accumulated_torque_nm"] == .double(2))
        #expect(d.fields["crank_revolutions"] == .int(300) && d.fields["accumulated_energy_kj"] == .int(12))
        #expect(d.text == "250 W, balance 50.5%, crank 300 rev, 12 kJ")
        // Negative power is allowed (sint16); a flag promising missing data is flagged.
        #expect(dissect(sig(0x2A63), le(0) + le(0xFFF6))?.fields["power_w"] == .int(-10))
        #expect(dissect(sig(0x2A63), le(0x0020) + le(100))?.problem?.contains("truncated") == true)
        #expect(dissect(sig(0x2A65), [0x0C, 0x00, 0x00, 0x00])?.text == "wheel revolution data, crank revolution data")
        // The typed values: the measurement's fields as read in flag order, the feature bits as a number.
        let m = try #require(CyclingPowerDissector.measurement(v[...]).value as? CyclingPowerDissector.Measurement)
        #expect(m.fields == [.flags(flags), .power(250), .balance(halfPercent: 101, left: true),
                             .torque(thirtySecondNm: 64, crank: false), .crankRevolutions(300), .crankEventTime(2048), .energy(12)])
        // A value cut inside the crank data keeps the fields before it; bytes left over are named.
        let cut = CyclingPowerDissector.measurement((le(0x0020) + le(100) + le(7))[...])
        #expect((cut.value as? CyclingPowerDissector.Measurement)?.fields == [.flags(0x0020), .power(100), .crankRevolutions(7)])
        #expect(cut.text == "100 W, crank 7 rev" && cut.problem != nil)
        #expect(CyclingPowerDissector.measurement((le(0) + le(5) + [1, 2])[...]).problem == "2 unexpected bytes after the value")
        let features = try #require(dissect(sig(0x2A65), [0x0C, 0x00, 0x08, 0x00])?.value as? CyclingPowerDissector.Features)
        #expect(features.bits == 0x0008_000C)
        #expect(dissect(sig(0x2A65), [0, 0, 0, 0])?.text == "no features")
    }
}
