/// A Bluetooth UUID, held as 128 bits. 16- and 32-bit UUIDs are aliases within the Bluetooth Base UUID
/// 00000000-0000-1000-8000-00805F9B34FB.
public struct BLEUUID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB
    static let baseHighLow32: UInt64 = 0x0000_1000

    public init(high: UInt64, low: UInt64) { self.high = high; self.low = low }

    public init(_ short: UInt16) { self.init(UInt32(short)) }

    public init(_ short: UInt32) {
        high = UInt64(short) << 32 | BLEUUID.baseHighLow32
        low = BLEUUID.baseLow
    }

    /// From 2, 4 or 16 bytes in little-endian (wire) order.
    public init?(littleEndian bytes: ArraySlice<UInt8>) {
        var c = ByteCursor(bytes)
        switch bytes.count {
        case 2: guard let v = try? c.u16le() else { return nil }; self.init(v)
        case 4: guard let v = try? c.u32le() else { return nil }; self.init(v)
        case 16:
            guard let lo = try? c.u64le(), let hi = try? c.u64le() else { return nil }
            self.init(high: hi, low: lo)
        default: return nil
        }
    }

    /// From 16 bytes in big-endian (canonical text) order, as iBeacon carries its proximity UUID.
    public init?(bigEndian bytes: ArraySlice<UInt8>) {
        guard bytes.count == 16 else { return nil }
        self.init(littleEndian: ArraySlice(bytes.reversed()))
    }

    /// Parses "180F", "0x180F", "0000180f" or the canonical 36-character form.
    public init?(string: String) {
        var s = string.uppercased()
        if s.hasPrefix("0X") { s.removeFirst(2) }
        let hex = s.filter { $0 != "-" }
        if hex.count == 4, let v = UInt16(hex, radix: 16) { self.init(v); return }
        if hex.count == 8, let v = UInt32(hex, radix: 16) { self.init(v); return }
        guard hex.count == 32, s.count == 32 || s.count == 36,
              let hi = UInt64(hex.prefix(16), radix: 16), let lo = UInt64(hex.suffix(16), radix: 16) else { return nil }
        self.init(high: hi, low: lo)
    }

    /// The 16-bit alias, when this UUID is one.
    public var uuid16: UInt16? {
        guard low == BLEUUID.baseLow, high & 0xFFFF_FFFF == BLEUUID.baseHighLow32, high >> 48 == 0 else { return nil }
        return UInt16(truncatingIfNeeded: high >> 32)
    }

    /// The 32-bit alias, when this UUID is one.
    public var uuid32: UInt32? {
        guard low == BLEUUID.baseLow, high & 0xFFFF_FFFF == BLEUUID.baseHighLow32 else { return nil }
        return UInt32(truncatingIfNeeded: high >> 32)
    }

    /// Canonical upper-case text: "0000180F-0000-1000-8000-00805F9B34FB".
    public var canonical: String {
        // Written straight into the string's storage: always 36 bytes.
        String(unsafeUninitializedCapacity: 36) { out in
            var n = 0
            for i in 0..<32 {
                if i == 8 || i == 12 || i == 16 || i == 20 { out[n] = UInt8(ascii: "-"); n += 1 }
                let word = i < 16 ? high : low
                let shift = UInt64(60 - 4 * (i % 16))
                out[n] = Hex.upper(Int(truncatingIfNeeded: word >> shift))
                n += 1
            }
            return n
        }
    }

    /// `description`'s bytes, made on the stack, lent to `body`.
    @inline(__always) public func withText<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { out in
            var n = 0
            if low == BLEUUID.baseLow && high & 0xFFFF_FFFF == BLEUUID.baseHighLow32 {
                let v = high >> 32
                var i = v >> 16 == 0 ? 3 : 7
                while i >= 0 {
                    out[n] = Hex.upper(Int(truncatingIfNeeded: v >> UInt64(4 * i)))
                    n += 1
                    i -= 1
                }
            } else {
                for i in 0..<32 {
                    if i == 8 || i == 12 || i == 16 || i == 20 { out[n] = UInt8(ascii: "-"); n += 1 }
                    let word = i < 16 ? high : low
                    out[n] = Hex.upper(Int(truncatingIfNeeded: word >> UInt64(60 - 4 * (i % 16))))
                    n += 1
                }
            }
            return body(UnsafeBufferPointer(rebasing: out[0..<n]))
        }
    }

    /// The short form for SIG UUIDs ("180F"), the canonical form otherwise.
    public var description: String {
        withText { String(decoding: $0, as: UTF8.self) }
    }

    /// For summaries: "180F (Battery)" style names where known (`TextBytes.append(shortName:)` writes it).
    public var shortName: String {
        var b = TextBytes(capacity: 64)
        b.append(shortName: self)
        return b.string
    }

    /// The Bluetooth SIG or vendor name of this UUID, where known.
    public var name: String? {
        if let n = UserUUIDNames.name(self) { return n }
        if let s = uuid16 { return AssignedNumbers.uuidName(s) }
        return VendorUUIDs.name(self)
    }

    /// Little-endian bytes of the 128-bit form.
    public var littleEndianBytes: [UInt8] {
        (0..<16).map { i in UInt8(truncatingIfNeeded: (i < 8 ? low : high) >> (8 * UInt64(i % 8))) }
    }

    public static func < (a: BLEUUID, b: BLEUUID) -> Bool { (a.high, a.low) < (b.high, b.low) }
}

