#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line of status on standard error, redrawn in place (for a terminal): what `ProgressBar` and
/// `TriageProgress` draw, at most every 0.1 s, and cleared when the work is done.
final class StatusLine {
    var lastDraw: Int64 = 0
    var drawn = false

    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }

    /// True when a line is due (0.1 s after the last one, or `force`); the caller then calls `draw`.
    func due(force: Bool = false) -> Bool {
        let t = StatusLine.now()
        guard force || t - lastDraw > 100_000 else { return false }
        lastDraw = t
        return true
    }

    func draw(_ text: String) {
        var line = "\r\u{1B}[2K" + text
        line.withUTF8 { buf in _ = write(2, buf.baseAddress, buf.count) }
        drawn = true
    }

    func finish() {
        guard drawn else { return }
        var clear = "\r\u{1B}[2K"
        clear.withUTF8 { buf in _ = write(2, buf.baseAddress, buf.count) }
    }
}
