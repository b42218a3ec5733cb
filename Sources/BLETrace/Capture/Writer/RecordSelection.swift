/// Which records a run selected (`analyze --write-capture`): one bit per record, grown as records arrive, so a
/// capture of ten million records costs 1.25 MB.
public final class RecordSelection {
    var words: [UInt64] = []
    public private(set) var count = 0

    public init() {}

    public func insert(_ record: Int) {
        guard record >= 1 else { return }
        let i = (record - 1) >> 6, bit = UInt64(1) << UInt64((record - 1) & 63)
        if i >= words.count { words.append(contentsOf: repeatElement(0, count: i - words.count + 1)) }
        if words[i] & bit == 0 {
            words[i] |= bit
            count += 1
        }
    }

    public func contains(_ record: Int) -> Bool {
        guard record >= 1 else { return false }
        let i = (record - 1) >> 6
        return i < words.count && words[i] & (UInt64(1) << UInt64((record - 1) & 63)) != 0
    }
}
