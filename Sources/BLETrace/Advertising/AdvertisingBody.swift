/// How a report names its advertising PDU type; the name is made when something shows it (`name`).
public enum AdvertisingEventType: Sendable, Equatable, Hashable {
    /// LE Advertising Report and LE Directed Advertising Report event type (0 ADV_IND … 4 SCAN_RSP).
    case legacy(UInt8)
    /// LE Extended Advertising Report event type bits.
    case extended(UInt16)
    /// A sniffed advertising PDU: its type, and the sniffer's secondary-channel PDU kind (-1 when none).
    case linkLayer(UInt8, auxType: Int8)
}

/// One advertising report from an HCI event or a sniffed PDU, before AD decoding.
public struct AdvertisingReport: Sendable {
    public var type: AdvertisingEventType
    public var connectable: Bool
    public var scannable: Bool
    public var scanResponse: Bool
    public var address: BDAddr
    public var addressType: AddressType
    public var rssi: Int?
    public var txPower: Int?
    public var data: ArraySlice<UInt8>
    /// Extended reports: more data follows in a later report (status "incomplete, more data to come").
    public var incomplete: Bool = false
    /// Extended reports: the data was truncated by the controller.
    public var truncated: Bool = false
    public var sid: Int? = nil
    public var directAddress: BDAddr? = nil

    public init(type: AdvertisingEventType, connectable: Bool, scannable: Bool, scanResponse: Bool, address: BDAddr,
                addressType: AddressType, rssi: Int?, txPower: Int?, data: ArraySlice<UInt8>, incomplete: Bool = false,
                truncated: Bool = false, sid: Int? = nil, directAddress: BDAddr? = nil) {
        self.type = type
        self.connectable = connectable
        self.scannable = scannable
        self.scanResponse = scanResponse
        self.address = address
        self.addressType = addressType
        self.rssi = rssi
        self.txPower = txPower
        self.data = data
        self.incomplete = incomplete
        self.truncated = truncated
        self.sid = sid
        self.directAddress = directAddress
    }
}

/// An `adv` event: the advertising reports of an HCI LE advertising report event or of a sniffed advertising
/// PDU. Reports are read from the record's bytes when asked for (`reports`); their AD structures are parsed
/// when rendered.
public struct AdvertisingBody: Sendable {
    public enum Source: Sendable {
        /// LE Advertising Report (0x02), LE Extended Advertising Report (0x0D) or LE Directed Advertising
        /// Report (0x0B): the parameters after the subevent code (report count, then the reports).
        case hci(subevent: UInt8, reports: ArraySlice<UInt8>)
        /// A sniffed advertising PDU that carries advertising data: its one report.
        case linkLayer(StoredReport)
    }

    /// What became of one report's data in extended advertising reassembly.
    public struct Reassembly: Sendable {
        /// The report's position in the event.
        public var index: Int
        public var outcome: ExtendedAdvertisingReassembler.Outcome
    }

    public var source: Source
    /// The reports reassembly held or completed; nil (no allocation) when every report stands alone.
    public var reassembly: [Reassembly]?
    /// Whether some report's AD structures are malformed, once the decoder has looked (`take`); nil before.
    var adMalformed: Bool?

    public init(_ source: Source) {
        self.source = source
    }

    public var kind: EventKind { .adv }

    /// The HCI LE Meta subevent, nil for a sniffed PDU.
    public var subevent: UInt8? {
        if case let .hci(sub, _) = source { return sub }
        return nil
    }

    /// The reports, in order, as the record carries them (fragments of split data as they are).
    public var reports: AdvertisingReports {
        switch source {
        case let .hci(sub, bytes): return AdvertisingReports(subevent: sub, bytes)
        case let .linkLayer(r): return AdvertisingReports(single: r.report)
        }
    }

    /// The reassembly outcome of the report at `index` (`.single` when it stood alone).
    public func outcome(_ index: Int) -> ExtendedAdvertisingReassembler.Outcome {
        guard let list = reassembly else { return .single }
        for x in list where x.index == index { return x.outcome }
        return .single
    }

    /// The report's complete data: the reassembled data for a report that completed a reassembly.
    static func completeData(_ r: AdvertisingReport, _ outcome: ExtendedAdvertisingReassembler.Outcome) -> ArraySlice<UInt8> {
        if case let .complete(data, _, _) = outcome { return data[...] }
        return r.data
    }

    /// "advertising data from <address>: <problem>" for the first malformed AD structure of a report with
    /// complete data that the controller did not truncate.
    public var malformedReason: String? { adMalformed == false ? nil : malformedReason(after: "") }

