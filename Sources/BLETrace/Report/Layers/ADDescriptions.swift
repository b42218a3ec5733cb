import Foundation

/// The text and JSON of advertising data's AD structures, parsed from the bytes when an event is rendered.
/// Advertisers repeat the same data over and over: descriptions are remembered by data (and RSSI, for the
/// data whose decoders read it), up to `maxMemo` of them, shared by the renderers of every thread.
enum ADDescriptions {
    /// The one-line text of the AD structures of `data` (`ADParser.describe`).
    static func text(_ data: ArraySlice<UInt8>, rssi: Int?) -> String { describe(data, rssi: rssi).text }

    /// `text`, appended to `b` (read in place from the shared description, not handed out as a String of its own).
    static func writeText(_ data: ArraySlice<UInt8>, rssi: Int?, into b: inout TextBytes) {
        b.append(string: describe(data, rssi: rssi).text)
    }

    /// The JSON list of the AD structures of `data` (`ADParser.describe`).
    static func fields(_ data: ArraySlice<UInt8>, rssi: Int?) -> FieldValue { describe(data, rssi: rssi).fields }

    /// What is remembered of a description: the field tree, the text, and the tree's compact JSON once a JSON
    /// renderer asked for it. Shared, never changed: a lookup hands out one reference, not a copy of each part.
    /// `names`: the `--uuids` names in force when it was made (it names services by them).
    final class Description: @unchecked Sendable {
        let fields: FieldValue
        let text: String
        let json: [UInt8]?
        let names: [BLEUUID: String]?

        init(fields: FieldValue, text: String, json: [UInt8]?, names: [BLEUUID: String]? = nil) {
            self.fields = fields
            self.text = text
            self.json = json
            self.names = names
        }
    }

    /// Two runs' names are the same (a run's own table, compared by its storage first, costs no lookups); without
    /// names, the usual case, nothing is copied to find that out.
    @inline(__always) static func sameNames(_ a: [BLEUUID: String]?, _ b: [BLEUUID: String]?) -> Bool {
        guard let x = a, let y = b else { return a == nil && b == nil }
        return x == y
    }

    /// The data as a slice: a lookup folds the record's own bytes (no copy); a key kept in the memo holds a
    /// copy of its own, so the memo does not keep the reader's buffer alive.
    struct Key: Equatable {
        var data: ArraySlice<UInt8>
        var rssi: Int?

        /// The bytes folded eight at a time into one word (hashing the bytes themselves cost more than the rest of
        /// a lookup); its top bits choose the key's set. Keys that fold alike are told apart by `==`. The fold is
        /// the same in every run, so that a capture's allocations and instructions are the same in every run (a
        /// seed drawn per process once put two busy advertisers in one slot in about one run in eighty). Data made
        /// to fold alike costs a description made again for each record, as with no memo: nothing worse.
        var fold: UInt64 {
            let x = Key.seed ^ (UInt64(truncatingIfNeeded: data.count) &+ UInt64(bitPattern: Int64(rssi ?? 0x7FFF)) << 32)
            return data.withUnsafeBytes { ByteScan.fold($0, into: x) }
        }

        /// The first of the two slots of the key's set: the fold's top bits (a product's best mixed).
        var set: Int { Int(truncatingIfNeeded: fold >> UInt64(64 - ADDescriptions.setBits)) << 1 }

        static let seed: UInt64 = 0x5851_F42D_4C95_7F2D

        /// The bytes compared as one block (the synthesized comparison walks the slices an element at a time).
        static func == (a: Key, b: Key) -> Bool {
            guard a.rssi == b.rssi, a.data.count == b.data.count else { return false }
            return a.data.withUnsafeBytes { x in
                b.data.withUnsafeBytes { y in
                    guard let p = x.baseAddress, let q = y.baseAddress else { return true }
                    return memcmp(p, q, x.count) == 0
                }
            }
        }
    }

    /// `maxMemo` slots in sets of two, the one looked at or made last first: two busy advertisers whose data
    /// chose the same set both stay; a description that comes back after two others took its set is made again.
    /// No hashing past the fold, no probing past the set.
    final class Memo: @unchecked Sendable {
        let lock = NSLock()
        /// Read and changed only under `lock`: no run-time exclusivity checks. Made on first use.
        @exclusivity(unchecked) var slots: [(key: Key, description: Description)?] = []

        /// The description kept for the key, moved first in its set.
        func find(_ key: Key) -> Description? {
            let first = key.set
            lock.lock()
            defer { lock.unlock() }
            guard !slots.isEmpty else { return nil }
            if let entry = slots[first], entry.key == key { return entry.description }
            guard let entry = slots[first + 1], entry.key == key else { return nil }
            slots.swapAt(first, first + 1)
            return entry.description
        }

        /// Keeps the description first in the key's set: in place of the key's own entry (a description that
        /// gained its JSON), or of the set's older one.
        func keep(_ key: Key, _ description: Description) {
            let first = key.set
            let entry = (key: Key(data: Array(key.data)[...], rssi: key.rssi), description: description)
            lock.lock()
            defer { lock.unlock() }
            if slots.isEmpty { slots = Array(repeating: nil, count: maxMemo) }
            if let kept = slots[first], kept.key == key {
                slots[first] = entry
                return
            }
            // The older of the two goes (or the key's own entry, when another thread moved it second since it
            // was found): the first moves second.
            slots.swapAt(first, first + 1)
            slots[first] = entry
        }
    }

    static let memo = Memo()
    static let setBits = 11
    static let maxMemo = 2 << setBits

    /// `ADParser.describe` of the data's structures, remembered. Only service data (beacon distance) and
    /// manufacturer data decoders read the RSSI, so other data is looked up without it.
    static func describe(_ data: ArraySlice<UInt8>, rssi: Int?) -> Description {
        described(data, rssi: rssi, json: false)
    }

    /// The description with its compact JSON, made once and remembered, for the JSON renderers.
    static func describeJSON(_ data: ArraySlice<UInt8>, rssi: Int?) -> Description {
        described(data, rssi: rssi, json: true)
    }

    static func described(_ data: ArraySlice<UInt8>, rssi: Int?, json: Bool) -> Description {
        let readsRSSI = ADSequence.contains(data) { $0 == 0x16 || $0 == 0x20 || $0 == 0x21 || $0 == 0xFF }
        let key = Key(data: data, rssi: readsRSSI ? rssi : nil)
        let names = UserUUIDNames.bound
        var known = memo.find(key)
        // A description made under other `--uuids` names, or none, names services otherwise: it is made again (and
        // takes its slot), so that runs in one process (the MCP server, triage, the tests) do not share them.
        if let d = known, !sameNames(d.names, names) { known = nil }
        if let d = known, d.json != nil || !json { return d }
        let fields: FieldValue, text: String
        if let known {
            (fields, text) = (known.fields, known.text)
        } else {
            let made = ADParser.describe(ADParser.parse(data), rssi: rssi)
            (fields, text) = (made.fields, made.text)
        }
        var bytes: [UInt8]? = nil
        if json {
            var b: [UInt8] = []
            JSONOut.write(fields, into: &b)
            bytes = b
        }
        let d = Description(fields: fields, text: text, json: bytes, names: names)
        memo.keep(key, d)
        return d
    }
}
