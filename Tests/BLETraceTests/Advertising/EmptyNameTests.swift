import Testing
@testable import BLETrace

/// A local name made only of NUL padding is no name.
@Suite struct EmptyNameTests {
    @Test func nulOnlyShortNameSaysEmpty() throws {
        let ads = Array(ADSequence([0x02, 0x08, 0x00][...]))
        #expect(ads.count == 1)
        #expect(ADDecode.text(ads[0]) == "short name (empty: 1 NUL byte)")
        #expect(ADDecode.fields(ads[0])["local_name"] == .string(""))
        let named = Array(ADSequence([0x04, 0x09, 0x41, 0x42, 0x00][...]))
        #expect(ADDecode.text(named[0]) == "name \"AB\"")
    }
}
