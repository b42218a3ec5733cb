import Testing
@testable import BLETrace

/// The LE Audio diagnoses (issue #29) from assembled captures.
@Suite struct AudioDiagnosisTests {
    typealias B = HCIBuilder

    static func cisEstablished(_ h: UInt16, status: UInt8 = 0) -> [UInt8] {
        B.leMeta(0x19, [status] + B.le16(h) + B.le24(900) + B.le24(800) + B.le24(10_000) + B.le24(10_000) + [2, 2] + [2] + [1, 1] + [1, 1]
                 + B.le16(40) + B.le16(40) + B.le16(8))
    }

    static func setup(_ s: Scenario, cis handles: [UInt16]) {
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        var params: [UInt8] = [1] + B.le24(10_000) + B.le24(10_000) + [0, 0, 0] + B.le16(20) + B.le16(20) + [UInt8(handles.count)]
        for (i, _) in handles.enumerated() { params += [UInt8(i + 1)] + B.le16(40) + B.le16(40) + [2, 2, 2, 2] }
        s.command(0x2062, params, returning: [1, UInt8(handles.count)] + handles.flatMap { B.le16($0) })
        s.commandWithStatus(0x2064, [UInt8(handles.count)] + handles.flatMap { B.le16($0) + B.le16(0x40) })
    }

    @Test func cisFailedOrNeverEstablished() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        Self.setup(s, cis: [0x60, 0x61])
        s.controller(.event, Self.cisEstablished(0x60, status: 0x3E))
        s.advance(ms: 2000)
        let (_, summary) = try TestSupport.analyze(s)
        let d = summary.diagnoses.filter { $0.id == .cisNotEstablished }
        #expect(d.count == 2, "\(d.map(DiagnosisText.title))")
        #expect(d.map(DiagnosisText.title).contains("CIS 0x0060 was not established: Connection Failed to be Established / Synchronization Timeout (0x3E)"))
        #expect(d.map(DiagnosisText.title).contains("CIS 0x0061 was created and never reported established"))
        #expect(d.allSatisfy { $0.severity == .error })
        // No CIS connection was opened for the failed one.
        #expect(!summary.connections.contains { $0.iso != nil })
    }

    @Test func lossPathsAndSyncs() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        Self.setup(s, cis: [0x60])
        s.controller(.event, Self.cisEstablished(0x60))
        // An input path used with a sequence gap; an output path set up and never used.
        s.command(0x206E, B.le16(0x60) + [0, 0, 6] + B.le16(0) + B.le16(0) + B.le24(0) + [0], returning: B.le16(0x60))
        s.command(0x206E, B.le16(0x60) + [1, 0, 6] + B.le16(0) + B.le16(0) + B.le24(0) + [0], returning: B.le16(0x60))
        for seq: UInt16 in [0, 1, 5] {
            s.advance(ms: 10)
            s.host(.iso, ISOStreamTests.iso(0x60, seq: seq, sduLength: 2, [1, 2]))
        }
        // A periodic sync and a BIG synchronised over it, then lost.
        s.commandWithStatus(0x2044, [0, 1, 1] + B.addr(Samples.thermo) + B.le16(0) + B.le16(500) + [0])
        s.controller(.event, B.leMeta(0x0E, [0] + B.le16(0x10) + [1, 1] + B.addr(Samples.thermo) + [2] + B.le16(80) + [5]))
        s.commandWithStatus(0x206B, [2] + B.le16(0x10) + [0] + [UInt8](repeating: 0, count: 16) + [0] + B.le16(100) + [1, 1])
        s.controller(.event, B.leMeta(0x1D, [0, 2] + B.le24(20_000) + [3, 1, 0, 1] + B.le16(100) + B.le16(8) + [1] + B.le16(0x200)))
        s.advance(ms: 500)
        s.controller(.event, B.leMeta(0x1E, [2, 0x3E]))
        let (_, summary) = try TestSupport.analyze(s)
        let titles = summary.diagnoses.map(DiagnosisText.title)
        #expect(titles.contains("ISO stream 0x0060 host → controller lost SDUs: 3 SDUs missing from the sequence of 6"), "\(titles)")
        #expect(titles.contains("Stream 0x0060 has an output data path over HCI and no ISO data went to the host"), "\(titles)")
        #expect(titles.contains("Stream 0x0200 was established without an ISO data path"), "\(titles)")
        #expect(titles.contains("The synchronisation to BIG 2 was lost: Connection Failed to be Established / Synchronization Timeout (0x3E)"), "\(titles)")
        // The BIS closed when its BIG's sync was lost.
        let bis = try #require(summary.connections.first { $0.handle == 0x200 })
        #expect(bis.closedRecord != nil && bis.peer == Samples.thermo)
        // The periodic sync was used for a BIG: no "no BIGInfo" diagnosis.
        #expect(!titles.contains { $0.contains("BIGInfo") })
    }

    @Test func aPeriodicSyncWithoutBIGInfoAndASyncNeverEstablished() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.commandWithStatus(0x2044, [0, 1, 1] + B.addr(Samples.thermo) + B.le16(0) + B.le16(500) + [0])
        s.controller(.event, B.leMeta(0x0E, [0] + B.le16(0x10) + [1, 1] + B.addr(Samples.thermo) + [2] + B.le16(80) + [5]))
        s.commandWithStatus(0x2044, [0, 1, 1] + B.addr(BDAddr(0x11_22_33_44_55_66)) + B.le16(0) + B.le16(500) + [0])
        let (_, summary) = try TestSupport.analyze(s)
        let titles = summary.diagnoses.map(DiagnosisText.title)
        #expect(titles.contains("Periodic advertising sync 0x0010 reported no BIGInfo: no broadcast was found on it"), "\(titles)")
        #expect(titles.contains("The periodic advertising sync to 11:22:33:44:55:66 never completed"), "\(titles)")
    }
}