    /// Whether `malformedReason` is set, known without making it.
    var isMalformed: Bool { adMalformed ?? (firstOverrun() != nil) }

    /// `malformedReason` after `prefix` (a finding's "adv: "), written into one buffer: an interpolated string cost
    /// thousands of instructions for each malformed advert that made a finding.
    func malformedReason(after prefix: String) -> String? {
        if adMalformed == false { return nil }
        guard let o = firstOverrun() else { return nil }
        return TextBytes.string { b in
            b.append(string: prefix)
            b.append(string: "advertising data from ")
            b.append(address: o.address)
            b.append(string: ": ")
            o.overrun.write(into: &b)
        }
    }

    /// The first report with complete data the controller did not truncate whose AD structures run past it.
    func firstOverrun() -> (address: BDAddr, overrun: ADOverrun)? {
        var list = reports, next = 0
        while let r = list.next() {
            let o = outcome(next)
            next += 1
            if case .partial = o { continue }
            guard !r.truncated else { continue }
            for ad in ADSequence(AdvertisingBody.completeData(r, o)) {
                if let m = ad.malformed { return (r.address, m) }
            }
        }
        return nil
    }
}

/// An `AdvertisingReport` in fewer bytes (no optionals of Int), as a sniffed PDU's body keeps it.
public struct StoredReport: Sendable {
    var data: ArraySlice<UInt8>
    var address: BDAddr
    var directAddress: BDAddr
    var rssi: Int32
    var txPower: Int32
    var type: AdvertisingEventType
    var addressType: AddressType
    var sid: UInt8
    /// connectable, scannable, scan response, incomplete, truncated, has RSSI, has Tx power, has direct address, has SID
    var flags: UInt16

    /// (RSSI and Tx power are 8-bit on the air, the SID 4-bit: the narrower fields hold them whole.)
    public init(_ r: AdvertisingReport) {
        data = r.data
        address = r.address
        directAddress = r.directAddress ?? BDAddr(0)
        rssi = Int32(truncatingIfNeeded: r.rssi ?? 0)
        txPower = Int32(truncatingIfNeeded: r.txPower ?? 0)
        type = r.type
        addressType = r.addressType
        sid = UInt8(truncatingIfNeeded: r.sid ?? 0)
        var f: UInt16 = 0
        if r.connectable { f |= 1 << 0 }
        if r.scannable { f |= 1 << 1 }
        if r.scanResponse { f |= 1 << 2 }
        if r.incomplete { f |= 1 << 3 }
        if r.truncated { f |= 1 << 4 }
        if r.rssi != nil { f |= 1 << 5 }
        if r.txPower != nil { f |= 1 << 6 }
        if r.directAddress != nil { f |= 1 << 7 }
        if r.sid != nil { f |= 1 << 8 }
        flags = f
    }

    func has(_ bit: UInt16) -> Bool { flags & (1 << bit) != 0 }

    public var report: AdvertisingReport {
        AdvertisingReport(type: type, connectable: has(0), scannable: has(1), scanResponse: has(2), address: address,
                          addressType: addressType, rssi: has(5) ? Int(rssi) : nil, txPower: has(6) ? Int(txPower) : nil,
                          data: data, incomplete: has(3), truncated: has(4), sid: has(8) ? Int(sid) : nil,
                          directAddress: has(7) ? directAddress : nil)
    }
}

/// The reports of an `AdvertisingBody`, read one by one from the event's bytes.
public struct AdvertisingReports: Sequence, IteratorProtocol {
    var cursor: ByteCursor
    let subevent: UInt8
    var left: Int
    var single: AdvertisingReport?

    init(subevent: UInt8, _ bytes: ArraySlice<UInt8>) {
        cursor = ByteCursor(bytes)
        self.subevent = subevent
        left = Int((try? cursor.u8()) ?? 0)
    }

    init(single: AdvertisingReport) {
        cursor = ByteCursor([])
        subevent = 0
        left = 1
        self.single = single
    }

    public mutating func next() -> AdvertisingReport? {
        guard left > 0 else { return nil }
        left -= 1
        if subevent == 0 { return single }
        return try? AdvertisingReports.read(subevent, &cursor)
    }

