import BLETrace
import MCP

/// `devices`: advertisers and connection peers.
enum DevicesTool: AgentTool {
    static let name = "devices"
    static let summary = "The devices of a capture, one entry per address: first and last seen, reports, RSSI, names, services, manufacturers, beacons, connectable, connected — as `bletrace devices PATH --format json`, the device list paged (page.next_offset)."
    static var properties: [String: Value] {
        CaptureArguments.properties().merging(Schema.paging("devices", limit: 100, maximum: ListPage.maximumLimit)) { a, _ in a }
    }
    static let required = ["path"]

    static func answer(_ args: ToolArguments, policy: ServerPolicy) throws(OptionError) -> ToolAnswer {
        let q = try CaptureArguments.query(args, policy: policy)
        return try ListPage.answer(try CaptureQueries.devices(q), list: ["devices", "devices"], args: args,
                                   defaultLimit: 100, policy: policy)
    }
}
