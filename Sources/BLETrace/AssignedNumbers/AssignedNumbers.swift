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
        serviceTable[uuid16] ?? memberServiceName(uuid16) ?? serviceClassTable[uuid16]
    }

    /// Service class name of the classic side (SDP, EIR), e.g. 0x1111 "Fax".
    static func serviceClassName(_ uuid16: UInt16) -> String? { serviceClassTable[uuid16] }

    /// Protocol name of an SDP protocol descriptor, e.g. 0x0017 "AVCTP".
    static func protocolName(_ uuid16: UInt16) -> String? { protocolTable[uuid16] }

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

    /// Parses `HEX<TAB>Name` lines into a table (a later line with the same value replaces an earlier one).
    /// Lines that do not have that shape are skipped; the tests compare each table's size with the entry
    /// count the generator wrote, so a skipped line fails them.
    static func parseTable(_ text: String) -> NameTable {
        var table: [UInt16: String] = [:]
        var text = text
        text.withUTF8 { bytes in
            table.reserveCapacity(bytes.count / 24)
            var i = 0
            while i < bytes.count {
                var end = i
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                defer { i = end + 1 }
                // Key: hexadecimal digits up to the tab.
                var key: UInt32 = 0, j = i, digits = 0
                while j < end, let d = hexDigit(bytes[j]) { key = key << 4 | UInt32(d); j += 1; digits += 1 }
                guard digits > 0, digits <= 4, j < end, bytes[j] == 0x09, j + 1 < end else { continue }
                table[UInt16(key)] = String(decoding: UnsafeBufferPointer(rebasing: bytes[(j + 1)..<end]), as: UTF8.self)
            }
        }
        return NameTable(table)
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}
