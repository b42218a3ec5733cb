/// The GATT context of ATT PDUs: one database per server (from discovery, or a `--gatt` file), and handle
/// lookups in it with a memo per connection.
extension ATTLayer {
    /// What `DescribeContext` found for handles of one server side of a connection. Direct-mapped: a handle's
    /// lookup sits at `handle % size` until a handle that maps there replaces it (a server's handles are mostly
    /// a short run, so most never meet), found without hashing. An entry is valid while its server's slot and
    /// the layer's `generation` are the ones it was made with; a new generation needs no clearing.
    struct LocateMemo {
        var entries: [Entry] = []
        static let size = 128
        struct Entry {
            /// 0x1_0000 for an empty entry (no 16-bit handle).
            var handle: UInt32 = 0x1_0000
            var slot = -1
            var generation = 0
            var ref: GATTLocationRef?
        }

        func find(_ h: UInt16, slot: Int, generation: Int) -> GATTLocationRef? {
            guard !entries.isEmpty else { return nil }
            let e = entries[Int(h) & (LocateMemo.size - 1)]
            return e.handle == UInt32(h) && e.slot == slot && e.generation == generation ? e.ref : nil
        }

        mutating func remember(_ h: UInt16, _ l: GATTLocationRef, slot: Int, generation: Int) {
            if entries.isEmpty { entries = Array(repeating: Entry(), count: LocateMemo.size) }
            entries[Int(h) & (LocateMemo.size - 1)] = Entry(handle: UInt32(h), slot: slot, generation: generation, ref: l)
        }
    }

    // MARK: Databases

    static func deviceKey(_ c: Connection) -> String { c.peerKey }

    /// The key of `c`'s peer, remembered in the connection's state (with the peer's database slot) while its peer
    /// stays the same.
    static func deviceKey(_ c: Connection, _ state: ConnState) -> DeviceKey {
        if let k = state.peerKey, state.keyPeer == c.peer { return k }
        let key = DeviceKey(c)
        state.peerKey = key
        state.keyPeer = c.peer
        state.peerSlot = nil
        return key
    }

    /// The slot of the database of the server the PDU is about, when it has one (none is made here).
    func knownSlot(_ key: DeviceKey, _ state: ConnState, peerIsServer: Bool) -> Int? {
        guard peerIsServer else { return localSlot }
        if let s = state.peerSlot { return s }
        guard let s = serverSlots[key] else { return nil }
        state.remember(slot: s)
        return s
    }

    /// `serverSlot`, made now if need be, and remembered in the connection's state when the peer is the server.
    func madeSlot(_ key: DeviceKey, _ state: ConnState, peerIsServer: Bool) -> Int? {
        let s = serverSlot(key)
        if peerIsServer, let s { state.remember(slot: s) }
        return s
    }

    /// The database of `key`, when the capture has one for it.
    public func database(stored key: String) -> GATTDatabase? {
        DeviceKey(key).flatMap { serverSlots[$0] }.map { servers[$0] }
    }

    /// The databases by server key.
    public var databases: [String: GATTDatabase] {
        var out: [String: GATTDatabase] = [:]
        for (i, key) in serverKeys.enumerated() { out[key] = servers[i] }
        return out
    }

    /// The servers' keys, in order of first use.
    public var databaseOrder: [String] { serverKeys }

    /// `connState(id)` as an uncounted reference, for `decodeATT`: `conns` keeps the state until the connection
    /// closes, which only an HCI event does (`closeConnection`), never the ATT PDU being decoded.
    @inline(__always) func connStateUnretained(_ id: Int) -> Unmanaged<ConnState> {
        if let l = lastState, l.id == id { return Unmanaged.passUnretained(l.state) }
        return Unmanaged.passUnretained(connState(id))
    }

    func connState(_ id: Int) -> ConnState {
        if let l = lastState, l.id == id { return l.state }
        let s: ConnState
        if let known = conns[id] {
            s = known
        } else {
            s = spareStates.popLast() ?? ConnState()
            conns[id] = s
        }
        lastState = (id, s)
        return s
    }

