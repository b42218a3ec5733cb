import BLETrace
import MCP

/// `record`: one record fully decoded, with its bytes.
enum RecordTool: AgentTool {
    static let name = "record"
    static let summary = "One record of a capture fully decoded: its events as `bletrace analyze PATH --records N --format jsonl` prints them, its time, direction and packet type, and its bytes as captured in hex (withheld when redacting)."
    static var properties: [String: Value] {
        var p = CaptureArguments.properties()
        p["record"] = Schema.integer("The record number, from 1 (Wireshark's frame number).", minimum: 1)
        p["byte_offset"] = Schema.integer("For an answer in pieces: where the next piece starts.", minimum: 0)
        return p
    }
    static let required = ["path", "record"]

    static func answer(_ args: ToolArguments, policy: ServerPolicy) throws(OptionError) -> ToolAnswer {
        let q = try CaptureArguments.query(args, policy: policy)
        guard let n = try args.int("record", atLeast: 1) else { throw OptionError("record: 'record' is required") }
        return try ToolAnswer.piece(of: try CaptureQueries.record(q, number: n),
                                    from: try args.int("byte_offset", atLeast: 0) ?? 0, maxBytes: policy.maxBytes)
    }
}
