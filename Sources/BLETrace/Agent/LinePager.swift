/// Keeps one page of a JSON Lines output as it streams past: the lines from `offset` on, at most `limit` of
/// them and at most `maxBytes` bytes (a first line is kept whatever its size, so a page is never empty while
/// lines remain), and counts every line. Memory holds one page, not the output.
final class LinePager {
    let offset: Int
    let limit: Int
    let maxBytes: Int
    private(set) var lines: [[UInt8]] = []
    private(set) var count = 0
    private(set) var bytes = 0
    /// True once a line in the window was left out because the page had `maxBytes`.
    private(set) var full = false
    private var partial: [UInt8] = []

    init(offset: Int, limit: Int, maxBytes: Int) {
        self.offset = offset
        self.limit = limit
        self.maxBytes = maxBytes
    }

    func take(_ block: ArraySlice<UInt8>) {
        var start = block.startIndex
        while let nl = block[start...].firstIndex(of: 0x0A) {
            if partial.isEmpty {
                line(block[start..<nl])
            } else {
                partial.append(contentsOf: block[start..<nl])
                line(partial[...])
                partial.removeAll(keepingCapacity: true)
            }
            start = nl + 1
        }
        if start < block.endIndex, count >= offset, count < offset + limit, !full {
            partial.append(contentsOf: block[start...])
        } else if start < block.endIndex {
            // A line outside the page: only its end matters, to count it.
            partial = partial.isEmpty ? [0x20] : partial
        }
    }

    /// The output ended: a last line without a newline still counts.
    func finish() {
        if !partial.isEmpty { line(partial[...]) }
        partial.removeAll()
    }

    private func line(_ l: ArraySlice<UInt8>) {
        defer { count += 1 }
        guard count >= offset, count < offset + limit, !full else { return }
        if !lines.isEmpty && bytes + l.count > maxBytes {
            full = true
            return
        }
        lines.append(Array(l))
        bytes += l.count
    }

    /// Forgets the last line kept when it is the line at `index` (the summary line that ends `--format jsonl`).
    func dropLine(at index: Int) {
        guard index >= offset, index - offset == lines.count - 1, let last = lines.last else { return }
        bytes -= last.count
        lines.removeLast()
    }
}
