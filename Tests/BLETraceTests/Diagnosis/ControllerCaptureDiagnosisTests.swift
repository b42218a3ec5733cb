import Foundation
import Testing
@testable import BLETrace

@Suite struct ControllerCaptureDiagnosisTests {
    @Test func resetAfterConnectionsStartedAndHardwareError() throws {
        let s = DX.scenario() // its bring-up Reset is not one
        s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        s.command(0x0C03)
        s.controller(.event, HCIBuilder.event(0x10, [0x2A]))
        let all = try DX.run(s).filter { $0.id == .controllerReset }
        #expect(all.count == 2)
        #expect(all.contains { $0.facts.reason == 0x2A })
        #expect(try DX.run(DX.scenario()).isEmpty)
    }

    @Test func rejectedCommandsGroupedByCommandAndStatus() throws {
        let s = DX.scenario()
        s.command(0x2005, HCIBuilder.addr(Samples.local), status: 0x0C)
        s.command(0x2005, HCIBuilder.addr(Samples.local), status: 0x0C)
        s.commandWithStatus(0x2006, [], status: 0x12)
        let all = try DX.run(s).filter { $0.id == .commandRejected }
        #expect(all.count == 2)
        #expect(all.first { $0.facts.opcode == 0x2005 }?.count == 2)
        #expect(DiagnosisText.title(try #require(all.first)).contains("LE Set Random Address"))
    }

    @Test func timeGoingBackwardsIsNotedAndGivesNoNegativeLatency() throws {
        let s = DX.scenario()
        s.connect(handle: DX.h, peer: Samples.thermo, peerType: 1)
        s.attOut(DX.h, [0x0A] + DX.le16(0x0003))
        s.advance(ms: -500)
        s.attIn(DX.h, [0x0B, 0x01])
        let (events, summary) = try TestSupport.analyze(s)
        let d = try #require(summary.diagnoses.first { $0.id == .captureIncomplete })
        #expect(d.severity == .info)
        if case let .timeBackwards(m)? = d.facts.problem { #expect(m >= 400_000) } else { Issue.record("not time backwards") }
        let response = try #require(events.first { if case let .att(a) = $0.body { return a.request != nil }; return false })
        guard case let .att(a) = response.body else { return }
        #expect(a.request?.latencyMicros == nil)
        let text = SummaryRender.text(summary).joined(separator: "\n")
        #expect(!text.contains("latency -"))
    }

    @Test func damagedFileIsIncomplete() throws {
        let bytes = Samples.gattSession().writer.bytes
        let cut = Array(bytes.prefix(bytes.count - 7))
        let (_, summary) = TestSupport.analyze(try CaptureFile.open(bytes: cut))
        let d = try #require(summary.diagnoses.first { $0.id == .captureIncomplete })
        if case .damaged? = d.facts.problem {} else { Issue.record("expected damage, got \(String(describing: d.facts.problem))") }
    }

    /// Records cut short are explained by the kind of capture: a phone's filtered snoop log leaves payloads out;
    /// a sniffer or another host capture has a snapshot length (issue #37: a HackRF capture was told its "phone's
    /// snoop log was filtered").
    @Test func cutShortRecordsAreExplainedByTheCapturesKind() throws {
        #expect(CaptureSource(format: .btsnoop, linkType: 1002) == .snoopLog)
        #expect(CaptureSource(format: .pcap, linkType: LinkType.bluetoothLELLWithPHDR) == .sniffer)
        #expect(CaptureSource(format: .pcapng, linkType: LinkType.nordicBLE) == .sniffer)
        #expect(CaptureSource(format: .packetLogger, linkType: 0) == .hostCapture)
        func text(_ source: CaptureSource) -> (String, String) {
            let d = Diagnosis(id: .captureIncomplete, facts: DiagnosisFacts(problem: .filtered(records: 2, by: source)), evidence: [5])
            return (DiagnosisText.title(d), DiagnosisText.explanation(d))
        }
        #expect(text(.snoopLog).0.hasSuffix("(payloads not logged)") && text(.snoopLog).1.hasPrefix("The phone's snoop log was filtered"))
        for source in [CaptureSource.sniffer, .hostCapture] {
            #expect(text(source).0.hasSuffix("(longer than its snapshot length)"))
            #expect(!text(source).1.contains("phone") && text(source).1.contains("snapshot length"))
        }
        // The HackRF capture: its record 1665 is longer than the file's snapshot length (264).
        guard let dir = TestSupport.sharedCaptures else { return }
        let path = dir.appendingPathComponent("blakete__Boston-Mesh-Open-Source-Base-Station__data__hackrf_BLE_sniff_20_channels_for_bitchat.pcap").path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let summary = TestSupport.analyze(try CaptureFile.open(path: path), path: path).1
        let d = try #require(summary.diagnoses.first { $0.id == .captureIncomplete && $0.firstRecord == 1665 })
        #expect(d.facts.problem == .filtered(records: 1, by: .sniffer))
        #expect(!DiagnosisText.explanation(d).contains("phone"))
    }

    @Test func cleanSamplesHaveNoErrorDiagnosis() throws {
        for s in [Samples.gattSession(), Samples.scan(), Samples.diffSession(bad: false), Samples.ancsSession(), Samples.encryptedLink()] {
            let errors = try DX.run(s).filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(errors.map { DiagnosisText.title($0) })")
        }
        // …and the bad ones have theirs.
        #expect(try DX.ids(Samples.pairingFailed()).contains(.pairingRejectedByUser))
        #expect(try DX.ids(Samples.diffSession(bad: true)).contains(.insufficientSecurity))
    }
}

/// The engine holds the other layers weakly: an analysis frees all of them when it ends (the fuzzers' leak
/// check found the cycle engine → layers → engine).
@Suite struct DiagnosisEngineLifetimeTests {
    @Test func analysisFreesTheEngine() throws {
        weak var engine: DiagnosisEngine?
        weak var smp: SMPLayer?
        do {
            let analyzer = Analyzer(sink: nil)
            analyzer.run(try CaptureFile.open(bytes: Samples.gattSession().writer.bytes), path: "t")
            engine = analyzer.layers.compactMap { $0 as? DiagnosisEngine }.first
            smp = analyzer.layers.compactMap { $0 as? SMPLayer }.first
            #expect(engine != nil && smp != nil)
        }
        #expect(engine == nil)
        #expect(smp == nil)
    }
}
