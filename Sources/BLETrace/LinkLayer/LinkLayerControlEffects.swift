extension LinkLayerDecoder {
    /// What an LL control PDU does to the link and its connection: parameters, termination, encryption.
    func control(_ effect: LLControl.Effect, _ l: Link, _ r: Record) {
        switch effect {
        case let .update(interval, latency, timeout, _):
            l.interval = interval; l.latency = latency; l.timeout = timeout
            if let h = l.handle, l.connection?.closedRecord == nil {
                apply(.updated(handle: h, interval: interval, latency: latency, timeout: timeout), r)
            }
        case let .terminate(reason):
            guard l.terminatedRecord == nil else { return }
            l.terminatedRecord = r.number
            l.terminateReason = reason
            if let h = l.handle, let c = l.connection, c.closedRecord == nil {
                apply(.closed(handle: h, reason: reason), r)
            }
        case .encryptionRequest:
            break
        case .encryptionResponse:
            l.encryptionPending = true
        case .startEncryption:
            l.encryptionPending = false
            l.encrypted = true
            l.encryptionRecord = r.number
            if let h = l.handle, l.connection?.closedRecord == nil { apply(.encryption(handle: h, enabled: true), r) }
        case .reject:
            l.encryptionPending = false
        }
    }

    // MARK: End

    func finish() -> [String] {
        reassembler.unfinished.map { u in
            let aa = linkOrder.first(where: { $0.handle == u.handle }).map { Hex.hex($0.accessAddress, width: 8) } ?? "?"
            return "L2CAP frame on access address \(aa) started at record \(u.firstRecord) never completed (\(u.have) of \(u.expected) bytes)"
        }
    }
}
