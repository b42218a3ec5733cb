/// HFP super-wideband speech over a transparent eSCO link (HFP 1.9, codec ID 3): each LC3 frame (58 bytes, 7.5 ms
/// of 32 kHz mono) travels behind the same 2-byte H2 synchronization header as mSBC (0x01, then 0x08, 0x38, 0xC8
/// or 0xF8) and no pad byte: 60 bytes that SCO packets cut anywhere. An LC3 frame has no syncword, so a header is
/// trusted where the previous frame ended (aligned) or where another header follows it 60 bytes on (confirmed);
/// a frame whose next header comes early is handed out cut short. Frames and skipped bytes come out as
/// `MSBCFramer`'s, with the record of their header and whether a flagged packet spoiled any of their bytes.
struct LC3SWBFramer: H2Framer {
    typealias Frame = MSBCFramer.Frame
    typealias Output = MSBCFramer.Output

    var buffer: [UInt8] = []
    var flagged: [Bool] = []
    var records: [Int] = []
    var aligned = false
    static let span = 60, frameBytes = 58
    /// LC3 at 32 kHz with 7.5 ms frames.
    static let sampleRate = 32_000, frameMicros = 7500, samplesPerFrame = 240

    /// The H2 sequence number of a header at `i`.
    func header(at i: Int) -> UInt8? {
        guard byte(i) == 0x01, let s = byte(i + 1), let n = MSBCFramer.h2.firstIndex(of: s) else { return nil }
        return UInt8(n)
    }

    /// A header at `i` with another 60 bytes on: true or false, nil while the bytes that tell have not come.
    func confirmed(at i: Int) -> Bool? {
        guard let b = byte(i) else { return nil }
        if b != 0x01 { return false }
        guard byte(i + 1) != nil else { return nil }
        if header(at: i) == nil { return false }
        guard byte(i + LC3SWBFramer.span + 1) != nil else { return nil }
        return header(at: i + LC3SWBFramer.span) != nil
    }

    mutating func drain(final: Bool, _ out: (Output) -> Void) {
        let span = LC3SWBFramer.span
        while !buffer.isEmpty {
            let n = buffer.count
            let start: Bool
            switch confirmed(at: 0) {
            case true?: start = true
            case false?: start = aligned && header(at: 0) != nil
            case nil:
                if header(at: 0) == nil, !final { return }
                if !final, !aligned { return }
                start = header(at: 0) != nil
            }
            guard start, let sequence = header(at: 0) else {
                // Resynchronise on the next confirmed header (or one that may be, once more bytes come).
                var i = 1
                while i < n, confirmed(at: i) == false { i += 1 }
                if i < n, confirmed(at: i) == nil, final, header(at: i) == nil { i = n }
                let skipped = Output.skipped(bytes: i, record: records.first ?? 0, tainted: anyFlagged(i))
                drop(i)
                out(skipped)
                aligned = false
                if !final, !buffer.isEmpty, confirmed(at: 0) == nil { return }
                continue
            }
            if header(at: span) == nil, n < 2 * span + 2, !final { return }
            var end = span
            var problem: MSBCProblem?
            if header(at: span) == nil {
                // The next header is not where it should be: an early one (confirmed) cuts this frame short.
                if let j = (3..<span).first(where: { confirmed(at: $0) == true }) {
                    end = j
                    problem = .truncated(bytes: j - 2)
                } else if n < span {
                    // The stream ends (or stops before a gap) inside this frame: not a frame, not an error.
                    drop(n)
                    return
                }
            }
            let frame = Array(buffer[2..<min(end, n)])
            let f = Frame(sequence: sequence, bytes: frame, record: records.first ?? 0, tainted: anyFlagged(end), problem: problem,
                          flaggedAhead: flagged.dropFirst(end).contains(true))
            drop(end)
            out(.frame(f))
            aligned = true
        }
    }
}
