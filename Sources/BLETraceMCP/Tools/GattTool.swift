import BLETrace
import MCP

/// `gatt`: each device's GATT database, rebuilt from the discovery in the capture.
enum GattTool: AgentTool {
    static let name = "gatt"
    static let summary = "The GATT database of every device, rebuilt from the discovery in a capture (services, characteristics, descriptors, the values read or notified), as `bletrace gatt PATH --format json` — one device's database per list item, paged (page.next_offset)."
    static var properties: [String: Value] {
        CaptureArguments.properties().merging(Schema.paging("devices' databases", limit: 20, maximum: ListPage.maximumLimit)) { a, _ in a }
    }
    static let required = ["path"]

    static func answer(_ args: ToolArguments, policy: ServerPolicy) throws(OptionError) -> ToolAnswer {
        let q = try CaptureArguments.query(args, policy: policy)
        return try ListPage.answer(try CaptureQueries.gatt(q), list: ["devices"], args: args,
                                   defaultLimit: 20, policy: policy)
    }
}
