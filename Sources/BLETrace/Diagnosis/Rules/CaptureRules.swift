/// Capture rules: what the file itself cannot show. Damage, filtered records and time going backwards or
/// jumping are noted by the engine as records pass; this rule adds what is known only at the end.

/// `capture_incomplete`: connections already open when the capture began, and packets a sniffer lost (bad
/// CRCs, L2CAP frames never completed).
final class CaptureLimitsRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [] }

    override func finish(_ ctx: DiagnosisContext) {
        guard let p = ctx.pipeline else { return }
        // Real connections only: a handle with an unknown transport is a vendor's, not a link.
        let open = p.connections.all.filter { $0.implicit && $0.transportKnown }
        if let first = open.first {
            ctx.raise(Diagnosis(id: .captureIncomplete, facts: DiagnosisFacts(problem: .alreadyOpen(connections: open.count)),
                                connection: first.id, evidence: open.prefix(Diagnosis.maxEvidence).compactMap { ctx.firstRecord($0.id) }))
        }
        if let ll = p.linkLayerIfUsed {
            let unfinished = p.l2cap.unfinished.count
            let bad = ll.stats.crcBad
            if bad > 0 || unfinished > 0 {
                ctx.raise(Diagnosis(id: .captureIncomplete, facts: DiagnosisFacts(problem: .snifferLoss(badCRC: bad, unfinishedFrames: unfinished)),
                                    evidence: Array(ll.stats.crcBadRecords.prefix(Diagnosis.maxEvidence))))
            }
        }
    }
}
