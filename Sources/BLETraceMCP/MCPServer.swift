import BLETrace
import MCP

/// `bletrace mcp`: the tools of `AgentTools.all` served over standard input and output with the Model Context
/// Protocol's official Swift SDK. Every tool only reads; a failing call is a tool error whose text is the line
/// the command line prints for the same trouble.
public enum BLETraceMCPServer {
    public static func serve(_ policy: ServerPolicy) async throws {
        let server = Server(name: "bletrace", version: BLETraceVersion.string,
                            instructions: instructions(policy),
                            capabilities: .init(tools: .init(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { _ in
            .init(tools: AgentTools.all.map { $0.definition })
        }
        await server.withMethodHandler(CallTool.self) { params in
            call(params.name, params.arguments, policy: policy)
        }
        try await server.start(transport: StdioTransport())
        await server.waitUntilCompleted()
    }

    /// Answers one call (also used by the tests without a transport).
    static func call(_ name: String, _ arguments: [String: Value]?, policy: ServerPolicy) -> CallTool.Result {
        guard let tool = AgentTools.named(name) else {
            return ToolAnswer.failure("no tool '\(name)' (the tools: \(AgentTools.all.map { $0.name }.joined(separator: ", ")))")
        }
        do {
            let args = try ToolArguments(tool: name, values: arguments, allowed: Set(tool.properties.keys))
            return try tool.answer(args, policy: policy).result
        } catch {
            return ToolAnswer.failure(error.message)
        }
    }

    static func instructions(_ policy: ServerPolicy) -> String {
        var s = "bletrace decodes Bluetooth captures (btsnoop, PacketLogger, pcap, pcapng, Android bugreports) into typed events and diagnoses. Start with analyze or diagnoses; follow a diagnosis's evidence records with record; list events with events and its filters. Lists come in pages (page.next_offset); answers over \(policy.maxBytes) bytes come in pieces (piece.next_byte_offset)."
        if policy.redact { s += " Every answer is redacted." }
        if !policy.roots.isEmpty { s += " Only files under \(policy.roots.joined(separator: ", ")) can be read." }
        return s
    }
}
