import Testing
@testable import BLETrace

/// A service's application error is named from the decoded value itself (the ATT error list and the
/// `application_error` diagnosis read it), the way the value's JSON shows it.
@Suite struct ServiceErrorNameTests {
    /// The name as the value's fields give it: the member object that holds `error_name`, by its key.
    static func fromFields(_ d: Dissection) -> String? {
        for (key, value) in d.fields.items {
            if let name = value.objectValue?["error_name"]?.stringValue { return key.uppercased() + " " + name }
        }
        return nil
    }

    @Test("ANCS and LE Audio service errors are named as their fields name them; other values have no name")
    func names() {
        let ancs = Dissection("ancs", value: ANCSValue.error(code: 0xA1, command: nil))
        #expect(ATTLayer.serviceErrorName(ancs) == "ANCS Invalid command")
        #expect(ATTLayer.serviceErrorName(ancs) == Self.fromFields(ancs))
        let reserved = Dissection("ancs", value: ANCSValue.error(code: 0xA7, command: nil))
        #expect(ATTLayer.serviceErrorName(reserved) == "ANCS reserved")
        for (service, code, name) in [("VCS", UInt8(0x80), "Invalid Change Counter"), ("AICS", 0x82, "Mute Disabled"),
                                      ("CSIS", 0x84, "Lock Already Granted"), ("BASS", 0x81, "Invalid Source_ID")] {
            let d = Dissection("audio", value: AudioServiceError(service: service, code: code))
            #expect(ATTLayer.serviceErrorName(d) == "\(service) \(name)")
            #expect(ATTLayer.serviceErrorName(d) == Self.fromFields(d))
        }
        // A descriptor's value names what the value it wraps names.
        let described = Dissection("audio", value: DescribedValue(inner: AudioServiceError(service: "VOCS", code: 0x82),
                                                                 characteristic: BLEUUID(UInt16(0x2B80))))
        #expect(ATTLayer.serviceErrorName(described) == "VOCS Value Out of Range")
        #expect(ATTLayer.serviceErrorName(Dissection("battery", value: BatteryReading(percent: 90))) == nil)
        #expect(ATTLayer.serviceErrorName(Dissection("ancs", value: ANCSValue.invalidDataSource)) == nil)
    }
}
