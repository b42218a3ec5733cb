#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Latencies of one direction of a link, in fixed memory: the first 256 exactly, then a histogram of 20 bins a
/// decade from 10 µs to 1,000 s (each bin about 12 % wide). Percentiles are exact while the samples are kept,
/// and the middle of their bin after (clamped to the exact minimum and maximum).
public struct LatencyHistogram: Sendable, Equatable {
    public private(set) var count = 0
    public private(set) var min: Int64 = .max
    public private(set) var max: Int64 = .min
    var samples: [Int64] = []
    var bins: [UInt32] = []

    static let keptExactly = 256
    static let perDecade = 20
    static let decades = 8
    /// The lower edge of the first bin, in µs.
    static let floor: Double = 10

    public init() {}

    public mutating func add(_ micros: Int64) {
        let v = Swift.max(0, micros)
        count += 1
        if v < min { min = v }
        if v > max { max = v }
        if samples.count < LatencyHistogram.keptExactly && bins.isEmpty {
            // Room for a typical link's samples at once, not grown one doubling at a time.
            if samples.isEmpty { samples.reserveCapacity(32) }
            samples.append(v)
            return
        }
        if bins.isEmpty {
            bins = [UInt32](repeating: 0, count: LatencyHistogram.perDecade * LatencyHistogram.decades + 1)
            for s in samples { bins[LatencyHistogram.bin(s)] &+= 1 }
            samples = []
        }
        bins[LatencyHistogram.bin(v)] &+= 1
    }

    static func bin(_ v: Int64) -> Int {
        let x = Double(v)
        guard x > floor else { return 0 }
        let i = Int((log10(x / floor) * Double(perDecade)).rounded(.down)) + 1
        return Swift.min(Swift.max(i, 0), perDecade * decades)
    }

    static func middle(_ i: Int) -> Double {
        guard i > 0 else { return floor / 2 }
        return floor * pow(10, (Double(i - 1) + 0.5) / Double(perDecade))
    }

    /// Every latency, while they are all kept (the first 256); nil after, when only the bins are.
    public var exactSamples: [Int64]? { bins.isEmpty ? samples : nil }

    /// The `p`-th percentile (0–100) in µs: the smallest value with at least p % of the samples at or below it.
    public func percentile(_ p: Double) -> Int64? {
        guard count > 0 else { return nil }
        let rank = Swift.max(1, Int((p / 100 * Double(count)).rounded(.up)))
        if bins.isEmpty {
            let sorted = samples.sorted()
            return sorted[Swift.min(rank, sorted.count) - 1]
        }
        var seen = 0
        for (i, n) in bins.enumerated() {
            seen += Int(n)
            if seen >= rank { return Swift.min(Swift.max(Int64(LatencyHistogram.middle(i).rounded()), min), max) }
        }
        return max
    }

    /// The distribution in `perDecade` bins a decade (a divisor of 20) from the first to the last bin with a
    /// sample: each bin's lower edge in µs and its count.
    public func distribution(perDecade: Int = 5) -> [(lower: Double, count: Int)] {
        guard count > 0, perDecade > 0, LatencyHistogram.perDecade % perDecade == 0 else { return [] }
        var fine = bins
        if fine.isEmpty {
            fine = [UInt32](repeating: 0, count: LatencyHistogram.perDecade * LatencyHistogram.decades + 1)
            for s in samples { fine[LatencyHistogram.bin(s)] &+= 1 }
        }
        let group = LatencyHistogram.perDecade / perDecade
        // Bin 0 holds everything up to 10 µs; bins 1… are `group` fine bins each.
        var coarse: [(lower: Double, count: Int)] = [(0, Int(fine[0]))]
        var i = 1
        while i < fine.count {
            let n = fine[i..<Swift.min(i + group, fine.count)].reduce(0) { $0 + Int($1) }
            coarse.append((LatencyHistogram.floor * pow(10, Double(i - 1) / Double(LatencyHistogram.perDecade)), n))
            i += group
        }
        guard let first = coarse.firstIndex(where: { $0.count > 0 }), let last = coarse.lastIndex(where: { $0.count > 0 }) else { return [] }
        return Array(coarse[first...last])
    }
}
