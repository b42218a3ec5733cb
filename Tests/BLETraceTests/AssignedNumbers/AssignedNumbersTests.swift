import Testing
@testable import BLETrace

@Suite("Assigned numbers")
struct AssignedNumbersTests {
    // Every generated table parses to exactly as many entries as the generator
    // wrote, so a malformed line (bad escape, stray tab, lost newline) is caught.
    @Test func tablesParseCompletely() {
        #expect(AssignedNumbers.declarationTable.count == AssignedNumbers.declarationTableEntryCount)
        #expect(AssignedNumbers.serviceTable.count == AssignedNumbers.serviceTableEntryCount)
        #expect(AssignedNumbers.memberServiceTable.count == AssignedNumbers.memberServiceTableEntryCount)
        #expect(AssignedNumbers.characteristicTable.count == AssignedNumbers.characteristicTableEntryCount)
        #expect(AssignedNumbers.descriptorTable.count == AssignedNumbers.descriptorTableEntryCount)
        #expect(AssignedNumbers.unitTable.count == AssignedNumbers.unitTableEntryCount)
        #expect(AssignedNumbers.companyTable.count == AssignedNumbers.companyTableEntryCount)
        #expect(AssignedNumbers.formatTable.count == AssignedNumbers.formatTableEntryCount)
        #expect(AssignedNumbers.appearanceCategoryTable.count == AssignedNumbers.appearanceCategoryTableEntryCount)
        #expect(AssignedNumbers.appearanceSubcategoryTable.count
            == AssignedNumbers.appearanceSubcategoryTableEntryCount)
        #expect(AssignedNumbers.serviceClassTable.count == AssignedNumbers.serviceClassTableEntryCount)
        #expect(AssignedNumbers.protocolTable.count == AssignedNumbers.protocolTableEntryCount)
    }

    /// The classic side's service classes and protocols (issue #27: 0x1111 Fax was unnamed).
    @Test func serviceClassesAndProtocols() {
        #expect(AssignedNumbers.serviceClassTable.count >= 70 && AssignedNumbers.protocolTable.count >= 20)
        #expect(AssignedNumbers.serviceName(0x1111) == "Fax")
        #expect(ClassicProfileNames.serviceClass(0x1111) == "Fax")
        #expect(ClassicProfileNames.serviceClass(0x1102) == "LAN Access Using PPP")
        #expect(ClassicProfileNames.serviceClass(0x1200) == "PnP Information")
        #expect(ClassicProfileNames.serviceClass(0x000E) == AssignedNumbers.protocolName(0x000E))
        #expect(AssignedNumbers.protocolName(0x0003) == "RFCOMM")
        // GATT names come first: 0x180F stays Battery.
        #expect(AssignedNumbers.serviceName(0x180F) == "Battery")
    }

    @Test func tablesAreNotTruncated() {
        // Lower bounds well under the current SIG list sizes.
        #expect(AssignedNumbers.serviceTable.count >= 70)
        #expect(AssignedNumbers.memberServiceTable.count >= 600)
        #expect(AssignedNumbers.characteristicTable.count >= 450)
        #expect(AssignedNumbers.descriptorTable.count >= 20)
        #expect(AssignedNumbers.unitTable.count >= 120)
        #expect(AssignedNumbers.companyTable.count >= 3500)
        #expect(AssignedNumbers.formatTable.count == 28)
        #expect(AssignedNumbers.appearanceCategoryTable.count >= 50)
        #expect(AssignedNumbers.appearanceSubcategoryTable.count >= 250)
    }

    @Test func services() {
        #expect(AssignedNumbers.serviceName(0x1800) == "Generic Access")
        #expect(AssignedNumbers.serviceName(0x1801) == "Generic Attribute")
        #expect(AssignedNumbers.serviceName(0x180A) == "Device Information")
        #expect(AssignedNumbers.serviceName(0x180D) == "Heart Rate")
        #expect(AssignedNumbers.serviceName(0x180F) == "Battery")
        #expect(AssignedNumbers.serviceName(0x1812) == "Human Interface Device")
        #expect(AssignedNumbers.serviceName(0x1855) == "Telephony and Media Audio")
        #expect(AssignedNumbers.serviceName(0x180B) == nil)
        #expect(AssignedNumbers.serviceName(0x1817) == nil)
        #expect(AssignedNumbers.serviceName(0x2A19) == nil)
    }

    @Test func memberServices() {
        #expect(AssignedNumbers.memberServiceName(0xFEAA) == "Google LLC")  // Eddystone
        #expect(AssignedNumbers.memberServiceName(0xFE59) == "Nordic Semiconductor ASA")  // Secure DFU
        #expect(AssignedNumbers.memberServiceName(0xFEFF) == "GN Netcom")
        #expect(AssignedNumbers.memberServiceName(0xFD6F) == "Apple, Inc.")  // Exposure Notification
        #expect(AssignedNumbers.memberServiceName(0xFCE0) == "Akciju sabiedriba \"SAF TEHNIKA\"")
        #expect(AssignedNumbers.memberServiceName(0x180F) == nil)
        #expect(AssignedNumbers.memberServiceName(0xFF00) == nil)
        // serviceName falls back to the member list.
        #expect(AssignedNumbers.serviceName(0xFEAA) == "Google LLC")
        #expect(AssignedNumbers.serviceName(0xFEFE) == "GN Hearing A/S")
    }

    @Test func characteristics() {
        #expect(AssignedNumbers.characteristicName(0x2A00) == "Device Name")
        #expect(AssignedNumbers.characteristicName(0x2A01) == "Appearance")
        #expect(AssignedNumbers.characteristicName(0x2A05) == "Service Changed")
        #expect(AssignedNumbers.characteristicName(0x2A19) == "Battery Level")
        #expect(AssignedNumbers.characteristicName(0x2A23) == "System ID")
        #expect(AssignedNumbers.characteristicName(0x2A29) == "Manufacturer Name String")
        #expect(AssignedNumbers.characteristicName(0x2A37) == "Heart Rate Measurement")
        #expect(AssignedNumbers.characteristicName(0x2A50) == "PnP ID")
        #expect(AssignedNumbers.characteristicName(0x2A6E) == "Temperature")
        #expect(AssignedNumbers.characteristicName(0x2B2A) == "Database Hash")
        #expect(AssignedNumbers.characteristicName(0x2B8C) == "CO2 Concentration")
        #expect(AssignedNumbers.characteristicName(0x2A0B) == nil)  // Exact Time 100, withdrawn
        #expect(AssignedNumbers.characteristicName(0x2902) == nil)
        #expect(AssignedNumbers.characteristicName(0x0000) == nil)
    }

    @Test func descriptors() {
        #expect(AssignedNumbers.descriptorName(0x2900) == "Characteristic Extended Properties")
        #expect(AssignedNumbers.descriptorName(0x2901) == "Characteristic User Description")
        #expect(AssignedNumbers.descriptorName(0x2902) == "Client Characteristic Configuration")
        #expect(AssignedNumbers.descriptorName(0x2904) == "Characteristic Presentation Format")
        #expect(AssignedNumbers.descriptorName(0x2908) == "Report Reference")
        #expect(AssignedNumbers.descriptorName(0x29FF) == nil)
        #expect(AssignedNumbers.descriptorName(0x2A19) == nil)
    }

    @Test func declarations() {
        #expect(AssignedNumbers.declarationName(0x2800) == "Primary Service")
        #expect(AssignedNumbers.declarationName(0x2801) == "Secondary Service")
        #expect(AssignedNumbers.declarationName(0x2802) == "Include")
        #expect(AssignedNumbers.declarationName(0x2803) == "Characteristic")
        #expect(AssignedNumbers.declarationName(0x2804) == nil)
        #expect(AssignedNumbers.declarationName(0x1800) == nil)
    }

    @Test func uuidNameSearchesEveryTable() {
        #expect(AssignedNumbers.uuidName(0x2803) == "Characteristic")
        #expect(AssignedNumbers.uuidName(0x180F) == "Battery")
        #expect(AssignedNumbers.uuidName(0x2A19) == "Battery Level")
        #expect(AssignedNumbers.uuidName(0x2902) == "Client Characteristic Configuration")
        #expect(AssignedNumbers.uuidName(0xFEAA) == "Google LLC")
        #expect(AssignedNumbers.uuidName(0x27AD) == "percentage")
        #expect(AssignedNumbers.uuidName(0x0000) == nil)
        #expect(AssignedNumbers.uuidName(0xFFFF) == nil)
    }

    @Test func companies() {
        #expect(AssignedNumbers.companyName(0x0000) == "Ericsson AB")
        #expect(AssignedNumbers.companyName(0x0002) == "Intel Corp.")
        #expect(AssignedNumbers.companyName(0x0006) == "Microsoft")
        #expect(AssignedNumbers.companyName(0x000F) == "Broadcom Corporation")
        #expect(AssignedNumbers.companyName(0x004C) == "Apple, Inc.")
        #expect(AssignedNumbers.companyName(0x0059) == "Nordic Semiconductor ASA")
        #expect(AssignedNumbers.companyName(0x0075) == "Samsung Electronics Co. Ltd.")
        #expect(AssignedNumbers.companyName(0x00E0) == "Google")
        #expect(AssignedNumbers.companyName(0x0702) == "Akciju sabiedriba \"SAF TEHNIKA\"")
        #expect(AssignedNumbers.companyName(0xFFFF) == nil)
    }

    @Test func units() {
        #expect(AssignedNumbers.unitName(0x2700) == "unitless")
        #expect(AssignedNumbers.unitName(0x2701) == "length (metre)")
        #expect(AssignedNumbers.unitName(0x272F) == "Celsius temperature (degree Celsius)")
        #expect(AssignedNumbers.unitName(0x27AD) == "percentage")
        #expect(AssignedNumbers.unitName(0x2728) == "electric potential difference (volt)")
        #expect(AssignedNumbers.unitName(0x27C9) == "Gravity (gn)")
        #expect(AssignedNumbers.unitName(0x2708) == nil)
        #expect(AssignedNumbers.unitName(0x2800) == nil)
    }

    @Test func appearance() throws {
        let unknown = try #require(AssignedNumbers.appearance(0x0000))
        #expect(unknown.category == "Unknown" && unknown.subcategory == nil)

        let phone = try #require(AssignedNumbers.appearance(0x0040))
        #expect(phone.category == "Phone" && phone.subcategory == nil)

        let sportsWatch = try #require(AssignedNumbers.appearance(0x00C1))
        #expect(sportsWatch.category == "Watch" && sportsWatch.subcategory == "Sports Watch")

        let smartwatch = try #require(AssignedNumbers.appearance(0x00C2))
        #expect(smartwatch.category == "Watch" && smartwatch.subcategory == "Smartwatch")

        let keyboard = try #require(AssignedNumbers.appearance(0x03C1))
        #expect(keyboard.category == "Human Interface Device" && keyboard.subcategory == "Keyboard")

        let mouse = try #require(AssignedNumbers.appearance(0x03C2))
        #expect(mouse.category == "Human Interface Device" && mouse.subcategory == "Mouse")

        let earbud = try #require(AssignedNumbers.appearance(0x0941))
        #expect(earbud.category == "Wearable Audio Device" && earbud.subcategory == "Earbud")

        // Unassigned subcategory of an assigned category: category only.
        let oddWatch = try #require(AssignedNumbers.appearance(0x00FF))
        #expect(oddWatch.category == "Watch" && oddWatch.subcategory == nil)

        // Unassigned categories.
        #expect(AssignedNumbers.appearance(0x0B00) == nil)  // category 0x02C
        #expect(AssignedNumbers.appearance(0xFFC0) == nil)  // category 0x3FF
    }

    @Test func formats() {
        #expect(AssignedNumbers.formatName(0x01) == "boolean")
        #expect(AssignedNumbers.formatName(0x04) == "uint8")
        #expect(AssignedNumbers.formatName(0x06) == "uint16")
        #expect(AssignedNumbers.formatName(0x0E) == "sint16")
        #expect(AssignedNumbers.formatName(0x14) == "float32")
        #expect(AssignedNumbers.formatName(0x16) == "medfloat16")
        #expect(AssignedNumbers.formatName(0x18) == "uint16[2]")
        #expect(AssignedNumbers.formatName(0x19) == "utf8s")
        #expect(AssignedNumbers.formatName(0x1C) == "medASN1")
        #expect(AssignedNumbers.formatName(0x00) == nil)
        #expect(AssignedNumbers.formatName(0x1D) == nil)
        #expect(AssignedNumbers.formatName(0xFF) == nil)
    }

    @Test func parserSkipsMalformedLines() {
        let table = AssignedNumbers.parseTable("0001\tOne\nzz\tBad\n0002\n\n0003\t\n00FF\tA \"quoted\" \\ name")
        #expect(table.count == 2)
        #expect(table[0x0001] == "One")
        #expect(table[0x00FF] == "A \"quoted\" \\ name")
        #expect(table[0x0002] == nil && table[0x0003] == nil)
    }
}
