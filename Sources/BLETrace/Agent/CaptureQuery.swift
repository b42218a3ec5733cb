/// A capture as a caller outside the command line names it (the MCP server's tools): where it is, which log
/// of a bugreport, the keys to decrypt it, and whether names and addresses come out as pseudonyms.
public struct CaptureQuery: Sendable {
    public var path: String
    /// In a bugreport with several Bluetooth logs, log N (1-based), as `--log N`.
    public var log: Int?
    public var keys = KeyOptions()
    public var redact = false

    public init(path: String, log: Int? = nil, keys: KeyOptions = KeyOptions(), redact: Bool = false) {
        self.path = path
        self.log = log
        self.keys = keys
        self.redact = redact
    }

    var options: DecodeOptions {
        var o = DecodeOptions()
        o.keys = keys
        return o
    }

    /// Opens the capture; a capture that cannot be opened is the command line's line ("x.log: …").
    func open() throws(OptionError) -> OpenedCapture {
        do {
            return try InputOpener.open(path: path, log: log)
        } catch let e as CaptureError {
            throw OptionError("\(path): \(e.description)")
        } catch {
            throw OptionError("\(path): \(error)")
        }
    }

    /// The line the command line prints when the capture is damaged part-way ("x.log: truncated record …; the
    /// output covers the 12 records before it"); nil for a whole capture.
    func damage(_ summary: Summary, covering what: String) -> String? {
        guard let e = summary.error else { return nil }
        let n = summary.stats.records
        return "\(path): \(e.description); \(what) \(n) record\(n == 1 ? "" : "s") before it"
    }
}

/// What a query answers: one JSON document, and the one-line note when the capture was damaged part-way (the
/// document then holds everything decoded before the damage).
public struct QueryAnswer: Sendable {
    public var json: [UInt8]
    public var damage: String?

    public init(json: [UInt8], damage: String? = nil) {
        self.json = json
        self.damage = damage
    }
}
