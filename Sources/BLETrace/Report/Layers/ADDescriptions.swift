/// The text and JSON of advertising data's AD structures, parsed from the bytes when an event is rendered.
enum ADDescriptions {
    /// The one-line text of the AD structures of `data` (`ADParser.describe`).
    static func text(_ data: ArraySlice<UInt8>, rssi: Int?) -> String {
        ADParser.describe(ADParser.parse(data), rssi: rssi).text
    }

    /// The JSON list of the AD structures of `data` (`ADParser.describe`).
    static func fields(_ data: ArraySlice<UInt8>, rssi: Int?) -> FieldValue {
        ADParser.describe(ADParser.parse(data), rssi: rssi).fields
    }
}
