import Testing
@testable import BLETrace

@Suite struct ReassemblyTests {
    func frame(_ outcome: ACLOutcome) -> L2CAPFrame? {
        if case let .frame(f) = outcome { return f }
        return nil
    }

    @Test func singleAndFragmentedFrames() throws {
        var r = L2CAPReassembler()
        let whole = HCIBuilder.l2cap(cid: 4, [0x0A, 0x03, 0x00])
        let (o1, w1) = try r.feed(HCIBuilder.acl(handle: 0x40, whole)[...], record: 1, direction: .controllerToHost)
        #expect(w1 == nil)
        #expect(frame(o1)?.cid == 4)
        #expect(frame(o1).map { Array($0.payload) } == [0x0A, 0x03, 0x00])

        let payload = (0..<60).map { UInt8($0) }
        let big = HCIBuilder.l2cap(cid: 4, payload)
        _ = try r.feed(HCIBuilder.acl(handle: 0x40, Array(big[0..<27]))[...], record: 2, direction: .controllerToHost)
        // Another handle's frame interleaves.
        let (other, _) = try r.feed(HCIBuilder.acl(handle: 0x41, whole)[...], record: 3, direction: .controllerToHost)
        #expect(frame(other)?.handle == 0x41)
        let (mid, _) = try r.feed(HCIBuilder.acl(handle: 0x40, start: false, Array(big[27..<54]))[...], record: 4, direction: .controllerToHost)
        if case let .partial(_, have, expected, start) = mid {
            #expect(have == 50); #expect(expected == 60); #expect(!start)
        } else { Issue.record("expected a partial frame") }
        let (last, _) = try r.feed(HCIBuilder.acl(handle: 0x40, start: false, Array(big[54...]))[...], record: 5, direction: .controllerToHost)
        let f = try #require(frame(last))
        #expect(Array(f.payload) == payload)
        #expect(f.firstRecord == 2)
        #expect(f.fragments == 3)
        #expect(r.unfinished.isEmpty)
    }

    /// A write sent while a long notification arrives: the host's packet falls between the controller's
    /// start fragment and its continuation. Each direction has its own frame.
    @Test func framesOfBothDirectionsInterleaveOnOneHandle() throws {
        var r = L2CAPReassembler()
        let notification = HCIBuilder.l2cap(cid: 4, [0x1B, 0x03, 0x00] + [UInt8](repeating: 0x5A, count: 40))
        let write = HCIBuilder.l2cap(cid: 4, [0x52, 0x03, 0x00, 0x01])
        let (start, w1) = try r.feed(HCIBuilder.acl(handle: 0x40, Array(notification[0..<27]))[...], record: 1, direction: .controllerToHost)
        #expect(frame(start) == nil && w1 == nil)
        // The host's whole frame in between: its own frame, and no warning about the open one.
        let (sent, w2) = try r.feed(HCIBuilder.acl(handle: 0x40, write)[...], record: 2, direction: .hostToController)
        #expect(frame(sent).map { Array($0.payload) } == [0x52, 0x03, 0x00, 0x01] && w2 == nil)
        // The host starts a long frame of its own while the controller's is still open.
        let long = HCIBuilder.l2cap(cid: 4, [0x12, 0x03, 0x00] + [UInt8](repeating: 0xA5, count: 30))
        _ = try r.feed(HCIBuilder.acl(handle: 0x40, Array(long[0..<20]))[...], record: 3, direction: .hostToController)
        let (rest, w3) = try r.feed(HCIBuilder.acl(handle: 0x40, start: false, Array(notification[27...]))[...], record: 4,
                                    direction: .controllerToHost)
        let f = try #require(frame(rest))
        #expect(w3 == nil && f.firstRecord == 1 && f.fragments == 2 && Array(f.payload) == Array(notification[4...]))
        let (hostRest, _) = try r.feed(HCIBuilder.acl(handle: 0x40, start: false, Array(long[20...]))[...], record: 5,
                                       direction: .hostToController)
        #expect(frame(hostRest).map { ($0.firstRecord, $0.payload.count) } ?? (0, 0) == (3, 33))
        #expect(r.unfinished.isEmpty)
        // A continuation in the other direction than the open frame's has no frame to continue.
        _ = try r.feed(HCIBuilder.acl(handle: 0x40, Array(notification[0..<27]))[...], record: 6, direction: .controllerToHost)
        let (stray, _) = try r.feed(HCIBuilder.acl(handle: 0x40, start: false, [1, 2])[...], record: 7, direction: .hostToController)
        guard case let .problem(_, reason) = stray else { Issue.record("expected a problem"); return }
        #expect(reason.contains("no frame started") && r.unfinished.map(\.firstRecord) == [6])
    }

    /// With the direction unknown (a sniffer's timing could not tell it), a frame whole in one packet between
    /// another frame's fragments may be the other side's: both frames decode. A start that is not whole still
    /// ends the open frame.
    @Test func aWholeFrameOfUnknownDirectionLeavesTheOpenFrameOpen() throws {
        var r = L2CAPReassembler()
        let key = HCIBuilder.l2cap(cid: 6, [0x0C] + [UInt8](repeating: 0x11, count: 64))
        _ = try r.feed(HCIBuilder.acl(handle: 0x01, Array(key[0..<27]))[...], record: 134, direction: .unknown)
        let (between, w) = try r.feed(HCIBuilder.acl(handle: 0x01, HCIBuilder.l2cap(cid: 4, [0x08, 0x1E, 0x00, 0x22, 0x00, 0x02, 0x28]))[...],
                                      record: 135, direction: .unknown)
        #expect(frame(between)?.cid == 4 && w == nil)
        let (done, _) = try r.feed(HCIBuilder.acl(handle: 0x01, start: false, Array(key[27...]))[...], record: 136, direction: .unknown)
        #expect(frame(done).map { ($0.cid, $0.firstRecord, $0.payload.count) } ?? (0, 0, 0) == (6, 134, 65))
        _ = try r.feed(HCIBuilder.acl(handle: 0x01, Array(key[0..<27]))[...], record: 137, direction: .unknown)
        let (cut, lost) = try r.feed(HCIBuilder.acl(handle: 0x01, Array(key[0..<27]))[...], record: 138, direction: .unknown)
        #expect(frame(cut) == nil && lost?.hasPrefix("frame started at record 137 lost its last fragment(s)") == true)
    }

