extension LinkLayerDecoder {
    /// What an LL control PDU does to the link and its connection: parameters, termination, encryption.
    /// `counter`: the connection event the PDU was sent in, where known. Returns why an update was not applied.
    @discardableResult
    func control(_ effect: LLControl.Effect, _ l: Link, _ r: Record, counter: Int? = nil) -> LLControlPDU.NotApplied? {
        switch effect {
        case let .update(interval, latency, timeout, instant, offset):
            // Impossible values change nothing (Core 5.4 Vol 6 Part B 4.5.1: interval 7.5 ms–4 s, a timeout).
            guard interval > 0, timeout > 0 else { return .impossibleValues }
            guard let now = counter else {
                updateParameters(interval, latency, timeout, l, r) // no event count to wait for: take it as sent
                return nil
            }
            // The update takes effect at its instant; one already past (or this very event) cannot.
            guard LinkLayerDecoder.instantAhead(instant, now: now) else { return .instantPassed }
            l.pendingUpdate = (interval, latency, timeout, instant, offset)
        case let .terminate(reason):
            guard l.terminatedRecord == nil else { return nil }
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
        return nil
    }

    /// Whether `instant` is still to come at connection event `now` (16-bit event counters, Vol 6 Part B 5.5.1):
    /// the event the PDU came in, or one already past, cannot be its instant.
    static func instantAhead(_ instant: Int, now: Int) -> Bool {
        let ahead = (instant &- now) & 0xFFFF
        return ahead != 0 && ahead < 0x8000
    }

    /// New connection parameters in force from record `r` on.
    func updateParameters(_ interval: Int, _ latency: Int, _ timeout: Int, _ l: Link, _ r: Record) {
        l.interval = interval; l.latency = latency; l.timeout = timeout
        if let h = l.handle, l.connection?.closedRecord == nil {
            apply(.updated(handle: h, interval: interval, latency: latency, timeout: timeout), r)
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