    /// Checks every report of the event (which `next` will read), throwing where the bytes run short. A report
    /// whose fixed fields are all there is stepped over (its data's length read and checked); the others are read
    /// as `read` reads them, so that a short one fails with the same error at the same field.
    static func validate(subevent: UInt8, _ c: inout ByteCursor) throws {
        let n = Int(try c.u8())
        for _ in 0..<n {
            switch subevent {
            case 0x0D where c.remaining >= 24:
                // Type, address type and address, PHYs, SID, TX power, RSSI, interval, direct address and its type.
                try c.skip(23)
                try c.skip(Int(try c.u8()))
            case 0x0B where c.remaining >= 16:
                try c.skip(16)
            case 0x0D, 0x0B:
                _ = try read(subevent, &c)
            default:
                guard c.remaining >= 9 else { _ = try read(subevent, &c); continue }
                // Type, address type and address; the data; the RSSI.
                try c.skip(8)
                try c.skip(Int(try c.u8()))
                try c.skip(1)
            }
        }
    }

    /// One report of an LE Advertising Report (0x02), LE Extended Advertising Report (0x0D) or LE Directed
    /// Advertising Report (0x0B) event.
    static func read(_ subevent: UInt8, _ p: inout ByteCursor) throws -> AdvertisingReport {
        switch subevent {
        case 0x0D:
            let type = try p.u16le(), addrType = try p.u8()
            let a = try p.address()
            _ = try p.u8(); _ = try p.u8() // primary and secondary PHY
            let sid = try p.u8()
            let tx = Int(try p.i8()), rssi = Int(try p.i8())
            _ = try p.u16le() // periodic advertising interval
            _ = try p.u8() // direct address type
            let direct = try p.address()
            let len = Int(try p.u8())
            let data = try p.bytes(len)
            let status = (type >> 5) & 0x3
            return AdvertisingReport(
                type: .extended(type), connectable: type & 0x01 != 0, scannable: type & 0x02 != 0,
                scanResponse: type & 0x08 != 0, address: a,
                addressType: addrType == 0xFF ? .anonymous : AddressType(hci: addrType, address: a),
                rssi: rssi == 127 ? nil : rssi, txPower: tx == 127 ? nil : tx, data: data, incomplete: status == 1,
                truncated: status == 2, sid: sid == 0xFF ? nil : Int(sid), directAddress: type & 0x04 != 0 ? direct : nil)
        case 0x0B:
            let type = try p.u8(), addrType = try p.u8()
            let a = try p.address()
            _ = try p.u8()
            let direct = try p.address()
            let rssi = Int(try p.i8())
            return AdvertisingReport(
                type: .legacy(type), connectable: true, scannable: false, scanResponse: false, address: a,
                addressType: AddressType(hci: addrType, address: a), rssi: rssi == 127 ? nil : rssi, txPower: nil,
                data: [], directAddress: direct)
        default:
            // A whole report, read in place: what the cursor's reads below give, field by field.
            let s = p.index
            if let n = wholeLegacyLength(p.bytes, at: s, end: p.bytes.endIndex) {
                p.index = s &+ n
                return legacy(p.bytes[s], addressType: p.bytes[s &+ 1], address: p.address(at: s &+ 2),
                              data: p.bytes[(s &+ 9)..<(s &+ n &- 1)], rssi: Int8(bitPattern: p.bytes[s &+ n &- 1]))
            }
            let type = try p.u8(), addrType = try p.u8()
            let a = try p.address()
            let len = Int(try p.u8())
            let data = try p.bytes(len)
            return legacy(type, addressType: addrType, address: a, data: data, rssi: try p.i8())
        }
    }

    /// The length of the legacy advertising report (type, address type, address, data length, data, RSSI) that
    /// starts at index `i` of `bytes`, when it is whole before `end`; nil when it is not.
    @inline(__always) static func wholeLegacyLength(_ bytes: ArraySlice<UInt8>, at i: Int, end: Int) -> Int? {
        guard end &- i >= 9 else { return nil }
        let n = 10 &+ Int(bytes[i &+ 8])
        return end &- i >= n ? n : nil
    }

    /// A legacy advertising report from its fields.
    @inline(__always) static func legacy(_ type: UInt8, addressType: UInt8, address a: BDAddr, data: ArraySlice<UInt8>,
                                         rssi: Int8) -> AdvertisingReport {
        let r = Int(rssi)
        return AdvertisingReport(
            type: .legacy(type), connectable: type == 0 || type == 1, scannable: type == 0 || type == 2,
            scanResponse: type == 4, address: a, addressType: AddressType(hci: addressType, address: a),
            rssi: r == 127 ? nil : r, txPower: nil, data: data)
    }
}
