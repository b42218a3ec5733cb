/// Small number formatters for summaries (no Foundation, no `String(format:)`).
public enum Fmt {
    /// `value / scale` with as many decimals as `scale` has zeros: fixed(3125, scale: 100) == "31.25".
    public static func fixed(_ value: Int, scale: Int) -> String {
        // Made on the stack, so a short result is a String with no allocation.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: fixedMaximum) { out -> String in
            guard let p = out.baseAddress else { return "" }
            let n = writeFixed(value, scale: scale, at: p)
            return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
        }
    }

    /// The most bytes `writeFixed` stores: a sign, 20 digits, a point and 18 decimals.
    static let fixedMaximum = 64

    /// Stores `fixed(value, scale:)`'s bytes at `p` (room for `fixedMaximum`) and returns how many.
    @inline(__always) static func writeFixed(_ value: Int, scale: Int, at out: UnsafeMutablePointer<UInt8>) -> Int {
        precondition(scale > 0)
        let neg = value < 0
        let mag = value.magnitude
        let whole = mag / UInt(scale)
        var frac = mag % UInt(scale)
        var decimals = 0
        var s = scale
        while s > 1 { s /= 10; decimals += 1 }
        var n = 0
        if neg { out[n] = UInt8(ascii: "-"); n += 1 }
        var digits = 0
        var w = whole
        repeat { digits += 1; w /= 10 } while w > 0
        w = whole
        var k = n + digits - 1
        repeat { out[k] = 48 &+ UInt8(truncatingIfNeeded: w % 10); w /= 10; k -= 1 } while w > 0
        n += digits
        if decimals > 0 {
            out[n] = UInt8(ascii: ".")
            n += 1
            var i = n + decimals - 1
            while i >= n { out[i] = 48 &+ UInt8(truncatingIfNeeded: frac % 10); frac /= 10; i -= 1 }
            n += decimals
        }
        return n
    }

    /// Microseconds as milliseconds with two decimals, rounded to the nearest 10 µs (half away from zero):
    /// 319 µs is "0.32", 314 µs "0.31". The one rule for the link latencies' text (issue #37).
    public static func milliseconds(micros: Int64) -> String {
        fixed(Int(micros >= 0 ? (micros + 5) / 10 : (micros - 5) / 10), scale: 100)
    }

    /// Connection interval units (1.25 ms) in milliseconds: "30.00 ms".
    public static func interval1250(_ units: Int) -> String { fixed(units * 125, scale: 100) + " ms" }
    /// Scan and advertising units (0.625 ms) in milliseconds: "100.000 ms".
    public static func interval625(_ units: Int) -> String { fixed(units * 625, scale: 1000) + " ms" }
    /// Supervision timeout units (10 ms): "4000 ms".
    public static func timeout10(_ units: Int) -> String { String(units * 10) + " ms" }

    /// Microseconds as seconds with 6 decimals: "12.000345".
    public static func seconds(micros: Int64) -> String { fixed(Int(micros), scale: 1_000_000) }

    /// Left-pads `s` with spaces to `width`.
    public static func pad(_ s: String, _ width: Int) -> String {
        let n = s.count
        return n >= width ? s : String(repeating: " ", count: width - n) + s
    }
}
