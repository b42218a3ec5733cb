@testable import BLETrace

/// Feeds hand-assembled HCI packets through a pipeline with the standard layers and keeps the events.
final class TraceHarness {
    var events: [TraceEvent] = []
    var pipeline: Pipeline!
    var layers: [AnalysisLayer] = []
    var record = 0
    /// Microseconds since the epoch of the next record.
    var now: Int64 = 1_700_000_000_000_000
    var warnings: [String] = []

    init(options: DecodeOptions = DecodeOptions()) {
        pipeline = Pipeline(options: options, chain: .standard(options)) { [unowned self] e in self.events.append(e) }
        layers = pipeline.chain.layers
    }

    var att: ATTLayer { layers.compactMap { $0 as? ATTLayer }.first! }
    var smp: SMPLayer { layers.compactMap { $0 as? SMPLayer }.first! }

    @discardableResult
    func feed(_ kind: PacketKind, _ data: [UInt8], _ dir: Direction, advance: Int64 = 1_000) -> Int {
        record += 1
        now += advance
        pipeline.process(Record(number: record, timestamp: Timestamp(micros: now), direction: dir, kind: kind, data: data[...]))
        return record
    }

    /// One ACL packet: handle with packet-boundary flags, then `payload` (L2CAP bytes).
    @discardableResult
    func acl(_ handle: UInt16, pb: UInt16 = 0b10, _ payload: [UInt8], _ dir: Direction, advance: Int64 = 1_000) -> Int {
        let hf = handle | pb << 12
        var d: [UInt8] = [UInt8(hf & 0xFF), UInt8(hf >> 8), UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)]
        d += payload
        return feed(.acl, d, dir, advance: advance)
    }

    /// A complete L2CAP frame in one ACL packet.
    @discardableResult
    func l2cap(_ handle: UInt16, cid: UInt16, _ payload: [UInt8], _ dir: Direction, advance: Int64 = 1_000) -> Int {
        acl(handle, TraceHarness.frame(cid: cid, payload), dir, advance: advance)
    }

    static func frame(cid: UInt16, _ payload: [UInt8]) -> [UInt8] {
        [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8), UInt8(cid & 0xFF), UInt8(cid >> 8)] + payload
    }

    /// An ATT PDU on CID 0x0004; `.hostToController` means the local device sent it.
    @discardableResult
    func att(_ pdu: [UInt8], _ dir: Direction, handle: UInt16 = 0x0040, advance: Int64 = 1_000) -> Int {
        l2cap(handle, cid: 0x0004, pdu, dir, advance: advance)
    }

    /// LE Connection Complete (subevent 0x01), local central.
    @discardableResult
    func connect(_ handle: UInt16, peer: UInt64) -> Int {
        var p: [UInt8] = [0x01, 0x00, UInt8(handle & 0xFF), UInt8(handle >> 8), 0x00, 0x00]
        for i in 0..<6 { p.append(UInt8(truncatingIfNeeded: peer >> (8 * UInt64(i)))) }
        p += [0x18, 0x00, 0x00, 0x00, 0xC8, 0x00, 0x00]
        return feed(.event, [0x3E, UInt8(p.count)] + p, .controllerToHost)
    }

    @discardableResult
    func disconnect(_ handle: UInt16) -> Int {
        feed(.event, [0x05, 0x04, 0x00, UInt8(handle & 0xFF), UInt8(handle >> 8), 0x13], .controllerToHost)
    }

    @discardableResult
    func encryptionChange(_ handle: UInt16) -> Int {
        feed(.event, [0x08, 0x04, 0x00, UInt8(handle & 0xFF), UInt8(handle >> 8), 0x01], .controllerToHost)
    }

    func finish() {
        warnings = pipeline.finish()
    }

    /// The event of `record` (after `finish()` or once it has been released).
    func event(_ record: Int) -> TraceEvent? { events.first { $0.record == record } }

    func layer(_ record: Int, _ name: String) -> Fields? { event(record)?.layer(name) }
}

/// Little-endian bytes of a 16-bit value.
func le(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
