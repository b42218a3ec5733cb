/// The random address hash function ah (Core Vol 3 Part H 2.2.2) and resolvable private address resolution.
public enum PrivacyFunctions {
    /// ah(k, r): the 24-bit hash of the 24-bit prand under the IRK k (most significant octet first).
    public static func ah(irk: [UInt8], prand: UInt32) -> UInt32? {
        var block = [UInt8](repeating: 0, count: 16)
        block[13] = UInt8(truncatingIfNeeded: prand >> 16)
        block[14] = UInt8(truncatingIfNeeded: prand >> 8)
        block[15] = UInt8(truncatingIfNeeded: prand)
        guard let out = LEAES.e(irk, block) else { return nil }
        return UInt32(out[13]) << 16 | UInt32(out[14]) << 8 | UInt32(out[15])
    }

    /// True when the address (as a 48-bit number: prand in the upper 24 bits, hash in the lower) is a
    /// resolvable private address made with this IRK.
    public static func resolves(_ address: UInt64, irk: [UInt8]) -> Bool {
        let prand = UInt32(truncatingIfNeeded: address >> 24) & 0xFF_FFFF
        guard prand >> 22 == 0b01 else { return false }
        return ah(irk: irk, prand: prand) == UInt32(truncatingIfNeeded: address) & 0xFF_FFFF
    }
}
