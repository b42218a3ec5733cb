import Testing
@testable import BLETrace

@Suite("L2CAP reassembly")
struct L2CAPReassemblerTests {
    static func acl(_ handle: UInt16, pb: UInt16, _ data: [UInt8]) -> ArraySlice<UInt8> {
        let hf = handle | pb << 12
        return ([UInt8(hf & 0xFF), UInt8(hf >> 8), UInt8(data.count & 0xFF), UInt8(data.count >> 8)] + data)[...]
    }

    @Test("a frame in one packet")
    func single() throws {
        var r = L2CAPReassembler()
        let (out, warning) = try r.feed(Self.acl(0x0040, pb: 0b10, [0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00]), record: 1, direction: .controllerToHost)
        guard case let .frame(f) = out else { Issue.record("expected a frame, got \(out)"); return }
        #expect(f.handle == 0x0040 && f.cid == 0x0004 && Array(f.payload) == [0x0A, 0x03, 0x00] && f.fragments == 1)
        #expect(warning == nil)
    }

    @Test("a whole frame is the same frame whether or not another stream has a frame open (read in place or not)")
    func wholeFrameEitherPath() throws {
        // Packets that hold one whole frame, one with bytes past the ACL length (not part of the packet), one whose
        // ACL length runs past the bytes, and a continuation.
        let packets: [ArraySlice<UInt8>] = [
            Self.acl(0x0040, pb: 0b10, [0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00]),
            Self.acl(0x0041, pb: 0b00, [0x00, 0x00, 0x05, 0x00]),
            (Self.acl(0x0042, pb: 0b11, [0x01, 0x00, 0x06, 0x00, 0x09]) + [0xEE, 0xEE])[...],
            Self.acl(0x0040, pb: 0b10, [0x03, 0x00, 0x04, 0x00, 0x0A]).dropLast(),
            Self.acl(0x0040, pb: 0b01, [0x03, 0x00, 0x04, 0x00]),
        ]
        for p in packets {
            var quiet = L2CAPReassembler()
            var busy = L2CAPReassembler()
            _ = try busy.feed(Self.acl(0x0ABC, pb: 0b10, [0x09, 0x00, 0x04, 0x00, 0x52]), record: 1, direction: .hostToController)
            let a = Result { try quiet.feed(p, record: 2, direction: .controllerToHost) }
            let b = Result { try busy.feed(p, record: 2, direction: .controllerToHost) }
            switch (a, b) {
            case let (.success(x), .success(y)):
                #expect("\(x.outcome)" == "\(y.outcome)" && x.warning == y.warning)
                if case let .frame(f) = x.outcome, case let .frame(g) = y.outcome {
                    #expect(f.payload.startIndex == g.payload.startIndex && f.payload.endIndex == g.payload.endIndex)
                }
            case (.failure, .failure): break
            default: Issue.record("one path threw, the other did not: \(a) \(b)")
            }
        }
    }

    @Test("start and continuation fragments reassemble; first record kept")
    func fragments() throws {
        var r = L2CAPReassembler()
        let (a, _) = try r.feed(Self.acl(0x0040, pb: 0b10, [0x05, 0x00, 0x04, 0x00, 0x1B, 0x03]), record: 7, direction: .controllerToHost)
        guard case let .partial(h, have, expected, start) = a else { Issue.record("expected partial"); return }
        #expect(h == 0x0040 && have == 2 && expected == 5 && start)
        let (b, _) = try r.feed(Self.acl(0x0040, pb: 0b01, [0x00, 0xAA, 0xBB]), record: 8, direction: .controllerToHost)
        guard case let .frame(f) = b else { Issue.record("expected frame, got \(b)"); return }
        #expect(Array(f.payload) == [0x1B, 0x03, 0x00, 0xAA, 0xBB])
        #expect(f.fragments == 2 && f.firstRecord == 7)
    }

