/// The project's own small SVG writer: a picture of `width` × `height` user units built element by element.
/// Every text and attribute value is escaped; numbers are written with at most one decimal.
public struct SVGWriter {
    public let width: Double
    public let height: Double
    /// The elements written so far.
    public private(set) var body = ""

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Escapes text for XML and HTML content and attribute values: `& < > " '`.
    public static func escape(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return s }
        var r = ""
        r.reserveCapacity(s.utf8.count + 16)
        for c in s.unicodeScalars {
            switch c {
            case "&": r += "&amp;"
            case "<": r += "&lt;"
            case ">": r += "&gt;"
            case "\"": r += "&quot;"
            case "'": r += "&#39;"
            default: r.unicodeScalars.append(c)
            }
        }
        return r
    }

    /// A coordinate: rounded to one decimal, without a trailing ".0"; non-finite values become 0.
    public static func num(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let tenths = Int((v * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let a = tenths.magnitude
        return a % 10 == 0 ? sign + String(a / 10) : sign + String(a / 10) + "." + String(a % 10)
    }

    static func cls(_ c: String?) -> String { c.map { " class=\"\(escape($0))\"" } ?? "" }

    public mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, class c: String? = nil) {
        body += "<line x1=\"\(SVGWriter.num(x1))\" y1=\"\(SVGWriter.num(y1))\" x2=\"\(SVGWriter.num(x2))\" y2=\"\(SVGWriter.num(y2))\"\(SVGWriter.cls(c))/>"
    }

    /// A polyline through `points`; `data-points` holds their number.
    public mutating func polyline(_ points: [(x: Double, y: Double)], class c: String? = nil) {
        body += "<polyline data-points=\"\(points.count)\" points=\""
        for (i, p) in points.enumerated() {
            if i > 0 { body += " " }
            body += SVGWriter.num(p.x) + "," + SVGWriter.num(p.y)
        }
        body += "\"\(SVGWriter.cls(c))/>"
    }

    /// A rectangle, with a tooltip when `title` is given.
    public mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, class c: String? = nil, title: String? = nil) {
        let head = "<rect x=\"\(SVGWriter.num(x))\" y=\"\(SVGWriter.num(y))\" width=\"\(SVGWriter.num(max(0, w)))\" height=\"\(SVGWriter.num(max(0, h)))\"\(SVGWriter.cls(c))"
        if let t = title { body += head + "><title>\(SVGWriter.escape(t))</title></rect>" } else { body += head + "/>" }
    }

    public mutating func circle(_ x: Double, _ y: Double, r: Double, class c: String? = nil, title: String? = nil) {
        let head = "<circle cx=\"\(SVGWriter.num(x))\" cy=\"\(SVGWriter.num(y))\" r=\"\(SVGWriter.num(r))\"\(SVGWriter.cls(c))"
        if let t = title { body += head + "><title>\(SVGWriter.escape(t))</title></circle>" } else { body += head + "/>" }
    }

    public enum Anchor: String { case start, middle, end }

    /// A generous estimate of the width of `s` at `size` px in the report's sans-serif font (0.62 em a
    /// character; wide letters are rarer than narrow ones), for keeping labels inside the picture and apart.
    public static func textWidth(_ s: String, size: Double = 11) -> Double { Double(s.count) * size * 0.62 }

    public mutating func text(_ x: Double, _ y: Double, _ s: String, anchor: Anchor = .start, class c: String? = nil) {
        body += "<text x=\"\(SVGWriter.num(x))\" y=\"\(SVGWriter.num(y))\"" + (anchor == .start ? "" : " text-anchor=\"\(anchor.rawValue)\"")
            + "\(SVGWriter.cls(c))>\(SVGWriter.escape(s))</text>"
    }

    /// Raw markup made by another SVGWriter method (for groups).
    mutating func open(group c: String) { body += "<g\(SVGWriter.cls(c))>" }
    mutating func closeGroup() { body += "</g>" }
    /// A link around the next elements, to an anchor of the same page (`#` and the escaped name).
    mutating func open(link anchor: String) { body += "<a href=\"#\(SVGWriter.escape(anchor))\">" }
    mutating func closeLink() { body += "</a>" }

    /// A closed, filled shape through `points` (arrow heads).
    public mutating func polygon(_ points: [(x: Double, y: Double)], class c: String? = nil) {
        body += "<polygon points=\"" + points.map { SVGWriter.num($0.x) + "," + SVGWriter.num($0.y) }.joined(separator: " ") + "\"\(SVGWriter.cls(c))/>"
    }

    /// The finished picture: an `<svg>` element with a `viewBox`, its accessible label and `class` (inline in
    /// HTML, so without a namespace address).
    public func svg(label: String, class c: String = "chart") -> String {
        "<svg viewBox=\"0 0 \(SVGWriter.num(width)) \(SVGWriter.num(height))\" width=\"\(SVGWriter.num(width))\" height=\"\(SVGWriter.num(height))\" role=\"img\" aria-label=\"\(SVGWriter.escape(label))\"\(SVGWriter.cls(c))>" + body + "</svg>"
    }
}
