/// The text timeline's line for events `--collapse` folded, under the events it stands for:
/// "… 3519 more like records 812 and 813: records 814–7851, 41.203000 s".
extension TextRenderer: FoldedRunOutput {
    public func folded(_ run: FoldedRun) {
        guard showEvents else { return }
        let color = style.color
        let pad = indent
        out.append { b in
            for _ in 0..<pad { b.append(0x20) }
            if color { b.append(string: ANSI.dim) }
            b.append(string: "… ")
            b.append(decimal: run.count)
            b.append(string: run.like.count == 1 ? " more like record " : " more like records ")
            for (i, r) in run.like.enumerated() {
                if i > 0 { b.append(string: " and ") }
                b.append(decimal: r)
            }
            b.append(string: ": records ")
            b.append(decimal: run.firstRecord)
            b.append(string: "–")
            b.append(decimal: run.lastRecord)
            b.append(string: ", ")
            b.append(seconds: run.lastTime.micros - run.firstTime.micros, width: 0)
            b.append(string: " s")
            if color { b.append(string: ANSI.reset) }
            b.append(0x0A)
        }
        previous = run.lastTime
    }
}
