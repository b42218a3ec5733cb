import Testing
@testable import BLETrace

/// The assigned-number tables answer exactly the names they were given, for every 16-bit key.
@Suite struct NameTableTests {
    @Test("every key finds its name and no other key finds one, however full the table")
    func answersExactlyItsEntries() {
        for size in [0, 1, 3, 8, 100, 4008] {
            var names: [UInt16: String] = [:]
            // Keys that crowd together (consecutive values, values 4096 apart) and scattered ones.
            for i in 0..<size {
                let key: UInt16
                switch i % 3 {
                case 0: key = UInt16(i / 3)
                case 1: key = UInt16(truncatingIfNeeded: (i / 3) &* 4096)
                default: key = UInt16(truncatingIfNeeded: i &* 40_503 &+ 977)
                }
                names[key] = "name \(i)"
            }
            let table = NameTable(names)
            #expect(table.count == names.count)
            var wrong = 0
            for key in 0...UInt16.max where table[key] != names[key] { wrong += 1 }
            #expect(wrong == 0, "\(size) names")
        }
    }

    @Test("the generated tables are read through it: a later line with the same value replaces an earlier one")
    func parsedTables() {
        let t = AssignedNumbers.parseTable("180F\tBattery\n180A\tDevice Information\nnot a line\n180F\tBattery Service\n")
        #expect(t.count == 2)
        #expect(t[0x180F] == "Battery Service")
        #expect(t[0x180A] == "Device Information")
        #expect(t[0x1800] == nil)
        #expect(AssignedNumbers.companyName(0x004C) == "Apple, Inc.")
        #expect(AssignedNumbers.serviceName(0x180F) == "Battery")
    }
}
