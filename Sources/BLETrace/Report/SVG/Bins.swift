/// Histogram bins chosen from the values (µs): about `target` bins of one round width (1, 2 or 5 times a
/// power of ten) from the smallest value to the largest, or, when the largest is more than `spread` times
/// the smallest, bins growing 1, 1.5, 2, 3, 5, 7 times each power of ten, so that a few slow answers do not
/// squeeze the rest into one bar. Only the bins from the first to the last holding a value are kept.
public struct Bins: Equatable {
    /// Bin `i` holds the values from `edges[i]` up to `edges[i + 1]`; the last edge ends the last bin.
    public let edges: [Int64]
    public let counts: [Int]
    public let logarithmic: Bool

    /// 1, 1.5, 2, 3, 5 and 7 times each power of ten from 100 µs to 7000 s, after 0.
    static let logEdges: [Int64] = [0] + [100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000].flatMap { (d: Int64) in
        [10, 15, 20, 30, 50, 70].map { d * $0 / 10 }
    }

    public init(_ values: [Int64], target: Int = 12, spread: Int64 = 20) {
        let positive = values.map { max(0, $0) }
        guard let lo = positive.min(), let hi = positive.max() else {
            (edges, counts, logarithmic) = ([], [], false)
            return
        }
        var e: [Int64]
        if hi > spread * max(lo, 100) {
            logarithmic = true
            e = Bins.logEdges
            while let last = e.last, last <= hi { e.append(last * 2) }
        } else {
            logarithmic = false
            // Values all alike still get bins a hundredth of them wide, so the bar has a width.
            let span = max(hi - lo, max(1, hi / 100))
            let step = max(1, Int64(Ticks.step(lo: 0, hi: Double(span), count: max(1, target))))
            let start = lo / step * step
            e = Array(stride(from: start, through: hi + step, by: Int(step)))
            if e.count < 2 { e = [start, start + step] }
        }
        var c = [Int](repeating: 0, count: e.count - 1)
        for v in positive { c[Bins.index(v, in: e)] += 1 }
        let a = c.firstIndex { $0 > 0 } ?? 0, b = c.lastIndex { $0 > 0 } ?? 0
        edges = Array(e[a...(b + 1)])
        counts = Array(c[a...b])
    }

    /// Bins counted elsewhere: `counts[i]` values from `edges[i]` up to `edges[i + 1]`.
    public init(edges: [Int64], counts: [Int], logarithmic: Bool) {
        precondition(edges.count == counts.count + 1)
        (self.edges, self.counts, self.logarithmic) = (edges, counts, logarithmic)
    }

    /// The bin of `v` among `edges` (the last bin for values beyond them).
    static func index(_ v: Int64, in edges: [Int64]) -> Int {
        var lo = 0, hi = edges.count - 2
        guard hi > 0 else { return 0 }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if edges[mid] <= v { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Where `v` falls along the bars: its bin's index plus its place inside the bin.
    public func position(_ v: Int64) -> Double {
        guard edges.count > 1 else { return 0 }
        if v <= edges[0] { return 0 }
        if v >= edges[edges.count - 1] { return Double(counts.count) }
        let i = Bins.index(v, in: edges)
        return Double(i) + Double(v - edges[i]) / Double(max(1, edges[i + 1] - edges[i]))
    }
}
