import Crypto

/// AES-CMAC (RFC 4493), the MAC under LE Secure Connections' f4, f5 and f6; built on the AES block.
public enum AESCMAC {
    public static func mac(key: [UInt8], message: [UInt8]) -> [UInt8]? {
        guard key.count == 16 else { return nil }
        let k = SymmetricKey(data: key)
        var l = [UInt8](repeating: 0, count: 16)
        LEAES.e(k, &l)
        let k1 = double(l), k2 = double(k1)
        let n = max(1, (message.count + 15) / 16)
        let complete = !message.isEmpty && message.count % 16 == 0
        var x = [UInt8](repeating: 0, count: 16)
        for i in 0..<n {
            var block = [UInt8](repeating: 0, count: 16)
            let start = i * 16, end = min(start + 16, message.count)
            for j in start..<end { block[j - start] = message[j] }
            if i == n - 1 {
                if complete {
                    block = LEAES.xor(block, k1)
                } else {
                    block[end - start] = 0x80
                    block = LEAES.xor(block, k2)
                }
            }
            x = LEAES.xor(x, block)
            LEAES.e(k, &x)
        }
        return x
    }

    /// Multiplication by x in GF(2^128) (the subkey step).
    static func double(_ v: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        var carry: UInt8 = 0
        for i in stride(from: 15, through: 0, by: -1) {
            out[i] = v[i] << 1 | carry
            carry = v[i] >> 7
        }
        if carry != 0 { out[15] ^= 0x87 }
        return out
    }
}
