/// Large mixed captures for the benchmark and for resource tests: adverts, extended adverts, several
/// connections with discovery, long reads, fragmented ACL, notifications, ANCS and pairing.
public enum SyntheticCapture {
    /// A long read on a fresh connection without MTU exchange: Read Request, then Read Blob until the value ends.
    public static func longRead(_ s: Scenario, handle h: UInt16, peer: BDAddr) {
        s.connect(handle: h, peer: peer, peerType: 1)
        let value = Array("Acme Sensors GmbH, Sensorstrasse 42, 12345 Musterstadt".utf8)
        s.attOut(h, [0x0A] + HCIBuilder.le16(0x0012))
        s.attIn(h, [0x0B] + Array(value.prefix(22)))
        var offset = 22
        while offset < value.count {
            s.attOut(h, [0x0C] + HCIBuilder.le16(0x0012) + HCIBuilder.le16(UInt16(offset)))
            s.attIn(h, [0x0D] + Array(value[offset..<min(value.count, offset + 22)]))
            offset += 22
        }
        s.disconnect(handle: h, reason: 0x13, byHost: true)
    }

    /// What a generated capture is mostly made of.
    public enum Mix: String, Sendable {
        /// Adverts, connections, discovery, notifications, ANCS, pairing and long reads (the benchmark's capture).
        case mixed
        /// ATT traffic: discovery, long notification runs, ANCS data source, long reads; few adverts (over 60 %
        /// of the records are ACL data).
        case att
    }

    /// Writes at least `records` records, handing the bytes to `sink` in chunks; returns the record count.
    @discardableResult
    public static func generate(records: Int, format: CaptureWriter.Format, mix: Mix = .mixed, sink: ([UInt8]) -> Void) -> Int {
        if mix == .att { return generateATT(records: records, format: format, sink: sink) }
        let s = Scenario(format: format)
        s.powerOn(local: Samples.local)
        var cycle = 0
        while s.writer.count < records {
            s.startScan()
            Samples.scanBurst(s, rounds: 8)
            s.stopScan()
            let handle = UInt16(0x0040 + cycle % 8)
            let peer = BDAddr(0xC4_7C_8D_6A_00_00 | UInt64(cycle % 4096))
            Samples.gattSession(s, handle: handle, peer: peer, notifications: 40)
            if cycle % 3 == 0 { Samples.ancsSession(s, handle: handle &+ 1) }
            if cycle % 5 == 0 { Samples.encryptedLink(s, handle: handle &+ 2) }
            if cycle % 4 == 0 { longRead(s, handle: handle &+ 3, peer: peer) }
            cycle += 1
            if s.writer.bytes.count > 1 << 20 { sink(s.writer.drain()) }
        }
        sink(s.writer.drain())
        return s.writer.count
    }

    static func generateATT(records: Int, format: CaptureWriter.Format, sink: ([UInt8]) -> Void) -> Int {
        let s = Scenario(format: format)
        s.powerOn(local: Samples.local)
        var cycle = 0
        while s.writer.count < records {
            let handle = UInt16(0x0040 + cycle % 8)
            let peer = BDAddr(0xC4_7C_8D_6A_00_00 | UInt64(cycle % 4096))
            if cycle % 4 == 0 {
                s.startScan()
                Samples.scanBurst(s, rounds: 1)
                s.stopScan()
            }
            Samples.gattSession(s, handle: handle, peer: peer, notifications: 150)
            Samples.ancsSession(s, handle: handle &+ 1)
            if cycle % 2 == 0 { longRead(s, handle: handle &+ 3, peer: peer) }
            cycle += 1
            if s.writer.bytes.count > 1 << 20 { sink(s.writer.drain()) }
        }
        sink(s.writer.drain())
        return s.writer.count
    }
}
