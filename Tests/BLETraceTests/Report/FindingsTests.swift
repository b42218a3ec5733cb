import Testing
@testable import BLETrace

@Suite struct FindingsTests {
    static func findings(_ s: Scenario) throws -> Findings {
        let analyzer = Analyzer(sink: nil)
        analyzer.run(try CaptureFile.open(bytes: s.writer.bytes), path: "t")
        return try #require(analyzer.layers.compactMap { $0 as? Findings }.first)
    }

    @Test func attErrorsButNotTheEndOfDiscovery() throws {
        let f = try FindingsTests.findings(Samples.gattSession())
        // Two Attribute Not Found answers end discovery; only the Read Not Permitted is a finding.
        #expect(f.count == 1)
        #expect(f.list.first?.kind == .attError)
        #expect(f.list.first?.record == 82)
        #expect(f.list.first?.connection == 1)
        #expect(f.list.first?.text.contains("Nordic UART TX") == true)
        #expect(f.list.first?.text.contains("Read Not Permitted (0x02)") == true)
    }

    @Test func malformedAdvert() throws {
        let f = try FindingsTests.findings(Samples.scan())
        #expect(f.list.map(\.kind) == [.malformed])
        #expect(f.list.first?.record == 38)
    }

    @Test func failedPairingSupervisionTimeoutUnansweredAndFailedConnection() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        s.smpOut(0x0040, [0x01, 0x03, 0x00, 0x01, 16, 0x00, 0x00])
        s.smpIn(0x0040, [0x05, 0x03])                        // Pairing Failed: Authentication Requirements
        s.attOut(0x0040, [0x0A] + HCIBuilder.le16(0x0003))   // never answered
        s.advance(ms: 5000)
        s.disconnect(handle: 0x0040, reason: 0x08, byHost: false)
        s.controller(.event, HCIBuilder.leConnectionComplete(handle: 0x0041, role: 0, peerType: 1, peer: Samples.watch,
                                                            interval: 24, timeout: 400, status: 0x3E))
        let f = try FindingsTests.findings(s)
        #expect(f.list.map(\.kind) == [.pairingFailed, .unanswered, .disconnect, .connectionFailed], "\(f.list.map(\.line))")
        #expect(f.list[0].text.contains("Authentication Requirements"))
        #expect(f.list[1].text.contains("the connection closed"))
        #expect(f.list[2].text.contains("(0x08)"))
        #expect(f.list[3].text.contains("(0x3E)"))
        // A normal disconnect is not a finding, nor a cancelled LE Create Connection (status 0x02).
        let ok = Scenario(format: .btsnoop(datalink: 1002))
        ok.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        ok.disconnect(handle: 0x0040, reason: 0x13, byHost: false)
        ok.controller(.event, HCIBuilder.leConnectionComplete(handle: 0x0000, role: 0, peerType: 0, peer: BDAddr(0),
                                                             interval: 0, timeout: 0, status: 0x02))
        #expect(try FindingsTests.findings(ok).count == 0)
    }

    @Test func textSummaryListsDiagnosesThenFindingsFirst() throws {
        let (_, summary) = try TestSupport.analyze(Samples.gattSession())
        let lines = SummaryRender.text(summary)
        let diagnoses = try #require(lines.firstIndex { $0.hasPrefix("  Diagnoses:") })
        #expect(diagnoses == 3) // after "Summary", File and Records
        #expect(lines[diagnoses] == "  Diagnoses:   1 (1 warning)")
        #expect(lines[diagnoses + 1].hasPrefix("    warning attribute_not_permitted: Read Request of Nordic UART TX"))
        // Each diagnosis has its title, why and next step; the findings (the symptoms) follow.
        let at = try #require(lines.firstIndex { $0.hasPrefix("  Findings:") })
        #expect(at == diagnoses + 4)
        #expect(lines[at + 1].contains("record 82"))
        #expect(lines.filter { $0.hasPrefix("  Findings:") }.count == 1)
    }
}