@Suite struct ASEOperationDiagnosisTests {
    @Test func aRefusedASEOperationIsNamed() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        // Discovery: the ASE Control Point's value at 0x001E.
        s.attOut(0x0040, [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28])
        s.attIn(0x0040, [0x09, 7, 0x1D, 0x00, 0x1C, 0x1E, 0x00, 0xC6, 0x2B])
        // Config Codec for ASEs 1 and 2: ASE 1 refused with Unsupported Configuration Parameter Value (Codec_Specific_Configuration).
        s.attIn(0x0040, [0x1B, 0x1E, 0x00, 0x01, 2, 1, 0x07, 0x02, 2, 0x00, 0x00])
        let (_, summary) = try TestSupport.analyze(s)
        let d = summary.diagnoses.filter { $0.id == .aseOperationFailed }
        #expect(d.count == 1, "\(summary.diagnoses.map(DiagnosisText.title))")
        #expect(d.first.map(DiagnosisText.title) == "ASE 1: Config Codec failed: Unsupported Configuration Parameter Value (Codec_Specific_Configuration)")
        #expect(d.first?.connections == [1] && d.first?.severity == .error)
    }
}

@Suite struct AudioServiceErrorTests {
    @Test func aVolumeControlErrorIsNamedByItsService() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        s.attOut(0x0040, [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28])
        s.attIn(0x0040, [0x09, 7, 0x21, 0x00, 0x0A, 0x22, 0x00, 0x7E, 0x2B])
        s.attOut(0x0040, [0x12, 0x22, 0x00, 0x01, 0x05])
        s.attIn(0x0040, [0x01, 0x12, 0x22, 0x00, 0x80])
        // A CSIS code on a VCS characteristic is not a VCS error: named generically.
        s.attOut(0x0040, [0x12, 0x22, 0x00, 0x01, 0x06])
        s.attIn(0x0040, [0x01, 0x12, 0x22, 0x00, 0x84])
        let (events, summary) = try TestSupport.analyze(s)
        #expect(summary.diagnoses.map(DiagnosisText.title).contains { $0.hasSuffix("failed with an application error: VCS Invalid Change Counter (0x80)") },
                "\(summary.diagnoses.map(DiagnosisText.title))")
        #expect(events.contains { $0.summary.contains("VCS error 0x80 Invalid Change Counter") })
        #expect(AudioServiceError.name("CSIS", 0x84) == "Lock Already Granted" && AudioServiceError.name("VCS", 0x84) == nil)
    }
}
