/// Values a server sent before discovery made their handles known (a Service Changed indication or a battery
/// notification right after connecting): kept, bounded, and decoded once the database names their handles, so
/// that the summary's consumers (battery history, identity, …) and the `att` section have them, with their
/// own records.
struct EarlyValue {
    var handle: UInt16
    var value: [UInt8]
    var site: ATTLayer.ValueSite
    /// The site's dissector state, counted here: a site does not count it (it lives within one `decodeATT` call),
    /// and an early value outlives the call (its connection may close, and its state go, before discovery).
    let state: DissectorState

    init(handle: UInt16, value: [UInt8], site: ATTLayer.ValueSite) {
        self.handle = handle
        self.value = value
        self.site = site
        state = site.state
    }
}

/// A value named after the fact: where it was, what discovery later said the handle is, and its decoding.
public struct EarlyValueNamed: Sendable {
    public var record: Int
    public var connection: Int
    public var device: String
    public var handle: UInt16
    public var opcode: UInt8
    public var location: GATTLocation
    public var decoded: Dissection?
    /// The value's bytes (up to 512).
    public var value: [UInt8]
}

extension ATTLayer {
    /// Early values kept per server, and named values kept for the summary.
    static let maxEarly = 64

    /// A value a dissector could not take because its handle is not known yet: read responses, notifications
    /// and indications from the server.
    func rememberEarly(_ v: ArraySlice<UInt8>, handle: UInt16, location loc: GATTLocation, site: ValueSite) {
        guard handle != 0, loc.characteristic == nil, loc.descriptor == nil, !site.fromClient,
              site.opcode == 0x0B || site.opcode == 0x1B || site.opcode == 0x1D else { return }
        guard early.count < ATTLayer.maxDatabases || early[site.device] != nil else { return }
        guard (early[site.device]?.count ?? 0) < ATTLayer.maxEarly else { return }
        early[site.device, default: []].append(EarlyValue(handle: handle, value: Array(v.prefix(512)), site: site))
    }

    /// Discovery added to `key`'s database: decodes the early values whose handles it now names, in their order.
    func resolveEarly(_ key: DeviceKey) {
        guard let list = early[key], let slot = serverSlots[key] else { return }
        var left: [EarlyValue] = []
        for ev in list {
            let loc = servers[slot].locateRef(ev.handle).location
            guard (loc.role == .value && loc.characteristic?.uuid != nil) || (loc.role == .descriptor && loc.descriptor?.uuid != nil) else {
                left.append(ev)
                continue
            }
            let d = dissectValue(ev.value[...], location: loc, handle: ev.handle, site: ev.site)
            earlyNamedCount += 1
            if earlyNamed.count < ATTLayer.maxEarly {
                earlyNamed.append(EarlyValueNamed(record: ev.site.record, connection: ev.site.connection, device: key.description, handle: ev.handle,
                                                  opcode: ev.site.opcode, location: loc, decoded: d, value: ev.value))
            }
        }
        early[key] = left.isEmpty ? nil : left
    }

    /// The `att` section's `early_values`.
    var earlyValueFields: FieldValue {
        .list(earlyNamed.map { n in
            var f = Fields()
            f.add("record", n.record)
            f.add("connection", n.connection)
            f.add("device", n.device)
            f.add("handle", Int(n.handle))
            f.add("opcode_name", ATTNames.opcode(n.opcode))
            if let c = n.location.characteristic?.uuid { f.add("characteristic", c.description) }
            if let c = n.location.characteristic?.uuid, let name = GATTNaming.name(c, kind: AssignedNumbers.characteristicName) {
                f.add("characteristic_name", name)
            }
            f.add("value", .hex(n.value))
            if let d = n.decoded { f.add("decoded", .object(d.jsonFields)) }
            return .object(f)
        })
    }

    /// "    before discovery: record 4 Handle Value Indication handle 0x000A Service Changed (Generic Attribute): …".
    var earlyValueText: [String] {
        guard earlyNamedCount > 0 else { return [] }
        var out = ["    \(earlyNamedCount) value\(earlyNamedCount == 1 ? "" : "s") sent before discovery, named once it was known:"]
        for n in earlyNamed.prefix(10) {
            let handle = TextBytes.string { GATTContextRender.writeHandle(n.handle, n.location, into: &$0) }
            let value = n.decoded.map { $0.text.isEmpty ? Hex.spaced(n.value, limit: 20) : $0.text } ?? Hex.spaced(n.value, limit: 20)
            out.append("      record \(n.record) \(ATTNames.opcode(n.opcode)) \(handle): \(value)")
        }
        if earlyNamed.count > 10 || earlyNamedCount > earlyNamed.count {
            out.append("      … \(earlyNamedCount - min(10, earlyNamed.count)) more in the JSON summary (att.early_values)")
        }
        return out
    }
}
