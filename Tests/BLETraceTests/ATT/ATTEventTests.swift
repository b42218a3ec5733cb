import Testing
@testable import BLETrace

@Suite("ATT events: typed bodies")
struct ATTEventTests {
    static let peer: UInt64 = 0xC0FFEE123456
    static let out = Direction.hostToController, inn = Direction.controllerToHost

    static func body(_ h: TraceHarness, _ record: Int) -> ATTEvent? {
        guard case let .att(a)? = h.event(record)?.body else { return nil }
        return a
    }

    @Test("a Read By Type Response decodes into its (handle, value) pairs and keeps the request's type")
    func readByType() throws {
        let h = TraceHarness()
        h.connect(0x0040, peer: Self.peer)
        h.att([0x08] + le(1) + le(0xFFFF) + le(0x2A19), Self.out)
        let rsp = h.att([0x09, 0x03] + le(0x12) + [0x5A] + le(0x22) + [0x10], Self.inn)
        h.att([0x08] + le(1) + le(0xFFFF) + le(0x2803), Self.out)
        let decl = h.att([0x09, 0x07] + le(0x11) + [0x12] + le(0x12) + le(0x2A19), Self.inn)
        h.finish()
        let a = try #require(Self.body(h, rsp))
        guard case let .readByTypeResponse(entries)? = a.pdu else { Issue.record("not a Read By Type Response"); return }
        #expect(entries.map(\.handle) == [0x12, 0x22])
        #expect(entries.map { Array($0.value) } == [[0x5A], [0x10]])
        #expect(a.requestType == BLEUUID(UInt16(0x2A19)))
        var pairs: [(UInt16, [UInt8])] = []
        a.readByTypeValues { pairs.append(($0, Array($1))) }
        #expect(pairs.map(\.0) == [0x12, 0x22] && pairs.map(\.1) == [[0x5A], [0x10]])
        // Characteristic declarations are not attribute values.
        let d = try #require(Self.body(h, decl))
        var none = 0
        d.readByTypeValues { _, _ in none += 1 }
        #expect(none == 0)
        #expect(d.requestType == BLEUUID(UInt16(0x2803)))
    }

    @Test("an Error Response holds its request opcode, handle and error code, and names its request")
    func errorResponse() throws {
        let h = TraceHarness()
        h.connect(0x0040, peer: Self.peer)
        let req = h.att([0x0A] + le(0x1D), Self.out)
        let err = h.att([0x01, 0x0A] + le(0x1D) + [0x02], Self.inn, advance: 3_000)
        h.finish()
        let a = try #require(Self.body(h, err))
        guard case let .errorResponse(op, handle, code)? = a.pdu else { Issue.record("not an Error Response"); return }
        #expect(op == 0x0A && handle == 0x1D && code == 0x02)
        #expect(a.handle == 0x1D)
        #expect(a.request == ATTLink(record: req, latencyMicros: 3_000))
        #expect(a.errorName(code) == "Read Not Permitted")
        #expect(a.malformedReason == nil && !a.fromClient)
    }

    @Test("a response names its request; the request gets its response record and latency later")
    func transactionLinks() throws {
        let h = TraceHarness()
        h.connect(0x0040, peer: Self.peer)
        let req = h.att([0x12] + le(0x13) + [0x01, 0x00], Self.out)
        let rsp = h.att([0x13], Self.inn, advance: 4_500)
        let orphan = h.att([0x13], Self.inn)
        let last = h.att([0x0A] + le(0x03), Self.out)
        h.finish()
        let q = try #require(Self.body(h, req)), r = try #require(Self.body(h, rsp))
        #expect(q.response == ATTLink(record: rsp, latencyMicros: 4_500))
        #expect(q.request == nil && q.unanswered == nil)
        #expect(r.request == ATTLink(record: req, latencyMicros: 4_500))
        // A Write Response has no handle of its own: it is its request's.
        #expect(r.handle == 0x13)
        #expect(Self.body(h, orphan)?.unexpected == .nothingPending(indication: false))
        #expect(Self.body(h, last)?.unanswered == .endOfCapture)
        #expect(h.event(req)?.summary.hasSuffix(" [response at record \(rsp)]") == true)
    }

    @Test("the GATT context points at the characteristic, its service and descriptors as discovered")
    func gattContext() throws {
        let h = TraceHarness()
        h.connect(0x0040, peer: Self.peer)
        ATTLayerTests.discover(h)
        let read = h.att([0x0A] + le(0x12), Self.out)
        let rsp = h.att([0x0B, 0x5A], Self.inn)
        let cccd = h.att([0x12] + le(0x13) + [0x01, 0x00], Self.out)
        h.finish()
        let r = try #require(Self.body(h, rsp))
        #expect(r.handle == 0x12)
        let loc = try #require(r.gattLocation)
        #expect(loc.role == .value)
        #expect(loc.characteristic?.uuid == BLEUUID(UInt16(0x2A19)) && loc.characteristic?.valueHandle == 0x12)
        #expect(loc.service?.uuid == BLEUUID(UInt16(0x180F)) && loc.service?.start == 0x10)
        #expect(Self.body(h, read)?.gattLocation?.characteristic?.uuid == BLEUUID(UInt16(0x2A19)))
        // The decoded value is typed: the battery dissector's.
        #expect(r.decoded?.dissector == "battery")
        let c = try #require(Self.body(h, cccd)?.gattLocation)
        #expect(c.role == .descriptor && c.descriptor?.uuid == BLEUUID(UInt16(0x2902)) && c.descriptor?.handle == 0x13)
        #expect(c.characteristic?.uuid == BLEUUID(UInt16(0x2A19)))
        // A server whose discovery the capture does not show: nothing to name.
        let other = TraceHarness()
        other.connect(0x0041, peer: Self.peer + 1)
        let unknown = other.att([0x0A] + le(0x99), Self.out, handle: 0x0041)
        other.finish()
        #expect(Self.body(other, unknown)?.handle == 0x99)
        #expect(Self.body(other, unknown)?.gattLocation == nil)
    }

    @Test("MTU exchange and malformed PDUs are facts, not text")
    func mtuAndMalformed() throws {
        let h = TraceHarness()
        h.connect(0x0040, peer: Self.peer)
        h.att([0x02] + le(247), Self.out)
        let rsp = h.att([0x03] + le(185), Self.inn)
        let bad = h.att([0x0A, 0x01], Self.out)
        h.finish()
        #expect(Self.body(h, rsp)?.attMTU == 185)
        let m = try #require(Self.body(h, bad))
        guard case let .malformed(op, _, data) = m.content else { Issue.record("not malformed"); return }
        #expect(op == 0x0A && Array(data) == [0x0A, 0x01])
        #expect(h.event(bad)?.malformed != nil && h.event(bad)?.kind == .att)
    }

    @Test("the common event stays small: rare facts live out of line")
    func size() {
        #expect(MemoryLayout<ATTEvent>.size <= 300, "\(MemoryLayout<ATTEvent>.size)")
    }
}
