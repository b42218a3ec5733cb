/// Changing a value kept in a dictionary, the way layers and rules keep their per-connection state.
extension Dictionary {
    /// Changes the value stored for `key`, when there is one, in place, and returns what `change` returns (nil
    /// when the key has no value). `table[key]?.x = …` does the same through the subscript's optional accessor,
    /// whose frame is allocated on the heap on every call (three allocations a change, measured); this goes
    /// through the table's index and allocates nothing.
    @inline(__always) @discardableResult
    mutating func modifyValue<R>(forKey key: Key, _ change: (inout Value) -> R) -> R? {
        guard let i = index(forKey: key) else { return nil }
        return change(&values[i])
    }
}
