/// The HTML report's decoded audio (`analyze --audio --format html`): per stream a level-over-time strip (RMS per
/// bucket in dBFS, -60 to 0, on the stream's own time line) with its dropouts marked where they fall.
enum HTMLAudioLevels {
    static let floor = -60.0

    static func section(_ audio: A2DPAudio?, page: HTMLPage) -> String {
        guard let audio, !audio.streams.isEmpty else { return "" }
        var h = "<h3 id=\"audio-levels\">Decoded audio</h3>\n<p>Each stream's level over its own time line (RMS in dBFS per bucket); "
            + "red dashed lines mark each dropout (lost packets, underruns) where it starts and, when it is wide enough, where it ends.</p>\n"
        if let u = audio.decodingUnavailable { h += "<p class=\"muted\">\(page.t(u.description))</p>\n" }
        for s in audio.streams.prefix(16) {
            h += "<p>" + page.t(AudioRender.lines([s], unavailable: nil).first ?? "") + "</p>\n"
            guard let level = s.level, !level.strip.isEmpty else { continue }
            let width = 640.0, left = 40.0, right = 10.0, top = 8.0, plot = 80.0
            var w = SVGWriter(width: width, height: top + plot + 24)
            let bucketMicros = Double(level.bucketSamples) * 1_000_000 / Double(max(1, s.levelRate))
            let total = max(Double(Int64(s.positionSamples) * 1_000_000 / Int64(s.sampleRate)), bucketMicros * Double(level.strip.count), 1)
            func x(_ us: Double) -> Double { left + (width - left - right) * us / total }
            func y(_ db: Double) -> Double { top + plot * (min(0, max(floor, db)) / floor) }
            for db in [0.0, -20, -40, -60] {
                w.line(left, y(db), width - right, y(db), class: "grid")
                w.text(left - 4, y(db) + 4, "\(Int(db))", anchor: .end, class: "tick")
            }
            // The strip's buckets are contiguous audio; gaps (silence put in) are part of the time line, so a
            // bucket's place is found by walking the dropouts.
            var points: [(x: Double, y: Double)] = []
            var shift = 0.0
            var gaps = s.dropouts.makeIterator()
            var next = gaps.next()
            for (i, v) in level.strip.enumerated() {
                let start = Double(i) * bucketMicros
                while let g = next, Double(g.positionMicros) <= start + shift {
                    if g.filled { shift += Double(g.durationMicros) }
                    next = gaps.next()
                }
                points.append((x(start + shift), y(AudioLevel.dBFS(v / 32768) ?? floor)))
            }
            w.polyline(points, class: "series s0")
            for d in s.dropouts {
                let a = x(Double(d.positionMicros)), b = x(Double(d.positionMicros + d.durationMicros))
                w.line(a, top, a, top + plot, class: "mark")
                if b - a > 3 { w.line(b, top, b, top + plot, class: "mark") }
            }
            w.text(left, top + plot + 18, "0 s", class: "tick")
            w.text(width - right, top + plot + 18, Fmt.seconds(micros: Int64(total)) + " s", anchor: .end, class: "tick")
            h += w.svg(label: "audio level of stream \(s.number)") + "\n"
        }
        if audio.streams.count > 16 { h += "<p class=\"muted\">The first 16 of \(audio.streams.count) streams are drawn.</p>\n" }
        return h
    }
}
