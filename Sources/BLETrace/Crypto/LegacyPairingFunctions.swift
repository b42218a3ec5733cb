/// LE legacy pairing's confirm value function c1 and key generation function s1 (Core Vol 3 Part H 2.2.3,
/// 2.2.4). Values are most significant octet first; `preq` and `pres` are the 7-octet Pairing Request and
/// Response commands (code first) written most significant octet first, as in the specification's example.
public enum LegacyPairingFunctions {
    /// c1(k, r, preq, pres, iat, rat, ia, ra) = e(k, e(k, r ⊕ p1) ⊕ p2), with
    /// p1 = pres ‖ preq ‖ rat′ ‖ iat′ and p2 = padding ‖ ia ‖ ra.
    public static func c1(k: [UInt8], r: [UInt8], preq: [UInt8], pres: [UInt8], iat: UInt8, rat: UInt8, ia: [UInt8],
                          ra: [UInt8]) -> [UInt8]? {
        guard let p1 = p1(preq: preq, pres: pres, iat: iat, rat: rat), let p2 = p2(ia: ia, ra: ra),
              r.count == 16, let first = LEAES.e(k, LEAES.xor(r, p1)) else { return nil }
        return LEAES.e(k, LEAES.xor(first, p2))
    }

    static func p1(preq: [UInt8], pres: [UInt8], iat: UInt8, rat: UInt8) -> [UInt8]? {
        guard preq.count == 7, pres.count == 7 else { return nil }
        return pres + preq + [rat & 1, iat & 1]
    }

    static func p2(ia: [UInt8], ra: [UInt8]) -> [UInt8]? {
        guard ia.count == 6, ra.count == 6 else { return nil }
        return [0, 0, 0, 0] + ia + ra
    }

    /// s1(k, r1, r2) = e(k, r1′ ‖ r2′), r1′ and r2′ the least significant 64 bits of r1 (responder's random)
    /// and r2 (initiator's random).
    public static func s1(k: [UInt8], r1: [UInt8], r2: [UInt8]) -> [UInt8]? {
        guard r1.count == 16, r2.count == 16 else { return nil }
        return LEAES.e(k, Array(r1[8...]) + Array(r2[8...]))
    }

    /// The TK of a passkey (0–999999): the number as a 128-bit value.
    public static func tk(passkey: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        var v = passkey
        for i in stride(from: 15, through: 12, by: -1) { out[i] = UInt8(v & 0xFF); v >>= 8 }
        return out
    }
}
