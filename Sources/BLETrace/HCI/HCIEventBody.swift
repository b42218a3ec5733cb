/// A decoded HCI event (Core 5.4 Vol 4 Part E 7.7): its code and typed parameters. Names and text are made
/// when it is rendered (`HCIEventBodyRender`); byte payloads share the record's storage.
public struct HCIEventBody: Sendable {
    public var code: UInt8
    public var params: HCIEventParams

    public init(code: UInt8, params: HCIEventParams) {
        self.code = code
        self.params = params
    }

    public var kind: EventKind { code == 0xFF ? .vendor : .hciEvent }

    /// The connection handle the event is about, where it names one.
    public var handle: UInt16? {
        switch params {
        // One case each, and the pair read in place: a case of several patterns that bind, or an iterator, would
        // copy the parameters.
        case let .disconnectionComplete(_, h, _): return h
        case let .connectionComplete(_, h, _, _, _): return h
        case let .encryptionChange(_, h, _, _): return h
        case let .encryptionKeyRefresh(_, h): return h
        case let .remoteVersion(_, h, _, _, _): return h
        case let .completedPackets(p):
            return p.count == 1 ? p.pair(0).handle : nil
        case let .le(_, le):
            return le.handle
        case let .classic(c):
            return c.handle
        default:
            return nil
        }
    }

    /// A Connection Complete (BR/EDR or LE) that failed: its handle is not valid (Core 5.4 Vol 4 Part E 7.7.3,
    /// 7.7.65.1) and names no connection, though it may equal the handle of one that closed long ago.
    public var failedConnectionComplete: Bool {
        switch params {
        case let .connectionComplete(status, _, _, _, _): return status != 0
        case let .le(_, .connectionComplete(c)): return c.status != 0
        default: return false
        }
    }

    /// What the event means for the connection tracker.
    public var change: ConnectionChange? {
        switch params {
        case let .disconnectionComplete(status, h, reason):
            return status == 0 ? .closed(handle: h, reason: reason) : nil
        case let .connectionComplete(status, h, a, link, _):
            guard status == 0 && link == 1 else { return nil }
            return .opened(handle: h, peer: a, peerType: .public, role: 0xFF, interval: 0, latency: 0, timeout: 0, le: false)
        case let .encryptionChange(status, h, enabled, _):
            return status == 0 ? .encryption(handle: h, enabled: enabled != 0) : nil
        case let .le(_, .connectionComplete(c)):
            guard c.status == 0 else { return nil }
            return .opened(handle: c.handle, peer: c.peer, peerType: c.peerAddressType, role: c.role, interval: Int(c.interval),
                           latency: Int(c.latency), timeout: Int(c.timeout), le: true)
        case let .le(_, .connectionUpdate(status, h, interval, latency, timeout)):
            return status == 0 ? .updated(handle: h, interval: Int(interval), latency: Int(latency), timeout: Int(timeout)) : nil
        default:
            return nil
        }
    }

    /// For Command Complete and Command Status: the opcode of the command the event answers.
    public var commandOpcode: UInt16? {
        switch params {
        case let .commandComplete(c): return c.opcode
        case let .commandStatus(_, _, opcode): return opcode
        default: return nil
        }
    }

    /// Calls `body` with each device address among the event's parameters (as the `hci` layer shows them).
    public func forEachAddress(_ body: (BDAddr) -> Void) {
        switch params {
        case let .connectionComplete(_, _, a, _, _):
            body(a)
        case let .commandComplete(c):
            guard c.returned.count > 1 else { return }
            switch c.decoded {
            case let .address(a): body(a)
            case let .localName(raw):
                // A name that reads as an address counts as one, as it does in the field tree.
                let name = String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                if name.utf8.count == 17, let a = BDAddr(string: name) { body(a) }
            default: break
            }
        case let .le(_, .connectionComplete(c)):
            body(c.peer)
            if c.localRPA.value != 0 { body(c.localRPA) }
            if c.peerRPA.value != 0 { body(c.peerRPA) }
        case let .classic(.inquiryResult(list)):
            for r in list { body(r.address) }
        case let .classic(c):
            if let a = c.address { body(a) }
        default:
            break
        }
    }