    @Test("a frame in fifty fragments, two directions interleaved, reassembles byte for byte")
    func manyFragments() throws {
        var r = L2CAPReassembler()
        let payload = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let frame = [0xE8, 0x03, 0x04, 0x00] + payload   // L2CAP length 1,000 on CID 0x0004
        let pieces = stride(from: 0, to: frame.count, by: 20).map { Array(frame[$0..<min($0 + 20, frame.count)]) }
        #expect(pieces.count == 51)
        var got: [L2CAPFrame] = []
        for (i, piece) in pieces.enumerated() {
            for direction in [Direction.hostToController, .controllerToHost] {
                let (out, warning) = try r.feed(Self.acl(0x0040, pb: i == 0 ? 0b10 : 0b01, piece), record: i + 1, direction: direction)
                #expect(warning == nil)
                switch out {
                case let .partial(_, have, expected, _):
                    #expect(have == min((i + 1) * 20, frame.count) - 4 && expected == 1000)
                case let .frame(f):
                    got.append(f)
                case .problem:
                    Issue.record("fragment \(i) was a problem")
                }
            }
        }
        #expect(got.count == 2)
        for f in got {
            #expect(Array(f.payload) == payload)
            #expect(f.fragments == 51 && f.firstRecord == 1 && f.cid == 0x0004)
        }
    }

    @Test("fragments of two handles interleave")
    func interleaved() throws {
        var r = L2CAPReassembler()
        _ = try r.feed(Self.acl(0x0001, pb: 0b10, [0x04, 0x00, 0x04, 0x00, 0x01, 0x02]), record: 1, direction: .controllerToHost)
        _ = try r.feed(Self.acl(0x0002, pb: 0b10, [0x03, 0x00, 0x06, 0x00, 0x09]), record: 2, direction: .controllerToHost)
        let (x, _) = try r.feed(Self.acl(0x0001, pb: 0b01, [0x03, 0x04]), record: 3, direction: .controllerToHost)
        let (y, _) = try r.feed(Self.acl(0x0002, pb: 0b01, [0x08, 0x07]), record: 4, direction: .controllerToHost)
        guard case let .frame(f1) = x, case let .frame(f2) = y else { Issue.record("expected two frames"); return }
        #expect(f1.handle == 1 && f1.cid == 4 && Array(f1.payload) == [1, 2, 3, 4])
        #expect(f2.handle == 2 && f2.cid == 6 && Array(f2.payload) == [9, 8, 7])
    }

    @Test("a lost last fragment is reported when the next frame starts")
    func lostFragment() throws {
        var r = L2CAPReassembler()
        _ = try r.feed(Self.acl(0x0040, pb: 0b10, [0x06, 0x00, 0x04, 0x00, 0x1B, 0x03]), record: 1, direction: .controllerToHost)
        let (out, warning) = try r.feed(Self.acl(0x0040, pb: 0b10, [0x01, 0x00, 0x04, 0x00, 0x1E]), record: 2, direction: .controllerToHost)
        guard case let .frame(f) = out else { Issue.record("expected frame"); return }
        #expect(Array(f.payload) == [0x1E])
        #expect(warning?.contains("record 1 lost its last fragment") == true)
        #expect(warning?.contains("2 of 6 bytes") == true)
    }

    @Test("a continuation with no start is a problem, not dropped silently")
    func orphanContinuation() throws {
        var r = L2CAPReassembler()
        let (out, _) = try r.feed(Self.acl(0x0040, pb: 0b01, [0x01, 0x02]), record: 1, direction: .controllerToHost)
        guard case let .problem(h, reason) = out else { Issue.record("expected problem"); return }
        #expect(h == 0x0040 && reason.contains("no frame started"))
    }