@Suite struct FindingGroupTests {
    /// The same error from 50 different peers is one group too, naming no single peer.
    @Test func identicalFindingsOnManyPeersAreOneLine() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        for i in 0..<50 {
            s.connect(handle: 0x0040, peer: BDAddr(0xC0_00_00_00_00_00 + UInt64(i)), peerType: 1)
            s.attOut(0x0040, [0x0A] + HCIBuilder.le16(0x0030))
            s.attIn(0x0040, [0x01, 0x0A] + HCIBuilder.le16(0x0030) + [0x02])
            s.disconnect(handle: 0x0040)
        }
        let (_, summary) = try TestSupport.analyze(s)
        let lines = SummaryRender.text(summary)
        let at = try #require(lines.firstIndex { $0.hasPrefix("  Findings:") })
        #expect(lines[at] == "  Findings:    50 (1 distinct)")
        #expect(lines[at + 1].contains("(50×)") && lines[at + 1].contains(", 50 peers: ATT error"))
        let f = try #require(summary.sections.first { $0.name == "findings" }?.value.objectValue)
        guard case let .list(groups)? = f["groups"] else { Issue.record("no groups"); return }
        #expect(groups.count == 1)
        #expect(groups.first?.objectValue?["peer"] == .null)
    }

    /// Peers are counted once each however many there are (the first 32 only were told apart before), and the
    /// groups keep the order in which their first findings came.
    @Test func peersPastThirtyTwoAreCountedOnce() {
        var list: [Finding] = []
        for round in 0 ..< 3 {
            for c in 0 ..< 40 {
                list.append(Finding(kind: .attError, record: round * 100 + c, connection: c, text: "same error"))
                if c % 10 == 0 {
                    list.append(Finding(kind: .disconnect, record: round * 100 + c, connection: c, text: "other"))
                }
            }
        }
        let groups = Findings.groups(list) { "peer-\($0 % 35)" }
        #expect(groups.map(\.text) == ["same error", "other"])
        #expect(groups[0].count == 120 && groups[0].peerCount == 35 && groups[0].peer == nil)
        #expect(groups[0].firstRecord == 0 && groups[0].lastRecord == 239 && groups[0].connections.count == 32)
        #expect(groups[1].count == 12 && groups[1].peerCount == 4)
        let one = Findings.groups([Finding(kind: .malformed, record: 5, connection: 1, text: "x"),
                                   Finding(kind: .malformed, record: 9, connection: 2, text: "x")]) { _ in "peer" }
        #expect(one.count == 1 && one[0].peer == "peer" && one[0].peerCount == 1 && one[0].count == 2)
    }

    /// 300 sessions hitting the same error: one line with the count and the record range (the JSON keeps the list).
    @Test func identicalFindingsAreOneLine() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        for i in 0..<300 {
            let h = UInt16(0x0040 + i % 8)
            s.connect(handle: h, peer: Samples.thermo, peerType: 1)
            s.attOut(h, [0x0A] + HCIBuilder.le16(0x0030))
            s.attIn(h, [0x01, 0x0A] + HCIBuilder.le16(0x0030) + [0x05])
            s.disconnect(handle: h)
        }
        let (_, summary) = try TestSupport.analyze(s)
        let lines = SummaryRender.text(summary)
        let at = try #require(lines.firstIndex { $0.hasPrefix("  Findings:") })
        #expect(lines[at] == "  Findings:    300 (1 distinct)")
        #expect(lines[at + 1].hasPrefix("    records "))
        #expect(lines[at + 1].contains("(300×), connections #1, #2, #3"))
        #expect(lines[at + 1].hasSuffix("ATT error: Read Request of handle 0x0030: Insufficient Authentication (0x05)"))
        #expect(!lines[at + 2].contains("ATT error"))
        let f = try #require(summary.sections.first { $0.name == "findings" }?.value.objectValue)
        guard case let .list(list)? = f["list"], case let .list(groups)? = f["groups"] else { Issue.record("no list"); return }
        #expect(list.count == 300)
        #expect(groups.count == 1)
        #expect(groups.first?.objectValue?["count"] == .int(300))
        #expect(groups.first?.objectValue?["peer"] == .string(Samples.thermo.description))
        // Markdown: one row too.
        let md = try MarkdownTests.render(s)
        #expect(md.contains("300 findings, 1 distinct."))
        #expect(md.contains { $0.hasPrefix("| ") && $0.contains("(300×) | #1, #2, #3") && $0.hasSuffix("| ATT error | Read Request of handle 0x0030: Insufficient Authentication (0x05) |") })
        // The diagnosis is one too, counted per connection.
        let d = try #require(summary.diagnoses.first { $0.id == .insufficientSecurity })
        #expect(summary.diagnoses.filter { $0.id == .insufficientSecurity }.count == 1)
        #expect(d.count == 300)
    }

    /// Malformed packets that are not findings (a capture that began mid-connection: no event opened the handle)
    /// are not denied by the "none" line.
    @Test func noneLineDoesNotContradictTheMalformedCount() throws {
        let h = TraceHarness()
        h.acl(0x0002, TraceHarness.frame(cid: 0x0004, [0x0A, 0x03, 0x00]), .hostToController)
        h.acl(0x0002, TraceHarness.frame(cid: 0x0004, []), .controllerToHost)
        h.finish()
        let findings = try #require(h.layers.compactMap { $0 as? Findings }.first)
        #expect(findings.count == 0)
        #expect(h.pipeline.stats.malformed == 1)
        let text = try #require(findings.summary()?.text.first)
        #expect(text.hasPrefix("  Findings:    none"))
        #expect(!text.contains("malformed"))
    }
}
