/// A linear map from data values (`domain`) to picture coordinates (`range`).
public struct LinearScale: Equatable {
    public var domain: (lo: Double, hi: Double)
    public var range: (lo: Double, hi: Double)

    public init(domain: (Double, Double), range: (Double, Double)) {
        self.domain = (domain.0, domain.1)
        self.range = (range.0, range.1)
    }

    /// `v` in picture coordinates; an empty domain maps everything to the range's start.
    public func map(_ v: Double) -> Double {
        let span = domain.hi - domain.lo
        guard span != 0, span.isFinite else { return range.lo }
        return range.lo + (v - domain.lo) / span * (range.hi - range.lo)
    }

    public static func == (a: LinearScale, b: LinearScale) -> Bool {
        a.domain == b.domain && a.range == b.range
    }
}

/// Axis ticks at round values: steps of 1, 2 or 5 times a power of ten.
public enum Ticks {
    /// The step for about `count` intervals over `lo…hi`.
    public static func step(lo: Double, hi: Double, count: Int) -> Double {
        let span = hi - lo
        guard span > 0, span.isFinite, count > 0 else { return 1 }
        let raw = span / Double(count)
        var power = 1.0
        while power * 10 <= raw { power *= 10 }
        while power > raw { power /= 10 }
        let m = raw / power
        // The nearest of 1, 2, 5 and 10 on a log scale (thresholds √2, √10, √50).
        let f: Double = m >= 7.071 ? 10 : m >= 3.162 ? 5 : m >= 1.414 ? 2 : 1
        return f * power
    }

    /// The round values from `lo` to `hi` (both included when round), about `count` intervals apart.
    public static func values(lo: Double, hi: Double, count: Int = 5) -> [Double] {
        guard hi > lo, hi.isFinite, lo.isFinite else { return lo.isFinite ? [lo] : [] }
        let s = step(lo: lo, hi: hi, count: count)
        var v = (lo / s).rounded(.up) * s
        var out: [Double] = []
        // Multiples of the step without binary noise (3 × 0.2 is 0.6000000000000001; 3 / 5 is 0.6).
        let inverse = s < 1 ? (1 / s).rounded() : 0
        while v <= hi + s * 1e-9 && out.count < 100 {
            let k = (v / s).rounded()
            out.append(inverse > 0 ? k / inverse : k * s)
            v += s
        }
        return out
    }

    /// The upper end of an axis: `max` rounded up to a tick, at least one step above 0.
    public static func niceMax(_ max: Double, count: Int = 5) -> Double {
        guard max > 0, max.isFinite else { return 1 }
        let s = step(lo: 0, hi: max, count: count)
        return (max / s).rounded(.up) * s
    }

    /// A tick label: an integer when whole, else up to three decimals without trailing zeros.
    public static func label(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        var s = String(Int((abs(v) * 1000).rounded()))
        while s.count < 4 { s = "0" + s }
        var whole = String(s.dropLast(3)), frac = String(s.suffix(3))
        while frac.hasSuffix("0") { frac.removeLast() }
        if whole.isEmpty { whole = "0" }
        return (v < 0 ? "-" : "") + whole + (frac.isEmpty ? "" : "." + frac)
    }
}
