import Testing
@testable import BLETrace

/// Values through the ATT layer: where `decoded` goes, what the summary makes of it.
@Suite("Decoded values in events and the summary")
struct ValueDecodingTests {
    @Test("the GATT sample: decoded values in att events, text appended, battery history and identity card")
    func gattSample() throws {
        let (events, summary) = try TestSupport.analyze(Samples.gattSession())
        func decoded(_ key: String) -> [FieldValue] {
            events.compactMap { $0.layer("att")?["decoded"]?.objectValue?[key] }
        }
        #expect(decoded("battery_level") == [.int(90), .int(89), .int(89), .int(88)])
        #expect(decoded("manufacturer_name") == [.string("Acme Sensors")])
        #expect(decoded("model_number") == [.string("TH-1")])
        #expect(decoded("firmware_revision") == [.string("1.4.2")])
        #expect(decoded("device_name") == [.string("Thermo-42")])
        #expect(decoded("category") == [.string("Thermometer")])
        #expect(decoded("pnp_id").first?.objectValue?["vendor_name"] == .string("Nordic Semiconductor ASA"))
        #expect(decoded("notifications") == [.bool(true)])
        #expect(events.contains { $0.summary.hasPrefix("ATT Read Response: handle 0x000E Battery Level (Battery): 90% [request at record") })
        #expect(events.first { $0.layer("att")?["decoded"]?.objectValue?["battery_level"] != nil }?.layer("att")?["decoded"]?.objectValue?["dissector"] == .string("battery"))

        let battery = try #require(summary.sections.first { $0.name == "battery" })
        let dev = battery.value.objectValue?["devices"]
        #expect(dev == .list([.object(["device": .string("C4:7C:8D:6A:11:22"), "first": .int(90), "last": .int(88), "min": .int(88),
                                       "max": .int(90), "count": .int(4), "first_record": .int(61), "last_record": .int(79)])]))
        #expect(battery.text.last == "    C4:7C:8D:6A:11:22: 90% → 88% (min 88%, max 90%, 4 readings)")

        let identity = try #require(summary.sections.first { $0.name == "identity" })
        guard case let .list(cards)? = identity.value.objectValue?["devices"], let card = cards.first?.objectValue else {
            Issue.record("no card"); return
        }
        #expect(card["device_name"] == .string("Thermo-42") && card["manufacturer_name"] == .string("Acme Sensors"))
        #expect(card["model_number"] == .string("TH-1") && card["firmware_revision"] == .string("1.4.2"))
        #expect(card["appearance"]?.objectValue?["category"] == .string("Thermometer"))
        #expect(card["pnp_id"]?.objectValue?["product_id"] == .int(1))
    }

    static func discover(_ h: TraceHarness) {
        h.connect(0x0040, peer: 0xC0FFEE123456)
        h.att([0x10] + le(1) + le(0xFFFF) + le(0x2800), .hostToController)
        h.att([0x11, 0x06] + le(0x10) + le(0x14) + le(0x180F), .controllerToHost)
        h.att([0x08] + le(0x10) + le(0x14) + le(0x2803), .hostToController)
        h.att([0x09, 0x07] + le(0x11) + [0x12] + le(0x12) + le(0x2A19), .controllerToHost)
        h.att([0x04] + le(0x13) + le(0x13), .hostToController)
        h.att([0x05, 0x01] + le(0x13) + le(0x2902), .controllerToHost)
    }

    @Test("invalid values are flagged and shown raw; decoding goes on; they stay out of the history")
    func invalidValues() throws {
        let h = TraceHarness()
        Self.discover(h)
        let bad = h.att([0x1B] + le(0x12) + [0xC8], .controllerToHost)
        let short = h.att([0x12] + le(0x13) + [0x01], .hostToController)
        let good = h.att([0x1B] + le(0x12) + [0x32], .controllerToHost)
        h.finish()
        let b = try #require(h.layer(bad, "att")?["decoded"]?.objectValue)
        #expect(b["battery_level"] == .int(200) && b["problem"] == .string("battery level 200 is above 100%"))
        #expect(h.event(bad)?.malformed == nil)
        #expect(h.event(bad)?.summary.hasSuffix("Battery Level (Battery): 200% [invalid: battery level 200 is above 100%] c8") == true)
        #expect(h.layer(short, "att")?["decoded"]?.objectValue?["problem"] == .string("1 byte, expected 2"))
        #expect(h.layer(good, "att")?["decoded"]?.objectValue?["battery_level"] == .int(50))
        let battery = try #require(h.layers.compactMap { $0 as? BatteryHistoryLayer }.first)
        #expect(battery.histories["C0:FF:EE:12:34:56"]?.count == 1)
    }

    @Test("Read By Type entries decode by the requested type even without discovery; multiple notifications per entry")
    func entries() throws {
        let h = TraceHarness()
        h.connect(0x0040, peer: 0xC0FFEE123456)
        h.att([0x08] + le(1) + le(0xFFFF) + le(0x2A00), .hostToController)
        let rsp = h.att([0x09, 0x07] + le(0x03) + Array("Mouse".utf8), .controllerToHost)
        Self.discover(h)
        let multi = h.att([0x23] + le(0x12) + le(1) + [0x40] + le(0x12) + le(1) + [0x41], .controllerToHost)
        h.finish()
        let e = h.layer(rsp, "att")?["entries"]
        guard case let .list(list)? = e, let first = list.first?.objectValue else { Issue.record("no entries"); return }
        #expect(first["decoded"]?.objectValue?["device_name"] == .string("Mouse"))
        #expect(h.event(rsp)?.summary.contains("\"Mouse\"") == true)
        guard case let .list(m)? = h.layer(multi, "att")?["entries"] else { Issue.record("no entries"); return }
        #expect(m.compactMap { $0.objectValue?["decoded"]?.objectValue?["battery_level"] } == [.int(64), .int(65)])
    }

    @Test("a long value is decoded once, when Read Blob completes it")
    func longValue() throws {
        let h = TraceHarness()
        h.connect(0x0040, peer: 0xC0FFEE123456)
        h.att([0x10] + le(1) + le(0xFFFF) + le(0x2800), .hostToController)
        h.att([0x11, 0x06] + le(0x20) + le(0x22) + le(0x180A), .controllerToHost)
        h.att([0x08] + le(0x20) + le(0x22) + le(0x2803), .hostToController)
        h.att([0x09, 0x07] + le(0x21) + [0x02] + le(0x22) + le(0x2A29), .controllerToHost)
        let name = Array("Very Long Manufacturer Name Inc.".utf8)   // 32 bytes; ATT_MTU 23 → 22 per read
        h.att([0x0A] + le(0x22), .hostToController)
        let part = h.att([0x0B] + Array(name[..<22]), .controllerToHost)
        h.att([0x0C] + le(0x22) + le(22), .hostToController)
        let end = h.att([0x0D] + Array(name[22...]), .controllerToHost)
        h.finish()
        #expect(h.layer(part, "att")?["decoded"]?.objectValue?["manufacturer_name"] == .string("Very Long Manufacturer"))
        #expect(h.layer(end, "att")?["decoded"]?.objectValue?["manufacturer_name"] == .string("Very Long Manufacturer Name Inc."))
        #expect(h.event(end)?.summary.contains("→ \"Very Long Manufacturer Name Inc.\"") == true)
    }
}
