import Testing
@testable import BLETrace

/// Read Multiple Response split per requested handle (issue #27): by the lengths earlier reads gave, or the
/// characteristic's fixed length; the last value takes the rest.
@Suite struct ReadMultipleTests {
    static func le16(_ v: UInt16) -> [UInt8] { HCIBuilder.le16(v) }

    static func capture() -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        // Discovery and reads (Device Name "Thermo-42" at 0x0003, Battery Level at 0x000E, …), then a new
        // connection to the same sensor.
        Samples.gattSession(s, handle: 0x0040, peer: Samples.thermo, notifications: 0)
        s.connect(handle: 0x0041, peer: Samples.thermo, peerType: 1)
        // Device Name (length known from its read) and Battery Level.
        s.attOut(0x0041, [0x0E] + le16(0x0003) + le16(0x000E))
        s.attIn(0x0041, [0x0F] + Array("Thermo-42".utf8) + [0x50])
        // Battery Level (fixed length) first, then Appearance (the rest).
        s.attOut(0x0041, [0x0E] + le16(0x000E) + le16(0x0005))
        s.attIn(0x0041, [0x0F, 0x4F] + le16(0x0300))
        // A handle of unknown length first: left whole.
        s.attOut(0x0041, [0x0E] + le16(0x001D) + le16(0x000E))
        s.attIn(0x0041, [0x0F, 1, 2, 3, 4])
        return s
    }

    @Test func valuesAreSplitAndDecodedPerHandle() throws {
        let (events, _) = try TestSupport.analyze(Self.capture())
        let responses = events.filter { if case let .att(a) = $0.body, case let .pdu(p) = a.content { return p.opcode == 0x0F } else { return false } }
        #expect(responses.count == 3)
        guard responses.count == 3 else { return }
        #expect(responses[0].summary.hasPrefix("ATT Read Multiple Response: handle 0x0003 Device Name (Generic Access): \"Thermo-42\"; handle 0x000E Battery Level (Battery): 80%"))
        #expect(responses[1].summary.hasPrefix("ATT Read Multiple Response: handle 0x000E Battery Level (Battery): 79%; handle 0x0005 Appearance (Generic Access): "))
        #expect(responses[2].summary.hasPrefix("ATT Read Multiple Response: 01 02 03 04"))
        let values = responses[0].layer("att")?["values"]
        guard case let .list(list)? = values else { Issue.record("no values: \(String(describing: responses[0].layer("att")))"); return }
        #expect(list.count == 2)
        #expect(list.last?.objectValue?["value"] == .hex([0x50]))
        #expect(list.last?.objectValue?["decoded"]?.objectValue?["battery_level"] == .int(80))
        #expect(responses[2].layer("att")?["values"] == nil)
    }
}
