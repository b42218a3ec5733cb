import BLETrace
import MCP

/// One tool of the MCP server: its name, what it does, the JSON schema of its input, and how it answers.
/// The table of them is `AgentTools.all`; adding a tool is one file and one line there. The tools are types (their
/// metatypes are shared by every request, so they are `SendableMetatype`).
protocol AgentTool: SendableMetatype {
    static var name: String { get }
    static var summary: String { get }
    /// The input's properties as JSON schema (`CaptureArguments.properties` for the capture's own).
    static var properties: [String: Value] { get }
    static var required: [String] { get }
    static func answer(_ args: ToolArguments, policy: ServerPolicy) throws(OptionError) -> ToolAnswer
}

extension AgentTool {
    static var definition: Tool {
        Tool(name: name, description: summary,
             inputSchema: .object(["type": "object", "properties": .object(properties),
                                   "required": .array(required.map { .string($0) }),
                                   "additionalProperties": false]),
             annotations: .init(title: nil, readOnlyHint: true, destructiveHint: false, idempotentHint: true,
                                openWorldHint: false))
    }
}

/// The server's tools, in the order `tools/list` gives them.
enum AgentTools {
    static let all: [any AgentTool.Type] = [
        AnalyzeTool.self, EventsTool.self, RecordTool.self, DiagnosesTool.self, DevicesTool.self, GattTool.self,
        DiffTool.self, TriageReportTool.self,
    ]

    static func named(_ name: String) -> (any AgentTool.Type)? { all.first { $0.name == name } }
}

/// JSON schema pieces the tools share.
enum Schema {
    static func string(_ description: String) -> Value { .object(["type": "string", "description": .string(description)]) }
    static func integer(_ description: String, minimum: Int, maximum: Int? = nil) -> Value {
        var o: [String: Value] = ["type": "integer", "description": .string(description), "minimum": .int(minimum)]
        if let m = maximum { o["maximum"] = .int(m) }
        return .object(o)
    }
    static func number(_ description: String) -> Value { .object(["type": "number", "description": .string(description), "minimum": 0]) }
    static func boolean(_ description: String) -> Value { .object(["type": "boolean", "description": .string(description)]) }
    static func strings(_ description: String) -> Value {
        .object(["type": "array", "items": .object(["type": "string"]), "description": .string(description)])
    }

    /// `offset` and `limit` of a paged list.
    static func paging(_ what: String, limit: Int, maximum: Int) -> [String: Value] {
        ["offset": integer("The first \(what) to return, counted from 0 (a page's next_offset).", minimum: 0),
         "limit": integer("The most \(what) to return (default \(limit)); a page also stops at the server's byte limit.", minimum: 1, maximum: maximum)]
    }
}
