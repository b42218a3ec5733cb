/// The HTML report's frame: the document head with its inline style sheet, the table of contents, the small
/// inline script (filtering the timeline; everything reads without it), and the text helper every section
/// writes through: redacted first (`--redact`), then HTML-escaped.
struct HTMLPage {
    let redactor: Redactor?

    /// Text for the page: redacted, then escaped.
    func t(_ s: String) -> String { SVGWriter.escape(redactor?.redact(s) ?? s) }

    /// Text already redacted (or never identifying): escaped only.
    static func e(_ s: String) -> String { SVGWriter.escape(s) }

    /// The anchor of a record's timeline line.
    static func anchor(_ record: Int) -> String { "r\(record)" }

    static func head(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title>
        <style>\(css)</style>
        </head>
        <body>

        """
    }

    static func tail(version: String) -> String {
        "<footer>Report by bletrace \(e(version)).</footer>\n<script>\(script)</script>\n</body>\n</html>\n"
    }

    static func contents(_ items: [(id: String, title: String)]) -> String {
        "<nav><ul>" + items.map { "<li><a href=\"#\($0.id)\">\(e($0.title))</a></li>" }.joined() + "</ul></nav>\n"
    }

    static let css = """
    body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2330;background:#fff;margin:0 auto;max-width:1100px;padding:0 20px 40px}
    h1{font-size:22px;margin:18px 0 8px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #dde2ea;padding-bottom:4px}
    h3{font-size:15px;margin:18px 0 6px}
    table{border-collapse:collapse;margin:6px 0 12px;font-size:13px}th,td{border:1px solid #dde2ea;padding:3px 8px;text-align:left;vertical-align:top}
    th{background:#f3f5f9}td.n{text-align:right;font-variant-numeric:tabular-nums}
    code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
    nav ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:4px 14px;margin:4px 0 10px}
    a{color:#1f5fbf;text-decoration:none}a:hover{text-decoration:underline}
    .finding{color:#a31515}.muted{color:#6b7385}
    .diagnosis{border-left:4px solid #6b7385;padding:2px 10px;margin:8px 0}.diagnosis.error{border-color:#a31515}.diagnosis.warning{border-color:#c98a00}.diagnosis p{margin:4px 0}
    svg{display:block;margin:6px 0 14px;max-width:100%;height:auto;font-size:11px}
    svg .grid{stroke:#eceff4}svg line{stroke:#9aa3b2}svg .tick{fill:#5a6272}svg .axis-title,svg .legend{fill:#3a4252}
    svg .series{fill:none;stroke-width:1.6}svg .dot{stroke:none}
    .s0{stroke:#1f77b4;fill:#1f77b4}.s1{stroke:#d95f02;fill:#d95f02}.s2{stroke:#1b9e77;fill:#1b9e77}.s3{stroke:#7570b3;fill:#7570b3}
    svg .key{stroke:none}svg .bar{fill:#6b9bd1}svg .mark{stroke:#a31515;stroke-dasharray:3 2}svg .mark-label{fill:#a31515}
    svg .conn{fill:#cfe0f5;stroke:#6b9bd1}svg .m-update{fill:#1b9e77}svg .m-mtu{fill:#7570b3}svg .m-pairing{fill:#e6ab02}
    svg .m-encryption{fill:#66a61e}svg .m-error{fill:#d62728}svg .m-disconnect{fill:#333}
    svg .lane{stroke:#b8c0cc;stroke-dasharray:4 3}svg .lane-title{font-weight:600;fill:#1d2330}
    svg .msg{stroke:#4a5568}svg .msg.problem{stroke:#d62728}svg .head{fill:#4a5568;stroke:none}svg .head.problem{fill:#d62728}
    svg .msg.answer{stroke-dasharray:5 3}svg .label{fill:#1d2330}svg .label.problem{fill:#a31515}svg .rec{fill:#8a93a3}
    .legend-row span{display:inline-block;margin-right:12px}.legend-row i{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:-1px}
    ul.gatt{margin:4px 0 10px;padding-left:18px}.d1{margin-left:22px}.d2{margin-left:44px}.d3{margin-left:66px}.d4{margin-left:88px}
    pre.timeline{background:#f7f8fb;border:1px solid #e3e7ee;padding:8px;overflow-x:auto;white-space:pre}
    pre.timeline span{display:block}pre.timeline span.finding{background:#fdecec}
    pre.timeline span:target{background:#fff3b0}
    details{margin:6px 0}summary{cursor:pointer}footer{margin-top:30px;color:#6b7385;font-size:12px}
    #filter{display:none;margin:4px 0}
    """

    /// Shows a filter box over the timeline; without JavaScript the whole timeline is simply shown.
    static let script = """
    (function(){var f=document.getElementById('filter'),t=document.getElementById('timeline-lines');
    if(!f||!t)return;f.style.display='block';var lines=t.children;
    f.addEventListener('input',function(){var q=f.value.toLowerCase();
    for(var i=0;i<lines.length;i++){lines[i].style.display=!q||lines[i].textContent.toLowerCase().indexOf(q)>=0?'':'none';}});})();
    """
}
