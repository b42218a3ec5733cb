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

    public enum Outcome: Equatable {
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
        guard var p = pending.removeValue(forKey: key) else { return .single }
        let room = max(0, ExtendedAdvertisingReassembler.maxLength - p.data.count)
        p.data.append(contentsOf: r.data.prefix(room))
        return .complete(data: p.data, fragments: p.fragments + 1, firstRecord: p.firstRecord)
    }

    /// Advertisers whose data never completed, for the end-of-capture warnings.
    public var unfinished: [(key: Key, firstRecord: Int, have: Int)] {
        pending.map { ($0.key, $0.value.firstRecord, $0.value.data.count) }.sorted { $0.firstRecord < $1.firstRecord }
    }
}

/// Turns advertising reports into `adv` timeline events, reassembling split extended advertising data.
public struct AdvertisingDecoder {
    public var reassembler = ExtendedAdvertisingReassembler()

    /// Advertisers repeat the same data over and over: `ADParser.describe` results by data (and RSSI, for
    /// the data whose decoders read it), up to `maxMemo` of them.
    struct MemoKey: Hashable {
        var data: [UInt8]
        var rssi: Int?
    }
    var memo: [MemoKey: (fields: FieldValue, text: String)] = [:]
    static let maxMemo = 4096

    /// False when nothing reads event summaries (no timeline is printed): the summary text is not built.
    public var describes = true

    public init() {}

    /// `ADParser.describe(ads, rssi:)`, remembered. Only service data (beacon distance) and manufacturer
    /// data decoders read the RSSI, so other data is looked up without it.
    mutating func describe(_ ads: [ADStructure], data: ArraySlice<UInt8>, rssi: Int?) -> (fields: FieldValue, text: String) {
        let readsRSSI = ads.contains { $0.type == 0x16 || $0.type == 0x20 || $0.type == 0x21 || $0.type == 0xFF }
        let key = MemoKey(data: Array(data), rssi: readsRSSI ? rssi : nil)
        if let d = memo[key] { return d }
        let d = ADParser.describe(ads, rssi: rssi)
        if memo.count >= AdvertisingDecoder.maxMemo { memo.removeAll(keepingCapacity: true) }
        memo[key] = d
        return d
    }

    /// Fills `e` from the reports of one record and returns the reports to hand to advertising observers:
    /// every report that carries complete data (a reassembled one with all of its data); fragments still
    /// waiting for more data are left out.
    public mutating func describe(_ reports: [AdvertisingReport], title: String, record: Int,
                                  _ e: inout TraceEvent) -> [AdvertisingReport] {
        e.legacy.kind = .adv
        var out: [AdvertisingReport] = []
        out.reserveCapacity(reports.count)
        var list: [FieldValue] = []
        list.reserveCapacity(reports.count)
        let describes = self.describes
        // The summary is written straight into one string: "title: report; report".
        var summary = ""
        if describes {
            summary.reserveCapacity(title.utf8.count + 320 * reports.count)
            summary += title
        }
        for (index, var r) in reports.enumerated() {
            var f = Fields()
            f.items.reserveCapacity(16)
            let address = r.address.description
            f.add("event_type", r.eventType)
            f.add("address", address)
            f.add("address_type", r.addressType.name)
            f.add("connectable", r.connectable)
            f.add("scannable", r.scannable)
            f.add("scan_response", r.scanResponse)
            if let rssi = r.rssi { f.add("rssi", rssi) }
            if let tx = r.txPower { f.add("tx_power", tx) }
            if let sid = r.sid { f.add("sid", sid) }
            if let da = r.directAddress { f.add("direct_address", da.description) }
            if r.incomplete { f.add("data_status", "incomplete, more data to come") }
            if r.truncated { f.add("data_status", "incomplete, truncated") }
            f.add("data", hex: r.data)
            if describes {
                summary += index == 0 ? ": " : "; "
                summary += r.eventType
                summary += " "
                summary += address
                summary += " ("
                summary += r.addressType.name
                summary += ")"
                if let rssi = r.rssi {
                    summary += " RSSI "
                    summary += String(rssi)
                    summary += " dBm"
                }
            }

            switch reassembler.feed(r, record: record) {
            case let .partial(have, fragments, first):
                f.add("reassembly", ["fragments": .int(fragments), "have": .int(have), "first_record": .int(first)])
                if describes { summary += ": partial data, fragment \(fragments) (\(have) bytes so far), more to come" }
                list.append(.object(f))
                continue
            case let .complete(data, fragments, first):
                f.add("reassembled", ["fragments": .int(fragments), "length": .int(data.count), "first_record": .int(first)])
                f.add("reassembled_data", hex: data)
                r.data = data[...]
                if describes { summary += " [reassembled from \(fragments) reports, records \(first)–\(record)]" }
            case .single:
                break
            }
            let ads = ADParser.parse(r.data)
            let described = describe(ads, data: r.data, rssi: r.rssi)
            f.add("ad", described.fields)
            if !r.truncated, e.legacy.malformed == nil, let bad = ads.first(where: { $0.malformed != nil })?.malformed {
                e.legacy.malformed = "advertising data from \(r.address): \(bad)"
            }
            if describes {
                if !ads.isEmpty {
                    summary += ": "
                    summary += described.text
                }
                if r.truncated { summary += " (truncated by the controller)" }
            }
            list.append(.object(f))
            out.append(r)
        }
        e.legacy.layers.append(("adv", ["reports": .list(list)]))
        if describes { e.legacy.summary = summary }
        return out
    }

    /// For an HCI LE advertising report event (legacy, extended or directed).
    mutating func describe(_ d: HCIEventDecoder.Decoded, record: Int, _ e: inout TraceEvent) -> [AdvertisingReport] {
        let title = d.subevent.map { HCIText.subeventName($0) } ?? "Advertising report"
        return describe(d.reports, title: title, record: record, &e)
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
