/// CVSD, the BR/EDR voice codec (Core 5.4 Vol 2 Part B 9.2), decoded by bletrace itself: used when an SCO link
/// runs in transparent air mode and the host does CVSD (HFP codec ID 1 over a transparent link, or Enhanced
/// Setup with CVSD as the HCI coding), so HCI carries the 64 kbit/s bit stream rather than PCM.
///
/// Each bit b(k) (1 up, 0 down) is one step of a delta modulator at 64 kHz:
/// - run detection: α = 1 when the last K = 4 bits hold a run of J = 4 equal bits (with J = K: all four equal);
/// - syllabic companding of the step: δ(k) = min(δ(k−1) + δmin, δmax) when α = 1, else max(β·δ(k−1), δmin),
///   with δmin = 10, δmax = 1280, β = 1 − 1/1024;
/// - the accumulator: y(k) = x̂(k−1) ± δ(k), held within [−2^15, 2^15 − 1], and x̂(k) = h·y(k) with the
///   accumulator decay h = 1 − 1/32.
/// y(k) is the 64 kHz signal. The bits of a byte are taken least significant first (the order they go on the
/// air); a stream written the other way, or with the opposite sense of a bit, keeps its frequencies and level
/// (the bit sense only flips the waveform's sign).
///
/// Decimation to 8 kHz: y runs through a 128-tap low-pass FIR (a windowed sinc, Hamming window, cut-off
/// 3.4 kHz, unity gain at DC), evaluated only at every eighth sample: one 8 kHz sample per byte, the filter's
/// delay 63.5 samples at 64 kHz (about 1 ms). The decoder keeps its state across packets; a stream's bytes can
/// be anything, and every value stays bounded (no trapping conversion).
struct CVSDDecoder {
    static let stepMin = 10.0
    static let stepMax = 1280.0
    static let stepDecay = 1.0 - 1.0 / 1024
    static let accumulatorDecay = 1.0 - 1.0 / 32
    static let yMax = 32767.0
    static let yMin = -32768.0
    /// J = K = 4: the run mask over the last four bits.
    static let runMask: UInt8 = 0x0F
    static let taps = 128
    static let cutoffHz = 3400.0
    static let inputRate = 64_000.0

    /// The low-pass filter's coefficients (symmetric, summing to 1).
    static let lowPass: [Double] = {
        let n = taps
        let fc = cutoffHz / inputRate
        let middle = Double(n - 1) / 2
        var h = (0..<n).map { i -> Double in
            let t = Double(i) - middle
            let sinc = 2 * fc * (t == 0 ? 1 : sin(2 * Double.pi * fc * t) / (2 * Double.pi * fc * t))
            let window = 0.54 - 0.46 * cos(2 * Double.pi * Double(i) / Double(n - 1))
            return sinc * window
        }
        let sum = h.reduce(0, +)
        for i in h.indices { h[i] /= sum }
        return h
    }()

    /// The last four bits (newest in bit 0), starting as an alternating pattern (no run).
    private var history: UInt8 = 0b1010
    private var step = CVSDDecoder.stepMin
    /// x̂(k−1).
    private var estimate = 0.0
    /// The last `taps` values of y, twice over (index i and i + taps), so a window is one contiguous run.
    private var ring = [Double](repeating: 0, count: 2 * CVSDDecoder.taps)
    private var position = 0

    /// One delta-modulator step: the 64 kHz sample for bit `b`.
    mutating func step(_ b: UInt8) -> Double {
        history = (history << 1 | b) & CVSDDecoder.runMask
        if history == 0 || history == CVSDDecoder.runMask {
            step = min(step + CVSDDecoder.stepMin, CVSDDecoder.stepMax)
        } else {
            step = max(step * CVSDDecoder.stepDecay, CVSDDecoder.stepMin)
        }
        var y = estimate + (b == 1 ? step : -step)
        y = y >= 0 ? min(y, CVSDDecoder.yMax) : max(y, CVSDDecoder.yMin)
        estimate = CVSDDecoder.accumulatorDecay * y
        return y
    }

    /// Appends one 8 kHz sample per byte of `bytes` to `out`.
    mutating func decode(_ bytes: ArraySlice<UInt8>, into out: inout [Int16]) {
        let n = CVSDDecoder.taps
        let h = CVSDDecoder.lowPass
        for byte in bytes {
            for bit in 0..<8 {
                let y = step((byte >> UInt8(bit)) & 1)
                ring[position] = y
                ring[position + n] = y
                position = position + 1 == n ? 0 : position + 1
            }
            // The oldest sample is at `position`: the window ring[position ..< position + n], oldest first.
            var acc = 0.0
            for i in 0..<n { acc += h[i] * ring[position + i] }
            out.append(CVSDDecoder.sample(acc))
        }
    }

    /// A filtered value as a 16-bit sample (rounded, held within range; anything not finite is 0).
    static func sample(_ v: Double) -> Int16 {
        guard v.isFinite else { return 0 }
        let r = v.rounded()
        if r >= 32767 { return .max }
        if r <= -32768 { return .min }
        return Int16(r)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
