/// Bytes over time in one direction: the total, and 1-second windows counted from the first packet (the
/// fullest window, and the emptiest between the first and the last packet). Fixed size whatever the length.
public struct ThroughputWindows: Sendable, Equatable {
    public static let window: Int64 = 1_000_000

    public private(set) var bytes = 0
    public private(set) var first: Timestamp?
    public private(set) var last: Timestamp?
    var windowStart: Int64 = 0
    var windowBytes = 0
    /// Bytes of the fullest and the emptiest closed window, and where the fullest began.
    public private(set) var peakBytes = 0
    public private(set) var peakStart: Timestamp?
    public private(set) var leastBytes: Int?
    /// Windows closed so far.
    public private(set) var windows = 0

    public init() {}

    /// Inline where it is called (once for every ACL packet); closing a window is not.
    @inline(__always) public mutating func add(_ n: Int, at t: Timestamp) {
        if first == nil {
            first = t
            windowStart = t.micros
        }
        if t.micros >= windowStart + ThroughputWindows.window {
            close()
            let skipped = (t.micros - windowStart) / ThroughputWindows.window
            if skipped > 1 { leastBytes = 0; windows += Int(truncatingIfNeeded: skipped - 1) }
            windowStart += skipped * ThroughputWindows.window
        }
        windowBytes += n
        bytes += n
        if last.map({ t > $0 }) ?? true { last = t }
    }

    @inline(never) mutating func close() {
        windows += 1
        if windowBytes > peakBytes { peakBytes = windowBytes; peakStart = Timestamp(micros: windowStart) }
        leastBytes = Swift.min(leastBytes ?? windowBytes, windowBytes)
        windowBytes = 0
    }

    /// The fullest window's rate in bits per second, counting the window still open.
    public var peakBitsPerSecond: Int { Swift.max(peakBytes, windowBytes) * 8 }
    /// Where the fullest window began.
    public var peakAt: Timestamp? { windowBytes > peakBytes ? Timestamp(micros: windowStart) : peakStart }

    /// The mean rate in bits per second over `span` microseconds.
    public func meanBitsPerSecond(over span: Int64) -> Int? {
        guard span > 0 else { return nil }
        return Int((Double(bytes) * 8 * 1_000_000 / Double(span)).rounded())
    }
}
