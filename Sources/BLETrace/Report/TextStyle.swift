/// How the text timeline looks: colour, time column, line width.
public struct TextStyle: Sendable {
    public enum TimeMode: String, Sendable, CaseIterable {
        /// Seconds since the first record.
        case relative
        /// UTC wall-clock time of the record.
        case absolute
        /// Seconds since the previous record.
        case delta
    }

    public var color = false
    public var time = TimeMode.relative
    /// Wrap summaries longer than this many columns onto indented continuation lines; 0 = never wrap.
    public var width = 100

    public init(color: Bool = false, time: TimeMode = .relative, width: Int = 100) {
        self.color = color
        self.time = time
        self.width = width
    }

    /// Decides colour the usual way: `always`/`never` win; `auto` means a terminal and no `NO_COLOR`.
    public static func wantsColor(_ mode: String, isTerminal: Bool, environment: [String: String]) -> Bool {
        switch mode {
        case "always": return true
        case "never": return false
        default:
            if let v = environment["NO_COLOR"], !v.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return isTerminal
        }
    }
}

/// ANSI colour codes used by the text renderer.
enum ANSI {
    static let reset = "\u{1B}[0m"
    static let dim = "\u{1B}[2m"
    static let red = "\u{1B}[31m"
    static let green = "\u{1B}[32m"
    static let yellow = "\u{1B}[33m"
    static let blue = "\u{1B}[34m"
    static let magenta = "\u{1B}[35m"
    static let cyan = "\u{1B}[36m"
    static let bold = "\u{1B}[1m"
}
