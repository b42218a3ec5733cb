/// Entry points for the libFuzzer harness (`Fuzz/BLETraceFuzz`, built by `scripts/fuzz.sh`) and for the
/// regression tests that replay inputs the fuzzers found. Each takes arbitrary bytes and must return
/// without trapping, hanging or holding on to unbounded memory.
public enum FuzzTargets {
    public static let names = ["capture", "packets", "ad", "containers"]

    public static func run(_ name: String, _ data: [UInt8]) {
        switch name {
        case "capture": capture(data)
        case "packets": packets(data)
        case "ad": advertisingData(data)
        case "containers": containers(data)
        default: break
        }
    }

    /// Decodes a sink's worth of every output format, so renderers are exercised too.
    final class AllFormats: EventSink {
        let text: TextRenderer
        let json: JSONRenderer
        init() {
            text = TextRenderer(out: OutputWriter(discarding: ()), style: TextStyle(color: true, time: .delta, width: 100))
            json = JSONRenderer(out: OutputWriter(discarding: ()))
        }
        func begin(_ capture: CaptureInfo) { text.begin(capture); json.begin(capture) }
        func event(_ e: TraceEvent) { text.event(e); json.event(e) }
        func end(_ summary: Summary) { text.end(summary); json.end(summary) }
    }

    /// A whole capture file (any format bletrace detects) through the full pipeline and renderers.
    public static func capture(_ data: [UInt8]) {
        guard let reader = try? CaptureFile.open(bytes: data) else { return }
        Analyzer(sink: AllFormats()).run(reader, path: "fuzz")
    }

    /// A sequence of HCI packets: each is `kind(1) length(2, LE) bytes`, where kind's low 3 bits pick
    /// command/event/ACL/SCO/ISO/note and bit 3 the direction.
    public static func packets(_ data: [UInt8]) {
        let analyzer = Analyzer(sink: AllFormats())
        var c = ByteCursor(data)
        var n = 0
        var records: [Record] = []
        while let kindByte = try? c.u8(), let length = try? c.u16le() {
            let bytes = (try? c.bytes(min(Int(length), c.remaining))) ?? []
            n += 1
            let kinds: [PacketKind] = [.command, .event, .acl, .sco, .iso, .note, .vendor, .acl]
            records.append(Record(number: n, timestamp: Timestamp(micros: Int64(n) * 1250), 
                                  direction: kindByte & 0x08 != 0 ? .controllerToHost : .hostToController,
                                  kind: kinds[Int(kindByte & 0x07)], data: bytes,
                                  origin: kindByte & 0x10 != 0 ? .linuxMonitor : .plain))
        }
        analyzer.run(ArrayReader(records), path: "fuzz")
    }

    /// Advertising data through AD parsing, per-type decoding and the beacon dissectors.
    public static func advertisingData(_ data: [UInt8]) {
        let ads = ADParser.parse(data[...])
        _ = ADParser.describe(ads)
        // Also as an advertising report event, so the inventory sees it.
        let report = HCIBuilder.advertisingReport(type: 0, addressType: 1, address: BDAddr(0xC0_00_00_00_00_01), data: Array(data.prefix(255)), rssi: -50)
        let records = [Record(number: 1, timestamp: Timestamp(micros: 0), direction: .controllerToHost, kind: .event, data: report[...])]
        Analyzer(sink: AllFormats()).run(ArrayReader(records), path: "fuzz")
    }

    /// Containers: gzip, bugreport text with btsnooz, and plain captures, as `InputOpener` sees them.
    public static func containers(_ data: [UInt8]) {
        guard let opened = try? InputOpener.open(source: MemorySource(data), path: nil, log: nil, depth: 1) else { return }
        Analyzer(sink: AllFormats()).run(opened.reader, path: "fuzz")
    }
}

/// Records held in an array, as a reader (fuzzing, tests).
public final class ArrayReader: RecordReader {
    public let format: CaptureFormat
    public let linkType: Int
    let records: [Record]
    var index = 0
    public init(_ records: [Record], format: CaptureFormat = .btsnoop, linkType: Int = 1002) {
        self.records = records
        self.format = format
        self.linkType = linkType
    }
    public var position: Int { index }
    public func next() throws -> Record? {
        guard index < records.count else { return nil }
        index += 1
        return records[index - 1]
    }
}
