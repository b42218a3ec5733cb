/// A series of (x, y) points kept to at most `capacity`: when full, every other point is dropped and from then
/// on only every `stride`-th point offered is kept, so memory stays bounded and the points stay evenly spread.
public struct Downsampler {
    public let capacity: Int
    public private(set) var points: [(x: Double, y: Double)] = []
    /// Points offered so far.
    public private(set) var offered = 0
    /// One point kept out of this many offered.
    public private(set) var stride = 1

    public init(capacity: Int) { self.capacity = max(2, capacity) }

    public mutating func add(x: Double, y: Double) {
        defer { offered += 1 }
        guard offered % stride == 0 else { return }
        points.append((x, y))
        if points.count > capacity {
            points = points.enumerated().compactMap { $0.offset % 2 == 0 ? $0.element : nil }
            stride *= 2
        }
    }
}

/// Amounts summed into time buckets of equal width, for rates over time. Starts with `width` µs buckets;
/// when a time lies beyond `maxBuckets` buckets, neighbours are merged in pairs and the width doubles.
public struct BucketSeries {
    public let origin: Int64
    public private(set) var width: Int64
    public let maxBuckets: Int
    public private(set) var buckets: [Double] = []
    public private(set) var total: Double = 0

    public init(origin: Int64, width: Int64 = 1_000_000, maxBuckets: Int = 240) {
        self.origin = origin
        self.width = max(1, width)
        self.maxBuckets = max(2, maxBuckets)
    }

    public mutating func add(at micros: Int64, _ amount: Double) {
        let offset = max(0, micros &- origin)
        var i = Int(offset / width)
        while i >= maxBuckets {
            var merged: [Double] = []
            merged.reserveCapacity(buckets.count / 2 + 1)
            var j = 0
            while j < buckets.count {
                merged.append(buckets[j] + (j + 1 < buckets.count ? buckets[j + 1] : 0))
                j += 2
            }
            buckets = merged
            width *= 2
            i = Int(offset / width)
        }
        if buckets.count <= i { buckets.append(contentsOf: repeatElement(0, count: i + 1 - buckets.count)) }
        buckets[i] += amount
        total += amount
    }

    /// Per second from `origin` to `end` (µs, such as a connection's close): each bucket's amount over the part
    /// of it before `end`, at that part's middle (seconds from `origin`). Buckets after the last amount count 0,
    /// so the line goes on to `end`; a last part shorter than half a bucket joins the bucket before it, so that a
    /// few packets in the last sliver of a second are not drawn as a climb.
    /// Bounded: an `end` more than `maxBuckets` buckets past the series' own (a clock jump, a link closed years
    /// later) widens the buckets as `add` does, so the points never number more than twice `maxBuckets`.
    public func ratePoints(until end: Int64) -> [(x: Double, y: Double)] {
        let span = max(0, end &- origin)
        var s = self
        if (span - 1) / width >= Int64(2 * maxBuckets) { s.add(at: origin &+ span &- 1, 0) }
        let width = s.width, buckets = s.buckets
        let n = max(buckets.count, Int((span + width - 1) / width))
        var parts: [(start: Int64, length: Int64, amount: Double)] = (0..<n).map { k in
            let start = Int64(k) * width
            return (start, max(0, min(width, span - start)), k < buckets.count ? buckets[k] : 0)
        }
        if parts.count > 1, let last = parts.last, last.length * 2 < width {
            parts.removeLast()
            parts[parts.count - 1].length += last.length
            parts[parts.count - 1].amount += last.amount
        }
        return parts.map { p in
            // An amount at `end` itself (or after it) has no time of its own: the whole bucket's.
            let length = p.length > 0 ? p.length : width
            return (Double(p.start) / 1_000_000 + Double(length) / 2_000_000, p.amount / (Double(length) / 1_000_000))
        }
    }
}

/// Latencies (µs) kept for a distribution: all of them up to `capacity`, then a deterministic sample.
public struct LatencySample {
    public let capacity: Int
    public private(set) var values: [Int64] = []
    public private(set) var count = 0

    public init(capacity: Int = 100_000) { self.capacity = max(1, capacity) }

    public mutating func add(_ micros: Int64) {
        count += 1
        if values.count < capacity { values.append(micros); return }
        // Reservoir sampling with a fixed multiplicative hash: the same capture gives the same sample.
        let slot = Int((UInt64(count) &* 0x9E37_79B9_7F4A_7C15) % UInt64(count))
        if slot < capacity { values[slot] = micros }
    }

    /// Nearest-rank percentiles (`p` in 0…100) of the kept values, nil when there are none.
    public static func percentile(_ sorted: [Int64], _ p: Double) -> Int64? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }
}
