/// Line and bar charts drawn with `SVGWriter`: a plot area with axes, round ticks and labels.
public enum SVGChart {
    public struct Series {
        public var name: String
        public var points: [(x: Double, y: Double)]
        /// CSS class of the line (its colour).
        public var style: String
        public init(name: String, points: [(x: Double, y: Double)], style: String) {
            self.name = name
            self.points = points
            self.style = style
        }
    }

    /// The plot area's margins inside the picture.
    static let left = 56.0, right = 12.0, top = 22.0, bottom = 34.0
    /// A line chart's points start and end this far inside the plot area, so that a point at either end of
    /// the x domain is drawn whole, not half over the axis or the plot's edge.
    static let inset = 6.0

    /// Axes for `x` over `xRange` and `y` over `yRange`, ticks and their labels, and the axis titles.
    static func axes(_ w: inout SVGWriter, x: LinearScale, y: LinearScale, xTitle: String, yTitle: String) {
        let x0 = left, x1 = w.width - right, y0 = y.range.lo, y1 = y.range.hi
        w.open(group: "axes")
        for t in Ticks.values(lo: y.domain.lo, hi: y.domain.hi, count: 4) {
            let py = y.map(t)
            w.line(x0, py, x1, py, class: "grid")
            w.text(x0 - 4, py + 4, Ticks.label(t), anchor: .end, class: "tick")
        }
        for t in Ticks.values(lo: x.domain.lo, hi: x.domain.hi, count: 6) {
            let px = x.map(t)
            w.line(px, y0, px, y0 + 4)
            w.text(px, y0 + 16, Ticks.label(t), anchor: .middle, class: "tick")
        }
        w.line(x0, y0, x1, y0)
        w.line(x0, y0, x0, y1)
        w.closeGroup()
        w.text((x0 + x1) / 2, w.height - 4, xTitle, anchor: .middle, class: "axis-title")
        w.text(4, top - 8, yTitle, class: "axis-title")
    }

    /// A line chart of one or more series sharing the axes. `xMin`/`xMax` widen the x domain beyond the
    /// points; `yMin`/`yMax` fix the y domain (else 0 … the largest value, rounded up to a tick). `breakGaps`:
    /// a series' line stops where its points are much further apart than usual (`segments`). `joined` false:
    /// points only, no lines (too few points for a line to mean a trend).
    public static func line(_ series: [Series], label: String, xTitle: String, yTitle: String, width: Double = 640,
                            height: Double = 200, xMin: Double? = nil, xMax: Double? = nil, yMin: Double? = nil, yMax: Double? = nil,
                            dots: Bool = false, joined: Bool = true, breakGaps: Bool = false, marks: [(x: Double, text: String)] = []) -> String {
        var w = SVGWriter(width: width, height: height)
        let all = series.flatMap { $0.points }
        let xs = all.map { $0.x }, ys = all.map { $0.y }
        let xlo = xMin ?? xs.min() ?? 0
        var xhi = max(xMax ?? -Double.infinity, xs.max() ?? xMax ?? 1)
        if xhi <= xlo { xhi = xlo + 1 }
        var ylo = yMin ?? min(0, ys.min() ?? 0)
        var yhi = yMax ?? Ticks.niceMax(ys.max() ?? 1)
        if yMin == nil, let lo = ys.min(), lo < 0 { ylo = -Ticks.niceMax(-lo) }
        if yhi <= ylo { yhi = ylo + 1 }
        let x = LinearScale(domain: (xlo, xhi), range: (left + inset, width - right - inset))
        let y = LinearScale(domain: (ylo, yhi), range: (height - bottom, top))
        axes(&w, x: x, y: y, xTitle: xTitle, yTitle: yTitle)
        for s in series {
            for part in breakGaps ? segments(s.points) : [s.points] {
                let pts = part.map { (x: x.map($0.x), y: y.map($0.y)) }
                if joined { w.polyline(pts, class: "series " + s.style) }
                if dots || !joined || pts.count == 1 { for p in pts { w.circle(p.x, p.y, r: joined ? 2 : 3, class: "dot " + s.style) } }
            }
        }
        // Vertical marks (events on the x axis, such as parameter updates); close marks of the same text share
        // one label, the labels in rows.
        let inside = marks.filter { $0.x >= xlo && $0.x <= xhi }.map { (x: x.map($0.x), text: $0.text) }
        for m in inside { w.line(m.x, top, m.x, height - bottom, class: "mark") }
        let groups = markGroups(inside)
        let placed = markLabels(groups.map { (x: $0.last, text: $0.text, first: $0.first) }, right: width - right)
        for (g, p) in zip(groups, placed) {
            w.text(p.x, top + 10 + 13 * Double(p.row), g.text, anchor: p.end ? .end : .start, class: "mark-label")
        }
        // The legend, when there is more than one series.
        if series.count > 1 {
            var lx = width - right
            for s in series.reversed() {
                lx -= Double(s.name.count) * 6.5 + 22
                w.rect(lx, 6, 10, 10, class: "key " + s.style)
                w.text(lx + 14, 15, s.name, class: "legend")
            }
        }
        return w.svg(label: label)
    }

