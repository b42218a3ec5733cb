/// The digits of the number an output wrote last in one place: the record number of the last event, the whole
/// seconds of its time. Events come in record order, so the next record number is nearly always the last plus
/// one, and the next time nearly always in the same second: the digits are the last ones again, or counted up in
/// place (a byte changed, most of the time), instead of being made again by division.
///
/// The digits are kept right-aligned in one word, padded with spaces, the last digit in the word's highest
/// byte (the byte stored last, little-endian): numbers of up to eight digits. Others are made as any number is.
struct CountedDigits {
    /// The last number, or `Int.min` when the word holds none.
    private(set) var value = Int.min
    /// Spaces, then the digits.
    private(set) var word: UInt64 = CountedDigits.spaces
    /// How many digits the word holds.
    private(set) var length = 0

    static let spaces: UInt64 = 0x2020_2020_2020_2020

    /// Puts `v`'s digits in the word. False when `v` is negative or has more than eight digits.
    @inline(__always) mutating func set(_ v: Int) -> Bool {
        if v == value { return true }
        if v == value &+ 1 && countUp() {
            value = v
            return true
        }
        guard v >= 0 && v < 100_000_000 else {
            value = .min
            return false
        }
        var w = CountedDigits.spaces
        var x = UInt(v)
        var shift: UInt64 = 56
        var n = 0
        repeat {
            let digit = UInt64(truncatingIfNeeded: x % 10) | 0x30
            w = w & ~(0xFF << shift) | digit << shift
            x /= 10
            n &+= 1
            shift &-= 8
        } while x > 0
        word = w
        length = n
        value = v
        return true
    }

    /// Stores the word's last `width` bytes (spaces, then the digits; `length` ≤ `width` ≤ 8) as the first bytes
    /// of a word at `p`, which has room for eight.
    @inline(__always) func store(width: Int, at p: UnsafeMutablePointer<UInt8>) {
        let w = word >> UInt64(truncatingIfNeeded: (8 &- width) &* 8)
        UnsafeMutableRawPointer(p).storeBytes(of: w.littleEndian, as: UInt64.self)
    }

    /// Adds one to the digits in the word. False when they are all nines and fill it.
    private mutating func countUp() -> Bool {
        var shift: UInt64 = 56
        while true {
            let byte = (word >> shift) & 0xFF
            if byte == 0x39 {
                // A nine becomes a zero and carries into the digit before it.
                word = word & ~(0xFF << shift) | 0x30 << shift
                guard shift > 0 else { return false }
                shift &-= 8
            } else if byte == 0x20 {
                // The carry reached the padding: one digit more.
                word = word & ~(0xFF << shift) | 0x31 << shift
                length &+= 1
                return true
            } else {
                word &+= 1 << shift
                return true
            }
        }
    }
}

extension ByteStore {
    /// `putDecimal(v)` of the record number of an event (`recordDigits` keeps the last one's digits).
    @inline(__always) func putRecordNumber(_ v: Int) {
        guard recordDigits.set(v) else {
            putDecimal(v)
            return
        }
        let n = recordDigits.length
        recordDigits.store(width: n, at: room(8))
        count &+= n
    }

    /// `putDecimal(v, width: width, zeroPad: false)` of the record number of an event, `width` at most 8.
    @inline(__always) func putRecordNumber(_ v: Int, width: Int) {
        guard width >= 1, width <= 8, recordDigits.set(v), recordDigits.length <= width else {
            putDecimal(v, width: width, zeroPad: false)
            return
        }
        recordDigits.store(width: width, at: room(8))
        count &+= width
    }
}
