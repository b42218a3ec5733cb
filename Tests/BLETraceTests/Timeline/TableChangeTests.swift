import Testing
@testable import BLETrace

/// `modifyValue` changes a stored value in place and leaves a missing key missing.
@Suite struct TableChangeTests {
    struct Entry: Equatable {
        var count = 0
        var last: Int?
    }

    @Test("a stored value changes in place; a missing one stays missing and the change is not run")
    func changesOnlyWhatIsThere() {
        var table: [Int: Entry] = [1: Entry(), 2: Entry(count: 5)]
        let returned = table.modifyValue(forKey: 2) { e -> Int in
            e.count += 1
            e.last = 40
            return e.count
        }
        #expect(returned == 6)
        #expect(table[2] == Entry(count: 6, last: 40))
        #expect(table[1] == Entry())
        var ran = false
        let missing: Void? = table.modifyValue(forKey: 3) { _ in ran = true }
        #expect(missing == nil)
        #expect(!ran)
        #expect(table[3] == nil)
        #expect(table.count == 2)
        // A nested table changed through its entry.
        var nested: [Int: [UInt16: Int]] = [7: [0x10: 1, 0x11: 2]]
        let emptied = nested.modifyValue(forKey: 7) { t in t.removeValue(forKey: 0x10) != nil && t.isEmpty }
        #expect(emptied == false)
        #expect(nested[7] == [0x11: 2])
    }
}
