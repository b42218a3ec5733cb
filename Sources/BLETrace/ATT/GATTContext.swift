/// The GATT context of ATT PDUs: one database per server (from discovery, or a `--gatt` file), and handle
/// lookups in it with a memo per connection.
extension ATTLayer {
    /// What `DescribeContext` found for handles of one server. Valid while the server key and `generation`
    /// are unchanged.
    struct LocateMemo {
        var key: String
        var generation: Int
        var map: [UInt16: GATTLocationRef] = [:]
    }

    // MARK: Databases

    static func deviceKey(_ c: Connection) -> String { c.peer?.description ?? c.peerKey }

    /// `deviceKey`, remembered in the connection's state while its peer stays the same.
    static func deviceKey(_ c: Connection, _ state: ConnState) -> String {
        if let k = state.peerKey, k.peer == c.peer { return k.key }
        let key = deviceKey(c)
        state.peerKey = (c.peer, key)
        return key
    }

    func connState(_ id: Int) -> ConnState {
        if let s = conns[id] { return s }
        let s = ConnState()
        conns[id] = s
        return s
    }

    /// The database of `key`, created (from a `--gatt` file when one matches) on first use.
    func database(_ key: String) -> GATTDatabase {
        if let d = databases[key] { return d }
        var db = GATTDatabase(device: key)
        if let l = loaded?.databases[key] {
            db.merge(l)
            db.source = l.source
        }
        if databases.count < ATTLayer.maxDatabases {
            databases[key] = db
            databaseOrder.append(key)
            generation += 1
        }
        return db
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
        unowned let layer: ATTLayer
        let serverKey: String
        /// The connection's state and server side, which keep the memo of lookups.
        unowned let state: ConnState
        let side: Int

        func memo(_ h: UInt16) -> GATTLocationRef? {
            guard let m = state.located[side], m.generation == layer.generation, m.key == serverKey else { return nil }
            return m.map[h]
        }

        mutating func remember(_ h: UInt16, _ l: GATTLocationRef) {
            if let m = state.located[side], m.generation == layer.generation, m.key == serverKey {
                if m.map.count >= 4096 && m.map[h] == nil { return }
            } else {
                state.located[side] = LocateMemo(key: serverKey, generation: layer.generation)
            }
            state.located[side]!.map[h] = l
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
            if layer.databases[serverKey] == nil { _ = layer.database(serverKey) }
            guard layer.databases[serverKey] != nil else { return .unknown }
            if layer.databases[serverKey]!.isEmpty, let fallback = layer.fallback(serverKey) {
                return layer.fallbacks[fallback]!.locateRef(h)
            }
            return layer.databases[serverKey]!.locateRef(h)
        }
    }
}