/// Names of well-known 128-bit vendor UUIDs. Dissectors and `--uuids` files add to what is shown;
/// this table covers the services the product is known for.
public enum VendorUUIDs {
    static let table: [BLEUUID: String] = {
        var t: [BLEUUID: String] = [:]
        func add(_ s: String, _ n: String) { if let u = BLEUUID(string: s) { t[u] = n } }
        add("7905F431-B5CE-4E99-A40F-4B1E122D00D0", "Apple Notification Center Service")
        add("9FBF120D-6301-42D9-8C58-25E699A21DBD", "ANCS Notification Source")
        add("69D1D8F3-45E1-49A8-9821-9BBDFDAAD9D9", "ANCS Control Point")
        add("22EAC6E9-24D6-4BB5-BE44-B36ACE7C7BFB", "ANCS Data Source")
        add("89D3502B-0F36-433A-8EF4-C502AD55F8DC", "Apple Media Service")
        add("9B3C81D8-57B1-4A8A-B8DF-0E56F7CA51C2", "AMS Remote Command")
        add("2F7CABCE-808D-411F-9A0C-BB92BA96C102", "AMS Entity Update")
        add("C6B2F38C-23AB-46D8-A6AB-A3A870BBD5D7", "AMS Entity Attribute")
        add("D0611E78-BBB4-4591-A5F8-487910AE4366", "Apple Continuity Service")
        add("8667556C-9A37-4C91-84ED-54EE27D90049", "Apple Continuity Characteristic")
        add("9FA480E0-4967-4542-9390-D343DC5D04AE", "Apple Nearby Service")
        add("AF0BADB1-5B99-43CD-917A-A77BC549E3CC", "Apple Nearby Characteristic")
        add("2173E519-9155-4862-AB64-7953AB146156", "Beacon Configuration Service")
        add("2173E519-9155-4862-AB64-7953AB146157", "Beacon UUID")
        add("2173E519-9155-4862-AB64-7953AB146158", "Beacon Major/Minor")
        add("2173E519-9155-4862-AB64-7953AB146159", "Beacon Power and Interval")
        add("6E400001-B5A3-F393-E0A9-E50E24DCCA9E", "Nordic UART Service")
        add("6E400002-B5A3-F393-E0A9-E50E24DCCA9E", "Nordic UART RX")
        add("6E400003-B5A3-F393-E0A9-E50E24DCCA9E", "Nordic UART TX")
        add("8EC90001-F315-4F60-9FB8-838830DAEA50", "Nordic Buttonless DFU")
        return t
    }()

    public static func name(_ u: BLEUUID) -> String? { table[u] }
}
