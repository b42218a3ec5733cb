/// `link_lost` seen by a sniffer (no HCI event says it): on a link that was not terminated, the peripheral's
/// packets stopped while the central kept transmitting for the whole supervision timeout, and the capture went
/// on past it. The central polls a silent peripheral until the timeout, so this is how a supervision timeout
/// looks from the air; a sniffer that lost the link instead sees both sides stop at once, and a central that
/// stopped polling sooner (an attacker's own dongle, a central that left the link unseen) proves no timeout.
/// The peripheral's longest silence before the loss tells how much margin the link had had.
final class SniffedLinkLossRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [] }

    override func finish(_ ctx: DiagnosisContext) {
        guard let ll = ctx.pipeline?.linkLayerIfUsed, let end = ctx.lastTime else { return }
        for l in ll.linkOrder where l.terminatedRecord == nil {
            guard let timeout = l.timeout, timeout > 0, let c = l.connection, c.closedRecord == nil,
                  let central = l.events.lastGood[0], let peripheral = l.events.lastGood[1] else { continue }
            let limit = Int64(timeout) * 10_000
            let (polled, o1) = central.subtractingReportingOverflow(peripheral)
            let (after, o2) = end.subtractingReportingOverflow(peripheral)
            guard !o1, !o2, polled >= limit, after >= limit else { continue }
            var f = DiagnosisFacts()
            f.interval = l.interval
            f.timeout = timeout
            f.micros = polled
            f.longestSilenceMicros = l.events.longestSilence[1]
            ctx.raise(Diagnosis(id: .linkLost, facts: f, peer: l.peripheral, connection: c.id,
                                evidence: [l.events.lastGoodRecord[1], l.events.lastGoodRecord[0]]))
        }
    }
}
