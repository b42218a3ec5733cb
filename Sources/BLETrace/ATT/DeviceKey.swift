/// Names a GATT server as a plain value: the local host, a peer by its address, or a peer known only by its
/// connection handle. Hashing, comparing and copying it touch one word; its text (`description`: "local",
/// "AA:BB:CC:DD:EE:FF", "handle-0x0040", the keys the summary and `--gatt` files use) is made only when shown.
public struct DeviceKey: Hashable, Sendable, CustomStringConvertible {
    /// The address in the low 48 bits; above them, what the key names (0 an address, 1 the local host, 2 a handle).
    let bits: UInt64

    static let localTag: UInt64 = 1 << 48
    static let handleTag: UInt64 = 2 << 48

    /// The local host's database ("local").
    public static let local = DeviceKey(bits: localTag)

    init(bits: UInt64) { self.bits = bits }

    public init(address: BDAddr) { bits = address.value }

    public init(handle: UInt16) { bits = DeviceKey.handleTag | UInt64(handle) }

    /// The peer of `c`: its address, or its handle while the address is unknown.
    public init(_ c: Connection) {
        if let p = c.peer { self.init(address: p) } else { self.init(handle: c.handle) }
    }

    /// The key whose `description` is exactly `text`, when the text is one a key makes.
    public init?(_ text: String) {
        let key: DeviceKey
        if text == "local" {
            key = .local
        } else if let a = BDAddr(string: text) {
            key = DeviceKey(address: a)
        } else if text.hasPrefix("handle-0x"), text.utf8.count == 13, let h = UInt16(text.dropFirst(9), radix: 16) {
            key = DeviceKey(handle: h)
        } else {
            return nil
        }
        // Another spelling of the same number (lower-case digits, a sign) names no key.
        guard key.description == text else { return nil }
        self = key
    }

    public var isLocal: Bool { bits == DeviceKey.localTag }

    public var description: String {
        switch bits >> 48 {
        case 0: return BDAddr(bits).description
        case 1: return "local"
        default: return Connection.handleKey(UInt16(truncatingIfNeeded: bits))
        }
    }
}
