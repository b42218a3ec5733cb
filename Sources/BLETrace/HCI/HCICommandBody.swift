/// A decoded HCI command (Core 5.4 Vol 4 Part E 7.1–7.8): its opcode and typed parameters. Names and text
/// are made when it is rendered (`HCICommandBodyRender`); byte payloads share the record's storage.
public struct HCICommandBody: Sendable {
    public var opcode: UInt16
    public var params: HCICommandParams

    public init(opcode: UInt16, params: HCICommandParams) {
        self.opcode = opcode
        self.params = params
    }

    public var kind: EventKind { opcode >> 10 == 0x3F ? .vendor : .hciCommand }

    /// The connection handle the command is about, where it names one.
    public var handle: UInt16? {
        switch params {
        case let .disconnect(h, _), let .handleOnly(h), let .connectionUpdate(h, _, _, _, _), let .enableEncryption(h, _, _, _),
             let .longTermKeyReply(h, _), let .setDataLength(h, _, _), let .setPHY(h, _, _, _):
            return h
        case let .classic(c):
            return c.handle
        case let .iso(i):
            return i.handle
        default:
            return nil
        }
    }

    /// Calls `body` with each device address among the command's parameters.
    public func forEachAddress(_ body: (BDAddr) -> Void) {
        switch params {
        case let .setRandomAddress(a): body(a)
        case let .setAdvertisingParameters(p): body(p.peer)
        case let .createConnection(c): body(c.peer)
        case let .extendedCreateConnection(c): body(c.peer)
        case let .classic(c): if let a = c.address { body(a) }
        case let .iso(.periodicCreateSync(s)): body(s.address)
        default: break
        }
    }
}

/// The parameters of the HCI commands bletrace decodes; `other` keeps the parameter bytes of the rest.
public enum HCICommandParams: Sendable {
    /// 0x0406
    case disconnect(handle: UInt16, reason: UInt8)
    /// Commands whose only parameter is a connection handle (0x041D, 0x2016, 0x201B, 0x1405, 0x0C27, 0x0411
    /// Authentication Requested, 0x041B Read Remote Supported Features, 0x0804 Exit Sniff Mode).
    case handleOnly(UInt16)
    /// 0x2005 LE Set Random Address
    case setRandomAddress(BDAddr)
    /// 0x2006
    case setAdvertisingParameters(AdvertisingParameters)
    /// 0x2008 / 0x2009 LE Set Advertising / Scan Response Data: the declared length and the data.
    case advertisingData(length: UInt8, data: ArraySlice<UInt8>)
    /// 0x200A
    case advertisingEnable(UInt8)
    /// 0x200B
    case scanParameters(type: UInt8, interval: UInt16, window: UInt16, ownAddressType: UInt8, filter: UInt8)
    /// 0x200C
    case scanEnable(enable: UInt8, filterDuplicates: UInt8)
    /// 0x200D LE Create Connection
    case createConnection(CreateConnection)
    /// 0x2043 LE Extended Create Connection [v1]
    case extendedCreateConnection(ExtendedCreateConnection)
    /// 0x2041 LE Set Extended Scan Parameters: the per-PHY parameters (5 bytes per PHY in `phys`).
    case extendedScanParameters(ownAddressType: UInt8, filter: UInt8, phys: UInt8, perPHY: ArraySlice<UInt8>)
    /// 0x2042
    case extendedScanEnable(enable: UInt8, filterDuplicates: UInt8, duration: UInt16, period: UInt16)
    /// 0x2036 LE Set Extended Advertising Parameters [v1]
    case extendedAdvertisingParameters(set: UInt8, properties: UInt16, intervalMin: UInt32, intervalMax: UInt32)
    /// 0x2037 / 0x2038 LE Set Extended Advertising / Scan Response Data
    case extendedAdvertisingData(set: UInt8, operation: UInt8, fragmentPreference: UInt8, data: ArraySlice<UInt8>)
    /// 0x2039 LE Set Extended Advertising Enable: the sets (4 bytes each).
    case extendedAdvertisingEnable(enable: UInt8, sets: ArraySlice<UInt8>)
    /// 0x2013
    case connectionUpdate(handle: UInt16, intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, timeout: UInt16)
    /// 0x2019
    case enableEncryption(handle: UInt16, random: ArraySlice<UInt8>, ediv: UInt16, ltk: ArraySlice<UInt8>)
    /// 0x201A
    case longTermKeyReply(handle: UInt16, ltk: ArraySlice<UInt8>)
    /// 0x2022
    case setDataLength(handle: UInt16, octets: UInt16, time: UInt16)
    /// 0x2032
    case setPHY(handle: UInt16, all: UInt8, tx: UInt8, rx: UInt8)
    /// BR/EDR commands: inquiry, connections, names, pairing replies, synchronous links, sniff, roles, scans.
    case classic(ClassicCommandParams)
    /// Isochronous channels and periodic advertising (`ISOCommandParams`).
    case iso(ISOCommandParams)
    /// Any other command: its parameters (possibly none).
    case other(ArraySlice<UInt8>)
}

/// LE Set Advertising Parameters.
public struct AdvertisingParameters: Sendable {
    public var intervalMin: UInt16
    public var intervalMax: UInt16
    public var type: UInt8
    public var ownAddressType: UInt8
    public var peerAddressType: UInt8
    public var channelMap: UInt8
    public var filter: UInt8
    public var peer: BDAddr
}

/// LE Create Connection.
public struct CreateConnection: Sendable {
    public var scanInterval: UInt16
    public var scanWindow: UInt16
    public var filter: UInt8
    public var peerAddressType: UInt8
    public var ownAddressType: UInt8
    public var intervalMin: UInt16
    public var intervalMax: UInt16
    public var latency: UInt16
    public var timeout: UInt16
    public var peer: BDAddr
}

/// LE Extended Create Connection [v1]: the per-PHY parameters are read from `perPHY` (16 bytes per PHY).
public struct ExtendedCreateConnection: Sendable {
    public var filter: UInt8
    public var ownAddressType: UInt8
    public var peerAddressType: UInt8
    public var phys: UInt8
    public var peer: BDAddr
    public var perPHY: ArraySlice<UInt8>

    /// (PHY bit, scan interval, scan window, interval min, interval max, latency, timeout), per initiating PHY.
    public var connections: [(bit: Int, scanInterval: Int, scanWindow: Int, intervalMin: Int, intervalMax: Int, latency: Int, timeout: Int)] {
        var out: [(bit: Int, scanInterval: Int, scanWindow: Int, intervalMin: Int, intervalMax: Int, latency: Int, timeout: Int)] = []
        var c = ByteCursor(perPHY)
        for bit in 0..<3 where phys & (1 << bit) != 0 {
            guard let si = try? c.u16le(), let sw = try? c.u16le(), let cmin = try? c.u16le(), let cmax = try? c.u16le(),
                  let lat = try? c.u16le(), let to = try? c.u16le(), (try? c.skip(4)) != nil else { break }
            out.append((bit, Int(si), Int(sw), Int(cmin), Int(cmax), Int(lat), Int(to)))
        }
        return out
    }
}
