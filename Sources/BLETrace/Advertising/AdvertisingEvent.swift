/// Reassembles extended advertising data that the controller split over several reports: while a report's
/// data status is "incomplete, more data to come", its data is held per (address, address type, SID) and
/// the report that completes it (status complete or truncated) gets the whole data.
public struct ExtendedAdvertisingReassembler {
    public struct Key: Hashable, Sendable {
        public var address: BDAddr
        public var addressType: AddressType
        public var sid: Int
    }

    struct Pending {
        var data: [UInt8]
        var firstRecord: Int
        var fragments: Int
    }

    public enum Outcome: Equatable, Sendable {
        /// The report stands alone.
        case single
        /// Held; more data should follow. `have` counts the bytes so far, including this report's.
        case partial(have: Int, fragments: Int, firstRecord: Int)
        /// This report completes data that began in an earlier one.
        case complete(data: [UInt8], fragments: Int, firstRecord: Int)
    }

    /// Bounds memory on hostile input: at most this many advertisers mid-reassembly, each at most
    /// `maxLength` bytes (the largest extended advertising data a controller may report is 1650 bytes).
    public static let maxPending = 1024
    public static let maxLength = 1650

    var pending: [Key: Pending] = [:]
    /// Fragments not held because `maxPending` advertisers were already mid-reassembly.
    public private(set) var dropped = 0

    public init() {}

    public mutating func feed(_ r: AdvertisingReport, record: Int) -> Outcome {
        let key = Key(address: r.address, addressType: r.addressType, sid: r.sid ?? -1)
        if r.incomplete {
            if var p = pending[key] {
                let room = max(0, ExtendedAdvertisingReassembler.maxLength - p.data.count)
                p.data.append(contentsOf: r.data.prefix(room))
                p.fragments += 1
                pending[key] = p
                return .partial(have: p.data.count, fragments: p.fragments, firstRecord: p.firstRecord)
            }
            if pending.count >= ExtendedAdvertisingReassembler.maxPending {
                dropped += 1
                return .partial(have: r.data.count, fragments: 1, firstRecord: record)
            }
            pending[key] = Pending(data: Array(r.data.prefix(ExtendedAdvertisingReassembler.maxLength)),
                                   firstRecord: record, fragments: 1)
            return .partial(have: r.data.count, fragments: 1, firstRecord: record)
        }
        // Most reports are whole and nothing is mid-reassembly: no hash to find that out.
        guard !pending.isEmpty, var p = pending.removeValue(forKey: key) else { return .single }
        let room = max(0, ExtendedAdvertisingReassembler.maxLength - p.data.count)
        p.data.append(contentsOf: r.data.prefix(room))
        return .complete(data: p.data, fragments: p.fragments + 1, firstRecord: p.firstRecord)
    }

    /// Advertisers whose data never completed, for the end-of-capture warnings.
    public var unfinished: [(key: Key, firstRecord: Int, have: Int)] {
        pending.map { ($0.key, $0.value.firstRecord, $0.value.data.count) }.sorted { $0.firstRecord < $1.firstRecord }
    }
}

/// Feeds advertising reports to the extended advertising reassembler and hands the reports with complete
/// data to the observers; the `adv` event's body keeps what reassembly did (`AdvertisingBody.reassembly`).
public struct AdvertisingDecoder {
    public var reassembler = ExtendedAdvertisingReassembler()

    public init() {}

    /// Feeds the reports of one event to the reassembler, notes in `body` the reports it held or completed,
    /// and calls `observe` with every report that carries complete data (a reassembled one with all of its
    /// data); fragments still waiting for more data are left out.
    /// Also notes whether the AD structures of some complete report run past its data (`adMalformed`), in the
    /// same pass over the reports.
    public mutating func take(_ body: inout AdvertisingBody, record: Int, observe: (AdvertisingReport) -> Void) {
        var overrun = false
        // Counted by hand: `enumerated()` copies each report into its pair and destroys the original.
        var reports = body.reports, next = 0
        while var r = reports.next() {
            let index = next
            next += 1
            let outcome = reassembler.feed(r, record: record)
            switch outcome {
            case .single:
                observe(r)
            case .partial:
                body.reassembly = (body.reassembly ?? []) + [AdvertisingBody.Reassembly(index: index, outcome: outcome)]
                continue
            case let .complete(data, _, _):
                body.reassembly = (body.reassembly ?? []) + [AdvertisingBody.Reassembly(index: index, outcome: outcome)]
                r.data = data[...]
                observe(r)
            }
            if !overrun && !r.truncated { overrun = ADSequence.overruns(r.data) }
        }
        body.adMalformed = overrun
    }

    /// Warnings for data left half-assembled at the end of the capture.
    public func finish() -> [String] {
        var w = reassembler.unfinished.map {
            "extended advertising data from \($0.key.address) (SID \($0.key.sid)) started at record \($0.firstRecord) never completed (\($0.have) bytes held)"
        }
        if reassembler.dropped > 0 {
            w.append("\(reassembler.dropped) extended advertising fragment(s) were not reassembled: too many advertisers mid-reassembly")
        }
        return w
    }
}
