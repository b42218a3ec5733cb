/// The BR/EDR rows of a Markdown connection table: link type, the profiles opened, pairing,
/// the A2DP stream and the HID reports.
extension MarkdownRenderer {
    func classicRows(_ c: Connection) -> [String] {
        guard !c.le else { return [] }
        var rows = ["| Transport | BR/EDR" + (c.linkType.map { " " + ClassicLinkText.name($0) } ?? "") + " |"]
        if !c.profiles.isEmpty {
            let names = c.profiles.map { LESignalingNames.psm($0) ?? Hex.hex($0, width: 4) }
            rows.append("| Profiles | " + MarkdownRenderer.md(names.joined(separator: ", ")) + " |")
        }
        if let p = c.pairing { rows.append("| Pairing | " + MarkdownRenderer.md(p.text) + " |") }
        if let s = layers.lazy.compactMap({ $0 as? A2DPStreams }).first?.streams.first(where: { $0.connection == c.id }) {
            rows.append("| A2DP stream | " + MarkdownRenderer.md(s.text) + " |")
        }
        if let h = layers.lazy.compactMap({ $0 as? HIDReports }).first?.connections.first(where: { $0.connection == c.id }) {
            rows.append("| HID reports | \(h.reports[0]) input, \(h.reports[1]) output, \(h.reports[2]) feature |")
        }
        return rows
    }
}
