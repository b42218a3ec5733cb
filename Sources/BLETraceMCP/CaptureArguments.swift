import BLETrace
import MCP

/// The arguments every tool that reads a capture takes, as `bletrace analyze` takes them: the path, `--log N`,
/// `--keys FILE`, `--ltk` and `--redact`.
enum CaptureArguments {
    static let names: Set<String> = ["path", "log", "keys", "ltk", "redact"]

    static func properties(path description: String = "The capture: btsnoop, PacketLogger, pcap or pcapng (detected from content), optionally gzip-compressed, or an Android bugreport .zip or .txt.") -> [String: Value] {
        ["path": Schema.string(description),
         "log": Schema.integer("In a bugreport with several Bluetooth logs, decode log N (as --log N).", minimum: 1),
         "keys": Schema.string("A JSON or YAML file of device keys (LTK, IRK), as --keys (docs/keys.md)."),
         "ltk": Schema.strings("LTKs for decrypting sniffed links, [ADDRESS=]32 hex digits, as --ltk."),
         "redact": Schema.boolean("Replace addresses, names, serial numbers, beacon UUIDs, ANCS text and keys with stable pseudonyms (always on when the server runs with --redact).")]
    }

    /// The capture the arguments name (`prefix` "a_"/"b_" for diff's two sides).
    static func query(_ args: ToolArguments, policy: ServerPolicy, prefix: String = "") throws(OptionError) -> CaptureQuery {
        let path = try args.requiredString(prefix + "path")
        try policy.check(path)
        let keyFile = try args.string("keys")
        if let k = keyFile { try policy.check(k, what: "keys file") }
        let keys = try KeyOptions.checked(file: keyFile, ltks: try args.strings("ltk"))
        let asked = try args.bool("redact")
        return CaptureQuery(path: path, log: try args.int(prefix + "log", atLeast: 1), keys: keys,
                            redact: policy.redact || asked)
    }
}
