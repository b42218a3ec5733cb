import Testing
@testable import BLETrace

@Suite struct ClassicDiagnosisTests {
    static let acl: UInt16 = 0x000B

    @Test func secureSimplePairingThatNeverCompletes() throws {
        func capture(complete: Bool) -> Scenario {
            let s = DX.scenario()
            DX.classicConnect(s)
            s.controller(.event, HCIBuilder.event(0x31, HCIBuilder.addr(Samples.phone)))
            if complete { s.controller(.event, HCIBuilder.event(0x36, [0x00] + HCIBuilder.addr(Samples.phone))) }
            return s
        }
        let d = try DX.one(capture(complete: false), .classicPairingIncomplete)
        #expect(d.peer == Samples.phone)
        #expect(d.connections == [1])
        #expect(try DX.run(capture(complete: true)).isEmpty)
    }

    static func channel(result: UInt16, configure: Bool) -> Scenario {
        let s = DX.scenario()
        DX.classicConnect(s)
        s.l2cap(handle: acl, cid: 0x0001, fromHost: true, [0x02, 0x01] + DX.le16(4) + DX.le16(0x0017) + DX.le16(0x0040))
        s.l2cap(handle: acl, cid: 0x0001, fromHost: false, [0x03, 0x01] + DX.le16(8) + DX.le16(0x0041) + DX.le16(0x0040) + DX.le16(result) + DX.le16(0))
        if configure {
            s.l2cap(handle: acl, cid: 0x0001, fromHost: true, [0x04, 0x02] + DX.le16(4) + DX.le16(0x0041) + DX.le16(0))
            s.l2cap(handle: acl, cid: 0x0001, fromHost: false, [0x05, 0x02] + DX.le16(6) + DX.le16(0x0040) + DX.le16(0) + DX.le16(0))
            s.l2cap(handle: acl, cid: 0x0001, fromHost: false, [0x04, 0x03] + DX.le16(4) + DX.le16(0x0040) + DX.le16(0))
            s.l2cap(handle: acl, cid: 0x0001, fromHost: true, [0x05, 0x03] + DX.le16(6) + DX.le16(0x0041) + DX.le16(0) + DX.le16(0))
        }
        s.disconnect(handle: acl)
        return s
    }

    @Test func channelRefusedOrNeverConfigured() throws {
        let refused = try DX.one(Self.channel(result: 0x0002, configure: false), .l2capChannelNotConfigured)
        #expect(refused.facts.psm == 0x0017)
        #expect(DiagnosisText.title(refused).contains("AVCTP"))
        #expect(try DX.one(Self.channel(result: 0, configure: false), .l2capChannelNotConfigured).facts.result == nil)
        #expect(try DX.run(Self.channel(result: 0, configure: true)).isEmpty)
    }

    @Test func synchronousLinkNeverEstablished() throws {
        func capture(complete: Bool) -> Scenario {
            let s = DX.scenario()
            DX.classicConnect(s)
            s.commandWithStatus(0x0428, DX.le16(Self.acl) + HCIBuilder.le32(8000) + HCIBuilder.le32(8000) + DX.le16(10) + DX.le16(0x0060) + [0x02] + DX.le16(0x003F))
            if complete {
                s.controller(.event, HCIBuilder.event(0x2C, [0x00] + DX.le16(0x000C) + HCIBuilder.addr(Samples.phone) + [0x02, 12, 2] + DX.le16(60) + DX.le16(60) + [0x02]))
            }
            return s
        }
        #expect(try DX.one(capture(complete: false), .audioSetupStalled).facts.stage == 0xFF)
        #expect(!(try DX.ids(capture(complete: true)).contains(.audioSetupStalled)))
    }

    /// An AVDTP setup on a configured signaling channel (PSM 0x0019) that goes as far as `steps`.
    static func avdtp(_ steps: [([UInt8], [UInt8])]) -> Scenario {
        let s = DX.scenario()
        DX.classicConnect(s)
        s.l2cap(handle: acl, cid: 0x0001, fromHost: true, [0x02, 0x01] + DX.le16(4) + DX.le16(0x0019) + DX.le16(0x0040))
        s.l2cap(handle: acl, cid: 0x0001, fromHost: false, [0x03, 0x01] + DX.le16(8) + DX.le16(0x0041) + DX.le16(0x0040) + DX.le16(0) + DX.le16(0))
        s.l2cap(handle: acl, cid: 0x0001, fromHost: true, [0x04, 0x02] + DX.le16(4) + DX.le16(0x0041) + DX.le16(0))
        s.l2cap(handle: acl, cid: 0x0001, fromHost: false, [0x05, 0x02] + DX.le16(6) + DX.le16(0x0040) + DX.le16(0) + DX.le16(0))
        s.l2cap(handle: acl, cid: 0x0001, fromHost: false, [0x04, 0x03] + DX.le16(4) + DX.le16(0x0040) + DX.le16(0))
        s.l2cap(handle: acl, cid: 0x0001, fromHost: true, [0x05, 0x03] + DX.le16(6) + DX.le16(0x0041) + DX.le16(0) + DX.le16(0))
        for (command, answer) in steps {
            s.l2cap(handle: acl, cid: 0x0041, fromHost: true, command)
            s.l2cap(handle: acl, cid: 0x0040, fromHost: false, answer)
        }
        s.disconnect(handle: acl)
        return s
    }

