/// The names the summary puts after a peer's address, from the typed state of the layers that learn them.
enum PeerNames {
    /// Each GATT server's Device Name (identity cards), then the first name each device advertised, which wins.
    static func make(identity: IdentityLayer?, inventory: DeviceInventory?) -> [String: String] {
        var names: [String: String] = [:]
        for card in identity?.allCards ?? [] {
            if let n = card.string("device_name"), !n.isEmpty { names[card.device] = n }
        }
        for d in inventory?.devices ?? [] {
            if let first = d.names.first, !first.isEmpty { names[d.address.description] = first }
        }
        return names
    }
}
