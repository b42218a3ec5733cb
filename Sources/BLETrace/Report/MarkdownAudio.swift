/// The Markdown report's LE Audio rows of a connection: a CIS or BIS (what it is, its ISO data each way), and
/// an ACL connection's ASE streams (`AudioStreams`).
extension MarkdownRenderer {
    func audioRows(_ c: Connection) -> [String] {
        var rows: [String] = []
        if let l = c.iso {
            rows.append("| Isochronous | " + MarkdownRenderer.md(String(ISOConnectionText.text(l).dropFirst(2))) + " |")
            let iso = layers.compactMap { $0 as? ISOStreams }.first?.streams ?? []
            for s in iso where s.connection == c.id {
                var lost: [String] = []
                if s.missing > 0 { lost.append("\(s.missing) missing") }
                if s.lost > 0 { lost.append("\(s.lost) flagged lost") }
                if s.invalid > 0 { lost.append("\(s.invalid) possibly invalid") }
                rows.append("| ISO data \(s.outgoing ? "host → controller" : "controller → host") | \(s.sdus) SDUs, \(LinkStatistics.size(s.bytes)), "
                    + (lost.isEmpty ? "none lost" : lost.joined(separator: ", ")) + " |")
            }
        }
        if let audio = layers.compactMap({ $0 as? AudioStreams }).first {
            for s in audio.streams where s.connection == c.id {
                var text = "\(s.sink ? "Sink" : "Source") ASE \(s.ase)"
                if let codec = s.codec { text += ": " + AudioStreamRow.codecText(codec) }
                if let cig = s.cig, let cis = s.cis { text += "; CIS \(cis) of CIG \(cig)" + (audio.carrier(s).map { " (#\($0.id))" } ?? "") }
                if let last = s.states.last { text += "; last state \(AudioStreamRow.stateName(last.state)) (record \(last.record))" }
                text += s.streaming.map { "; streamed from record \($0.record)" } ?? "; never streamed"
                rows.append("| Audio stream | " + MarkdownRenderer.md(text) + " |")
            }
        }
        return rows
    }
}
