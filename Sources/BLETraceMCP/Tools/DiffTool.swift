import BLETrace
import MCP

/// `diff`: what changed between two captures, semantically.
enum DiffTool: AgentTool {
    static let name = "diff"
    static let summary = "Compare two captures semantically (devices, adverts, connections, pairing, GATT, values, errors, procedures, timing), most important first, as `bletrace diff A B --format json`. An answer over the server's byte limit comes in pieces (byte_offset)."
    static var properties: [String: Value] {
        var p = CaptureArguments.properties()
        p["path"] = nil
        p["log"] = nil
        p["a_path"] = Schema.string("The first capture (A).")
        p["b_path"] = Schema.string("The second capture (B).")
        p["a_log"] = Schema.integer("In a bugreport A with several Bluetooth logs, compare log N.", minimum: 1)
        p["b_log"] = Schema.integer("In a bugreport B with several Bluetooth logs, compare log N.", minimum: 1)
        p["ignore"] = Schema.string("What to leave out, comma-separated: \(DiffOptions.ignorable.joined(separator: ", ")).")
        p["timing_threshold"] = Schema.number("A timing change counts from this many milliseconds (default 50).")
        p["byte_offset"] = Schema.integer("For an answer in pieces: where the next piece starts.", minimum: 0)
        return p
    }
    static let required = ["a_path", "b_path"]

    static func answer(_ args: ToolArguments, policy: ServerPolicy) throws(OptionError) -> ToolAnswer {
        let a = try CaptureArguments.query(args, policy: policy, prefix: "a_")
        let b = try CaptureArguments.query(args, policy: policy, prefix: "b_")
        let options = try DiffOptions.checked(ignore: try args.string("ignore"),
                                              timingThresholdMillis: try args.double("timing_threshold") ?? 50)
        return try ToolAnswer.piece(of: try CaptureQueries.diff(a, b, options: options),
                                    from: try args.int("byte_offset", atLeast: 0) ?? 0, maxBytes: policy.maxBytes)
    }
}
