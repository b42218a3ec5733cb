import Testing
@testable import BLETrace

@Suite("ANCS: notifications, control point, data source reassembly, errors, joined view")
struct ANCSTests {
    static let slackhappy = Array("slackhappy".utf8)

    static func ancs(_ d: Dissection?) -> Fields? { d?.fields["ancs"]?.objectValue }

    @Test("the UUIDs written as halves are Apple's, as text spells them")
    func uuidsAsText() {
        #expect(ANCS.service == BLEUUID(string: "7905F431-B5CE-4E99-A40F-4B1E122D00D0"))
        #expect(ANCS.notificationSource == BLEUUID(string: "9FBF120D-6301-42D9-8C58-25E699A21DBD"))
        #expect(ANCS.controlPoint == BLEUUID(string: "69D1D8F3-45E1-49A8-9821-9BBDFDAAD9D9"))
        #expect(ANCS.dataSource == BLEUUID(string: "22EAC6E9-24D6-4BB5-BE44-B36ACE7C7BFB"))
    }

    @Test("the write-up's exchange: notification 00 02 01 01 15 00 00 00, Title request and its answer")
    func embeddedExchange() throws {
        let state = DissectorState()
        let n = try #require(Self.ancs(dissect(ANCS.notificationSource, [0x00, 0x02, 0x01, 0x01, 0x15, 0x00, 0x00, 0x00],
                                               opcode: 0x1B, state: state)))
        #expect(n["event"] == .string("added") && n["flag_names"] == .list([.string("important")]))
        #expect(n["category"] == .string("Incoming Call") && n["category_count"] == .int(1) && n["uid"] == .int(0x15))

        let cp = try #require(dissect(ANCS.controlPoint, [0x00, 0x15, 0x00, 0x00, 0x00, 0x01, 0x0B, 0x00], fromClient: true, state: state))
        #expect(cp.text == "Get Notification Attributes UID 21: Title (max 11)")
        let req = try #require(Self.ancs(cp))
        #expect(req["command"] == .string("Get Notification Attributes") && req["uid"] == .int(21))
        #expect(req["attributes"] == .list([.object(["id": .int(1), "name": .string("Title"), "max_length": .int(11)])]))

        let rsp = try #require(dissect(ANCS.dataSource, [0x00, 0x15, 0x00, 0x00, 0x00, 0x01, 0x0A, 0x00] + Self.slackhappy,
                                       opcode: 0x1B, state: state))
        #expect(rsp.problem == nil)
        #expect(rsp.text == "Notification Attributes UID 21: Title \"slackhappy\"")
        #expect(Self.ancs(rsp)?["attributes"] == .object(["title": .string("slackhappy")]))
        #expect(rsp.fact == .ancs(.response(ANCS.Response(commandID: 0, uid: 21, appIdentifier: nil,
                                                                     attributes: [ANCS.Attribute(id: 1, value: "slackhappy")]))))
    }

    @Test("every event, flag and category; a short notification is invalid")
    func notificationSource() throws {
        let n = try ANCS.Notification.parse([0x02, 0x1F, 0x0B, 0x00, 0x78, 0x56, 0x34, 0x12])
        #expect(n.uid == 0x1234_5678 && ANCS.eventName(n.eventID) == "removed" && ANCS.categoryName(n.categoryID) == "Entertainment")
        #expect(ANCS.flagList(n.flags) == ["silent", "important", "pre-existing", "positive action", "negative action"])
        #expect(ANCS.categoryName(12) == "reserved (12)" && ANCS.eventName(1) == "modified")
        #expect(dissect(ANCS.notificationSource, [0x00, 0x02, 0x01])?.problem?.contains("truncated") == true)
        #expect(dissect(ANCS.notificationSource, [0x00, 0x02, 0x01, 0x01, 0x15, 0x00, 0x00, 0x00, 0x99])?.problem != nil)
    }

    /// The timeline line a value writes into the renderer's buffer is its text, byte for byte, with and without
    /// flags, and for a part of a response whose request is not a Get … Attributes one.
    @Test("notification and fragment lines written as bytes")
    func linesWrittenAsBytes() throws {
        let flagged = ANCSValue.notification(try ANCS.Notification.parse([0x02, 0x1F, 0x0B, 0x00, 0x78, 0x56, 0x34, 0x12]))
        let plain = ANCSValue.notification(try ANCS.Notification.parse([0x00, 0x00, 0x01, 0x03, 0x15, 0x00, 0x00, 0x00]))
        let parts = ANCSValue.fragment(part: 2, have: 30, request: .performNotificationAction(uid: 7, action: 1))
        let app = ANCSValue.fragment(part: 1, have: 5, request: .getAppAttributes(appIdentifier: "com.example", attributes: []))
        let expected = [
            (flagged, "removed UID 305419896: Entertainment [silent, important, pre-existing, positive action, negative action], 0 in category"),
            (plain, "added UID 21: Incoming Call, 3 in category"),
            (parts, "response: part 2, 30 bytes so far"),
            (app, "App Attributes com.example: part 1, 5 bytes so far"),
        ]
        for (value, line) in expected {
            var b = TextBytes(Array("ATT ".utf8))
            value.writeText(into: &b)
            #expect(b.string == "ATT " + line)
            #expect(value.text == line)
        }
        var battery = TextBytes()
        BatteryReading(percent: 87).writeText(into: &battery)
        #expect(battery.array == Array("87%".utf8))
    }

    @Test("Apple's example: Get App Attributes for an app identifier and its Display Name answer")
    func appAttributes() throws {
        let state = DissectorState()
        let app = Array("com.apple.mobilemail".utf8)
        let cp = try #require(dissect(ANCS.controlPoint, [0x01] + app + [0x00, 0x00], fromClient: true, state: state))
        #expect(cp.text == "Get App Attributes com.apple.mobilemail: Display Name")
        let rsp = try #require(dissect(ANCS.dataSource, [0x01] + app + [0x00, 0x00, 0x04, 0x00] + Array("Mail".utf8), opcode: 0x1B, state: state))
        #expect(rsp.problem == nil && rsp.text == "App Attributes com.apple.mobilemail: Display Name \"Mail\"")
        #expect(Self.ancs(rsp)?["attributes"] == .object(["display_name": .string("Mail")]))
    }

    @Test("Perform Notification Action, and malformed commands")
    func commands() throws {
        #expect(try ANCS.Command.parse([0x02, 0x16, 0x00, 0x00, 0x00, 0x01]) == .performNotificationAction(uid: 0x16, action: 1))
        #expect(dissect(ANCS.controlPoint, [0x02, 0x16, 0x00, 0x00, 0x00, 0x00], fromClient: true)?.text == "Perform positive action on UID 22")
        // Title without its maximum length; no attributes at all; an unknown command.
        #expect(dissect(ANCS.controlPoint, [0x00, 0x15, 0x00, 0x00, 0x00, 0x01], fromClient: true)?.problem?.contains("truncated") == true)
        #expect(dissect(ANCS.controlPoint, [0x00, 0x15, 0x00, 0x00, 0x00], fromClient: true)?.problem?.contains("no attributes") == true)
        #expect(dissect(ANCS.controlPoint, [0x07], fromClient: true)?.problem?.contains("unknown command ID 7") == true)
    }

    /// The response of the bundled sample: app identifier, title, message and date.
    static func fourAttributeResponse() -> [UInt8] {
        func attr(_ id: UInt8, _ s: String) -> [UInt8] { [id] + le(UInt16(s.utf8.count)) + Array(s.utf8) }
        return [0x00, 0x15, 0x00, 0x00, 0x00] + attr(0, "com.apple.mobilephone") + attr(1, "John Smith") + attr(3, "Incoming Call")
            + attr(5, "20261122T101500")
    }

    @Test("a response split over notifications is reassembled against the request, at any split point")
    func splitResponses() throws {
        let request: [UInt8] = [0x00, 0x15, 0x00, 0x00, 0x00, 0x00, 0x01, 0x20, 0x00, 0x03, 0x40, 0x00, 0x05]
        let whole = Self.fourAttributeResponse()
        for cut in [1, 3, 5, 6, 7, 8, 20, 40, whole.count - 1] {
            let state = DissectorState()
            _ = dissect(ANCS.controlPoint, request, fromClient: true, state: state)
            let first = try #require(dissect(ANCS.dataSource, Array(whole[..<cut]), opcode: 0x1B, state: state))
            #expect(first.problem == nil, "cut \(cut)")
            #expect(Self.ancs(first)?["fragment"] == .int(1), "cut \(cut)")
            #expect(first.fact == nil)
            let second = try #require(dissect(ANCS.dataSource, Array(whole[cut...]), opcode: 0x1B, state: state))
            #expect(second.problem == nil, "cut \(cut)")
            let f = try #require(Self.ancs(second))
            #expect(f["reassembled"] == .bool(true) && f["parts"] == .int(2) && f["length"] == .int(whole.count))
            #expect(f["attributes"] == .object(["app_identifier": .string("com.apple.mobilephone"), "title": .string("John Smith"),
                                                "message": .string("Incoming Call"), "date": .string("20261122T101500")]), "cut \(cut)")
        }
        // Three parts.
        let state = DissectorState()
        _ = dissect(ANCS.controlPoint, request, fromClient: true, state: state)
        _ = dissect(ANCS.dataSource, Array(whole[..<10]), opcode: 0x1B, state: state)
        let mid = try #require(dissect(ANCS.dataSource, Array(whole[10..<30]), opcode: 0x1B, state: state))
        #expect(Self.ancs(mid)?["fragment"] == .int(2) && Self.ancs(mid)?["have"] == .int(30))
        let last = try #require(dissect(ANCS.dataSource, Array(whole[30...]), opcode: 0x1B, state: state))
        #expect(Self.ancs(last)?["parts"] == .int(3) && last.text.hasSuffix("(reassembled from 3 notifications)"))
        // The typed values: the middle part knows the request it answers; the last holds the response as parsed.
        let asked = try ANCS.Command.parse(request[...])
        #expect(mid.value as? ANCSValue == .fragment(part: 2, have: 30, request: asked))
        #expect(mid.text == "Notification Attributes UID 21: part 2, 30 bytes so far")
        guard case let .response(r, parts, length)? = last.value as? ANCSValue else { Issue.record("no response"); return }
        #expect(parts == 3 && length == whole.count && r.uid == 21)
        #expect(r.attributes.map(\.id) == [0, 1, 3, 5] && r.attributes[1].value == "John Smith")
    }

    @Test("responses that do not fit the request are flagged, and the next exchange still decodes")
    func mismatches() throws {
        let state = DissectorState()
        _ = dissect(ANCS.controlPoint, [0x00, 0x15, 0x00, 0x00, 0x00, 0x01, 0x04, 0x00], fromClient: true, state: state)
        // Title longer than the 4 bytes asked for.
        let long = try #require(dissect(ANCS.dataSource, [0x00, 0x15, 0x00, 0x00, 0x00, 0x01, 0x0A, 0x00] + Self.slackhappy,
                                        opcode: 0x1B, state: state))
        #expect(long.problem == "Title is 10 bytes, longer than the 4 requested")
        // Wrong UID.
        _ = dissect(ANCS.controlPoint, [0x00, 0x15, 0x00, 0x00, 0x00, 0x01, 0x20, 0x00], fromClient: true, state: state)
        let wrong = try #require(dissect(ANCS.dataSource, [0x00, 0x16, 0x00, 0x00, 0x00, 0x01, 0x01, 0x00, 0x41], opcode: 0x1B, state: state))
        #expect(wrong.problem == "answers UID 22, but the request asked for UID 21")
        // An attribute not requested.
        _ = dissect(ANCS.controlPoint, [0x00, 0x15, 0x00, 0x00, 0x00, 0x01, 0x20, 0x00], fromClient: true, state: state)
        #expect(dissect(ANCS.dataSource, [0x00, 0x15, 0x00, 0x00, 0x00, 0x03, 0x01, 0x00, 0x41], opcode: 0x1B, state: state)?.problem
            == "Message was not requested")
        // Without any request (the capture began later), attributes run to the end of the value.
        let free = try #require(dissect(ANCS.dataSource, [0x00, 0x15, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x48, 0x69, 0x05, 0x00, 0x00],
                                        opcode: 0x1B, state: DissectorState()))
        #expect(free.problem == nil && Self.ancs(free)?["attributes"] == .object(["title": .string("Hi"), "date": .string("")]))
        #expect(dissect(ANCS.dataSource, [0x00, 0x15, 0x00, 0x00, 0x00, 0x01, 0x09, 0x00, 0x48], opcode: 0x1B)?.problem
            == "Title claims 9 bytes, 1 left")
        // Bad UTF-8 in an attribute is flagged, the rest kept.
        let state2 = DissectorState()
        _ = dissect(ANCS.controlPoint, [0x00, 0x15, 0x00, 0x00, 0x00, 0x01, 0x20, 0x00], fromClient: true, state: state2)
        #expect(dissect(ANCS.dataSource, [0x00, 0x15, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0xC3, 0x28], opcode: 0x1B, state: state2)?.problem
            == "Title is not valid UTF-8")
    }

    @Test("ANCS error codes 0xA0–0xA3 on the Control Point name the failed command and end the pending request")
    func errors() throws {
        let state = DissectorState()
        _ = dissect(ANCS.controlPoint, [0x00, 0x99, 0x00, 0x00, 0x00, 0x01, 0x20, 0x00], fromClient: true, state: state)
        let ctx = ValueContext(uuid: ANCS.controlPoint, opcode: 0x01, fromClient: false, state: state)
        let e = try #require(DissectorRegistry.standard.dissectError(0xA2, ctx))
        #expect(e.text == "ANCS error 0xA2 Invalid parameter (Get Notification Attributes UID 153: Title (max 32))")
        #expect(Self.ancs(e)?["error_name"] == .string("Invalid parameter"))
        #expect(e.value as? ANCSValue == .error(code: 0xA2, command: .getNotificationAttributes(uid: 0x99, attributes: [.init(id: 1, maxLength: 32)])))
        #expect(state.get(ANCSSession.self) { ANCSSession() }.request == nil)
        #expect(ANCS.errorName(0xA0) == "Unknown command" && ANCS.errorName(0xA1) == "Invalid command" && ANCS.errorName(0xA3) == "Action failed")
        #expect(DissectorRegistry.standard.dissectError(0x80, ctx) == nil)
        let battery = ValueContext(uuid: sig(0x2A19), opcode: 0x01, fromClient: false)
        #expect(DissectorRegistry.standard.dissectError(0xA2, battery) == nil)
    }

    @Test("the bundled iPhone sample: every ANCS value decodes, the split answer joins, the view has each UID's life")
    func sample() throws {
        let (events, summary) = try TestSupport.analyze(Samples.ancsSession())
        var decoded: [Fields] = []
        for e in events {
            guard let d = e.layer("att")?["decoded"]?.objectValue else { continue }
            #expect(d["problem"] == nil, "record \(e.record): \(d)")
            decoded.append(d)
        }
        #expect(decoded.filter { $0["dissector"] == .string("ancs") }.count == 13)
        let joined = events.first { $0.layer("att")?["decoded"]?.objectValue?["ancs"]?.objectValue?["reassembled"] == .bool(true) }
        #expect(joined?.summary.contains("Message \"Incoming Call\"") == true)
        let err = events.first { $0.layer("att")?["opcode"] == .int(1) && $0.layer("att")?["error"] == .int(0xA2) }
        #expect(err?.summary.contains("ANCS error 0xA2 Invalid parameter") == true)

        let section = try #require(summary.sections.first { $0.name == "ancs" })
        guard case let .object(f) = section.value, case let .list(list)? = f["notifications"] else { Issue.record("no list"); return }
        let recs = list.compactMap { $0.objectValue }
        #expect(recs.map { $0["uid"] } == [.int(21), .int(22), .int(23)])
        #expect(recs[0]["category"] == .string("Incoming Call") && recs[0]["title"] == .string("John Smith"))
        #expect(recs[0]["app_identifier"] == .string("com.apple.mobilephone") && recs[0]["date"] == .string("20261122T101500"))
        #expect(recs[0]["flags"] == .list([.string("important")]))
        #expect(recs[0]["removed_record"] != .null && recs[0]["lifetime_us"] != nil)
        #expect(recs[1]["category"] == .string("Missed Call") && recs[1]["flags"] == .list([.string("important"), .string("negative action")]))
        guard case let .list(actions)? = recs[1]["actions"] else { Issue.record("no actions"); return }
        #expect(actions.count == 1 && actions[0].objectValue?["action"] == .string("negative"))
        #expect(recs[2]["category"] == .string("Voicemail") && recs[2]["removed_record"] == .null)
        guard case let .list(errs)? = f["errors"] else { Issue.record("no errors"); return }
        #expect(errs.count == 1 && errs[0].objectValue?["error"] == .int(0xA2))
        #expect(section.text.contains { $0.contains("UID 21 Incoming Call [important] com.apple.mobilephone: \"John Smith\" / \"Incoming Call\"") })
    }
}

@Suite struct ANCSErrorNameTests {
    /// ANCS errors 0xA0–0xA3 sit in the Core's reserved range; the ATT layer names them by the service.
    @Test func errorResponseAndSummaryUseTheANCSName() throws {
        let (events, summary) = try TestSupport.analyze(Samples.ancsSession())
        let err = try #require(events.first { $0.layer("att")?["error"] == .int(0xA2) })
        #expect(err.layer("att")?["error_name"] == .string("ANCS Invalid parameter"))
        let text = SummaryRender.text(summary).joined(separator: "\n")
        #expect(text.contains("errors: 1: ANCS Invalid parameter ×1"))
        #expect(!text.contains("Reserved error"))
    }
}
