/// Cells the Markdown and HTML device tables make alike from a device of the summary's inventory.
enum DeviceCells {
    /// The strings of a list value (names, services).
    static func strings(_ v: FieldValue?) -> [String] {
        guard case let .list(l)? = v else { return [] }
        return l.compactMap { $0.stringValue }
    }

    /// "-79 / -68.2 / -62 dBm", or empty when the device has no RSSI.
    static func rssi(_ x: Fields) -> String {
        guard let r = x["rssi"]?.objectValue, let lo = r["min"]?.intValue, let hi = r["max"]?.intValue else { return "" }
        var mean = ""
        if case let .double(m)? = r["mean"] { mean = Fmt.fixed(Int((m * 10).rounded()), scale: 10) }
        return "\(lo) / \(mean) / \(hi) dBm"
    }
}
