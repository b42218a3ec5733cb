import Testing
@testable import BLETrace

@Suite struct PipelineTests {
    @Test func kindIndexMatchesAllCases() {
        for (i, k) in EventKind.allCases.enumerated() { #expect(k.index == i, "\(k)") }
    }

    @Test("the JSON writer's static kind and direction names are the typed values' names")
    func staticNamesMatch() {
        for k in EventKind.allCases { #expect(k.jsonName.description == k.rawValue) }
        for d in [Direction.hostToController, .controllerToHost, .unknown] {
            let e = TraceEvent(record: 1, timestamp: Timestamp(micros: 0), direction: d, body: .empty)
            #expect(EventJSON.directionName(e, linkLayerAdvertising: nil).description == d.jsonName)
            #expect(EventJSON.direction(e) == d.jsonName)
        }
    }

    @Test func oneEventPerRecordAndCountsByKind() throws {
        let (events, summary) = try TestSupport.analyze(Samples.gattSession())
        #expect(events.map(\.record) == Array(1...Samples.gattSession().writer.count))
        #expect(summary.stats.kinds.values.reduce(0, +) == events.count)
        #expect(summary.stats.kinds["hci_command"] == events.filter { $0.kind == .hciCommand }.count)
    }
}

@Suite struct SummaryTextTests {
    @Test("a listed connection's peer is named by what it advertised; a device that only advertised is not asked for")
    func listedPeersAreNamed() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        let peer = BDAddr(0xC4_7C_8D_6A_00_01), other = BDAddr(0xC4_7C_8D_6A_00_02)
        let name: [UInt8] = [0x07, 0x09] + Array("Sensor".utf8)
        s.advert(addressType: 0, address: peer, data: name, rssi: -40)
        s.advert(addressType: 0, address: other, data: [0x06, 0x09] + Array("Other".utf8), rssi: -50)
        s.connect(handle: 0x40, peer: peer, peerType: 0)
        let (_, summary) = try TestSupport.analyze(s)
        let text = SummaryRender.text(summary)
        #expect(text.contains { $0.hasPrefix("    #1 handle 0x0040 \(peer)") && $0.contains("\"Sensor\"") })
        #expect(summary.peerNames([peer]) == [peer.description: "Sensor"])
        #expect(summary.peerNames(nil) == [peer.description: "Sensor", other.description: "Other"])
    }

    @Test func longConnectionListsAreCutInTextOnly() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        for i in 0..<60 {
            s.connect(handle: 0x40, peer: BDAddr(0xC4_7C_8D_6A_00_00 | UInt64(i)), peerType: 1)
            s.disconnect(handle: 0x40, reason: 0x13, byHost: false)
        }
        let (_, summary) = try TestSupport.analyze(s)
        let text = SummaryRender.text(summary)
        #expect(text.filter { $0.hasPrefix("    #") }.count == 50)
        #expect(text.contains("    … and 10 more (all of them are in the JSON summary)"))
        guard case let .list(all)? = SummaryRender.summaryFields(summary)["connections"] else { Issue.record("no list"); return }
        #expect(all.count == 60)
    }
}

@Suite("Typed notes")
struct NoteBodyTests {
    static func note(_ data: [UInt8], sourceType: UInt16, origin: Record.Origin, controller: UInt16 = 0) -> TraceEvent? {
        var out: [TraceEvent] = []
        let p = Pipeline { out.append($0) }
        p.process(Record(number: 1, timestamp: Timestamp(micros: 0), direction: .unknown, kind: .note, data: data[...],
                         controller: controller, sourceType: sourceType, origin: origin))
        _ = p.finish()
        return out.first
    }

    @Test("btmon index events and PacketLogger notes are typed bodies; text and fields are made from them")
    func notes() {
        let name = Array("hci-test".utf8)
        let ni = Self.note([0x00, 0x01, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11] + name, sourceType: 0, origin: .linuxMonitor, controller: 2)
        guard case let .note(n)? = ni?.body, case .newIndex(type: 0, bus: 1, let address, let raw) = n.content else { Issue.record("new index"); return }
        #expect(address.description == "11:22:33:44:55:66" && Array(raw) == name && n.controller == 2 && n.label == "New Index")
        #expect(ni?.summary == "New Index: hci2 hci-test 11:22:33:44:55:66 (type 0, bus 1)")

        let text = Self.note(Array("line one\nline two".utf8) + [0, 0x41], sourceType: 0xFB, origin: .packetLogger)
        guard case let .note(t)? = text?.body, case let .text(bytes) = t.content else { Issue.record("text"); return }
        #expect(String(decoding: bytes, as: UTF8.self) == "line one\nline two")
        #expect(text?.summary.hasSuffix(": line one line two") == true)
        #expect(text?.layer("note")?["text"] == .string("line one\nline two"))

        let data = Self.note([0x01, 0x02], sourceType: 0xFB, origin: .packetLogger)
        guard case let .note(d)? = data?.body, case let .data(bytes) = d.content else { Issue.record("data"); return }
        #expect(Array(bytes) == [0x01, 0x02])
        #expect(data?.summary.hasSuffix(", 2 bytes: 01 02") == true)
        #expect(data?.layer("note")?["data"] == .hex([0x01, 0x02]))
    }
}
