import Testing
@testable import BLETrace

/// A printable value with a trailing line ending reads as text, the ending escaped (issue #27: an ELM327's
/// "0149\r" was shown only as hex).
@Suite struct TextValueTests {
    @Test func lineEndingsAreEscaped() {
        #expect(TextValue.quoted(Array("0149\r".utf8)) == "\"0149\\r\"")
        #expect(TextValue.quoted(Array("OK\r\n".utf8)) == "\"OK\\r\\n\"")
        #expect(TextValue.quoted(Array("1.4.2".utf8)) == "\"1.4.2\"")
        // Not text: a control byte inside, only line endings, non-ASCII.
        #expect(TextValue.quoted([0x30, 0x0D, 0x31]) == nil)
        #expect(TextValue.quoted([0x0D, 0x0A]) == nil)
        #expect(TextValue.quoted([0x30, 0x31, 0xFF]) == nil)
    }

    @Test func aWriteOfACommandShowsItsString() throws {
        let h = TraceHarness()
        h.connect(0x0040, peer: 0xC4_7C_8D_6A_11_22)
        let r = h.att([0x12] + HCIBuilder.le16(0x0025) + Array("0149\r".utf8), .hostToController)
        h.finish()
        let text = try #require(h.event(r)).summary
        #expect(text.contains("30 31 34 39 0d \"0149\\r\""), "\(text)")
    }
}
