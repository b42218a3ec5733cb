/// The PCM forms HCI carries for SCO voice when the controller transcodes (Core 5.4 Vol 4 Part E 6.12, the voice
/// setting's input coding and data format): linear 8- or 16-bit samples in four encodings, and G.711 µ-law and
/// A-law (ITU-T G.711), expanded through 256-entry tables.
enum VoicePCM {
    /// Appends the samples of `bytes` in `format` to `out` (16-bit); a trailing odd byte of 16-bit PCM is left out.
    static func decode(_ bytes: ArraySlice<UInt8>, _ format: SCOFormat, into out: inout [Int16]) {
        switch format {
        case let .linear(_, 16, encoding):
            var c = ByteCursor(bytes)
            while let v = try? c.u16le() { out.append(sample16(v, encoding)) }
        case let .linear(_, _, encoding):
            for b in bytes { out.append(sample8(b, encoding)) }
        case .muLaw:
            for b in bytes { out.append(muLaw[Int(b)]) }
        case .aLaw:
            for b in bytes { out.append(aLaw[Int(b)]) }
        default:
            break
        }
    }

    /// A 16-bit sample in the voice setting's data format (0 one's complement, 1 two's complement, 2
    /// sign-magnitude, 3 unsigned).
    static func sample16(_ v: UInt16, _ encoding: UInt8) -> Int16 {
        switch encoding {
        case 0: return v & 0x8000 != 0 ? Int16(bitPattern: v) &+ 1 : Int16(bitPattern: v)
        case 2: return v & 0x8000 != 0 ? -Int16(v & 0x7FFF) : Int16(v & 0x7FFF)
        case 3: return Int16(bitPattern: v ^ 0x8000)
        default: return Int16(bitPattern: v)
        }
    }

    /// An 8-bit sample, scaled to 16 bits.
    static func sample8(_ b: UInt8, _ encoding: UInt8) -> Int16 {
        let v: Int16
        switch encoding {
        case 0: v = b & 0x80 != 0 ? Int16(Int8(bitPattern: b)) + 1 : Int16(b)
        case 2: v = b & 0x80 != 0 ? -Int16(b & 0x7F) : Int16(b & 0x7F)
        case 3: v = Int16(b) - 128
        default: v = Int16(Int8(bitPattern: b))
        }
        return v << 8
    }

    /// G.711 µ-law: the complemented byte's sign, 3-bit exponent and 4-bit mantissa; bias 132.
    static let muLaw: [Int16] = (0..<256).map { i in
        let u = ~UInt8(i)
        let exponent = Int((u >> 4) & 7), mantissa = Int(u & 0x0F)
        let magnitude = ((mantissa << 3) + 0x84) << exponent - 0x84
        return Int16(u & 0x80 != 0 ? -magnitude : magnitude)
    }

    /// G.711 A-law: every even bit inverted, then sign, 3-bit exponent and 4-bit mantissa.
    static let aLaw: [Int16] = (0..<256).map { i in
        let a = UInt8(i) ^ 0x55
        let exponent = Int((a >> 4) & 7), mantissa = Int(a & 0x0F)
        let magnitude = exponent == 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1)
        return Int16(a & 0x80 != 0 ? magnitude : -magnitude)
    }
}
