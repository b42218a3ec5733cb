/// Resolvable private addresses resolved with IRKs (Core Vol 3 Part C 10.8.2.3, Part H 2.2.2): the user's
/// (`--keys`), those a capture distributed in SMP Identity Information (with the Identity Address Information
/// that follows), and those a sniffed link distributed while bletrace decrypted it. Addresses that resolve to the
/// same identity are one device.
struct IdentityKeys {
    struct Entry {
        var irk: [UInt8]
        var identity: BDAddr?
        var identityType: AddressType?
    }
    var entries: [Entry] = []
    /// IRKs waiting for their Identity Address Information, per pairing side.
    var pending: [PairingSide: Int] = [:]
    static let max = 256

    /// Takes a key distribution PDU of an SMP event.
    mutating func take(_ pdu: SMPPDU, from side: PairingSide?) {
        switch pdu {
        case let .identityInformation(irk):
            guard entries.count < IdentityKeys.max, irk.contains(where: { $0 != 0 }) else { return }
            entries.append(Entry(irk: LEBytes.value(irk), identity: nil, identityType: nil))
            if let s = side { pending[s] = entries.count - 1 }
        case let .identityAddressInformation(type, address):
            guard let s = side, let i = pending[s] else { return }
            entries[i].identity = address
            entries[i].identityType = type == 0 ? .public : AddressType.randomKind(address)
            pending[s] = nil
        default:
            break
        }
    }

    /// The entry whose IRK resolves `address`, if any.
    func resolve(_ address: BDAddr) -> Entry? {
        entries.first { PrivacyFunctions.resolves(address.value, irk: $0.irk) }
    }
}

extension DeviceInventory {
    /// Every IRK known at the end of the capture.
    func identityKeys() -> IdentityKeys {
        var keys = smpIdentities
        for (a, e) in options.irkByAddress.sorted(by: { $0.key < $1.key }) where keys.entries.count < IdentityKeys.max {
            keys.entries.append(IdentityKeys.Entry(irk: e.key, identity: a, identityType: .public))
        }
        for r in ringIRKs() where keys.entries.count < IdentityKeys.max {
            keys.entries.append(IdentityKeys.Entry(irk: r.irk, identity: r.identity, identityType: r.identity.map { _ in .public }))
        }
        return keys
    }

    /// Folds devices seen under resolvable private addresses into their identity: one entry, at the place the
    /// identity or one of its addresses first appeared, under the identity address when known (else the first
    /// address that resolved).
    static func resolvePrivateAddresses(_ list: [Device], _ keys: IdentityKeys) -> [Device] {
        guard !keys.entries.isEmpty else { return list }
        var out: [Device] = []
        out.reserveCapacity(list.count)
        var position: [Key: Int] = [:]
        position.reserveCapacity(list.count)
        var firstResolved: [Int: Key] = [:]
        for d in list {
            var key = Key(address: d.address, addressType: d.addressType)
            var resolved = false
            if d.addressType == .resolvablePrivate,
               let k = keys.entries.firstIndex(where: { PrivacyFunctions.resolves(d.address.value, irk: $0.irk) }) {
                resolved = true
                if let id = keys.entries[k].identity {
                    key = Key(address: id, addressType: keys.entries[k].identityType ?? .public)
                } else {
                    key = firstResolved[k] ?? key
                    firstResolved[k] = key
                }
            }
            if let j = position[key] {
                out[j].absorb(d, resolved: resolved)
            } else {
                var n = d
                if resolved {
                    n.resolvedFrom = [d.address]
                    n.address = key.address
                    n.addressType = key.addressType
                }
                position[key] = out.count
                out.append(n)
            }
        }
        return out
    }
}

extension DeviceInventory.Device {
    /// Takes what another entry (the same device under a resolvable private address) saw.
    mutating func absorb(_ o: DeviceInventory.Device, resolved: Bool) {
        if resolved && !resolvedFrom.contains(o.address) { resolvedFrom.append(o.address) }
        reports += o.reports
        scanResponses += o.scanResponses
        if let a = o.firstRecord, firstRecord.map({ a < $0 }) ?? true { firstRecord = a; firstSeen = o.firstSeen }
        if let b = o.lastRecord, lastRecord.map({ b > $0 }) ?? true { lastRecord = b; lastSeen = o.lastSeen }
        if let lo = o.rssiMin { rssiMin = Swift.min(rssiMin ?? lo, lo) }
        if let hi = o.rssiMax { rssiMax = Swift.max(rssiMax ?? hi, hi) }
        rssiSum += o.rssiSum
        rssiCount += o.rssiCount
        for n in o.nameBytes where !nameBytes.contains(n) {
            if nameBytes.count < DeviceInventory.maxNames { nameBytes.append(n) } else { capped = true }
        }
        for u in o.services where !services.contains(u) { services.append(u) }
        for u in o.solicited where !solicited.contains(u) { solicited.append(u) }
        for c in o.companies where !companies.contains(c) { companies.append(c) }
        for t in o.txPowers { addTx(t) }
        for b in o.beacons { addBeacon(b) }
        if appearance == nil { appearance = o.appearance }
        if o.telemetry != nil { telemetry = o.telemetry }
        connectable = connectable || o.connectable
        wantsANCS = wantsANCS || o.wantsANCS
        capped = capped || o.capped
    }
}
