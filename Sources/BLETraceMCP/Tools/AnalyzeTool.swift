import BLETrace
import MCP

/// `analyze`: the summary of a capture with its diagnoses, as `bletrace analyze PATH --format json --summary-only`.
enum AnalyzeTool: AgentTool {
    static let name = "analyze"
    static let summary = "Summarise a Bluetooth capture: records, connections, devices, pairing, links, findings and diagnoses (each with its evidence records), as `bletrace analyze PATH --format json --summary-only` prints it. An answer over the server's byte limit comes in pieces: call again with byte_offset = piece.next_byte_offset and join the texts."
    static var properties: [String: Value] {
        CaptureArguments.properties().merging(["byte_offset": Schema.integer("For an answer in pieces: where the next piece starts.", minimum: 0)]) { a, _ in a }
    }
    static let required = ["path"]

    static func answer(_ args: ToolArguments, policy: ServerPolicy) throws(OptionError) -> ToolAnswer {
        let q = try CaptureArguments.query(args, policy: policy)
        return try ToolAnswer.piece(of: try CaptureQueries.summary(q), from: try args.int("byte_offset", atLeast: 0) ?? 0,
                                    maxBytes: policy.maxBytes)
    }
}
