/// The CRC-8 an SBC frame carries in its fourth byte (A2DP 1.4 appendix B, 12.6.3): generator
/// x⁸ + x⁴ + x³ + x² + 1, initial value 0x0F, computed most significant bit first over the header from the
/// sampling frequency to the bitpool (the two bytes after the syncword), then, in joint stereo, the join bits
/// (one per subband) and the scale factors (four bits per subband and channel). The syncword and the CRC
/// byte itself are not covered. What the media recognition asks of every frame before it believes bytes are SBC.
extension SBCFrameHeader {
    /// Whether the CRC byte of the SBC frame at the start of `frame` is the one its header, join bits and
    /// scale factors give; false when the frame is too short to hold them, or is not SBC (mSBC is not checked).
    public static func crcHolds(_ frame: ArraySlice<UInt8>) -> Bool {
        guard let h = try? SBCFrameHeader.parse(frame) else { return false }
        return crcHolds(frame, h)
    }

    /// `crcHolds(_:)` for a frame whose header `h` is already parsed.
    static func crcHolds(_ frame: ArraySlice<UInt8>, _ h: SBCFrameHeader) -> Bool {
        guard !h.msbc else { return false }
        var c = ByteCursor(frame)
        guard (try? c.u8()) != nil, let b1 = try? c.u8(), let b2 = try? c.u8(), let carried = try? c.u8() else { return false }
        let join = h.mode == .jointStereo ? h.subbands : 0
        let covered = join + 4 * h.subbands * h.channels
        guard let tail = try? c.bytes((covered + 7) / 8) else { return false }
        var crc: UInt8 = 0x0F
        crc = crc8(crc, b1, bits: 8)
        crc = crc8(crc, b2, bits: 8)
        var left = covered
        for byte in tail {
            crc = crc8(crc, byte, bits: min(8, left))
            left -= 8
        }
        return crc == carried
    }

    /// `crc` advanced over the first `bits` bits of `byte`, most significant first.
    static func crc8(_ crc: UInt8, _ byte: UInt8, bits: Int) -> UInt8 {
        var r = crc
        var b = byte
        for _ in 0..<max(0, bits) {
            let top = (r ^ b) & 0x80
            r <<= 1
            if top != 0 { r ^= 0x1D }
            b <<= 1
        }
        return r
    }
}
