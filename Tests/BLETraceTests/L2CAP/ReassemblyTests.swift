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
        let (o1, w1) = try r.feed(HCIBuilder.acl(handle: 0x40, whole)[...], record: 1)
        #expect(w1 == nil)
        #expect(frame(o1)?.cid == 4)
        #expect(frame(o1).map { Array($0.payload) } == [0x0A, 0x03, 0x00])

        let payload = (0..<60).map { UInt8($0) }
        let big = HCIBuilder.l2cap(cid: 4, payload)
        _ = try r.feed(HCIBuilder.acl(handle: 0x40, Array(big[0..<27]))[...], record: 2)
        // Another handle's frame interleaves.
        let (other, _) = try r.feed(HCIBuilder.acl(handle: 0x41, whole)[...], record: 3)
        #expect(frame(other)?.handle == 0x41)
        let (mid, _) = try r.feed(HCIBuilder.acl(handle: 0x40, start: false, Array(big[27..<54]))[...], record: 4)
        if case let .partial(_, have, expected, start) = mid {
            #expect(have == 50); #expect(expected == 60); #expect(!start)
        } else { Issue.record("expected a partial frame") }
        let (last, _) = try r.feed(HCIBuilder.acl(handle: 0x40, start: false, Array(big[54...]))[...], record: 5)
        let f = try #require(frame(last))
        #expect(Array(f.payload) == payload)
        #expect(f.firstRecord == 2)
        #expect(f.fragments == 3)
        #expect(r.unfinished.isEmpty)
    }

    @Test func continuationWithoutStartIsReported() throws {
        var r = L2CAPReassembler()
        let (o, _) = try r.feed(HCIBuilder.acl(handle: 0x40, start: false, [1, 2, 3])[...], record: 7)
        guard case let .problem(_, reason) = o else { Issue.record("expected a problem"); return }
        #expect(reason.contains("no frame started"))
    }

    @Test func lostLastFragmentIsReportedWhenTheNextFrameStarts() throws {
        var r = L2CAPReassembler()
        let big = HCIBuilder.l2cap(cid: 4, [UInt8](repeating: 7, count: 40))
        _ = try r.feed(HCIBuilder.acl(handle: 0x40, Array(big[0..<27]))[...], record: 1)
        let (o, warning) = try r.feed(HCIBuilder.acl(handle: 0x40, HCIBuilder.l2cap(cid: 4, [0x13]))[...], record: 2)
        #expect(frame(o) != nil)
        #expect(warning == "frame started at record 1 lost its last fragment(s): 23 of 40 bytes arrived")
    }

    @Test func surplusBytesAndOverrun() throws {
        var r = L2CAPReassembler()
        let (o, warning) = try r.feed(HCIBuilder.acl(handle: 0x40, HCIBuilder.l2cap(cid: 4, [0x13]) + [0xEE, 0xEE])[...], record: 1)
        #expect(frame(o).map { Array($0.payload) } == [0x13])
        #expect(warning == "2 bytes after the end of the L2CAP frame")
        let big = HCIBuilder.l2cap(cid: 4, [UInt8](repeating: 1, count: 30))
        _ = try r.feed(HCIBuilder.acl(handle: 0x40, Array(big[0..<27]))[...], record: 2)
        let (over, _) = try r.feed(HCIBuilder.acl(handle: 0x40, start: false, [UInt8](repeating: 1, count: 20))[...], record: 3)
        guard case let .problem(_, reason) = over else { Issue.record("expected an overrun"); return }
        #expect(reason.contains("overran"))
    }

    @Test func headerSplitAcrossFragments() throws {
        var r = L2CAPReassembler()
        let f = HCIBuilder.l2cap(cid: 6, [0x01, 0x02, 0x03, 0x04, 0x05])
        _ = try r.feed(HCIBuilder.acl(handle: 0x40, Array(f[0..<2]))[...], record: 1)
        let (o, _) = try r.feed(HCIBuilder.acl(handle: 0x40, start: false, Array(f[2...]))[...], record: 2)
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
