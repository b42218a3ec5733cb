/// Notes on `--ltk` keys the run could not use: a key for an address no connection of the capture has, or
/// keys given for a capture with no sniffed link (an HCI capture's host has its keys, and nothing to decrypt).
/// Keys from a keys file are not noted: such a file holds the keys of many devices.
extension KeyOptions {
    public func notes(after pipeline: Pipeline) -> [String] {
        let given = ltkByAddress.filter { $0.value.origin == .option }.keys.sorted { $0.value < $1.value }
        let anyGiven = anyLTK?.origin == .option
        guard anyGiven || !given.isEmpty else { return [] }
        let links = pipeline.linkLayerIfUsed?.linkOrder ?? []
        if links.isEmpty {
            return ["--ltk: the capture has no sniffed link layer, so there is nothing to decrypt (keys decrypt sniffer captures: pcap from nRF Sniffer, Sniffle, Ubertooth)"]
        }
        var present = Set<UInt64>()
        for l in links {
            if let a = l.central { present.insert(a.value) }
            if let a = l.peripheral { present.insert(a.value) }
        }
        for c in pipeline.connections.all { if let p = c.peer { present.insert(p.value) } }
        return given.filter { !present.contains($0.value) }.map {
            "--ltk \($0)=…: no connection with \($0) in the capture, so the key was not used"
        }
    }
}