    /// The slot of `key`'s database, made (from a `--gatt` file when one matches) on first use; nil past
    /// `maxDatabases`.
    func serverSlot(_ key: DeviceKey) -> Int? {
        if let s = serverSlots[key] { return s }
        guard servers.count < ATTLayer.maxDatabases else { return nil }
        let name = key.description
        var db = GATTDatabase(device: name)
        if let l = loaded?.databases[name] {
            db.merge(l)
            db.source = l.source
        }
        let s = servers.count
        servers.append(db)
        serverKeys.append(name)
        valueLengths.append([:])
        serverSlots[key] = s
        if key.isLocal { localSlot = s }
        generation += 1
        return s
    }

    /// `fallback` of the key's text, made only when a `--gatt` file was loaded.
    func fallback(_ key: DeviceKey) -> String? {
        loaded == nil ? nil : fallback(key.description)
    }

    /// The key into `fallbacks` for a server without discovery: a loaded database of the same device, or
    /// the only one the file holds (a peer that changed its random address).
    func fallback(_ key: String) -> String? {
        guard let l = loaded?.database(for: key) else { return nil }
        if fallbacks[l.device] == nil {
            fallbacks[l.device] = l
            generation += 1
        }
        return l.device
    }

    /// What one PDU's handle lookups need: the server, its slot, and the memo of its connection's side, lent by
    /// the connection's state for the PDU (`borrowContext`) and given back after it (`giveBack`). It holds no
    /// reference: the layer and the state are the caller's.
    struct DescribeContext {
        let serverKey: DeviceKey
        /// The server's database slot, once it has one.
        var slot: Int?
        let peerIsServer: Bool
        /// The connection's ATT_MTU when the PDU arrived.
        let mtu: Int
        var memo: LocateMemo
    }

    /// The context of a PDU about `serverKey`'s database, with the connection's memo for that side moved in.
    func borrowContext(_ serverKey: DeviceKey, slot: Int?, _ state: ConnState, peerIsServer: Bool) -> DescribeContext {
        let memo = peerIsServer ? moveOut(&state.peerLocated, leaving: LocateMemo())
            : moveOut(&state.localLocated, leaving: LocateMemo())
        return DescribeContext(serverKey: serverKey, slot: slot, peerIsServer: peerIsServer, mtu: state.mtu, memo: memo)
    }

    /// Puts the memo back into the connection's state, and the slot a lookup made for the peer.
    func giveBack(_ ctx: inout DescribeContext, _ state: ConnState) {
        let memo = moveOut(&ctx.memo, leaving: LocateMemo())
        if ctx.peerIsServer {
            state.peerLocated = memo
            if let s = ctx.slot { state.remember(slot: s) }
        } else {
            state.localLocated = memo
        }
    }

    func locate(_ h: UInt16, _ ctx: inout DescribeContext) -> GATTLocation { locateRef(h, &ctx).location }

    /// `locate`, as the database's shared entry (what an event keeps).
    func locateRef(_ h: UInt16, _ ctx: inout DescribeContext) -> GATTLocationRef {
        if let slot = ctx.slot, let l = ctx.memo.find(h, slot: slot, generation: generation) { return l }
        let loc = lookUp(h, &ctx)
        if let slot = ctx.slot { ctx.memo.remember(h, loc, slot: slot, generation: generation) }
        return loc
    }

    func lookUp(_ h: UInt16, _ ctx: inout DescribeContext) -> GATTLocationRef {
        if ctx.slot == nil { ctx.slot = serverSlot(ctx.serverKey) }
        guard let s = ctx.slot else { return .unknown }
        if servers[s].isEmpty, let fallback = fallback(ctx.serverKey), fallbacks[fallback] != nil {
            return fallbacks[fallback]!.locateRef(h)
        }
        return servers[s].locateRef(h)
    }
}
