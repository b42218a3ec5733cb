/// What the two framers of H2-framed voice over SCO share (`MSBCFramer`, `LC3SWBFramer`): the bytes taken in
/// and not yet handed out, each with its packet's record and whether the controller flagged that packet. Each
/// framer has its own rules for where a frame starts and ends (`drain`).
protocol H2Framer {
    var buffer: [UInt8] { get set }
    var flagged: [Bool] { get set }
    var records: [Int] { get set }
    /// The buffer starts where the previous frame ended.
    var aligned: Bool { get set }
    /// Hands out what the bytes held make whole (everything, when `final`).
    mutating func drain(final: Bool, _ out: (MSBCFramer.Output) -> Void)
}

extension H2Framer {
    mutating func push(_ bytes: ArraySlice<UInt8>, record: Int, tainted: Bool, _ out: (MSBCFramer.Output) -> Void) {
        buffer.append(contentsOf: bytes)
        flagged.append(contentsOf: repeatElement(tainted, count: bytes.count))
        records.append(contentsOf: repeatElement(record, count: bytes.count))
        drain(final: false, out)
    }

    /// Hands out every whole frame left and forgets the rest (a partial frame before a gap or at the end).
    mutating func flush(_ out: (MSBCFramer.Output) -> Void) {
        drain(final: true, out)
        drop(buffer.count)
        aligned = false
    }

    func byte(_ i: Int) -> UInt8? { i >= 0 && i < buffer.count ? buffer[i] : nil }

    mutating func drop(_ n: Int) {
        let k = min(n, buffer.count)
        buffer.removeFirst(k)
        flagged.removeFirst(k)
        records.removeFirst(k)
    }

    func anyFlagged(_ n: Int) -> Bool { flagged.prefix(n).contains(true) }
}
