/// One AD structure (Core Specification Supplement, Part A) from advertising or scan-response data.
public struct ADStructure: Sendable, Equatable {
    public var type: UInt8
    /// The structure's data (after the length and type bytes), sharing the payload's storage.
    public var data: ArraySlice<UInt8>
    /// Set when the structure's length ran past the payload; `data` then holds the rest of the payload
    /// (from the length byte on).
    public var malformed: ADOverrun?

    public init(type: UInt8, data: ArraySlice<UInt8>, malformed: ADOverrun? = nil) {
        self.type = type
        self.data = data
        self.malformed = malformed
    }
}

/// An AD structure whose length byte runs past the payload: the length, and the bytes that were left after it.
public struct ADOverrun: Sendable, Equatable, CustomStringConvertible {
    public var length: Int
    public var left: Int

    public var description: String { TextBytes.string { write(into: &$0) } }

    /// "AD structure length 9 runs past the payload (4 bytes left)"
    func write(into b: inout TextBytes) {
        b.append(string: "AD structure length ")
        b.append(decimal: length)
        b.append(string: " runs past the payload (")
        b.append(decimal: left)
        b.append(string: left == 1 ? " byte left)" : " bytes left)")
    }
}

/// The AD structures of a payload, in order, without copying. Zero-length structures are padding and are
/// skipped; a structure whose length runs past the payload comes last, flagged malformed, holding the rest
/// of the payload.
public struct ADSequence: Sequence, IteratorProtocol {
    let payload: ArraySlice<UInt8>
    var index: Int

    public init(_ payload: ArraySlice<UInt8>) {
        self.payload = payload
        self.index = payload.startIndex
    }

    public mutating func next() -> ADStructure? {
        while index < payload.endIndex {
            let len = Int(payload[index])
            if len == 0 { index += 1; continue }
            let left = payload.endIndex - index - 1
            if len > left {
                let rest = payload[index...]
                let type = left > 0 ? payload[index + 1] : 0
                index = payload.endIndex
                return ADStructure(type: type, data: rest, malformed: ADOverrun(length: len, left: left))
            }
            let s = ADStructure(type: payload[index + 1], data: payload[(index + 2)..<(index + 1 + len)])
            index += 1 + len
            return s
        }
        return nil
    }

    /// Whether a structure of `payload` runs past its end (the one `next()` flags malformed), found by stepping over
    /// the lengths without making the structures.
    public static func overruns(_ payload: ArraySlice<UInt8>) -> Bool {
        var i = payload.startIndex
        while i < payload.endIndex {
            let len = Int(payload[i])
            if len > payload.endIndex &- i &- 1 { return true }
            i &+= 1 &+ len
        }
        return false
    }

    /// Whether a structure of `payload` has a type `matches` accepts, read as `next()` reads them (an overrun
    /// structure with no type byte has type 0) without making the structures.
    public static func contains(_ payload: ArraySlice<UInt8>, type matches: (UInt8) -> Bool) -> Bool {
        var i = payload.startIndex
        while i < payload.endIndex {
            let len = Int(payload[i])
            if len == 0 { i += 1; continue }
            guard i + 1 < payload.endIndex else { return matches(0) }
            if matches(payload[i + 1]) { return true }
            i += 1 + len
        }
        return false
    }
}

/// Splits advertising data into AD structures and renders them.
public enum ADParser {
    /// Parses `length type data…` structures (see `ADSequence`).
    public static func parse(_ payload: ArraySlice<UInt8>) -> [ADStructure] {
        Array(ADSequence(payload))
    }

    public static func parse(_ payload: [UInt8]) -> [ADStructure] { parse(payload[...]) }

    public static func typeName(_ t: UInt8) -> String {
        switch t {
        case 0x01: return "Flags"
        case 0x02: return "Incomplete List of 16-bit Service UUIDs"
        case 0x03: return "Complete List of 16-bit Service UUIDs"
        case 0x04: return "Incomplete List of 32-bit Service UUIDs"
        case 0x05: return "Complete List of 32-bit Service UUIDs"
        case 0x06: return "Incomplete List of 128-bit Service UUIDs"
        case 0x07: return "Complete List of 128-bit Service UUIDs"
        case 0x08: return "Shortened Local Name"
        case 0x09: return "Complete Local Name"
        case 0x0A: return "Tx Power Level"
        case 0x0D: return "Class of Device"
        case 0x0E: return "Simple Pairing Hash C-192"
        case 0x0F: return "Simple Pairing Randomizer R-192"
        case 0x10: return "Device ID / Security Manager TK Value"
        case 0x11: return "Security Manager Out of Band Flags"
        case 0x12: return "Peripheral Connection Interval Range"
        case 0x14: return "List of 16-bit Service Solicitation UUIDs"
        case 0x15: return "List of 128-bit Service Solicitation UUIDs"
        case 0x16: return "Service Data - 16-bit UUID"
        case 0x17: return "Public Target Address"
        case 0x18: return "Random Target Address"
        case 0x19: return "Appearance"
        case 0x1A: return "Advertising Interval"
        case 0x1B: return "LE Bluetooth Device Address"
        case 0x1C: return "LE Role"
        case 0x1D: return "Simple Pairing Hash C-256"
        case 0x1E: return "Simple Pairing Randomizer R-256"
        case 0x1F: return "List of 32-bit Service Solicitation UUIDs"
        case 0x20: return "Service Data - 32-bit UUID"
        case 0x21: return "Service Data - 128-bit UUID"
        case 0x22: return "LE Secure Connections Confirmation Value"
        case 0x23: return "LE Secure Connections Random Value"
        case 0x24: return "URI"
        case 0x25: return "Indoor Positioning"
        case 0x26: return "Transport Discovery Data"
        case 0x27: return "LE Supported Features"
        case 0x28: return "Channel Map Update Indication"
        case 0x29: return "PB-ADV"
        case 0x2A: return "Mesh Message"
        case 0x2B: return "Mesh Beacon"
        case 0x2C: return "BIGInfo"
        case 0x2D: return "Broadcast_Code"
        case 0x2E: return "Resolvable Set Identifier"
        case 0x2F: return "Advertising Interval - long"
        case 0x30: return "Broadcast_Name"
        case 0x31: return "Encrypted Advertising Data"
        case 0x32: return "Periodic Advertising Response Timing Information"
        case 0x34: return "Electronic Shelf Label"
        case 0x3D: return "3D Information Data"
        case 0xFF: return "Manufacturer Specific Data"
        default: return "AD type \(Hex.hex(t, width: 2))"
        }
    }

    /// The JSON form and the one-line text of a decoded list. `rssi` (of the report carrying the data, if
    /// any) feeds beacon distance estimates.
    public static func describe(_ ads: [ADStructure], rssi: Int? = nil) -> (fields: FieldValue, text: String) {
        if ads.isEmpty { return (.list([]), "no data") }
        var list: [FieldValue] = []
        list.reserveCapacity(ads.count)
        var text = ""
        for ad in ads {
            let d = ADDecode.describe(ad, rssi: rssi)
            list.append(.object(d.fields))
            if !text.isEmpty { text += ", " }
            text += d.text
        }
        return (.list(list), text)
    }

    /// The JSON form: a list of `{type, name, data, …decoded}`.
    public static func fields(_ ads: [ADStructure], rssi: Int? = nil) -> FieldValue { describe(ads, rssi: rssi).fields }

    /// A compact one-line rendering: `name "Foo", flags 0x06, services 180F (Battery), …`.
    public static func summary(_ ads: [ADStructure], rssi: Int? = nil) -> String { describe(ads, rssi: rssi).text }
}