    /// Through the pipeline: the host's Write Request between the two fragments of the controller's
    /// notification; both decode as ATT, no L2CAP problem is reported.
    @Test func pipelineKeepsEachDirectionsFrame() throws {
        var events: [TraceEvent] = []
        let p = Pipeline(chain: Chain(att: ATTLayer()), emit: { events.append($0) })
        let note = HCIBuilder.l2cap(cid: 4, [0x1B, 0x03, 0x00] + [UInt8](repeating: 0x5A, count: 40))
        let packets: [(Direction, [UInt8])] = [
            (.controllerToHost, HCIBuilder.acl(handle: 0x40, Array(note[0..<27]))),
            (.hostToController, HCIBuilder.acl(handle: 0x40, HCIBuilder.l2cap(cid: 4, [0x12, 0x05, 0x00, 0x01, 0x00]))),
            (.controllerToHost, HCIBuilder.acl(handle: 0x40, start: false, Array(note[27...]))),
        ]
        for (i, (d, bytes)) in packets.enumerated() {
            p.process(Record(number: i + 1, timestamp: Timestamp(micros: Int64(i) * 1000), direction: d, kind: .acl, data: bytes[...]))
        }
        _ = p.finish()
        #expect(events.map(\.kind) == [.acl, .att, .att])
        #expect(events.allSatisfy { $0.warning == nil })
        guard case let .att(n) = events[2].body else { Issue.record("no notification"); return }
        #expect(events[2].l2cap?.fragments == 2 && events[2].l2cap?.firstRecord == 1 && n.pdu?.opcode == 0x1B)
    }

    @Test func continuationWithoutStartIsReported() throws {
        var r = L2CAPReassembler()
        let (o, _) = try r.feed(HCIBuilder.acl(handle: 0x40, start: false, [1, 2, 3])[...], record: 7, direction: .controllerToHost)
        guard case let .problem(_, reason) = o else { Issue.record("expected a problem"); return }
        #expect(reason.contains("no frame started"))
    }

    @Test func lostLastFragmentIsReportedWhenTheNextFrameStarts() throws {
        var r = L2CAPReassembler()
        let big = HCIBuilder.l2cap(cid: 4, [UInt8](repeating: 7, count: 40))
        _ = try r.feed(HCIBuilder.acl(handle: 0x40, Array(big[0..<27]))[...], record: 1, direction: .controllerToHost)
        let (o, warning) = try r.feed(HCIBuilder.acl(handle: 0x40, HCIBuilder.l2cap(cid: 4, [0x13]))[...], record: 2, direction: .controllerToHost)
        #expect(frame(o) != nil)
        #expect(warning == "frame started at record 1 lost its last fragment(s): 23 of 40 bytes arrived")
    }

    @Test func surplusBytesAndOverrun() throws {
        var r = L2CAPReassembler()
        let (o, warning) = try r.feed(HCIBuilder.acl(handle: 0x40, HCIBuilder.l2cap(cid: 4, [0x13]) + [0xEE, 0xEE])[...], record: 1, direction: .controllerToHost)
        #expect(frame(o).map { Array($0.payload) } == [0x13])
        #expect(warning == "2 bytes after the end of the L2CAP frame")
        let big = HCIBuilder.l2cap(cid: 4, [UInt8](repeating: 1, count: 30))
        _ = try r.feed(HCIBuilder.acl(handle: 0x40, Array(big[0..<27]))[...], record: 2, direction: .controllerToHost)
        let (over, _) = try r.feed(HCIBuilder.acl(handle: 0x40, start: false, [UInt8](repeating: 1, count: 20))[...], record: 3, direction: .controllerToHost)
        guard case let .problem(_, reason) = over else { Issue.record("expected an overrun"); return }
        #expect(reason.contains("overran"))
    }

    @Test func headerSplitAcrossFragments() throws {
        var r = L2CAPReassembler()
        let f = HCIBuilder.l2cap(cid: 6, [0x01, 0x02, 0x03, 0x04, 0x05])
        _ = try r.feed(HCIBuilder.acl(handle: 0x40, Array(f[0..<2]))[...], record: 1, direction: .controllerToHost)
        let (o, _) = try r.feed(HCIBuilder.acl(handle: 0x40, start: false, Array(f[2...]))[...], record: 2, direction: .controllerToHost)
        #expect(frame(o)?.cid == 6)
        #expect(frame(o).map { Array($0.payload) } == [1, 2, 3, 4, 5])
    }

    @Test func unfinishedFramesAreListedAtTheEnd() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        let big = HCIBuilder.l2cap(cid: 4, [UInt8](repeating: 7, count: 40))
        s.controller(.acl, HCIBuilder.acl(handle: 0x40, Array(big[0..<27])))
        let (events, summary) = try TestSupport.analyze(s)
        #expect(events.count == 1)
        #expect(summary.warnings == ["L2CAP frame on handle 0x0040 started at record 1 never completed (23 of 40 bytes)"])
    }
}
