import Testing
@testable import BLETrace

/// Values a server sent before discovery named their handles are decoded once it does: in the `att` summary
/// (text and JSON) and for the summary's consumers (battery history), with their own records (issue #27).
@Suite struct EarlyValuesTests {
    static func capture() -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        let h: UInt16 = 0x0040
        func le16(_ v: UInt16) -> [UInt8] { HCIBuilder.le16(v) }
        s.connect(handle: h, peer: Samples.thermo, peerType: 1)
        // Before discovery: a Service Changed indication, a battery notification, a read of a handle that no
        // discovery names.
        s.attIn(h, [0x1D] + le16(0x000A) + le16(0x0001) + le16(0xFFFF))
        s.attOut(h, [0x1E])
        s.attIn(h, [0x1B] + le16(0x000E) + [0x55])
        s.attOut(h, [0x0A] + le16(0x0030))
        s.attIn(h, [0x0B, 0x01])
        s.attOut(h, [0x10] + le16(0x0001) + le16(0xFFFF) + le16(0x2800))
        s.attIn(h, [0x11, 6] + le16(0x0008) + le16(0x000B) + le16(0x1801) + le16(0x000C) + le16(0x000F) + le16(0x180F))
        s.attOut(h, [0x08] + le16(0x0001) + le16(0xFFFF) + le16(0x2803))
        s.attIn(h, [0x09, 7] + le16(0x0009) + [0x20] + le16(0x000A) + le16(0x2A05) + le16(0x000D) + [0x12] + le16(0x000E) + le16(0x2A19))
        s.advance(ms: 1000)
        s.attIn(h, [0x1B] + le16(0x000E) + [0x54])
        return s
    }

    @Test func earlyValuesAreNamedOnceDiscoveryKnowsTheirHandles() throws {
        let (events, summary) = try TestSupport.analyze(Self.capture())
        // The timeline showed them raw when they came (nothing was known then).
        #expect(events.contains { $0.summary == "ATT Handle Value Notification: handle 0x000E: 55" })
        let text = SummaryRender.text(summary)
        let i = try #require(text.firstIndex(of: "    2 values sent before discovery, named once it was known:"))
        #expect(text[i + 1] == "      record 4 Handle Value Indication handle 0x000A Service Changed (Generic Attribute): services changed in 0x0001–0xFFFF")
        #expect(text[i + 2] == "      record 7 Handle Value Notification handle 0x000E Battery Level (Battery): 85%")
        #expect(text.contains("    C4:7C:8D:6A:11:22: 85% → 84% (min 84%, max 85%, 2 readings)"))
        let att = try #require(summary.sections.first { $0.name == "att" }?.value.objectValue)
        #expect(att["early_values_count"] == .int(2))
        guard case let .list(list)? = att["early_values"] else { Issue.record("no early_values"); return }
        #expect(list.compactMap { $0.objectValue?["record"] } == [.int(4), .int(7)])
        #expect(list.last?.objectValue?["characteristic"] == .string("2A19"))
        #expect(list.last?.objectValue?["decoded"]?.objectValue?["battery_level"] == .int(85))
    }

    /// A value site does not count its dissector state (it lives within one `decodeATT` call); an early value
    /// outlives the call, so it counts the state itself: the state lives as long as the value does.
    @Test func anEarlyValueKeepsItsSitesDissectorState() {
        weak var weakState: DissectorState?
        var kept: [EarlyValue] = []
        do {
            let state = DissectorState()
            weakState = state
            let site = ATTLayer.ValueSite(connection: 1, device: .local, record: 4, time: Timestamp(micros: 0), opcode: 0x1B,
                                          fromClient: false, state: state)
            kept.append(EarlyValue(handle: 0x000E, value: [0x55], site: site))
        }
        #expect(weakState != nil)
        #expect(kept.first?.site.state === weakState)
        kept.removeAll()
        #expect(weakState == nil)
    }

    /// An early value whose connection closed (and whose connection state went back to the spares) before a later
    /// connection to the same server ran discovery is still named and decoded.
    @Test func anEarlyValueIsNamedAfterItsConnectionClosed() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        func le16(_ v: UInt16) -> [UInt8] { HCIBuilder.le16(v) }
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        s.attIn(0x0040, [0x1B] + le16(0x000E) + [0x55])
        s.disconnect(handle: 0x0040)
        // Other connections come and go, so that the first one's state is reused or freed.
        for i in 0..<6 {
            let h = UInt16(0x0041 + i)
            s.connect(handle: h, peer: Samples.watch, peerType: 1)
            s.attIn(h, [0x1B] + le16(0x0020) + [0x01])
            s.disconnect(handle: h)
        }
        s.connect(handle: 0x0050, peer: Samples.thermo, peerType: 1)
        s.attOut(0x0050, [0x10] + le16(0x0001) + le16(0xFFFF) + le16(0x2800))
        s.attIn(0x0050, [0x11, 6] + le16(0x000C) + le16(0x000F) + le16(0x180F))
        s.attOut(0x0050, [0x08] + le16(0x0001) + le16(0xFFFF) + le16(0x2803))
        s.attIn(0x0050, [0x09, 7] + le16(0x000D) + [0x12] + le16(0x000E) + le16(0x2A19))
        let (_, summary) = try TestSupport.analyze(s)
        let att = try #require(summary.sections.first { $0.name == "att" }?.value.objectValue)
        guard case let .list(list)? = att["early_values"] else { Issue.record("no early_values"); return }
        #expect(list.count == 1)
        #expect(list.first?.objectValue?["connection"] == .int(1))
        #expect(list.first?.objectValue?["decoded"]?.objectValue?["battery_level"] == .int(85))
    }

    @Test func aCaptureWithDiscoveryFirstHasNoEarlyValues() throws {
        let (_, summary) = try TestSupport.analyze(Samples.gattSession())
        let att = try #require(summary.sections.first { $0.name == "att" }?.value.objectValue)
        #expect(att["early_values"] == nil)
        #expect(!SummaryRender.text(summary).contains { $0.contains("before discovery") })
    }
}
