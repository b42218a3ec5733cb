/// A level over time in fixed memory: the highest value in each time bucket (100 ms to start with; past
/// `maxBuckets` buckets, neighbours merge in pairs, keeping the higher, and the width doubles). A bucket no
/// change fell in keeps the level the last change left. For the controller buffers in use.
public struct PeakSeries: Sendable, Equatable {
    public private(set) var origin: Int64?
    public private(set) var width: Int64 = 100_000
    public private(set) var peaks: [Int] = []
    var level = 0
    static let maxBuckets = 240

    /// The usual case, a time in a bucket already made, inline; the rest (the first value, a new bucket, merging)
    /// in `addSlowly`.
    @inline(__always) mutating func add(_ v: Int, at t: Timestamp) {
        if let o = origin, t.micros >= o {
            let i = Int((t.micros - o) / width)
            if i < peaks.count {
                if v > peaks[i] { peaks[i] = v }
                level = v
                return
            }
        }
        addSlowly(v, at: t)
    }

    @inline(never) mutating func addSlowly(_ v: Int, at t: Timestamp) {
        let now = t.micros
        if origin == nil { origin = now }
        guard let o = origin, now >= o else { level = v; return }
        // Timestamps are clamped (±2^55 µs): the difference cannot overflow.
        var i = Int((now - o) / width)
        while i >= PeakSeries.maxBuckets {
            peaks = stride(from: 0, to: peaks.count, by: 2).map { k in k + 1 < peaks.count ? Swift.max(peaks[k], peaks[k + 1]) : peaks[k] }
            width *= 2
            i = Int((now - o) / width)
        }
        while peaks.count <= i { peaks.append(level) }
        peaks[i] = Swift.max(peaks[i], v)
        level = v
    }
}
