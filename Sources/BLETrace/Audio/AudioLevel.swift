/// The level of a decoded signal: RMS and peak over the whole stream, clipped samples, stretches of digital
/// silence, and a level-over-time strip of bounded size (its buckets merge in pairs as the stream grows).
/// Samples are 16-bit; channels are measured together.
public struct AudioLevel: Sendable {
    public private(set) var samples = 0
    var sumSquares: Double = 0
    /// The largest absolute sample (32768 for -32768).
    public private(set) var peak = 0
    /// Samples at full scale (32767 or -32768).
    public private(set) var clipped = 0
    /// Stretches of at least `silenceMinimum` samples per channel whose magnitude is at most `silenceMagnitude`.
    public private(set) var silences = 0
    public private(set) var longestSilenceSamples = 0
    public private(set) var silentSamples = 0
    var run = 0
    /// The level strip: RMS per bucket of `bucketSamples` samples (all channels), at most `maxBuckets`.
    public private(set) var strip: [Double] = []
    public private(set) var bucketSamples: Int
    var bucketSum: Double = 0
    var bucketCount = 0
    /// The samples (all channels) a silence must last, and the magnitude it may not exceed.
    let silenceMinimum: Int
    static let silenceMagnitude: Int32 = 1
    static let maxBuckets = 1024

    /// `samplesPerSecond` counts all channels (rate × channels): buckets start at 50 ms, silences at 20 ms.
    public init(samplesPerSecond: Int) {
        bucketSamples = max(1, samplesPerSecond / 20)
        silenceMinimum = max(1, samplesPerSecond / 50)
    }

    public mutating func add(_ pcm: UnsafeBufferPointer<Int16>) {
        for s in pcm {
            let v = Int32(s)
            let m = v < 0 ? -v : v
            let d = Double(v)
            sumSquares += d * d
            bucketSum += d * d
            if Int(m) > peak { peak = Int(m) }
            if v == 32767 || v == -32768 { clipped += 1 }
            if m <= AudioLevel.silenceMagnitude { run += 1 } else { endRun() }
            bucketCount += 1
            if bucketCount == bucketSamples { closeBucket() }
        }
        samples += pcm.count
    }

    /// Ends the stream: an open silence and the last partial bucket are counted.
    public mutating func finish() {
        endRun()
        if bucketCount > 0 { closeBucket() }
    }

    mutating func endRun() {
        if run >= silenceMinimum {
            silences += 1
            silentSamples += run
            longestSilenceSamples = max(longestSilenceSamples, run)
        }
        run = 0
    }

    mutating func closeBucket() {
        strip.append((bucketSum / Double(max(1, bucketCount))).squareRoot())
        bucketSum = 0
        bucketCount = 0
        if strip.count == AudioLevel.maxBuckets {
            // Merge pairs: the RMS of two equal buckets is the root of their mean square.
            var merged: [Double] = []
            merged.reserveCapacity(AudioLevel.maxBuckets)
            var i = 0
            while i + 1 < strip.count {
                merged.append(((strip[i] * strip[i] + strip[i + 1] * strip[i + 1]) / 2).squareRoot())
                i += 2
            }
            strip = merged
            bucketSamples *= 2
        }
    }

    /// RMS over the stream, as a fraction of full scale (0…1).
    public var rms: Double { samples == 0 ? 0 : (sumSquares / Double(samples)).squareRoot() / 32768 }

    /// Decibels relative to full scale; nil for nothing or digital zero.
    public static func dBFS(_ fraction: Double) -> Double? { fraction <= 0 ? nil : 20 * log10(fraction) }

    /// Every sample was within the silence magnitude.
    public var silent: Bool { samples > 0 && peak <= Int(AudioLevel.silenceMagnitude) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
