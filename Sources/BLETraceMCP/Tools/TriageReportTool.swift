import BLETrace
import MCP

/// `triage_report`: what a triage store holds.
enum TriageReportTool: AgentTool {
    static let name = "triage_report"
    static let summary = "The report of a triage store (an SQLite file or a postgresql:// URL), read-only: each capture with its status and diagnoses, and per diagnosis how many captures have it, by peer firmware — as `bletrace triage --db STORE --report --format json`, the captures paged (page.next_offset)."
    static var properties: [String: Value] {
        ["db": Schema.string("The store: an SQLite file made by bletrace triage, or postgresql://… .")]
            .merging(Schema.paging("captures", limit: 100, maximum: ListPage.maximumLimit)) { a, _ in a }
    }
    static let required = ["db"]

    static func answer(_ args: ToolArguments, policy: ServerPolicy) throws(OptionError) -> ToolAnswer {
        let db = try args.requiredString("db")
        if !TriageStores.isPostgres(db) { try policy.check(db, what: "store") }
        return try ListPage.answer(try CaptureQueries.triageReport(store: db, redactedOnly: policy.redact), list: ["captures"], args: args,
                                   defaultLimit: 100, policy: policy)
    }
}