    /// The status parameter, for the events that carry one.
    public var status: UInt8? {
        switch params {
        case let .disconnectionComplete(s, _, _), let .connectionComplete(s, _, _, _, _), let .encryptionChange(s, _, _, _),
             let .encryptionKeyRefresh(s, _), let .remoteVersion(s, _, _, _, _), let .commandStatus(s, _, _):
            return s
        case let .commandComplete(c): return c.status
        case let .le(_, le): return le.status
        case let .classic(c): return c.status
        default: return nil
        }
    }
}

/// The parameters of the HCI events bletrace decodes; `other` keeps the parameter bytes of the rest.
public enum HCIEventParams: Sendable {
    /// 0x05
    case disconnectionComplete(status: UInt8, handle: UInt16, reason: UInt8)
    /// 0x03 (BR/EDR)
    case connectionComplete(status: UInt8, handle: UInt16, address: BDAddr, linkType: UInt8, encryption: UInt8)
    /// 0x08 (v1) and 0x59 (v2, with the key size)
    case encryptionChange(status: UInt8, handle: UInt16, enabled: UInt8, keySize: UInt8?)
    /// 0x30
    case encryptionKeyRefresh(status: UInt8, handle: UInt16)
    /// 0x0C Read Remote Version Information Complete
    case remoteVersion(status: UInt8, handle: UInt16, version: UInt8, company: UInt16, subversion: UInt16)
    /// 0x0E
    case commandComplete(CommandComplete)
    /// 0x0F
    case commandStatus(status: UInt8, credits: UInt8, opcode: UInt16)
    /// 0x13
    case completedPackets(CompletedPackets)
    /// 0x10
    case hardwareError(code: UInt8)
    /// 0x1A
    case dataBufferOverflow(linkType: UInt8)
    /// 0xFF: the vendor's parameters.
    case vendor(ArraySlice<UInt8>)
    /// Any other event: its parameters (possibly none).
    case other(ArraySlice<UInt8>)
    /// 0x3E LE Meta (advertising reports are an `AdvertisingBody`).
    case le(subevent: UInt8, LEMetaParams)
    /// BR/EDR events: inquiry, names, features, pairing, roles, modes, synchronous links.
    case classic(ClassicEventParams)
}

/// Command Complete: the command it answers and its return parameters.
public struct CommandComplete: Sendable {
    public var credits: UInt8
    public var opcode: UInt16
    /// The return parameters, status byte first (empty for a NOP's credit update).
    public var returned: ArraySlice<UInt8>
    /// The return parameters after the status, for the commands whose return bletrace decodes.
    public var decoded: CommandReturn
    /// True when `returned` holds bytes past what `decoded` reads (shown as `return_parameters`).
    public var extra: Bool

    public var status: UInt8? { returned.first }
}

/// Decoded return parameters (after the status byte) of a Command Complete.
public enum CommandReturn: Sendable {
    case none
    /// Read BD_ADDR
    case address(BDAddr)
    /// Read Local Version Information
    case localVersion(hci: UInt8, lmp: UInt8, company: UInt16, subversion: UInt16)
    /// LE Read Buffer Size [v1]
    case leBufferSize(length: UInt16, count: UInt8)
    /// Read Buffer Size (BR/EDR, and LE when the controller has no LE buffers of its own)
    case bufferSize(aclLength: UInt16, scoLength: UInt8, aclCount: UInt16, scoCount: UInt16)
    /// LE Read Advertising Physical Channel Tx Power
    case txPower(Int8)
    /// Read Local Name: the name field (up to 248 bytes, NUL padded).
    case localName(ArraySlice<UInt8>)
    /// The isochronous commands' return parameters.
    case iso(ISOReturn)
}

/// Number of Completed Packets: (handle, count) pairs, read from the event's bytes when asked.
public struct CompletedPackets: Sendable, Sequence {
    /// The pairs' bytes: 4 per handle.
    public var pairs: ArraySlice<UInt8>
    public var count: Int { pairs.count / 4 }

