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

    static func deviceKey(_ c: Connection) -> String { c.peer?.description ?? c.peerKey }

    /// `deviceKey`, remembered in the connection's state while its peer stays the same.
    static func deviceKey(_ c: Connection, _ state: ConnState) -> String {
        if let k = state.peerKey, k.peer == c.peer { return k.key }
        let key = deviceKey(c)
        state.peerKey = (c.peer, key, nil)
        return key
    }

    /// The slot of the database of the server the PDU is about, when it has one (none is made here).
    func knownSlot(_ key: String, _ state: ConnState, peerIsServer: Bool) -> Int? {
        guard peerIsServer else { return localSlot }
        if let s = state.peerKey?.slot { return s }
        guard let s = serverSlots[key] else { return nil }
        state.peerKey?.slot = s
        return s
    }

    /// `serverSlot`, made now if need be, and remembered in the connection's state when the peer is the server.
    func madeSlot(_ key: String, _ state: ConnState, peerIsServer: Bool) -> Int? {
        let s = serverSlot(key)
        if peerIsServer, let s { state.peerKey?.slot = s }
        return s
    }

    /// The database of `key`, when the capture has one for it.
    public func database(stored key: String) -> GATTDatabase? {
        serverSlots[key].map { servers[$0] }
    }

    /// The databases by server key.
    public var databases: [String: GATTDatabase] {
        var out: [String: GATTDatabase] = [:]
        for (i, key) in serverKeys.enumerated() { out[key] = servers[i] }
        return out
    }

    /// The servers' keys, in order of first use.
    public var databaseOrder: [String] { serverKeys }

    func connState(_ id: Int) -> ConnState {
        if let l = lastState, l.id == id { return l.state }
        let s: ConnState
        if let known = conns[id] {
            s = known
        } else {
            s = ConnState()
            conns[id] = s
        }
        lastState = (id, s)
        return s
    }

    /// The slot of `key`'s database, made (from a `--gatt` file when one matches) on first use; nil past
    /// `maxDatabases`.
    func serverSlot(_ key: String) -> Int? {
        if let s = serverSlots[key] { return s }
        guard servers.count < ATTLayer.maxDatabases else { return nil }
        var db = GATTDatabase(device: key)
        if let l = loaded?.databases[key] {
            db.merge(l)
            db.source = l.source
        }
        let s = servers.count
        servers.append(db)
        serverKeys.append(key)
        valueLengths.append([:])
        serverSlots[key] = s
        if key == "local" { localSlot = s }
        generation += 1
        return s
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

    /// Looks handles up in one server's database, keeping the memo in the connection's state.
    struct DescribeContext {
        let layer: ATTLayer
        let serverKey: String
        /// The server's database slot, once it has one.
        var slot: Int?
        /// The connection's state and server side, which keep the memo of lookups.
        let state: ConnState
        let peerIsServer: Bool

        func memo(_ h: UInt16) -> GATTLocationRef? {
            guard let slot else { return nil }
            return peerIsServer ? state.peerLocated.find(h, slot: slot, generation: layer.generation)
                : state.localLocated.find(h, slot: slot, generation: layer.generation)
        }

        func remember(_ h: UInt16, _ l: GATTLocationRef) {
            guard let slot else { return }
            if peerIsServer {
                state.peerLocated.remember(h, l, slot: slot, generation: layer.generation)
            } else {
                state.localLocated.remember(h, l, slot: slot, generation: layer.generation)
            }
        }

        mutating func locate(_ h: UInt16) -> GATTLocation { locateRef(h).location }

        /// `locate`, as the database's shared entry (what an event keeps).
        mutating func locateRef(_ h: UInt16) -> GATTLocationRef {
            if let l = memo(h) { return l }
            let loc = lookUp(h)
            remember(h, loc)
            return loc
        }

        mutating func lookUp(_ h: UInt16) -> GATTLocationRef {
            if slot == nil { slot = layer.madeSlot(serverKey, state, peerIsServer: peerIsServer) }
            guard let s = slot else { return .unknown }
            if layer.servers[s].isEmpty, let fallback = layer.fallback(serverKey), layer.fallbacks[fallback] != nil {
                return layer.fallbacks[fallback]!.locateRef(h)
            }
            return layer.servers[s].locateRef(h)
        }
    }
}
