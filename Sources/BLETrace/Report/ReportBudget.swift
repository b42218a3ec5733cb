/// A Markdown report as an ordered list of sections, and the size budget that shortens the least important
/// ones first. Any part of the report is a `ReportSection`, so a section a new renderer adds is counted and
/// trimmed like the others.
public struct ReportSection {
    /// What a section is, for the note that says what was cut.
    public enum Kind: String, Sendable {
        case header, diagnoses, findings, devices, connection, gattDatabase, timeline, diagram, warnings, footer
    }

    /// How readily a section gives up room: lower is cut first. Sections of the same priority give up room
    /// largest first.
    public enum Priority {
        public static let timeline = 10
        public static let diagram = 20
        public static let gattDatabase = 30
        public static let devices = 40
        public static let connection = 50
        public static let findings = 60
        public static let diagnoses = 70
        public static let fixed = Int.max
    }

    public var kind: Kind
    /// The connection the section belongs to, if any.
    public var connection: Int?
    public var priority: Int
    /// The section's forms, fullest first; each shorter one says in its own text what it left out. The
    /// last may be empty (the section left out).
    public var forms: [[String]]
    /// The form in use.
    public internal(set) var chosen = 0

    public init(kind: Kind, connection: Int? = nil, priority: Int, forms: [[String]]) {
        self.kind = kind
        self.connection = connection
        self.priority = priority
        self.forms = forms.isEmpty ? [[]] : forms
    }

    public init(kind: Kind, connection: Int? = nil, lines: [String]) {
        self.init(kind: kind, connection: connection, priority: Priority.fixed, forms: [lines])
    }

    public var lines: [String] { forms[chosen] }
    public var isCut: Bool { chosen > 0 }
    public var canShrink: Bool { chosen + 1 < forms.count }

    /// Characters the section takes, a newline after each line.
    public var size: Int { ReportSection.size(lines) }

    static func size(_ lines: [String]) -> Int { lines.reduce(0) { $0 + $1.count + 1 } }
}

/// Fits a list of sections into a number of characters by moving sections to shorter forms, lowest priority
/// first.
public struct ReportBudget: Sendable {
    /// The most characters the document may take; nil for no limit.
    public var limit: Int?

    /// GitHub takes at most 65,536 characters in an issue body; the default leaves room for a sentence
    /// around the report.
    public static let defaultLimit = 60_000

    public init(limit: Int? = ReportBudget.defaultLimit) { self.limit = limit }

    /// Shortens sections until they and `reserve` more characters fit. Returns whether they fit.
    @discardableResult
    public func fit(_ sections: inout [ReportSection], reserve: Int = 0) -> Bool {
        guard let limit = limit else { return true }
        var total = sections.reduce(reserve) { $0 + $1.size }
        while total > limit {
            var best: Int? = nil
            for i in sections.indices where sections[i].canShrink {
                guard let b = best else { best = i; continue }
                let s = sections[i], t = sections[b]
                if s.priority < t.priority || (s.priority == t.priority && s.size > t.size) { best = i }
            }
            guard let i = best else { return false }
            let before = sections[i].size
            sections[i].chosen += 1
            total += sections[i].size - before
        }
        return true
    }

    /// The note that says what the budget cut and how to get it, or nothing when nothing was cut.
    public static func note(_ sections: [ReportSection], limit: Int, file: String) -> [String] {
        let cut = sections.filter(\.isCut)
        guard !cut.isEmpty else { return [] }
        func list(_ kind: ReportSection.Kind) -> [ReportSection] { cut.filter { $0.kind == kind } }
        func connections(_ s: [ReportSection]) -> String {
            let ids = s.compactMap(\.connection).map { "#\($0)" }
            let shown = ids.prefix(20).joined(separator: ", ")
            return ids.count > 20 ? shown + ", … (\(ids.count) in all)" : shown
        }
        let f = file.replacingAll("`", with: "'")
        var what: [String] = []
        let timelines = list(.timeline)
        if !timelines.isEmpty {
            let of = connections(timelines)
            what.append("timeline excerpts shortened or left out" + (of.isEmpty ? "" : " (connections \(of))")
                + ": `bletrace analyze \(f) --connection N` prints a connection's whole timeline")
        }
        let diagrams = list(.diagram)
        if !diagrams.isEmpty { what.append("\(diagrams.count) sequence diagram\(diagrams.count == 1 ? "" : "s") left out") }
        let databases = list(.gattDatabase)
        if !databases.isEmpty {
            what.append("\(databases.count) GATT database\(databases.count == 1 ? "" : "s") shortened or left out: "
                + "`bletrace gatt \(f)` prints them")
        }
        if !list(.devices).isEmpty { what.append("the device table shortened: `bletrace devices \(f)` lists every device") }
        let conns = list(.connection)
        if !conns.isEmpty { what.append("the sections of \(conns.count) connection\(conns.count == 1 ? "" : "s") shortened or left out (connections \(connections(conns)); the JSON summary has them all)") }
        if !list(.findings).isEmpty { what.append("the findings table shortened (the JSON summary lists every finding)") }
        var lines = ["> **Cut to fit \(limit) characters** (`--max-chars N` changes the budget, `--max-chars 0` removes it):"]
        for w in what { lines.append("> - " + w) }
        lines.append("")
        return lines
    }

    /// Fits the sections, puts the note that says what was cut after the first section (the header), and
    /// returns the document's lines.
    public func render(_ sections: [ReportSection], file: String) -> [String] {
        var sections = sections
        guard let limit = limit else { return sections.flatMap(\.lines) }
        var reserve = 0
        // The note grows with what is cut: fit again until the room kept for it holds it.
        for _ in 0..<4 {
            fit(&sections, reserve: reserve)
            let need = ReportSection.size(ReportBudget.note(sections, limit: limit, file: file))
            if need <= reserve { break }
            reserve = need
        }
        let note = ReportBudget.note(sections, limit: limit, file: file)
        var out: [String] = []
        for (i, s) in sections.enumerated() {
            out.append(contentsOf: s.lines)
            if i == 0 { out.append(contentsOf: note) }
        }
        return out
    }
}
