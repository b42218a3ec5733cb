/// One connection seen in the capture. A handle reused after a disconnect is a new `Connection`.
public final class Connection {
    /// 1, 2, … in order of appearance.
    public let id: Int
    public let handle: UInt16
    @exclusivity(unchecked) public internal(set) var peer: BDAddr?
    @exclusivity(unchecked) public internal(set) var peerType: AddressType?
    /// 0 central, 1 peripheral (the local controller's role); nil when unknown.
    @exclusivity(unchecked) public internal(set) var role: UInt8?
    @exclusivity(unchecked) public internal(set) var le: Bool
    /// False for a handle no Connection Complete opened and no HCI traffic placed on LE or BR/EDR (phones send
    /// ACL data on vendor pseudo-handles): `le` is then a guess.
    @exclusivity(unchecked) public internal(set) var transportKnown = true
    @exclusivity(unchecked) public internal(set) var interval: Int?
    @exclusivity(unchecked) public internal(set) var latency: Int?
    @exclusivity(unchecked) public internal(set) var timeout: Int?
    @exclusivity(unchecked) public internal(set) var openedRecord: Int?
    @exclusivity(unchecked) public internal(set) var openedAt: Timestamp?
    @exclusivity(unchecked) public internal(set) var closedRecord: Int?
    @exclusivity(unchecked) public internal(set) var closedAt: Timestamp?
    @exclusivity(unchecked) public internal(set) var disconnectReason: UInt8?
    @exclusivity(unchecked) public internal(set) var encrypted = false
    /// The parameters the connection opened with (LE), before any update.
    @exclusivity(unchecked) public internal(set) var opening: (interval: Int, latency: Int, timeout: Int)?
    /// Parameter updates: (record, interval, latency, timeout).
    @exclusivity(unchecked) public internal(set) var updates: [(record: Int, interval: Int, latency: Int, timeout: Int)] = []
    /// True when no connection-complete event was seen (the capture began mid-connection).
    @exclusivity(unchecked) public internal(set) var implicit: Bool
    /// BR/EDR: the peer's name from a Remote Name Request Complete.
    @exclusivity(unchecked) public internal(set) var name: String?
    /// BR/EDR: the PSMs of the channels opened on the connection, in order of first opening.
    @exclusivity(unchecked) public internal(set) var profiles: [UInt16] = []
    /// BR/EDR: the link type of the Connection Complete (1 ACL) or Synchronous Connection Complete (0 SCO,
    /// 2 eSCO); nil for LE.
    @exclusivity(unchecked) public internal(set) var linkType: UInt8?
    /// BR/EDR: pairing on this connection (Secure Simple Pairing or legacy PIN).
    @exclusivity(unchecked) public internal(set) var pairing: ClassicPairing?
    /// A CIS or BIS: what stream it is and its timing.
    @exclusivity(unchecked) public internal(set) var iso: ISOLink?

    /// Notes a channel opened on the connection (at most 64 distinct PSMs are kept).
    func opened(psm: UInt16) {
        if !profiles.contains(psm) && profiles.count < 64 { profiles.append(psm) }
    }

    init(id: Int, handle: UInt16, implicit: Bool) {
        self.id = id
        self.handle = handle
        self.implicit = implicit
        self.le = true
    }

    /// A stable name for the peer: its address, or the handle when the address is unknown.
    public var peerKey: String { peer?.description ?? Connection.handleKey(handle) }

    /// The name of a peer known only by its handle: "handle-0x0040".
    public static func handleKey(_ handle: UInt16) -> String { "handle-" + Hex.hex(handle, width: 4) }
}

/// Maps connection handles to connections over the life of a capture.
public final class ConnectionTracker {
    /// The connections kept for the summary: the first `maxListed`, in order of appearance.
    @exclusivity(unchecked) public private(set) var all: [Connection] = []
    /// Every connection seen, listed or not.
    @exclusivity(unchecked) public private(set) var total = 0
    @exclusivity(unchecked) var open = HandleTable<Connection>()
    /// Bounds the memory of the summary on long captures (and hostile input): connections after this many are
    /// counted and followed while open, but not kept for the summary.
    public static let maxListed = 10_000

    public init() {}

    func make(handle: UInt16, implicit: Bool) -> Connection {
        total += 1
        let c = Connection(id: total, handle: handle, implicit: implicit)
        if all.count < ConnectionTracker.maxListed { all.append(c) }
        return c
    }

    /// The open connection on `handle`, creating an implicit one when the capture never showed it opening.
    public func connection(for handle: UInt16) -> Connection {
        if let c = open[handle] { return c }
        let c = make(handle: handle, implicit: true)
        c.transportKnown = false
        open[handle] = c
        return c
    }

    /// HCI traffic only BR/EDR has (Write Link Policy Settings, Sniff Mode, Mode Change) names the handle's
    /// transport when no Connection Complete did.
    public func bredrOnly(_ handle: UInt16) {
        let c = connection(for: handle)
        guard !c.transportKnown else { return }
        c.le = false
        c.transportKnown = true
    }

    /// The connection numbered `id`: a listed one, or one still open or last on its handle.
    public func connection(id: Int) -> Connection? {
        if id >= 1 && id <= all.count { return all[id - 1] }
        guard id > all.count && id <= total else { return nil }
        if let c = open.values.first(where: { $0.id == id }) { return c }
        return lastOnHandle.values.first(where: { $0.id == id })
    }

    /// The open connection on `handle`, if any, without creating one.
    public func existing(_ handle: UInt16) -> Connection? { open[handle] }

