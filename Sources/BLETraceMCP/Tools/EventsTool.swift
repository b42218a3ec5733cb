import BLETrace
import MCP

/// `events`: a page of the typed event timeline, filtered as `bletrace analyze` filters it.
enum EventsTool: AgentTool {
    static let name = "events"
    static let summary = "The decoded events of a capture, one JSON object each as `bletrace analyze PATH --format jsonl` prints them, filtered with the same options (device, connection, from, to, records, layer) and paged: page.total events match, page.next_offset is where the next page starts (null after the last)."
    static var properties: [String: Value] {
        var p = CaptureArguments.properties()
        p["device"] = Schema.strings("Only events of these devices: an address or a name (as --device).")
        p["connection"] = Schema.string("Only events of these connections, numbers as in the summary: \"1,2\" (as --connection).")
        p["from"] = Schema.number("Only events at or after this many seconds since the first record (as --from).")
        p["to"] = Schema.number("Only events at or before this many seconds since the first record (as --to).")
        p["records"] = Schema.string("Only these records: \"100-200\", \"100-\", \"-200\" or \"150\" (as --records).")
        p["layer"] = Schema.string("Only these layers, or with a leading - all but them, comma-separated: \(EventFilter.layerNames.joined(separator: ", ")), or an event kind (as --layer).")
        return p.merging(Schema.paging("events", limit: defaultLimit, maximum: maximumLimit)) { a, _ in a }
    }
    static let required = ["path"]
    static let defaultLimit = 100
    static let maximumLimit = 1000

    static func answer(_ args: ToolArguments, policy: ServerPolicy) throws(OptionError) -> ToolAnswer {
        let q = try CaptureArguments.query(args, policy: policy)
        let filter = try EventFilter.checked(devices: try args.strings("device"), connections: try args.string("connection"),
                                             from: try args.double("from"), to: try args.double("to"),
                                             records: try args.string("records"), layers: try args.string("layer"))
        let offset = try args.int("offset", atLeast: 0) ?? 0
        let limit = try args.int("limit", atLeast: 1, atMost: maximumLimit) ?? defaultLimit
        let page = try CaptureQueries.events(q, filter: filter, offset: offset, limit: limit, maxBytes: policy.maxBytes)
        var json: [UInt8] = Array("{\"page\":{\"offset\":\(offset),\"returned\":\(page.lines.count),\"total\":\(page.total),\"next_offset\":\(page.nextOffset.map(String.init) ?? "null")},\"events\":[".utf8)
        for (i, l) in page.lines.enumerated() {
            if i > 0 { json.append(0x2C) }
            json.append(contentsOf: l)
        }
        json.append(contentsOf: Array("]}".utf8))
        var notes = page.notes.map { "bletrace: note: " + $0 }
        if let d = page.damage { notes.append("bletrace: " + d) }
        return ToolAnswer(json: json, notes: notes)
    }
}