    public struct Iterator: IteratorProtocol {
        var bytes: ArraySlice<UInt8>
        var i: Int
        public mutating func next() -> (handle: UInt16, count: Int)? {
            guard i + 4 <= bytes.endIndex else { return nil }
            defer { i += 4 }
            return CompletedPackets.pair(bytes, at: i)
        }
    }

    public func makeIterator() -> Iterator { Iterator(bytes: pairs, i: pairs.startIndex) }
    /// The `k`th pair (`k < count`), read in place: without the copy of the bytes an iterator takes out of the
    /// event that holds them.
    public func pair(_ k: Int) -> (handle: UInt16, count: Int) { CompletedPackets.pair(pairs, at: pairs.startIndex + 4 * k) }

    /// The pair whose four bytes start at index `i` of `bytes`.
    @inline(__always) static func pair(_ bytes: ArraySlice<UInt8>, at i: Int) -> (handle: UInt16, count: Int) {
        ((UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8) & 0x0FFF, Int(bytes[i + 2]) | Int(bytes[i + 3]) << 8)
    }
    public var first: (handle: UInt16, count: Int)? { var it = makeIterator(); return it.next() }
}

/// The LE Meta subevents bletrace decodes (advertising reports aside).
public enum LEMetaParams: Sendable {
    /// 0x01, 0x0A (Enhanced), 0x29 (Enhanced v2)
    case connectionComplete(LEConnectionComplete)
    /// 0x03
    case connectionUpdate(status: UInt8, handle: UInt16, interval: UInt16, latency: UInt16, timeout: UInt16)
    /// 0x04
    case remoteFeatures(status: UInt8, handle: UInt16, features: ArraySlice<UInt8>)
    /// 0x05
    case longTermKeyRequest(handle: UInt16, random: ArraySlice<UInt8>, ediv: UInt16)
    /// 0x06
    case remoteConnectionParameterRequest(handle: UInt16, intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, timeout: UInt16)
    /// 0x07
    case dataLengthChange(handle: UInt16, maxTxOctets: UInt16, maxTxTime: UInt16, maxRxOctets: UInt16, maxRxTime: UInt16)
    /// 0x0C
    case phyUpdate(status: UInt8, handle: UInt16, tx: UInt8, rx: UInt8)
    /// 0x14: the algorithm's number on the wire (0 is #1).
    case channelSelection(handle: UInt16, algorithm: UInt8)
    /// Isochronous channels and periodic advertising (`ISOEvent`).
    case iso(ISOEvent)
    /// Any other subevent: the parameters after the subevent code.
    case other(ArraySlice<UInt8>)

    public var handle: UInt16? {
        switch self {
        case let .connectionComplete(c): return c.handle
        case let .connectionUpdate(_, h, _, _, _), let .remoteFeatures(_, h, _), let .longTermKeyRequest(h, _, _),
             let .remoteConnectionParameterRequest(h, _, _, _, _), let .dataLengthChange(h, _, _, _, _), let .phyUpdate(_, h, _, _),
             let .channelSelection(h, _):
            return h
        case let .iso(i): return i.handle
        case .other: return nil
        }
    }

    public var status: UInt8? {
        switch self {
        case let .connectionComplete(c): return c.status
        case let .connectionUpdate(s, _, _, _, _), let .remoteFeatures(s, _, _), let .phyUpdate(s, _, _, _): return s
        case let .iso(i): return i.status
        default: return nil
        }
    }
}

/// LE (Enhanced) Connection Complete [v1/v2].
public struct LEConnectionComplete: Sendable {
    public var status: UInt8
    public var role: UInt8
    public var peerType: UInt8
    public var clockAccuracy: UInt8
    public var handle: UInt16
    public var interval: UInt16
    public var latency: UInt16
    public var timeout: UInt16
    public var peer: BDAddr
    /// Enhanced forms: the resolvable private addresses (zero when none, and in the v1 event).
    public var localRPA: BDAddr
    public var peerRPA: BDAddr
    /// v2 only (subevent 0x29).
    public var advertisingHandle: UInt8
    public var syncHandle: UInt16

    public var peerAddressType: AddressType { AddressType(hci: peerType, address: peer) }
}