    /// `existing(handle)` as an uncounted reference, for a caller that uses it only while it stays open: the
    /// tracker keeps every open connection, and only an HCI event closes one. Each counted reference handed out
    /// was retained and released, about 35 instructions an ACL packet.
    @inline(__always) func existingUnretained(_ handle: UInt16) -> Unmanaged<Connection>? { open.unretained(handle) }

    /// The most recent connection on `handle`, open or closed (events that arrive after a disconnect).
    public func latest(_ handle: UInt16) -> Connection? { open[handle] ?? lastOnHandle[handle] }

    /// `existing(handle)?.id` read in place: no reference handed out, so none retained and released.
    @inline(__always) public func existingID(_ handle: UInt16) -> Int? { open[handle]?.id }

    /// `latest(handle)?.id` read in place.
    @inline(__always) public func latestID(_ handle: UInt16) -> Int? {
        if let id = open[handle]?.id { return id }
        return lastOnHandle[handle]?.id
    }

    /// The last connection each handle carried; bounded by the 12-bit handle space.
    @exclusivity(unchecked) var lastOnHandle = HandleTable<Connection>()

    /// Handles whose ACL data showed they are no connection (`PseudoHandleVerdict.implausible`): their packets
    /// are vendor data until an event opens a connection on them.
    @exclusivity(unchecked) public internal(set) var vendorHandles = Set<UInt16>()
    /// The dynamic channel of the last whole frame each way on handles no event opened, and whether the frame
    /// before it was on the same one (`PseudoHandleVerdict`).
    @exclusivity(unchecked) var pseudoChannels: [UInt16: UInt32] = [:]

    /// Names from Remote Name Request Complete events, for connections opened after them (bounded).
    @exclusivity(unchecked) var names: [BDAddr: String] = [:]

    /// A Remote Name Request Complete: the name of the open connections to `address`, and of later ones.
    public func named(_ address: BDAddr, _ name: String) {
        if names.count < 10_000 || names[address] != nil { names[address] = name }
        for c in open.values where c.peer == address && c.closedRecord == nil { c.name = name }
    }

    /// A Synchronous Connection Complete: an SCO or eSCO link on its own handle, to a peer that has an ACL link.
    func synchronous(handle: UInt16, peer: BDAddr, linkType: UInt8, record: Int, at time: Timestamp) {
        apply(.opened(handle: handle, peer: peer, peerType: .public, role: 0xFF, interval: 0, latency: 0, timeout: 0, le: false),
              record: record, at: time)
        open[handle]?.linkType = linkType
    }

    /// A CIS established or a BIS of a BIG created or synchronised: an isochronous connection on its own
    /// handle, to the peer of the ACL it was created on (a CIS) or of the periodic advertising it was found
    /// through (a BIS), when known.
    func isochronous(handle: UInt16, link: ISOLink, peer: BDAddr?, peerType: AddressType?, role: UInt8?, record: Int, at time: Timestamp) {
        apply(.opened(handle: handle, peer: peer ?? BDAddr(0), peerType: peerType ?? .public, role: role ?? 0xFF, interval: 0, latency: 0,
                      timeout: 0, le: true), record: record, at: time)
        guard let c = open[handle] else { return }
        if peer == nil { c.peer = nil; c.peerType = nil }
        c.interval = nil; c.latency = nil; c.timeout = nil; c.opening = nil
        c.iso = link
    }

    /// An ISO data path set up on an isochronous connection (bit 0 input, bit 1 output).
    func dataPath(handle: UInt16, direction: UInt8, hci: Bool) {
        guard let c = open[handle], c.iso != nil, direction < 2 else { return }
        c.iso?.dataPaths |= 1 << direction
        if hci { c.iso?.hciPaths |= 1 << direction }
    }

    public func apply(_ change: ConnectionChange, record: Int, at time: Timestamp) {
        switch change {
        case let .opened(handle, peer, peerType, role, interval, latency, timeout, le):
            if let old = open[handle], old.closedRecord == nil, !old.implicit {
                // A new connection on a handle that never saw its disconnect: close the old one here.
                old.closedRecord = record
                old.closedAt = time
            }
            let c: Connection
            if let old = open[handle], old.implicit, old.openedRecord == nil, old.peer == nil {
                c = old // traffic seen before the completion event (rare ordering) belongs to this connection
            } else {
                c = make(handle: handle, implicit: false)
            }
            c.implicit = false
            c.transportKnown = true
            c.peer = peer
            c.peerType = peerType
            c.role = role == 0xFF ? nil : role
            c.le = le
            if !le { c.name = names[peer]; c.linkType = 1 }
            c.interval = le ? interval : nil
            c.latency = le ? latency : nil
            c.timeout = le ? timeout : nil
            c.opening = le ? (interval, latency, timeout) : nil
            c.openedRecord = record
            c.openedAt = time
            open[handle] = c
            vendorHandles.remove(handle)
        case let .closed(handle, reason):
            // A second Disconnection Complete for a handle already closed (some controllers repeat it) opens nothing.
            if open[handle] == nil, lastOnHandle[handle] != nil { return }
            let c = connection(for: handle)
            c.closedRecord = record
            c.closedAt = time
            c.disconnectReason = reason
            lastOnHandle[handle] = c
            open[handle] = nil
        case let .updated(handle, interval, latency, timeout):
            let c = connection(for: handle)
            // Only LE connections have their parameters updated this way.
            if !c.transportKnown { c.le = true; c.transportKnown = true }
            c.interval = interval
            c.latency = latency
            c.timeout = timeout
            c.updates.append((record, interval, latency, timeout))
        case let .encryption(handle, enabled):
            connection(for: handle).encrypted = enabled
        }
    }
}