    @Test("a surplus continuation overrunning the frame is reported")
    func overrun() throws {
        var r = L2CAPReassembler()
        _ = try r.feed(Self.acl(0x0040, pb: 0b10, [0x03, 0x00, 0x04, 0x00, 0x0B]), record: 1, direction: .controllerToHost)
        let (out, _) = try r.feed(Self.acl(0x0040, pb: 0b01, [0x01, 0x02, 0x03]), record: 2, direction: .controllerToHost)
        guard case let .problem(_, reason) = out else { Issue.record("expected problem, got \(out)"); return }
        #expect(reason == "fragments overran the frame: 8 bytes for an L2CAP length of 3")
    }

    @Test("bytes after the frame in one packet are decoded and reported")
    func surplusBytes() throws {
        var r = L2CAPReassembler()
        let (out, warning) = try r.feed(Self.acl(0x0040, pb: 0b10, [0x01, 0x00, 0x04, 0x00, 0x1E, 0xEE, 0xEE]), record: 1, direction: .controllerToHost)
        guard case let .frame(f) = out else { Issue.record("expected frame"); return }
        #expect(Array(f.payload) == [0x1E])
        #expect(warning == "2 bytes after the end of the L2CAP frame")
    }

    @Test("a start fragment shorter than the L2CAP header waits for the rest")
    func shortStart() throws {
        var r = L2CAPReassembler()
        let (a, _) = try r.feed(Self.acl(0x0040, pb: 0b10, [0x03, 0x00]), record: 1, direction: .controllerToHost)
        guard case .partial(_, _, -1, true) = a else { Issue.record("expected partial with unknown length, got \(a)"); return }
        let (b, _) = try r.feed(Self.acl(0x0040, pb: 0b01, [0x04, 0x00, 0x0A, 0x05]), record: 2, direction: .controllerToHost)
        guard case .partial = b else { Issue.record("expected partial, got \(b)"); return }
        let (c, _) = try r.feed(Self.acl(0x0040, pb: 0b01, [0x00]), record: 3, direction: .controllerToHost)
        guard case let .frame(f) = c else { Issue.record("expected frame, got \(c)"); return }
        #expect(f.cid == 4 && Array(f.payload) == [0x0A, 0x05, 0x00] && f.fragments == 3)
        _ = r
    }

    @Test("an ACL length beyond the packet throws")
    func truncatedACL() {
        var r = L2CAPReassembler()
        #expect(throws: ByteError.self) { try r.feed([0x40, 0x20, 0x09, 0x00, 0x01][...], record: 1, direction: .controllerToHost) }
    }

    @Test("unfinished frames are listed at the end")
    func unfinished() throws {
        var r = L2CAPReassembler()
        _ = try r.feed(Self.acl(0x0041, pb: 0b10, [0x09, 0x00, 0x04, 0x00, 0x1B]), record: 5, direction: .controllerToHost)
        #expect(r.unfinished.count == 1)
        #expect(r.unfinished.first?.handle == 0x0041 && r.unfinished.first?.firstRecord == 5 && r.unfinished.first?.have == 1 && r.unfinished.first?.expected == 9)
    }

    @Test("the pipeline names the fragments of a reassembled ATT PDU")
    func pipelineFragments() {
        let h = TraceHarness()
        let full = TraceHarness.frame(cid: 0x0004, [0x1B, 0x03, 0x00, 0x01, 0x02, 0x03])
        let r1 = h.acl(0x0040, pb: 0b10, Array(full[0..<6]), .controllerToHost)
        let r2 = h.acl(0x0040, pb: 0b01, Array(full[6...]), .controllerToHost)
        h.finish()
        #expect(h.event(r1)?.kind == .acl)
        let e = h.event(r2)
        #expect(e?.kind == .att)
        #expect(e?.layer("l2cap")?["fragments"] == .int(2))
        #expect(e?.layer("l2cap")?["first_record"] == .int(r1))
        #expect(e?.layer("att")?["value"] == .hex([1, 2, 3]))
        // Layers run down the stack: the ACL header, then L2CAP, then ATT.
        #expect(e?.layers.map(\.0).prefix(3) == ["acl", "l2cap", "att"])
    }
}
