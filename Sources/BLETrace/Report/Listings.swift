/// What `bletrace devices` and `bletrace gatt` write: the device inventory and the GATT databases of a
/// capture, as text or JSON, redacted on request. One pass: the lists are written after the last record,
/// so the redactor has learned every value by then.
public enum Listings {
    public enum Format: String, Sendable, CaseIterable { case text, json }

    /// Decodes the capture with no timeline, learning into `redactor` when given.
    static func analyze(_ opened: OpenedCapture, path: String, options: DecodeOptions, learning redactor: Redactor?) -> (Analyzer, Summary) {
        let analyzer = Analyzer(options: options, sink: nil)
        if let r = redactor { analyzer.chain.taps = [r] }
        let summary = analyzer.run(opened.reader, path: path, containers: opened.containers)
        redactor?.learn(summary: summary)
        return (analyzer, summary)
    }

    /// Writes a text line: redacted, with its control characters escaped.
    static func line(_ s: String, _ r: Redactor?, _ out: OutputWriter) {
        out.write(SafeText.escaped(r?.redact(s) ?? s))
        out.write(byte: 0x0A)
    }

    /// `bletrace devices`: every device seen. Returns the summary (its `error` says where reading stopped).
    /// `learned`: a redactor that has already learned this capture (`Redactor.learn(capture:)`).
    /// `options.keys`: IRKs that fold resolvable private addresses into their identity, and LTKs that decrypt
    /// sniffed links.
    @discardableResult
    public static func devices(_ opened: OpenedCapture, path: String, format: Format, options: DecodeOptions = DecodeOptions(),
                               redact: Bool = false, learned: Redactor? = nil, out: OutputWriter) -> Summary {
        let fresh = learned == nil && redact ? Redactor() : nil
        let r = learned ?? fresh
        let (analyzer, summary) = analyze(opened, path: path, options: options, learning: fresh)
        let inventory = analyzer.layers.lazy.compactMap { $0 as? DeviceInventory }.first
        let devices = inventory?.devices ?? []
        let overflow = inventory?.overflowReports ?? 0
        switch format {
        case .text:
            for l in DeviceInventory.text(devices, overflowReports: overflow, limit: nil) { line(l, r, out) }
        case .json:
            let capture = SummaryRender.captureFields(summary)
            let list = DeviceInventory.fields(devices, overflowReports: overflow)
            out.write("{\"schema\":\"bletrace/1\",\"capture\":")
            JSONOut.object(r?.redact(capture) ?? capture, to: out)
            out.write(",\"devices\":")
            JSONOut.object(r?.redact(list) ?? list, to: out)
            if let e = summary.error {
                out.write(",\"error\":")
                JSONOut.string(e.description, to: out)
            }
            out.write("}\n")
        }
        out.flush()
        return summary
    }

    /// `bletrace gatt`: the GATT database of every device, rebuilt from discovery.
    @discardableResult
    public static func gatt(_ opened: OpenedCapture, path: String, format: Format, options: DecodeOptions = DecodeOptions(),
                            redact: Bool = false, learned: Redactor? = nil, out: OutputWriter) -> Summary {
        let fresh = learned == nil && redact ? Redactor() : nil
        let r = learned ?? fresh
        let (analyzer, summary) = analyze(opened, path: path, options: options, learning: fresh)
        let att = analyzer.layers.compactMap { $0 as? ATTLayer }.first
        var dbs = att?.exportDatabases() ?? []
        switch format {
        case .json:
            var root = Fields()
            root.add("schema", "bletrace-gatt/1")
            root.add("capture", path)
            var list: [FieldValue] = []
            for i in dbs.indices { list.append(.object(dbs[i].jsonFields())) }
            root.add("devices", .list(list))
            JSONOut.object(r?.redact(root) ?? root, to: out)
            out.write("\n")
        case .text:
            if dbs.isEmpty { line("No GATT discovery in \(path).", r, out) }
            for i in dbs.indices {
                for l in dbs[i].textLines() { line(l, r, out) }
            }
        }
        out.flush()
        return summary
    }
}
