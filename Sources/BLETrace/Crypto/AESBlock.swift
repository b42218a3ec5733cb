import Crypto
import _CryptoExtras

/// The security function e (Core Vol 3 Part H 2.2.1): one AES-128 block, on swift-crypto's AES permutation.
///
/// Every function in this folder takes and returns 128-bit values as the specification writes them: most
/// significant octet first. Values read from packets (LSO first) are reversed by `LEBytes.value` first.
public enum LEAES {
    /// e(key, plaintext). Both are 16 bytes, most significant octet first; nil for any other size.
    public static func e(_ key: [UInt8], _ plaintext: [UInt8]) -> [UInt8]? {
        guard key.count == 16, plaintext.count == 16 else { return nil }
        var block = plaintext
        let k = SymmetricKey(data: key)
        do { try AES.permute(&block, key: k) } catch { return nil }
        return block
    }

    /// e with a key already made, for loops that encrypt many blocks under one key.
    static func e(_ key: SymmetricKey, _ block: inout [UInt8]) {
        // Both sizes are fixed by the callers (16-byte keys and blocks), so the permutation cannot fail.
        try? AES.permute(&block, key: key)
    }

    static func xor(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var out = a
        for i in 0..<min(a.count, b.count) { out[i] ^= b[i] }
        return out
    }
}

/// Turning packet bytes (least significant octet first) into the specification's notation and back.
public enum LEBytes {
    public static func value<C: Collection>(_ wire: C) -> [UInt8] where C.Element == UInt8 { Array(wire.reversed()) }

    /// A hex string (spaces, colons and a 0x prefix allowed) as bytes in the order written; nil if not hex.
    public static func hex(_ text: String) -> [UInt8]? {
        Hex.parse(text.hasPrefix("0x") || text.hasPrefix("0X") ? String(text.dropFirst(2)) : text)
    }

    public static func hexString(_ bytes: [UInt8]) -> String { Hex.string(bytes) }
}
