import Testing
@testable import BLETrace

/// A BR/EDR channel follows its final configuration (issue #27): asked for enhanced retransmission, refused,
/// asked again in basic mode, it carries AVCTP decoded as AVRCP.
@Suite struct ModeRetryTests {
    static func cmd(_ code: UInt8, _ id: UInt8, _ data: [UInt8]) -> [UInt8] { [code, id] + le(UInt16(data.count)) + data }
    /// The retransmission and flow control option asking for `mode`.
    static func rfc(_ mode: UInt8) -> [UInt8] { [0x04, 0x09, mode, 10, 3] + le(2000) + le(12000) + le(1000) }

    func run(retryInBasic: Bool) throws -> TraceEvent? {
        let h = TraceHarness()
        h.feed(.event, HCIBuilder.event(0x03, [0] + le(0x000C) + HCIBuilder.addr(BDAddr(0x00_1B_66_AA_BB_CC)) + [1, 0]), .controllerToHost)
        h.l2cap(0x000C, cid: 1, Self.cmd(0x02, 1, le(0x0017) + le(0x0045)), .hostToController)
        h.l2cap(0x000C, cid: 1, Self.cmd(0x03, 1, le(0x0050) + le(0x0045) + le(0) + le(0)), .controllerToHost)
        h.l2cap(0x000C, cid: 1, Self.cmd(0x04, 2, le(0x0050) + le(0) + Self.rfc(3)), .hostToController)
        if retryInBasic {
            h.l2cap(0x000C, cid: 1, Self.cmd(0x05, 2, le(0x0045) + le(0) + le(1) + Self.rfc(0)), .controllerToHost)
            h.l2cap(0x000C, cid: 1, Self.cmd(0x04, 3, le(0x0050) + le(0)), .hostToController)
            h.l2cap(0x000C, cid: 1, Self.cmd(0x05, 3, le(0x0045) + le(0) + le(0)), .controllerToHost)
        } else {
            h.l2cap(0x000C, cid: 1, Self.cmd(0x05, 2, le(0x0045) + le(0) + le(0) + Self.rfc(3)), .controllerToHost)
        }
        // The peer configures its own direction: basic after the retry, enhanced retransmission otherwise.
        h.l2cap(0x000C, cid: 1, Self.cmd(0x04, 4, le(0x0045) + le(0) + (retryInBasic ? [] : Self.rfc(3))), .controllerToHost)
        h.l2cap(0x000C, cid: 1, Self.cmd(0x05, 4, le(0x0050) + le(0) + le(0)), .hostToController)
        let play = h.l2cap(0x000C, cid: 0x0050, [0x10, 0x11, 0x0E, 0x00, 0x48, 0x7C, 0x44, 0x00], .hostToController)
        h.finish()
        return h.event(play)
    }

    @Test func aRefusedEnhancedRetransmissionRequestLeavesABasicChannel() throws {
        let e = try #require(try run(retryInBasic: true))
        #expect(e.summary == "AVRCP pass through control: Play pressed (label 1)")
        // Where enhanced retransmission was accepted the frames are I-frames, not decoded as AVCTP.
        let ertm = try #require(try run(retryInBasic: false))
        #expect(!ertm.summary.hasPrefix("AVRCP"))
    }
}
