import BLETrace
import Foundation
import MCP

/// `diagnoses`: what went wrong and why, each with the records that prove it.
enum DiagnosesTool: AgentTool {
    static let name = "diagnoses"
    static let summary = "The diagnoses of a capture (id, severity, title, explanation, advice, connections, peer, evidence records), most severe first, as the diagnoses of `bletrace analyze PATH --format json` — paged (page.next_offset)."
    static var properties: [String: Value] {
        CaptureArguments.properties().merging(Schema.paging("diagnoses", limit: 100, maximum: ListPage.maximumLimit)) { a, _ in a }
    }
    static let required = ["path"]

    static func answer(_ args: ToolArguments, policy: ServerPolicy) throws(OptionError) -> ToolAnswer {
        let q = try CaptureArguments.query(args, policy: policy)
        let whole = try CaptureQueries.summary(q)
        guard let doc = try? JSONDecoder().decode(Value.self, from: Data(whole.json)), let o = doc.objectValue else {
            throw OptionError("\(q.path): the summary is not a JSON document")
        }
        let only: Value = .object(["schema": o["schema"] ?? .null, "capture": o["capture"] ?? .null,
                                   "diagnoses": o["summary"]?.objectValue?["diagnoses"] ?? .array([])])
        return try ListPage.answer(only, damage: whole.damage, list: ["diagnoses"], args: args, defaultLimit: 100,
                                   policy: policy)
    }
}