    /// The runs of `points` (sorted by x) without a gap, so that a device not heard for minutes is not drawn
    /// as if it had been: a gap is a step in x more than `factor` times the usual step, the 90th percentile of
    /// the steps (a device heard in pairs, an advert and its scan response, makes many tiny steps).
    public static func segments(_ points: [(x: Double, y: Double)], factor: Double = 10) -> [[(x: Double, y: Double)]] {
        guard points.count > 2 else { return [points] }
        let steps = zip(points, points.dropFirst()).map { $1.x - $0.x }.filter { $0 > 0 }.sorted()
        guard !steps.isEmpty else { return [points] }
        let limit = steps[(steps.count - 1) * 9 / 10] * factor
        var out: [[(x: Double, y: Double)]] = [[points[0]]]
        for (a, b) in zip(points, points.dropFirst()) {
            if b.x - a.x > limit { out.append([b]) } else { out[out.count - 1].append(b) }
        }
        return out
    }

    /// Marks (picture x, text) in order of x, those of the same text taken together while each line would cross
    /// the label of the one before: one label, "text ×N", after the group's last line (`last`) or, at the right
    /// edge, before its first (`first`), so that no line of the group crosses it.
    static func markGroups(_ marks: [(x: Double, text: String)]) -> [(first: Double, last: Double, text: String)] {
        var groups: [(first: Double, last: Double, base: String, count: Int)] = []
        func label(_ base: String, _ n: Int) -> String { n == 1 ? base : base + " ×\(n)" }
        for m in marks.sorted(by: { $0.x < $1.x }) {
            if let g = groups.last, g.base == m.text, m.x <= g.last + 3 + SVGWriter.textWidth(g.base) + 4 {
                groups[groups.count - 1].last = m.x
                groups[groups.count - 1].count += 1
            } else {
                groups.append((m.x, m.x, m.text, 1))
            }
        }
        return groups.map { ($0.first, $0.last, label($0.base, $0.count)) }
    }

    /// Where each of `marks` (picture x, text) has its label: its row (0 the top one) and the x it starts at,
    /// or ends at (`end`) when it would cross the right edge; a label goes to the first row where it does not
    /// overlap a label already placed.
    static func markLabels(_ marks: [(x: Double, text: String)], right: Double) -> [(row: Int, x: Double, end: Bool)] {
        markLabels(marks.map { (x: $0.x, text: $0.text, first: $0.x) }, right: right)
    }

    /// As above, for labels of groups of lines: after the last line (`x`), or ending before the first (`first`).
    static func markLabels(_ marks: [(x: Double, text: String, first: Double)], right: Double) -> [(row: Int, x: Double, end: Bool)] {
        var rows: [[(Double, Double)]] = []
        var out: [(row: Int, x: Double, end: Bool)] = []
        for m in marks {
            let width = SVGWriter.textWidth(m.text)
            let end = m.x + 3 + width > right
            let span = end ? (m.first - 3 - width, m.first - 3) : (m.x + 3, m.x + 3 + width)
            let row = rows.firstIndex { placed in placed.allSatisfy { span.1 + 4 <= $0.0 || span.0 >= $0.1 + 4 } } ?? rows.count
            if row == rows.count { rows.append([]) }
            rows[row].append(span)
            out.append((row, end ? span.1 : span.0, end))
        }
        return out
    }

    /// A bar chart: one bar per bucket (label under it, count above it), and vertical marks between bars.
    public static func bars(_ values: [(label: String, value: Double)], marks: [(position: Double, text: String)] = [],
                            label: String, xTitle: String, yTitle: String, width: Double = 640, height: Double = 220) -> String {
        var w = SVGWriter(width: width, height: height)
        let top = Ticks.niceMax(values.map { $0.value }.max() ?? 1, count: 4)
        let y = LinearScale(domain: (0, top), range: (height - bottom, SVGChart.top))
        let n = Double(max(1, values.count))
        let x = LinearScale(domain: (0, n), range: (left, width - right))
        w.open(group: "axes")
        for t in Ticks.values(lo: 0, hi: top, count: 4) {
            w.line(left, y.map(t), width - right, y.map(t), class: "grid")
            w.text(left - 4, y.map(t) + 4, Ticks.label(t), anchor: .end, class: "tick")
        }
        w.line(left, height - bottom, width - right, height - bottom)
        w.line(left, height - bottom, left, SVGChart.top)
        w.closeGroup()
        let slot = x.map(1) - x.map(0)
        // A bar's label starts where the bar does; every bar's label when they fit side by side, else every
        // second, third, … one, and none beyond the picture's right edge.
        let widest = values.map { SVGWriter.textWidth($0.label) }.max() ?? 0
        let every = max(1, Int(((widest + 8) / max(1, slot)).rounded(.up)))
        for (i, v) in values.enumerated() {
            let x0 = x.map(Double(i)) + 1
            w.rect(x0, y.map(v.value), slot - 2, y.map(0) - y.map(v.value), class: "bar", title: "\(v.label): \(Ticks.label(v.value))")
            if i % every == 0, x0 + SVGWriter.textWidth(v.label) <= width - 2 { w.text(x0, height - bottom + 14, v.label, class: "tick") }
        }
        // Marks (percentiles), their labels in rows so that close marks stay readable.
        let placed = markLabels(marks.map { (x.map($0.position), $0.text) }, right: width - right)
        for (m, p) in zip(marks, placed) {
            let px = x.map(m.position)
            w.line(px, SVGChart.top, px, height - bottom, class: "mark")
            w.text(p.x, SVGChart.top + 10 + 13 * Double(p.row), m.text, anchor: p.end ? .end : .start, class: "mark-label")
        }
        w.text((left + width - right) / 2, height - 4, xTitle, anchor: .middle, class: "axis-title")
        w.text(4, SVGChart.top - 8, yTitle, class: "axis-title")
        return w.svg(label: label)
    }
}
