/// The names the summary puts after a peer's address, from the typed state of the layers that learn them.
enum PeerNames {
    /// Each GATT server's Device Name (identity cards), then the first name each device advertised, which wins.
    /// `only`: the peers wanted (nil: every one); the others' addresses are not even spelled.
    static func make(identity: IdentityLayer?, inventory: DeviceInventory?, only: Set<BDAddr>? = nil) -> [String: String] {
        var names: [String: String] = [:]
        let spelled = only.map { Set($0.map(\.description)) }
        for card in identity?.allCards ?? [] {
            if let spelled, !spelled.contains(card.device) { continue }
            if let n = card.string("device_name"), !n.isEmpty { names[card.device] = n }
        }
        for d in inventory?.devices ?? [] {
            if let only, !only.contains(d.address) { continue }
            if let first = d.names.first, !first.isEmpty { names[d.address.description] = first }
        }
        return names
    }
}
