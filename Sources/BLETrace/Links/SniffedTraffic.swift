/// Sniffer captures: a link's data PDUs counted as its ACL packets would be on the host's side. The central's
/// are `tx`, the peripheral's `rx`; a PDU "completes" when the other side acknowledges it (its NESN moves past
/// the PDU's SN), and its latency runs from the PDU's first transmission to that acknowledgement, so
/// retransmissions show as latency. No controller buffers: the sniffer does not see them.
extension LinkStatistics {
    func sniffed(_ e: TraceEvent, payload n: Int) {
        guard let id = e.connection, let handle = e.handle, let i = index(id, handle: handle) else { return }
        links[i].sniffed = true
        _ = links[i].packet(n, frame: LinkStatistics.frame(e), tx: e.direction == .hostToController, at: e.timestamp)
    }

    /// The other side acknowledged a data PDU of the central (`fromCentral`) or the peripheral `waited` µs
    /// after its first transmission. Only the central's count as completed (the host's side of an HCI link).
    func acknowledged(_ id: Int, handle: UInt16, fromCentral: Bool, after waited: Int64) {
        guard fromCentral, let i = existingIndex(id) else { return }
        links[i].completed += 1
        links[i].latency.add(waited)
    }
}

extension LinkStatistics {
    /// The sniffer's state of a sniffed link (its events, channels and limits).
    func sniffedLink(_ l: Link) -> LinkLayerDecoder.Link? {
        pipeline?.linkLayerIfUsed?.linkOrder.first { $0.connection?.id == l.connection }
    }
}