    static let discover: ([UInt8], [UInt8]) = ([0x00, 0x01], [0x02, 0x01, 0x04, 0x08])
    static let capabilities: ([UInt8], [UInt8]) = ([0x10, 0x02, 0x04], [0x12, 0x02, 0x01, 0x00])
    static let configure: ([UInt8], [UInt8]) = ([0x20, 0x03, 0x04, 0x04, 0x01, 0x00], [0x22, 0x03])
    static let open: ([UInt8], [UInt8]) = ([0x30, 0x06, 0x04], [0x32, 0x06])
    static let start: ([UInt8], [UInt8]) = ([0x40, 0x07, 0x04], [0x42, 0x07])

    @Test func a2dpSetupThatStopsOrIsRejected() throws {
        let stopped = try DX.one(Self.avdtp([Self.discover, Self.capabilities, Self.configure]), .audioSetupStalled)
        #expect(stopped.facts.stage == 3 && stopped.severity == .error)
        #expect(DiagnosisText.title(stopped).hasSuffix("stopped after Set Configuration: the local host never sent Open"))
        // Opened and never started is what phones do until something plays: context, not a stall.
        let open = try DX.one(Self.avdtp([Self.discover, Self.capabilities, Self.configure, Self.open]), .audioSetupStalled)
        #expect(open.severity == .info && open.facts.benign == .streamOpenNotStarted)
        #expect(DiagnosisText.title(open).hasSuffix("open, no audio played (never started)"))
        let rejected = try DX.one(Self.avdtp([Self.discover, Self.capabilities, ([0x20, 0x03, 0x04, 0x04, 0x01, 0x00], [0x23, 0x03, 0x01, 0x29])]),
                                  .audioSetupStalled)
        #expect(rejected.facts.opcode == 0x03)
        #expect(DiagnosisText.title(rejected).contains("Set Configuration was rejected"))
        // Started and no media packet followed.
        let silent = try DX.one(Self.avdtp([Self.discover, Self.capabilities, Self.configure, Self.open, Self.start]), .audioSetupStalled)
        #expect(silent.facts.stage == 6)
        #expect(DiagnosisText.title(silent).contains("started and no media followed"))
    }

    @Test func bondDeletedForOneAddressIsUnbondedButNotAClearAll() throws {
        func capture(all: Bool) -> Scenario {
            let s = DX.scenario()
            s.command(0x0C12, HCIBuilder.addr(all ? BDAddr(0) : Samples.phone) + [all ? 1 : 0], returning: DX.le16(1))
            return s
        }
        let d = try DX.one(capture(all: false), .unbonded)
        #expect(d.peer == Samples.phone)
        #expect(d.severity == .info)
        #expect(try DX.run(capture(all: true)).isEmpty)
    }

    @Test func daemonClosedAndOpenedAgainRestarted() throws {
        let engine = DiagnosisEngine()
        let p = Pipeline(chain: Chain(diagnosis: engine), emit: { _ in })
        func open(_ cookie: UInt32, _ n: Int) -> [UInt8] {
            HCIBuilder.le32(cookie) + [0x02, 0x00, 0x01, 0x16, 0x00] + HCIBuilder.le32(0) + [10] + Array("bluetoothd".utf8)
        }
        var n = 0
        func record(_ op: UInt16, _ data: [UInt8]) {
            n += 1
            p.process(Record(number: n, timestamp: Timestamp(micros: Int64(n) * 1000), direction: .unknown, kind: .note,
                             data: data[...], sourceType: op, origin: .linuxMonitor))
        }
        record(14, open(1, 1))
        record(15, HCIBuilder.le32(1))
        record(14, open(2, 3))
        _ = p.finish()
        let d = try #require(engine.diagnoses.first { $0.id == .stackRestarted })
        #expect(d.evidence == [3, 2])
    }
}

@Suite struct StackRestartNormalTests {
    /// The daemon's control channel opened once (and a tool's opened and closed): no restart.
    @Test func oneDaemonAndAToolAreNoRestart() throws {
        let engine = DiagnosisEngine()
        let p = Pipeline(chain: Chain(diagnosis: engine), emit: { _ in })
        func open(_ cookie: UInt32, _ name: String) -> [UInt8] {
            HCIBuilder.le32(cookie) + [0x02, 0x00, 0x01, 0x16, 0x00] + HCIBuilder.le32(0) + [UInt8(name.utf8.count)] + Array(name.utf8)
        }
        var n = 0
        func record(_ op: UInt16, _ data: [UInt8]) {
            n += 1
            p.process(Record(number: n, timestamp: Timestamp(micros: Int64(n) * 1000), direction: .unknown, kind: .note,
                             data: data[...], sourceType: op, origin: .linuxMonitor))
        }
        record(14, open(1, "bluetoothd"))
        record(14, open(2, "btmgmt"))
        record(15, HCIBuilder.le32(2))
        record(14, open(3, "btmgmt"))
        _ = p.finish()
        #expect(!engine.diagnoses.contains { $0.id == .stackRestarted })
    }
}
