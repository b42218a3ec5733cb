/// Finds Bluetooth addresses inside free text (PacketLogger notes, syslog lines, vendor text, any string a
/// layer shows), for the redactor: `AA:BB:CC:DD:EE:FF` and `AA-BB-CC-DD-EE-FF` anywhere, and twelve
/// contiguous hex digits where the words just before them say an address follows (`Address: 8096984254B0`,
/// `bd_addr=…`, `MAC …`). Addresses are returned most significant byte first, as written.
enum AddressScan {
    @inline(__always) static func isWordByte(_ b: UInt8) -> Bool {
        Hex.digitValue(b) != nil || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }

    /// Words that announce an address, lowercased; one of them must end within the few bytes before a
    /// contiguous 12-digit form.
    static let keywords: [[UInt8]] = ["addr", "address", "bdaddr", "bd_addr", "mac"].map { Array($0.utf8) }

    /// Every address in `text`, in order.
    static func addresses(in text: String) -> [BDAddr] {
        var copy = text
        return copy.withUTF8 { addresses(in: $0) }
    }

    static func addresses(in u: UnsafeBufferPointer<UInt8>) -> [BDAddr] {
        var out: [BDAddr] = []
        let n = u.count
        guard n >= 12 else { return out }
        var i = 0
        while i + 12 <= n {
            // Only at the start of a token.
            if i > 0 && isWordByte(u[i - 1]) { i += 1; continue }
            if i + 17 <= n, let a = separated(u, at: i) {
                out.append(a)
                i += 17
                continue
            }
            if let a = contiguous(u, at: i) {
                out.append(a)
                i += 12
                continue
            }
            i += 1
        }
        return out
    }

    /// `HH:HH:HH:HH:HH:HH` or with dashes, not part of a longer run of groups.
    static func separated(_ u: UnsafeBufferPointer<UInt8>, at i: Int) -> BDAddr? {
        let sep = u[i + 2]
        guard sep == 0x3A || sep == 0x2D else { return nil }
        var v: UInt64 = 0
        for g in 0..<6 {
            let p = i + 3 * g
            guard let h = Hex.digitValue(u[p]), let l = Hex.digitValue(u[p + 1]) else { return nil }
            if g < 5 && u[p + 2] != sep { return nil }
            v = v << 8 | UInt64(h << 4 | l)
        }
        if i + 17 < u.count && isWordByte(u[i + 17]) { return nil }
        // Not six groups of a longer run (an EUI-64, an IPv6 address).
        if i + 18 < u.count && u[i + 17] == sep && Hex.digitValue(u[i + 18]) != nil { return nil }
        if i >= 2 && u[i - 1] == sep && Hex.digitValue(u[i - 2]) != nil { return nil }
        return BDAddr(v)
    }

    /// Twelve hex digits forming a whole token, announced by a keyword just before.
    static func contiguous(_ u: UnsafeBufferPointer<UInt8>, at i: Int) -> BDAddr? {
        var v: UInt64 = 0
        for k in 0..<12 {
            guard let h = Hex.digitValue(u[i + k]) else { return nil }
            v = v << 4 | UInt64(h)
        }
        if i + 12 < u.count && isWordByte(u[i + 12]) { return nil }
        // Skip separators (spaces, ':', '=', a "0x" prefix is not a token start) back to the word before.
        var j = i - 1
        while j >= 0 && (u[j] == 0x20 || u[j] == 0x3A || u[j] == 0x3D || u[j] == 0x09) { j -= 1 }
        guard j >= 0, i - j <= 4 else { return nil }
        var start = j
        while start > 0 && isWordByte(u[start - 1]) { start -= 1 }
        let word = (start...j).map { Redactor.lower(u[$0]) }
        guard keywords.contains(where: { word.count >= $0.count && Array(word.suffix($0.count)) == $0 }) else { return nil }
        return BDAddr(v)
    }
}
