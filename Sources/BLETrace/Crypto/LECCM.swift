import Crypto

/// AES-CCM as the LE link layer uses it (Core Vol 6 Part E 2): a 4-octet MIC, a 13-octet nonce made of the
/// 39-bit packet counter, the direction bit (1 from the central) and the 8-octet IV, and one octet of
/// additional data, the data PDU header's first octet with NESN, SN and MD masked out.
public struct LECCM {
    let key: SymmetricKey
    /// IVm ‖ IVs as sent: least significant octet first.
    let iv: [UInt8]

    /// `sessionKey` most significant octet first; `iv` the 8 octets IVm (4) then IVs (4) as the LL_ENC_REQ
    /// and LL_ENC_RSP carry them.
    public init?(sessionKey: [UInt8], iv: [UInt8]) {
        guard sessionKey.count == 16, iv.count == 8 else { return nil }
        key = SymmetricKey(data: sessionKey)
        self.iv = iv
    }

    public static let micLength = 4

    func nonce(counter: UInt64, fromCentral: Bool) -> [UInt8] {
        var n = [UInt8](repeating: 0, count: 13)
        for i in 0..<5 { n[i] = UInt8(truncatingIfNeeded: counter >> (8 * UInt64(i))) }
        n[4] = (n[4] & 0x7F) | (fromCentral ? 0x80 : 0)
        for i in 0..<8 { n[5 + i] = iv[i] }
        return n
    }

    /// The keystream block Ai (i = 0 for the MIC, 1… for the payload).
    func stream(_ nonce: [UInt8], _ i: Int) -> [UInt8] {
        var a = [UInt8](repeating: 0, count: 16)
        a[0] = 0x01
        for j in 0..<13 { a[1 + j] = nonce[j] }
        a[14] = UInt8(truncatingIfNeeded: i >> 8)
        a[15] = UInt8(truncatingIfNeeded: i)
        LEAES.e(key, &a)
        return a
    }

    /// The CBC-MAC's first 4 octets over the header octet and the plaintext.
    func tag(_ nonce: [UInt8], header: UInt8, _ plaintext: [UInt8]) -> [UInt8] {
        var x = [UInt8](repeating: 0, count: 16)
        x[0] = 0x49 // Adata, M = 4, L = 2
        for j in 0..<13 { x[1 + j] = nonce[j] }
        x[14] = UInt8(truncatingIfNeeded: plaintext.count >> 8)
        x[15] = UInt8(truncatingIfNeeded: plaintext.count)
        LEAES.e(key, &x)
        x[1] ^= 0x01 // additional data length 1
        x[2] ^= header & 0xE3
        LEAES.e(key, &x)
        var i = 0
        while i < plaintext.count {
            for j in 0..<16 where i + j < plaintext.count { x[j] ^= plaintext[i + j] }
            LEAES.e(key, &x)
            i += 16
        }
        return Array(x[0..<4])
    }

    func crypt(_ nonce: [UInt8], _ input: ArraySlice<UInt8>) -> [UInt8] {
        var out = Array(input)
        var i = 0
        while i < out.count {
            let s = stream(nonce, i / 16 + 1)
            for j in 0..<16 where i + j < out.count { out[i + j] ^= s[j] }
            i += 16
        }
        return out
    }

    /// Encrypts a payload: ciphertext then MIC.
    public func encrypt(_ plaintext: [UInt8], header: UInt8, counter: UInt64, fromCentral: Bool) -> [UInt8] {
        let n = nonce(counter: counter, fromCentral: fromCentral)
        let t = tag(n, header: header, plaintext)
        let s0 = stream(n, 0)
        return crypt(n, plaintext[...]) + (0..<4).map { t[$0] ^ s0[$0] }
    }

    /// Decrypts a payload (ciphertext then MIC); nil when it is shorter than a MIC or the MIC does not match.
    public func decrypt(_ payload: ArraySlice<UInt8>, header: UInt8, counter: UInt64, fromCentral: Bool) -> [UInt8]? {
        guard payload.count >= LECCM.micLength else { return nil }
        let n = nonce(counter: counter, fromCentral: fromCentral)
        let body = payload.dropLast(LECCM.micLength)
        let mic = payload.suffix(LECCM.micLength)
        let plain = crypt(n, body)
        let t = tag(n, header: header, plain)
        let s0 = stream(n, 0)
        var diff: UInt8 = 0
        for (j, m) in mic.enumerated() { diff |= (t[j] ^ s0[j]) ^ m }
        return diff == 0 ? plain : nil
    }

    /// True when the MIC matches, without keeping the plaintext (the key searches).
    func verifies(_ payload: ArraySlice<UInt8>, header: UInt8, counter: UInt64, fromCentral: Bool) -> Bool {
        decrypt(payload, header: header, counter: counter, fromCentral: fromCentral) != nil
    }
}

/// The session key and IV of an encrypted link (Core Vol 6 Part E; Vol 3 Part H 2.4.4):
/// SK = e(LTK or STK, SKDs ‖ SKDm), IV = IVs ‖ IVm.
public enum SessionKey {
    /// `skdm`, `skds` as the LL_ENC_REQ/RSP carry them (least significant octet first); key most significant first.
    public static func derive(key: [UInt8], skdm: ArraySlice<UInt8>, skds: ArraySlice<UInt8>) -> [UInt8]? {
        guard skdm.count == 8, skds.count == 8 else { return nil }
        return LEAES.e(key, LEBytes.value(Array(skdm) + Array(skds)))
    }

    public static func cipher(key: [UInt8], skdm: ArraySlice<UInt8>, skds: ArraySlice<UInt8>, ivm: ArraySlice<UInt8>,
                              ivs: ArraySlice<UInt8>) -> LECCM? {
        guard let sk = derive(key: key, skdm: skdm, skds: skds), ivm.count == 4, ivs.count == 4 else { return nil }
        return LECCM(sessionKey: sk, iv: Array(ivm) + Array(ivs))
    }
}
