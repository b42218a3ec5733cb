/// HFP wideband speech over a transparent SCO link (HFP 1.8 5.7.4 and its annex): each 57-byte mSBC frame
/// travels behind a 2-byte H2 synchronization header (0x01, then 0x08, 0x38, 0xC8 or 0xF8: a 2-bit sequence
/// number with its bits doubled) and before one pad byte, 60 bytes that SCO packets cut anywhere. The framer
/// takes packets' bytes in and hands out frames with the record their header came in, whether any of their
/// bytes came in a packet the controller flagged erroneous, and what was wrong with them: cut short (the next
/// header came early), or no mSBC syncword where the frame should start. A frame is handed out when the next
/// header's place has been seen (or at `flush`), so a cut-short frame is known as one.
struct MSBCFramer: H2Framer {
    struct Frame {
        /// The H2 sequence number, 0…3.
        var sequence: UInt8
        var bytes: [UInt8]
        var record: Int
        var tainted: Bool
        var problem: MSBCProblem?
        /// Flagged bytes wait in the framer behind this frame.
        var flaggedAhead = false
    }

    enum Output {
        case frame(Frame)
        /// Bytes that did not start a frame (no H2 header), the record of the first, and whether any was flagged.
        case skipped(bytes: Int, record: Int, tainted: Bool)
    }

    var buffer: [UInt8] = []
    var flagged: [Bool] = []
    var records: [Int] = []
    /// The buffer starts where the previous frame's 60 bytes ended: a header there may lack its syncword.
    var aligned = false
    static let h2: [UInt8] = [0x08, 0x38, 0xC8, 0xF8]
    static let span = 60, frameBytes = 57

    /// The H2 sequence number of a header at `i` (0x01 and a sequence byte; with `sync`, then 0xAD).
    func header(at i: Int, sync: Bool) -> UInt8? {
        guard byte(i) == 0x01, let s = byte(i + 1), let n = MSBCFramer.h2.firstIndex(of: s) else { return nil }
        if sync, byte(i + 2) != SBCFrameHeader.msbcSyncword { return nil }
        return UInt8(n)
    }

    mutating func drain(final: Bool, _ out: (Output) -> Void) {
        while buffer.count >= 3 || (final && !buffer.isEmpty) {
            let n = buffer.count
            guard let sequence = header(at: 0, sync: !aligned) else {
                // Resynchronise on the next header with its syncword; keep two bytes that may start one.
                var i = 1
                while i + 2 < n, header(at: i, sync: true) == nil { i += 1 }
                let skip = i + 2 < n ? i : (final ? n : max(1, n - 2))
                if skip <= 0 { return }
                let skipped = Output.skipped(bytes: skip, record: records.first ?? 0, tainted: anyFlagged(skip))
                drop(skip)
                out(skipped)
                aligned = false
                if i + 2 >= n, !final { return }
                continue
            }
            let span = MSBCFramer.span
            if n < span + 3 && !final { return }
            var end = min(span, n)
            var problem: MSBCProblem?
            if header(at: span, sync: true) != nil || header(at: span, sync: false) != nil && n >= span + 2 {
                end = span
            } else if header(at: span - 1, sync: true) != nil {
                end = span - 1
            } else if let j = (3..<max(3, min(span - 1, n))).first(where: { header(at: $0, sync: true) != nil }) {
                end = j
                problem = .truncated(bytes: j - 2)
            } else if n < span - 1 {
                // The stream ends (or stops before a gap) inside this frame: not a frame, not an error.
                drop(n)
                return
            }
            let frame = Array(buffer[2..<max(2, min(end, 2 + MSBCFramer.frameBytes))])
            if problem == nil, frame.first != SBCFrameHeader.msbcSyncword { problem = .noSyncword }
            let f = Frame(sequence: sequence, bytes: frame, record: records.first ?? 0, tainted: anyFlagged(end), problem: problem,
                          flaggedAhead: flagged.dropFirst(end).contains(true))
            drop(end)
            out(.frame(f))
            aligned = true
        }
    }
}

/// What was wrong with an mSBC frame taken from an SCO stream.
public enum MSBCProblem: Sendable, Equatable, Hashable {
    /// The next H2 header came after this many bytes of the frame (57 expected).
    case truncated(bytes: Int)
    /// An H2 header where a frame was due, but no mSBC syncword (0xAD) after it.
    case noSyncword
}
