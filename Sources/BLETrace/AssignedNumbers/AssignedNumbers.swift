// Bluetooth SIG assigned numbers: names for 16-bit UUIDs, company identifiers,
// units, appearance values and presentation-format types.
//
// The tables live in the other files of this folder, which
// scripts/gen-assigned-numbers.py generates. Each is one string literal of
// `HEX<TAB>Name` lines, parsed the first time it is used (a `static let` is
// initialised lazily and thread-safely), because large dictionary literals make
// the Swift type checker very slow.

/// Names from the Bluetooth SIG Assigned Numbers document.
enum AssignedNumbers {
    /// GATT service name for a SIG-assigned 16-bit UUID, e.g. 0x180F "Battery".
    /// Falls back to `memberServiceName(_:)` for UUIDs the SIG assigned to member
    /// companies (0xFC..-0xFEFF), which are named after the company.
    static func serviceName(_ uuid16: UInt16) -> String? {
        serviceTable[uuid16] ?? memberServiceName(uuid16)
    }

    /// GATT characteristic name, e.g. 0x2A19 "Battery Level".
    static func characteristicName(_ uuid16: UInt16) -> String? {
        characteristicTable[uuid16]
    }

    /// GATT descriptor name, e.g. 0x2902 "Client Characteristic Configuration".
    static func descriptorName(_ uuid16: UInt16) -> String? {
        descriptorTable[uuid16]
    }

    /// GATT declaration (attribute type) name, e.g. 0x2800 "Primary Service".
    static func declarationName(_ uuid16: UInt16) -> String? {
        declarationTable[uuid16]
    }

    /// Name of the member company a 16-bit service UUID was assigned to,
    /// e.g. 0xFEAA "Google LLC" (Eddystone).
    static func memberServiceName(_ uuid16: UInt16) -> String? {
        memberServiceTable[uuid16]
    }

    /// Any name a 16-bit UUID has, looked up in this order: declaration,
    /// service, characteristic, descriptor, member service, unit.
    static func uuidName(_ uuid16: UInt16) -> String? {
        declarationTable[uuid16]
            ?? serviceTable[uuid16]
            ?? characteristicTable[uuid16]
            ?? descriptorTable[uuid16]
            ?? memberServiceTable[uuid16]
            ?? unitTable[uuid16]
    }

    /// Company name for a Bluetooth company identifier, e.g. 0x004C "Apple, Inc.".
    static func companyName(_ id: UInt16) -> String? {
        companyTable[id]
    }

    /// Unit name for a unit UUID (0x27xx), e.g. 0x27AD "percentage".
    static func unitName(_ uuid16: UInt16) -> String? {
        unitTable[uuid16]
    }

    /// Appearance category and subcategory. The value is `category << 6 | subcategory`.
    /// Returns nil for an unassigned category; a subcategory of 0 or one the SIG
    /// has not assigned gives `(category, nil)`.
    static func appearance(_ value: UInt16) -> (category: String, subcategory: String?)? {
        guard let category = appearanceCategoryTable[value >> 6] else { return nil }
        return (category, appearanceSubcategoryTable[value])
    }

    /// Characteristic Presentation Format type name, e.g. 0x04 "uint8", 0x19 "utf8s".
    static func formatName(_ format: UInt8) -> String? {
        formatTable[UInt16(format)]
    }

    /// Parses `HEX<TAB>Name` lines into a dictionary. Lines that do not have that
    /// shape are skipped; the tests compare each table's size with the entry
    /// count the generator wrote, so a skipped line fails them.
    static func parseTable(_ text: String) -> [UInt16: String] {
        var table: [UInt16: String] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let tab = line.firstIndex(of: "\t"),
                  let key = UInt16(line[..<tab], radix: 16)
            else { continue }
            let name = line[line.index(after: tab)...]
            guard !name.isEmpty else { continue }
            table[key] = String(name)
        }
        return table
    }
}
